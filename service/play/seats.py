"""Who keeps a seat: bots for abandoned or resigned seats, substitutes, resignations, absences.

Public API (the admin CLI and leagues call these; each works in the caller's transaction):

- ``open_seat(session, ctx, game, seat)`` — offer a seat to a substitute (``takeover GAME``).
- ``take_over(session, ctx, player, game_id)`` — a known player takes an open seat.
- ``keep_by_bot(session, ctx, game, seat, reason)`` — the engine's default move plays the seat
  at once from now on, and its mails are not sent.
- ``play_bot_seats(session, ctx, game, engine, state)`` — play every decision of a bot-kept seat.
- ``request_resignation`` / ``confirm_resignation`` — ``resign`` asks for a code; ``resign CODE``
  ends the seat's game per ``RESIGN_RULES``.
- ``start_absence`` / ``end_absence`` — ``vacation N`` / ``back``.
- ``mark_unreachable(session, ctx, address)`` — a hard bounce of one of our mails came back.
- ``notify_seats`` — one short informational mail to every (human) seat of a game.

What a confirmed resignation does is decided in ONE place, ``RESIGN_RULES``:

- ``tac``: the resigning player's team loses, the other team (partners opposite) wins.
- ``tagteam``: the opponent wins.
- ``grizzled`` (co-operative): nobody wins or loses by it; the seat is kept by a bot and the
  others play on (a co-operative game cannot be lost by one player's leaving).
- ``barcadia`` (free-for-all 2–6): with two players the other wins; with more the seat is
  kept by a bot (it plays on, and can still win — the engine cannot remove a hero) and the
  others play on.
- any other engine: with two players the opponent wins, else the seat goes to a bot.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from engines.contract import Engine, Event, Outcome, Text, tr
from engines.i18n import each_lang
from service.context import AppContext
from service.outbound.notify import mail_to_seat
from service.outbound.outbox import queue_mail
from service.outbound.render import SERVICE_TAG, format_deadline
from service.store.games import StaleGame, end_game, load, log_move, player_by_address, save_state, seats_of
from service.store.models import Game, GameSeat, Player

#: How a confirmed resignation ends (see the module docstring): "team" | "opponent" | "bot".
RESIGN_RULES: dict[str, str] = {"tac": "team", "tagteam": "opponent", "grizzled": "bot", "barcadia": "bot"}
RESIGN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
RESIGN_CODE_VALID = timedelta(days=1)


class SeatError(Exception):
    """A seat change that cannot be done; ``message`` says why in both languages."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


def seat_row(session: Session, game_id: int, seat: int) -> GameSeat:
    return session.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == seat)).one()


# -- bots ---------------------------------------------------------------------------


def play_bot_seats(session: Session, ctx: AppContext, game: Game, engine: Engine[Any], state: Any,
                   seats: Sequence[tuple[GameSeat, Player]] | None = None) -> tuple[Any, bool]:
    """Play the engine's default move for every bot-kept seat that must act, until none must.

    Returns the new state and whether anything was played (the caller saves the state). A
    game where only bots are left to act runs on to its end or to a human's decision.
    """
    assert game.id is not None
    bots = {row.seat for row, _ in (seats if seats is not None else seats_of(session, game.id)) if row.bot}
    changed = False
    for _ in range(10_000):  # a guard against an engine that never finishes
        if engine.outcome(state) is not None:
            break
        due = sorted(engine.to_act(state) & bots)
        if not due:
            break
        seat = due[0]
        action = engine.default_action(state, seat)
        state, events = engine.apply(state, seat, action)
        log_move(session, ctx, game, seat, "(bot: default move)", action, events, engine.state_version(state))
        changed = True
    return state, changed


def keep_by_bot(session: Session, ctx: AppContext, game: Game, seat: int, reason: str) -> GameSeat:
    """Mark ``seat`` as kept by a bot (``reason``: abandoned | resigned | operator).

    The caller plays its pending decisions (``play_bot_seats``) and saves the game.
    """
    assert game.id is not None
    row = seat_row(session, game.id, seat)
    row.bot, row.bot_reason = True, reason
    session.add(row)
    return row


