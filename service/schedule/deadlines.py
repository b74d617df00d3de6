"""Deadlines of running games: the policy, reminders, missed deadlines, abandoned seats.

The policy (``DeadlinePolicy``, defined in ``service.store.policy`` and re-exported here) is
stored on each game as JSON; "" means the configured defaults (``Settings.turn_hours``,
``reminder_hours``, ``grace_hours``, ``weekend_pause``, ``on_miss``).

Public API for the admin CLI and leagues (each works in the caller's transaction; commit
after the call, and retry on ``StaleGame`` where a game's state is written):

- ``DeadlinePolicy.parse("hours=48 reminders=24,2 grace=12 weekend=on miss=wait", base)``,
  ``policy_of(game, settings)``, ``DeadlinePolicy.to_json()`` / ``from_json``.
- ``set_policy(session, ctx, game, policy)`` — store it; the running decision's deadline is
  recomputed from when it opened under the new time per decision.
- ``extend(session, ctx, game, delta, notify=True)`` — move the current deadline (reminders
  re-arm; the players who must act are mailed the new one, ``tell_new_deadline``).
- ``pause(session, ctx, game)`` / ``resume(session, ctx, game)`` — stop the clock (no
  deadline, no reminders, no misses) and start it again with the time that was left.
- ``stalled(session, ctx)`` — running games that need the operator, with the reasons
  (overdue, paused, abandoned/open seats, unreachable or absent players, misses).
- ``due_reminders`` / ``send_reminders`` and ``act_on_missed(session, ctx, game_id)`` — what
  ``schedule.runtime.Service.sweep`` runs.

How time passes for one decision (all from the database, so a restart forgets nothing):

1. ``hours`` after the decision opened (weekends skipped with ``weekend_pause``; an absent
   player's time starts when the absence ends) is the **deadline**, shown in every mail to a
   player who must act, in their zone and language.
2. Reminders ``reminders`` hours before it. A player gets ONE reminder mail per sweep that
   merges every game where a reminder is due or they are late; "you are late" reminders
   (past the deadline, in grace or under ``wait``) reach a player at most once per
   ``late_reminder_hours`` (a day).
3. After ``deadline + grace_hours`` the deadline is **missed**: the seat's ``misses`` grows by
   one (a move of the player's own resets it), everyone is told, and ``on_miss`` acts:
   ``wait`` plays nothing, tells the operator and starts a fresh period (so a vanished
   player is abandoned after K periods, never stalls a game forever); ``default`` plays the engine's
   ``default_action``; ``skip`` plays the engine's pass where its menu has one (``pass`` /
   ``skip``) and else the default. The late player's mail names the move played for them; the
   others see "X missed the deadline" plus the move's own (visibility-filtered) events, so a
   secret choice stays secret.
4. After ``Settings.abandon_after_misses`` misses in a row the seat is **abandoned**: kept by a
   bot from then on (``GameSeat.bot``: played at once, no mails), offered to a substitute
   (``GameSeat.open``; any known player may write ``takeover GAME``), stamped
   ``GameSeat.abandoned_at`` for ``pbem admin stalled``, and the operator gets a mail.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from engines.contract import Action, Engine, Event, tr
from service.context import AppContext
from service.outbound.notify import mail_to_seat, queue_game_mails
from service.outbound.outbox import queue_mail
from service.outbound.render import SERVICE_TAG, format_deadline, subject_tag
from service.play.seats import notify_seats, play_bot_seats, tell_operator
from service.store.games import load, log_move, save_state, seats_of
from service.store.models import Game, GameSeat, Player
from service.store.policy import DeadlinePolicy, PolicyError, deadline_after, miss_time, policy_of

__all__ = ["DeadlinePolicy", "PolicyError", "Stalled", "act_on_missed", "due_reminders", "extend", "pause",
           "policy_of", "resume", "send_reminders", "set_policy", "stalled", "tell_new_deadline"]

#: Menu commands that mean "pass my turn" (an engine whose menu has one allows ``skip``).
PASS_COMMANDS = ("pass", "skip")


# -- changing a game's clock ----------------------------------------------------------


def set_policy(session: Session, ctx: AppContext, game: Game, policy: DeadlinePolicy) -> None:
    """Store ``policy`` on ``game``; a running decision's deadline becomes "opened + the new
    time" (never earlier than now, so a shorter time cannot make a decision missed at once)."""
    game.policy = policy.to_json()
    if game.status == "active" and game.deadline is not None and not game.paused:
        opened = game.turn_started_at or game.updated_at
        game.deadline = max(deadline_after(opened, policy.hours, policy.weekend_pause), ctx.clock.now())
    session.add(game)