def reclaim_seat(session: Session, row: GameSeat) -> None:
    """The seat's own (abandoned) player wrote again: the seat is theirs, no longer a bot's or
    open. Not for a resigned seat (``handle_game_reply`` refuses those)."""
    row.bot = row.open = False
    row.bot_reason = row.abandoned_at = None
    row.misses = 0
    session.add(row)


def open_seat(session: Session, ctx: AppContext, game: Game, seat: int) -> GameSeat:
    """Offer ``seat`` of ``game`` to a substitute: any known player may write ``takeover ID``.

    Until someone takes it, the seat is kept as it was (a bot-kept seat stays with the bot; a
    human seat stays with its player, whose clock keeps running).
    """
    assert game.id is not None
    if game.status != "active":
        raise SeatError(tr("Game #{id} is over.", id=game.id))
    row = seat_row(session, game.id, seat)
    row.open = True
    session.add(row)
    return row


def open_seats(session: Session) -> list[tuple[Game, GameSeat]]:
    """Every open seat of an active game (for a "seats wanted" list)."""
    rows = session.exec(select(Game, GameSeat).where(GameSeat.game_id == Game.id, col(GameSeat.open),
                                                     Game.status == "active")).all()
    return [(g, s) for g, s in rows]


def take_over(session: Session, ctx: AppContext, player: Player, game_id: int) -> GameSeat:
    """``player`` takes the open seat of game ``game_id``: the seat becomes theirs, a human
    seat again (no bot, no misses), and they get the game's mail for that seat at once."""
    game = session.get(Game, game_id)
    if game is None or game.status != "active":
        raise SeatError(tr("There is no running game #{game_id}.", game_id=game_id))
    seats = seats_of(session, game_id)
    if any(p.id == player.id for _, p in seats):
        raise SeatError(tr("You already play in game #{game_id}.", game_id=game_id))
    free = [row for row, _ in seats if row.open]
    if not free:
        raise SeatError(tr("Game #{game_id} has no open seat.", game_id=game_id))
    row = free[0]
    old = session.get_one(Player, row.player_id)
    assert player.id is not None
    row.player_id = player.id
    row.open = row.bot = False
    row.bot_reason = None
    row.misses = 0
    row.reply_key = None
    row.reminded_at = None
    row.resign_code = row.resign_code_until = None
    session.add(row)
    engine, state = load(game)
    log_move(session, ctx, game, None, "(takeover)", None, [Event(tr("{name} takes over the seat of {name2}.", name=player.name, name2=old.name))],
        engine.state_version(state))
    session.flush()
    names = [p.name for _, p in seats_of(session, game_id)]
    mail_to_seat(session, ctx, game, engine, state, row, player, "info", names=names, kind="turn",
                 extra={"title": tr("You took over a seat in game #{game_id}", game_id=game_id).get(player.lang)})
    return row


# -- resigning ----------------------------------------------------------------------


def request_resignation(session: Session, ctx: AppContext, game: Game, row: GameSeat) -> str:
    """A fresh confirmation code for ``row`` (valid ``RESIGN_CODE_VALID``), stored on the seat."""
    code = "".join(secrets.choice(RESIGN_CODE_ALPHABET) for _ in range(4))
    row.resign_code = code
    row.resign_code_until = ctx.clock.now() + RESIGN_CODE_VALID
    session.add(row)
    return code


def resign_code_valid(ctx: AppContext, row: GameSeat, code: str) -> bool:
    return (row.resign_code is not None and row.resign_code_until is not None
            and secrets.compare_digest(row.resign_code, code.upper())
            and ctx.clock.now() <= row.resign_code_until)


def resign_rule(game: Game, seat_count: int) -> str:
    rule = RESIGN_RULES.get(game.engine)
    if rule == "bot" and game.engine != "grizzled" and seat_count == 2:
        return "opponent"  # a free-for-all of two is a duel
    if rule is None:
        return "opponent" if seat_count == 2 else "bot"
    return rule