def extend(session: Session, ctx: AppContext, game: Game, delta: timedelta, *, notify: bool = True) -> datetime:
    """Move the current deadline by ``delta`` (negative shortens, not before now); returns it.

    With ``notify`` the players who must act get a mail with the new deadline (and, with
    ``calendar on``, the updated event). Reminders re-arm by themselves: a reminder point
    later than the last reminder is due again.
    """
    if game.status != "active":
        raise ValueError(f"game {game.id} is not running")
    if game.paused:
        game.paused_left = max((game.paused_left or 0) + delta.total_seconds(), 0)
        session.add(game)
        return ctx.clock.now() + timedelta(seconds=game.paused_left)
    base = game.deadline or ctx.clock.now()
    game.deadline = max(base + delta, ctx.clock.now())
    session.add(game)
    if notify:
        tell_new_deadline(session, ctx, game)
    return game.deadline


def tell_new_deadline(session: Session, ctx: AppContext, game: Game) -> None:
    """A mail to each player who must act: the deadline moved (in their zone and language)."""
    deadline = game.deadline
    if deadline is None:
        return

    def title(lang: str, tz: str) -> str:
        when = format_deadline(deadline, tz, lang)
        return tr("The deadline moved: {when}", when=when).get(lang)

    notify_seats(session, ctx, game, title, only_to_act=True)


def pause(session: Session, ctx: AppContext, game: Game) -> None:
    """Stop the game's clock: no deadline, reminders or misses until ``resume``; the time left
    is kept. Moves are still accepted (each keeps the game paused)."""
    if game.paused or game.status != "active":
        return
    now = ctx.clock.now()
    game.paused_left = max((game.deadline - now).total_seconds(), 0) if game.deadline else None
    game.paused, game.deadline = True, None
    session.add(game)


def resume(session: Session, ctx: AppContext, game: Game) -> datetime | None:
    """Start the clock again with the time that was left (a full decision's time when a move
    was made meanwhile: ``save_state`` forgets ``paused_left``); returns the new deadline."""
    if not game.paused:
        return game.deadline
    now = ctx.clock.now()
    game.paused = False
    if game.paused_left is not None:
        game.deadline = now + timedelta(seconds=game.paused_left)
    else:
        policy = policy_of(game, ctx.settings)
        game.deadline = deadline_after(now, policy.hours, policy.weekend_pause)
    game.paused_left = None
    session.add(game)
    return game.deadline


# -- what an operator looks at -------------------------------------------------------------


@dataclass
class Stalled:
    """A running game that needs the operator's eye, and why (``pbem admin stalled``)."""

    game_id: int
    engine: str
    deadline: datetime | None
    paused: bool
    overdue: bool  #: past its deadline (waiting, or in grace)
    waiting_for: list[str]  #: "Name <address>" of the human seats that must act
    abandoned: list[int]  #: seats abandoned after too many misses
    open: list[int]  #: seats offered to a substitute
    unreachable: list[str]  #: players whose address hard-bounced
    away: list[str]  #: players on vacation who must act
    misses: dict[int, int]  #: seat -> missed deadlines in a row (only seats with any)


def stalled(session: Session, ctx: AppContext) -> list[Stalled]:
    """Every running game that is overdue, paused, has an abandoned or open seat, or waits
    for a player who is away or unreachable — with the reasons, for the admin's list."""
    now = ctx.clock.now()
    out: list[Stalled] = []
    for game in session.exec(select(Game).where(Game.status == "active").order_by(col(Game.id))).all():
        assert game.id is not None
        engine, state = load(game)
        to_act = engine.to_act(state)
        seats = seats_of(session, game.id)
        acting = [(r, p) for r, p in seats if r.seat in to_act and not r.bot]
        item = Stalled(
            game.id, game.engine, game.deadline, game.paused,
            game.deadline is not None and game.deadline <= now,
            [f"{p.name} <{p.address}>" for _, p in acting],
            [r.seat for r, _ in seats if r.abandoned_at is not None], [r.seat for r, _ in seats if r.open],
            [p.address for _, p in seats if p.unreachable],
            [p.address for _, p in acting if p.away_until is not None and p.away_until > now],
            {r.seat: r.misses for r, _ in seats if r.misses},
        )
        if item.overdue or item.paused or item.abandoned or item.open or item.unreachable or item.away or item.misses:
            out.append(item)
    return out


# -- reminders -------------------------------------------------------------------------


@dataclass
class Reminder:
    """One game in a player's reminder mail."""

    game: Game
    seat: GameSeat
    title: str
    late: bool