def confirm_resignation(session: Session, ctx: AppContext, game: Game, engine: Engine[Any], state: Any,
                        row: GameSeat, player: Player) -> tuple[Any, bool]:
    """Apply a confirmed resignation per ``RESIGN_RULES``; returns (state, game_ended).

    An ending resignation finishes the game with the other side winning; otherwise the seat
    is kept by a bot (its decisions are played at once) and the caller saves the state.
    """
    assert game.id is not None
    seat_count = len(seats_of(session, game.id))
    rule = resign_rule(game, seat_count)
    row.resign_code = row.resign_code_until = None
    name = player.name
    if rule in ("team", "opponent"):
        if rule == "team":
            winners = frozenset(s for s in range(seat_count) if s % 2 != row.seat % 2)
        else:
            winners = frozenset(s for s in range(seat_count) if s != row.seat)
        log_move(session, ctx, game, row.seat, "resign", None, [Event(tr("{name} resigned.", name=name))],
                 engine.state_version(state))
        end_game(session, ctx, game, "resigned", Outcome(winners, False, tr("{name} resigned", name=name)))
        return state, True
    keep_by_bot(session, ctx, game, row.seat, "resigned")
    log_move(session, ctx, game, row.seat, "resign", None, [Event(tr("{name} left the game; a bot plays their seat from now on.", name=name))], engine.state_version(state))
    state, _ = play_bot_seats(session, ctx, game, engine, state)
    return state, engine.outcome(state) is not None


# -- absences -----------------------------------------------------------------------


def _active_seats(session: Session, player: Player) -> list[tuple[Game, GameSeat]]:
    rows = session.exec(select(Game, GameSeat).where(GameSeat.game_id == Game.id, GameSeat.player_id == player.id,
                                                     Game.status == "active")).all()
    return [(g, s) for g, s in rows]


def vacation_days_left(ctx: AppContext, player: Player) -> int:
    year = ctx.clock.now().year
    used = player.vacation_days_used if player.vacation_year == year else 0
    return max(ctx.settings.vacation_days_per_year - used, 0)


def _shift_deadlines(session: Session, ctx: AppContext, player: Player, delta: timedelta,
                     floor: datetime | None = None) -> list[Game]:
    """Move the deadline of every game where ``player`` must act by ``delta`` (not before
    ``floor``); returns the games whose deadline moved."""
    moved: list[Game] = []
    for game, row in _active_seats(session, player):
        if game.deadline is None or game.paused or row.bot:
            continue
        engine, state = load(game)
        if row.seat not in engine.to_act(state):
            continue
        new = game.deadline + delta
        if floor is not None:
            new = max(new, floor)
        if new != game.deadline:
            game.deadline = new
            session.add(game)
            moved.append(game)
    return moved


def start_absence(session: Session, ctx: AppContext, player: Player, days: int) -> datetime:
    """``vacation N``: stop ``player``'s clocks for ``days`` days in all their games.

    Games where they must act get their deadline moved by the absence; decisions that open
    meanwhile start counting when it ends (``store.games.next_deadline``). The other players
    of a moved game are told the new deadline. Counted against the yearly allowance.
    """
    now = ctx.clock.now()
    if player.away_until is not None and player.away_until > now:
        raise SeatError(tr("You are already away until {format_deadline}; write `back` first.", format_deadline=each_lang(format_deadline, player.away_until, player.tz)))
    left = vacation_days_left(ctx, player)
    if not 1 <= days <= left:
        raise SeatError(tr("You can take 1 to {left} days of absence this year.", left=left))
    if player.vacation_year != now.year:
        player.vacation_year, player.vacation_days_used = now.year, 0
    player.vacation_days_used += days
    player.away_since, player.away_until, player.vacation = now, now + timedelta(days=days), True
    session.add(player)
    for game in _shift_deadlines(session, ctx, player, timedelta(days=days)):
        _tell_new_deadline(session, ctx, game, player, away=True)
    return player.away_until