def due_reminders(session: Session, ctx: AppContext) -> dict[int, list[Reminder]]:
    """Per player id, the games where a reminder is due now (see the module docstring)."""
    now = ctx.clock.now()
    out: dict[int, list[Reminder]] = defaultdict(list)
    # first the cheap columns: only games with a reminder point or a lateness due are loaded
    candidates = session.exec(select(Game.id, Game.deadline, Game.policy).where(
        Game.status == "active", col(Game.deadline).is_not(None), col(Game.paused).is_(False))).all()
    due_ids = [game_id for game_id, deadline, policy_json in candidates if deadline is not None and (
        deadline <= now or any(deadline - timedelta(hours=r) <= now for r in
                               DeadlinePolicy.from_json(policy_json, ctx.settings).reminders))]
    for game_id in due_ids:
        game = session.get_one(Game, game_id)
        assert game.id is not None and game.deadline is not None
        policy = policy_of(game, ctx.settings)
        engine, state = load(game)
        to_act = engine.to_act(state)
        opened = game.turn_started_at or game.created_at
        for row, player in seats_of(session, game.id):
            if row.bot or row.seat not in to_act or (player.away_until and player.away_until > now):
                continue
            late = now >= game.deadline
            if late:
                due = row.reminded_at is None or row.reminded_at < game.deadline or (
                    now - row.reminded_at >= timedelta(hours=ctx.settings.late_reminder_hours))
            else:
                points = [p for r in policy.reminders if opened < (p := game.deadline - timedelta(hours=r)) <= now]
                due = bool(points) and (row.reminded_at is None or row.reminded_at < max(points))
            if due:
                assert player.id is not None
                out[player.id].append(Reminder(game, row, engine.title, late))
    return out


def send_reminders(session: Session, ctx: AppContext) -> list[str]:
    """Queue one merged reminder mail per player with something due; returns the addresses.

    A player with only "you are late" games is mailed at most once per ``late_reminder_hours``.
    """
    now = ctx.clock.now()
    sent: list[str] = []
    for player_id, items in due_reminders(session, ctx).items():
        player = session.get_one(Player, player_id)
        recent = player.last_reminder_at is not None and (
            now - player.last_reminder_at < timedelta(hours=ctx.settings.late_reminder_hours))
        if all(item.late for item in items) and recent:
            continue
        games: list[dict[str, Any]] = []
        for item in sorted(items, key=lambda i: i.game.deadline or now):
            game = item.game
            assert game.id is not None and game.deadline is not None
            policy = policy_of(game, ctx.settings)
            games.append({
                "tag": subject_tag(game.engine, game.id), "title": item.title, "id": game.id, "late": item.late,
                "deadline": format_deadline(game.deadline, player.tz, player.lang),
                "left": _duration(game.deadline - now, player.lang),
                "acts_at": format_deadline(miss_time(game.deadline, policy), player.tz, player.lang),
                "on_miss": policy.on_miss,
            })
            item.seat.reminded_at = now
            session.add(item.seat)
        player.last_reminder_at = now
        session.add(player)
        rendered = ctx.renderer.render("reminder", player.lang, player=player.name, games=games)
        queue_mail(session, ctx, to=player.address, kind="reminder", subject=f"{SERVICE_TAG} {rendered.subject}",
                   rendered=rendered)
        sent.append(player.address)
    return sent


def _duration(delta: timedelta, lang: str) -> str:
    """"2 days 3 hours" / "2 ngày 3 giờ" (minutes only under an hour)."""
    minutes = max(int(delta.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(tr("{days} day", days=days)[lang] if days == 1
                     else tr("{days} days", days=days)[lang])
    if hours:
        parts.append(tr("{hours} hour", hours=hours)[lang] if hours == 1
                     else tr("{hours} hours", hours=hours)[lang])
    if not parts:
        parts.append(tr("{mins} minutes", mins=mins)[lang])
    return " ".join(parts)


# -- missed deadlines --------------------------------------------------------------------


def _pass_action(engine: Engine[Any], state: Any, seat: int) -> Action | None:
    for choice in engine.menu(state, seat):
        if choice.command.strip().lower() in PASS_COMMANDS:
            return choice.action
    return None


def act_on_missed(session: Session, ctx: AppContext, game_id: int) -> bool:
    """Act on a missed deadline of ``game_id`` by its policy; True when something happened.

    Every seat that must act and has not yet been counted for this deadline is late; each
    gets one miss (and is abandoned at ``abandon_after_misses``). The moves, the log entries
    and every mail commit together in the caller's transaction.
    """
    now = ctx.clock.now()
    game = session.get_one(Game, game_id)
    if game.status != "active" or game.paused or game.deadline is None:
        return False
    policy = policy_of(game, ctx.settings)
    if now < miss_time(game.deadline, policy):
        return False  # late, within the grace: the reminders handle it
    deadline = game.deadline
    engine, state = load(game)
    seats = seats_of(session, game_id)
    names = [p.name for _, p in seats]
    to_act = engine.to_act(state)
    late = [(row, player) for row, player in seats
            if row.seat in to_act and not row.bot and row.missed_deadline != deadline
            and not (player.away_until and player.away_until > now)]
    if not late and not (to_act & {row.seat for row, _ in seats if row.bot}):
        return False
    limit = ctx.settings.abandon_after_misses
    played: dict[int, str] = {}
    changed = False
    for row, player in late:
        row.misses += 1
        row.missed_deadline = deadline
        session.add(row)
        name = player.name
        abandoned = row.misses >= limit and row.abandoned_at is None
        if abandoned:
            row.bot, row.open, row.abandoned_at, row.bot_reason = True, True, now, "abandoned"
        if policy.on_miss == "wait" and not abandoned:
            log_move(session, ctx, game, row.seat, "(deadline missed: waiting)", None, [Event(tr("{name} missed the deadline; the game waits for them.", name=name))], engine.state_version(state))
            tell_operator(session, ctx, f"Game #{game_id} waits for {name}: missed the deadline of {deadline:%Y-%m-%d %H:%M} UTC",
                          [f"{name} <{player.address}>, seat {row.seat + 1}, missed deadline {row.misses} in a row.",
                           "Policy: wait. Extend the deadline, force a move, or open the seat for a substitute."])
            continue
        if engine.outcome(state) is not None or row.seat not in engine.to_act(state):
            continue
        action = (_pass_action(engine, state, row.seat) if policy.on_miss == "skip" else None) \
            or engine.default_action(state, row.seat)
        command = engine.format(state, action)
        played[row.seat] = command
        events = [
            Event(tr("{name} missed the deadline; a default move was played for them.", name=name),
                  frozenset(s for s in range(len(seats)) if s != row.seat)),
            Event(tr("You missed the deadline; this move was played for you: {command}", command=command), frozenset({row.seat})),
        ]
        state, move_events = engine.apply(state, row.seat, action)
        log_move(session, ctx, game, row.seat, "(deadline: default move)", action, [*events, *move_events],
                 engine.state_version(state))
        changed = True
    for row, player in late:
        if row.abandoned_at == now:
            log_move(session, ctx, game, row.seat, "(seat abandoned)", None, [Event(tr("{name} missed {misses} deadlines in a row: a bot keeps their seat until a substitute takes it over.", name=player.name, misses=row.misses))], engine.state_version(state))
            tell_operator(session, ctx, f"Game #{game_id}: the seat of {player.name} is abandoned",
                          [f"{player.name} <{player.address}>, seat {row.seat + 1}, missed {row.misses} deadlines "
                           "in a row.",
                           "A bot plays the seat now and it is open: any known player may write "
                           f"`takeover {game_id}` to the service address."])
    state, bots_played = play_bot_seats(session, ctx, game, engine, state)
    if changed or bots_played:
        save_state(session, ctx, game, engine, state)
    elif late:  # wait: a fresh period starts, so a vanished player is abandoned after K of them
        game.deadline = deadline_after(now, policy.hours, policy.weekend_pause)
        session.add(game)
    if game.status != "active":
        queue_game_mails(session, ctx, game, engine, state, actor=None)
        return True
    late_ids = {row.seat for row, _ in late}
    for row, player in seats:
        if row.bot:
            continue  # kept by a bot (perhaps just now): no more mail to this seat
        what = [(p.name, _what_happened(r, played, policy.on_miss)) for r, p in late if r.seat != row.seat]
        title = _missed_title(what, row.seat in late_ids, played.get(row.seat), player.lang)
        if row.seat not in late_ids and row.seat in engine.to_act(state):
            title += tr(". Your move")[player.lang]
        mail_to_seat(session, ctx, game, engine, state, row, player, "info", names=names, kind="missed",
                     extra={"title": title})
    return True


def _what_happened(row: GameSeat, played: dict[int, str], on_miss: str) -> str:
    if row.bot:
        return "bot"
    return "played" if row.seat in played else "wait" if on_miss == "wait" else "played"


def _missed_title(others: list[tuple[str, str]], you: bool, your_move: str | None, lang: str) -> str:
    """The first line of a missed-deadline mail for one reader: what happened to them, then
    to each other late player (``others``: name and ``bot`` | ``played`` | ``wait``)."""
    parts: list[str] = []
    if you:
        if your_move is not None:
            parts.append(tr("You missed the deadline; a default move was played for you: {your_move}", your_move=your_move).get(lang))
        else:
            parts.append(tr("You missed the deadline; the game waits for you — please move now").get(lang))
    for name, what in others:
        parts.append({
            "bot": tr("{name} missed the deadline again; a bot keeps their seat until a substitute takes it over", name=name),
            "played": tr("{name} missed the deadline; a default move was played for them", name=name),
            "wait": tr("{name} missed the deadline; the game waits for them", name=name),
        }[what].get(lang))
    return ". ".join(parts)