def end_absence(session: Session, ctx: AppContext, player: Player) -> int:
    """``back``: end the absence now; unused whole days return to the allowance and the
    deadlines that were moved come back by as much (never to less than a day from now).
    Returns the days given back."""
    now = ctx.clock.now()
    if player.away_until is None or player.away_until <= now:
        raise SeatError(tr("You are not away."))
    unused = player.away_until - now
    refund = math.floor(unused / timedelta(days=1))
    player.vacation_days_used = max(player.vacation_days_used - refund, 0)
    player.away_until, player.vacation = now, False
    session.add(player)
    for game in _shift_deadlines(session, ctx, player, -unused, floor=now + timedelta(days=1)):
        _tell_new_deadline(session, ctx, game, player, away=False)
    return refund


def _tell_new_deadline(session: Session, ctx: AppContext, game: Game, player: Player, *, away: bool) -> None:
    """Tell every other (human) seat of ``game`` that ``player``'s absence moved the deadline."""
    assert game.id is not None and game.deadline is not None
    deadline = game.deadline
    until = player.away_until

    def title(lang: str, tz: str) -> str:
        when = format_deadline(deadline, tz, lang)
        if away:
            assert until is not None
            back = format_deadline(until, tz, lang)
            return tr("{name} is away until {back}; the new deadline is {when}", name=player.name, back=back, when=when).get(lang)
        return tr("{name} is back; the new deadline is {when}", name=player.name, when=when).get(lang)

    notify_seats(session, ctx, game, title, skip={player.id})


# -- bounces ------------------------------------------------------------------------


def mark_unreachable(session: Session, ctx: AppContext, address: str) -> Player | None:
    """A hard bounce came back for ``address``: flag the player (``pbem admin stalled`` shows
    it) and tell the operator once. Returns the player, or None for an unknown address."""
    player = player_by_address(session, address)
    if player is None:
        return None
    first = not player.unreachable
    player.unreachable, player.bounced_at = True, ctx.clock.now()
    session.add(player)
    if first:
        tell_operator(session, ctx, f"{player.name} <{player.address}> is unreachable (hard bounce)",
                      ["Mail to this address bounced permanently. Their games keep running by their policies;",
                       "ask them for a new address, or open their seats for a substitute."])
    return player


# -- informational mails -------------------------------------------------------------


def notify_seats(session: Session, ctx: AppContext, game: Game, title: Any, *, skip: set[int | None] | None = None,
                 purpose: str = "info", extra: dict[str, Any] | None = None,
                 engine_state: tuple[Engine[Any], Any] | None = None, only_to_act: bool = False) -> None:
    """One mail to every human seat of ``game`` (not bot-kept, not in ``skip`` player ids;
    with ``only_to_act`` only the seats that must act), titled ``title(lang, tz)``; built from
    that seat's view (of ``engine_state``, default the stored state), with digest and menu."""
    assert game.id is not None
    engine, state = engine_state or load(game)
    seats = seats_of(session, game.id)
    names = [p.name for _, p in seats]
    to_act = engine.to_act(state)
    for row, player in seats:
        if row.bot or (skip and player.id in skip) or (only_to_act and row.seat not in to_act):
            continue
        mail_to_seat(session, ctx, game, engine, state, row, player, purpose, names=names, kind="info",
                     extra={"title": title(player.lang, player.tz), **(extra or {})})


def tell_operator(session: Session, ctx: AppContext, title: str, lines: list[str]) -> None:
    """A plain English mail to ``Settings.operator_address`` (nothing when it is unset)."""
    if not ctx.settings.operator_address:
        return
    rendered = ctx.renderer.render("info", "en", player="operator", title=title, lines=lines)
    queue_mail(session, ctx, to=ctx.settings.operator_address, kind="operator",
               subject=f"{SERVICE_TAG} {rendered.subject}", rendered=rendered)


__all__ = ["RESIGN_RULES", "SeatError", "StaleGame", "confirm_resignation", "end_absence", "keep_by_bot",
           "mark_unreachable", "notify_seats", "open_seat", "open_seats", "play_bot_seats", "request_resignation",
           "resign_code_valid", "save_state", "start_absence", "take_over", "tell_operator"]
