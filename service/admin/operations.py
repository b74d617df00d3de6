"""The operator's actions on one game: extend, deadline, force, pause, resume, nudge, resend,
replace, abort (undo lives in ``undo.py``, export/replay in ``export.py``).

Each action is one function ``(ctx, game_id, …, by=, why=) -> dict`` that checks everything
first (a refused command raises an ``AdminError`` and changes nothing), then in ONE
transaction changes the game, writes the audit row and queues a short mail to every seat in
the seat's own language — built by ``notify.mail_to_seat`` from that seat's view only, so an
operator notice can carry the board, the menu and the deadline but never another seat's secret.
Every write to ``games`` is version-checked like a move (``StaleGame`` → "try again").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, delete

from engines import i18n
from engines.contract import Engine, Outcome, tr
from engines.i18n import each_lang
from service.addresses import bare_address, base_address
from service.admin.audit import operator_name, record
from service.admin.errors import BadArgument, NotFound, Refused
from service.context import AppContext
from service.outbound.notify import mail_to_seat
from service.outbound.outbox import queue_mail
from service.outbound.render import format_deadline, subject_tag
from service.schedule import deadlines
from service.store.games import StaleGame, create_player, end_game, load, log_move, save_state, seats_of
from service.store.models import Game, GamePause, GameSeat, Player, ReplyKey

#: Subject/intro of an operator notice (the "info" mail purpose), per language.
NOTICE_TITLE = tr("Message from the operator")
DURATION_RE = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")
ADDRESS_RE = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;.]+$")


# -- small shared pieces ----------------------------------------------------------------

def parse_duration(text: str) -> timedelta:
    """``2d``, ``12h``, ``1d6h``, ``90m`` (days, hours, minutes in that order; > 0)."""
    match = DURATION_RE.match(text.strip().lower())
    if not text.strip() or match is None or not any(match.groups()):
        raise BadArgument(f"bad duration {text!r}: write e.g. 2d, 12h, 1d6h or 90m")
    days, hours, minutes = (int(g or 0) for g in match.groups())
    delta = timedelta(days=days, hours=hours, minutes=minutes)
    if delta <= timedelta(0):
        raise BadArgument(f"bad duration {text!r}: it must be longer than zero")
    if delta > timedelta(days=365):
        raise BadArgument(f"bad duration {text!r}: more than a year")
    return delta


def say_duration(delta: timedelta, lang: str) -> str:
    """``2 days``, ``1 day 6 hours``, ``1 hour 30 minutes`` / ``2 ngày``, ``1 ngày 6 giờ``."""
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts: list[str] = []
    if days:
        parts.append(tr("{days} day{plural}", days=days, plural=_plural(days))[lang])
    if hours:
        parts.append(tr("{hours} hour{plural}", hours=hours, plural=_plural(hours))[lang])
    if mins:
        parts.append(tr("{mins} minute{plural}", mins=mins, plural=_plural(mins))[lang])
    return " ".join(parts) or tr("0 minutes")[lang]


def _plural(amount: int) -> str:
    """The English plural ending of a unit (a catalog's translation may leave the field out)."""
    return "" if amount == 1 else "s"


def open_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game #{game_id}")
    return game


def require_active(game: Game, command: str) -> None:
    if game.status != "active":
        raise Refused(f"game #{game.id} is {game.status}: nothing to {command}")


def pause_of(session: Session, game: Game) -> GamePause | None:
    return session.get(GamePause, game.id)


def require_running(session: Session, game: Game, command: str) -> None:
    require_active(game, command)
    if pause_of(session, game) is not None:
        raise Refused(f"game #{game.id} is paused: resume it first (pbem admin resume {game.id})")


def seat_of(session: Session, game: Game, seat: int) -> tuple[GameSeat, Player]:
    assert game.id is not None
    seats = seats_of(session, game.id)
    for row, player in seats:
        if row.seat == seat:
            return row, player
    raise NotFound(f"game #{game.id} has no seat {seat} (seats 0 to {len(seats) - 1})")


def set_deadline(session: Session, ctx: AppContext, game: Game, when: datetime | None) -> None:
    """The one place the admin commands write ``Game.deadline`` (version-checked).

    After the merge with the deadline policy this is where the lead routes it through it.
    """
    result = session.execute(
        update(Game).where(col(Game.id) == game.id, col(Game.version) == game.version)
        .values(deadline=when, version=game.version + 1, updated_at=game.updated_at)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleGame(f"game {game.id} changed under us (version {game.version})")
    game.deadline, game.version = when, game.version + 1


@contextmanager
def stale_is_refused(game_id: int) -> Iterator[None]:
    try:
        yield
    except StaleGame:
        raise Refused(f"game #{game_id} changed while the command ran (a reply or the sweep): try again") from None


def tell_seats(
    session: Session, ctx: AppContext, game: Game, engine: Engine[Any], state: Any,
    line: Callable[[Player], str] | None, *, seats: list[int] | None = None, purpose: str = "info",
    kind: str = "operator",
) -> list[str]:
    """One mail to each seat (or the given seats) with ``line(player)`` on top, the digest, the
    seat's own board, its menu and deadline. Returns the addresses mailed."""
    assert game.id is not None
    rows = seats_of(session, game.id)
    names = [p.name for _, p in rows]
    sent: list[str] = []
    for seat_row, player in rows:
        if seats is not None and seat_row.seat not in seats:
            continue
        lines = [line(player)] if line is not None else []
        mail_to_seat(session, ctx, game, engine, state, seat_row, player, purpose, names=names, kind=kind,
                     extra={"title": NOTICE_TITLE.get(player.lang, NOTICE_TITLE["en"]), "lines": lines})
        sent.append(player.address)
    return sent


def deadline_for(player: Player, when: datetime | None) -> str:
    if when is None:
        return tr("-")[player.lang]
    return format_deadline(when, player.tz, player.lang)


def _result(game: Game, command: str, message: str, **details: Any) -> dict[str, Any]:
    return {"game": game.id, "command": command, "status": game.status, "message": message,
            "deadline": game.deadline.isoformat() if game.deadline else None, **details}


# -- the commands ----------------------------------------------------------------------

def extend(ctx: AppContext, game_id: int, duration: str, *, by: str | None = None, why: str = "") -> dict[str, Any]:
    """Move the deadline later by ``duration`` (from the current deadline, or from now)."""
    delta = parse_duration(duration)
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_running(s, game, "extend")
        base = max(game.deadline, ctx.clock.now()) if game.deadline else ctx.clock.now()
        set_deadline(s, ctx, game, base + delta)
        engine, state = load(game)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("The operator extended the deadline by {say_duration}: new deadline {deadline_for}.", say_duration=each_lang(say_duration, delta), deadline_for=deadline_for(p, game.deadline))[p.lang]))
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="extend",
               arguments={"duration": duration, "deadline": game.deadline}, why=why)
        s.commit()
        return _result(game, "extend", f"game #{game_id}: deadline extended by {say_duration(delta, 'en')} "
                       f"to {game.deadline:%Y-%m-%d %H:%M} UTC", mailed=sent)


def set_new_deadline(ctx: AppContext, game_id: int, hours: float, *, by: str | None = None,
                     why: str = "") -> dict[str, Any]:
    """A new deadline ``hours`` from now."""
    if not 0 < hours <= 24 * 365:
        raise BadArgument(f"bad number of hours {hours:g}: give more than 0 and at most a year")
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_running(s, game, "set a deadline for")
        set_deadline(s, ctx, game, ctx.clock.now() + timedelta(hours=hours))
        engine, state = load(game)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("The operator set a new deadline: {deadline_for}.", deadline_for=deadline_for(p, game.deadline))[p.lang]))
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="deadline",
               arguments={"hours": hours, "deadline": game.deadline}, why=why)
        s.commit()
        return _result(game, "deadline", f"game #{game_id}: deadline set to {game.deadline:%Y-%m-%d %H:%M} UTC",
                       mailed=sent)


def force(ctx: AppContext, game_id: int, seat: int, *, by: str | None = None, why: str = "") -> dict[str, Any]:
    """Play the engine's default move for ``seat`` now (a pending secret choice too)."""
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_running(s, game, "force")
        _row, player = seat_of(s, game, seat)
        engine, state = load(game)
        if seat not in engine.to_act(state):
            raise Refused(f"seat {seat} ({player.name}) has nothing to decide now in game #{game_id}")
        action = engine.default_action(state, seat)
        state, events = engine.apply(state, seat, action)
        log_move(s, ctx, game, seat, "(operator: default move)", action, events, engine.state_version(state))
        save_state(s, ctx, game, engine, state)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("The operator played the default move for {name}.", name=player.name)[p.lang]))
        # the action goes to the audit log only (operator-only): for a secret choice it is a secret
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="force",
               arguments={"seat": seat, "action": action.to_json()}, why=why)
        s.commit()
        return _result(game, "force", f"game #{game_id}: default move played for seat {seat} ({player.name})",
                       seat=seat, mailed=sent)


def pause(ctx: AppContext, game_id: int, *, by: str | None = None, why: str = "") -> dict[str, Any]:
    """Stop the game's clock: the deadline is cleared, the time left is kept for ``resume``."""
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_active(game, "pause")
        if pause_of(s, game) is not None:
            raise Refused(f"game #{game_id} is already paused")
        now = ctx.clock.now()
        remaining = max((game.deadline - now).total_seconds(), 0.0) if game.deadline else None
        s.add(GamePause(game_id=game_id, paused_at=now, remaining_seconds=remaining, operator=operator_name(by)))
        set_deadline(s, ctx, game, None)
        # the deadline policy's own flag: while it is set a move keeps the clock stopped
        game.paused, game.paused_left = True, remaining
        engine, state = load(game)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("The operator paused the game: the deadline is stopped until the game resumes.")[p.lang]))
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="pause",
               arguments={"remaining_seconds": remaining}, why=why)
        s.commit()
        left = f"{say_duration(timedelta(seconds=remaining), 'en')} left" if remaining is not None else "no deadline"
        return _result(game, "pause", f"game #{game_id} paused ({left})", remaining_seconds=remaining, mailed=sent)


def resume(ctx: AppContext, game_id: int, *, by: str | None = None, why: str = "") -> dict[str, Any]:
    """Restart the clock with the time that was left when the game was paused."""
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_active(game, "resume")
        paused = pause_of(s, game)
        if paused is None:
            raise Refused(f"game #{game_id} is not paused")
        s.delete(paused)
        # the time that was left, or a whole decision's time when a move was made meanwhile
        new_deadline = deadlines.resume(s, ctx, game)
        remaining = (new_deadline - ctx.clock.now()) if new_deadline else timedelta(0)
        set_deadline(s, ctx, game, new_deadline)
        engine, state = load(game)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("The operator resumed the game: new deadline {deadline_for}.", deadline_for=deadline_for(p, game.deadline))[p.lang]))
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="resume",
               arguments={"remaining_seconds": remaining.total_seconds(), "deadline": game.deadline}, why=why)
        s.commit()
        return _result(game, "resume", f"game #{game_id} resumed: deadline {game.deadline:%Y-%m-%d %H:%M} UTC",
                       mailed=sent)


def nudge(ctx: AppContext, game_id: int, seat: int | None = None, *, by: str | None = None,
          why: str = "") -> dict[str, Any]:
    """Resend the turn mail, with a reminder line, to ``seat`` or to every seat that must act."""
    with ctx.session() as s:
        game = open_game(s, game_id)
        require_active(game, "nudge")
        engine, state = load(game)
        to_act = engine.to_act(state)
        if seat is not None:
            _row, player = seat_of(s, game, seat)
            if seat not in to_act:
                raise Refused(f"seat {seat} ({player.name}) has nothing to decide now in game #{game_id}")
        targets = [seat] if seat is not None else sorted(to_act)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("Reminder: the game is waiting for your move.")[p.lang]), seats=targets, purpose="turn", kind="nudge")
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="nudge",
               arguments={"seat": seat, "seats": targets}, why=why)
        s.commit()
        return _result(game, "nudge", f"game #{game_id}: reminder sent to seat(s) {', '.join(map(str, targets))}",
                       seats=targets, mailed=sent)


def resend(ctx: AppContext, game_id: int, seat: int | None = None, *, by: str | None = None,
           why: str = "") -> dict[str, Any]:
    """Send each seat (or one) its current mail again: the turn mail, or the game as it stands."""
    with ctx.session() as s:
        game = open_game(s, game_id)
        require_active(game, "resend")
        engine, state = load(game)
        if seat is not None:
            seat_of(s, game, seat)
        assert game.id is not None
        to_act = engine.to_act(state)
        sent: list[str] = []
        for row, _player in seats_of(s, game.id):
            if seat is not None and row.seat != seat:
                continue
            sent += tell_seats(s, ctx, game, engine, state, None, seats=[row.seat],
                               purpose="turn" if row.seat in to_act else "info", kind="resend")
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="resend", arguments={"seat": seat}, why=why)
        s.commit()
        return _result(game, "resend", f"game #{game_id}: current mail sent again to {len(sent)} seat(s)",
                       mailed=sent)


def abort(ctx: AppContext, game_id: int, *, by: str | None = None, why: str = "") -> dict[str, Any]:
    """End the game with no result; every seat is told."""
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_active(game, "abort")
        paused = pause_of(s, game)
        if paused is not None:
            s.delete(paused)
        end_game(s, ctx, game, "aborted", Outcome(frozenset(), False, tr("the operator ended the game")))
        engine, state = load(game)
        sent = tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("The operator ended this game; it has no result.")[p.lang]))
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="abort", arguments={}, why=why)
        s.commit()
        return _result(game, "abort", f"game #{game_id} aborted", mailed=sent)


def replace(ctx: AppContext, game_id: int, seat: int, address: str, *, name: str | None = None,
            lang: str = "en", tz: str = "UTC", by: str | None = None, why: str = "") -> dict[str, Any]:
    """Give ``seat`` to the player at ``address`` (created if new).

    The seat's recorded reply keys are revoked (deleted from ``reply_keys``): a key of an
    earlier decision becomes unknown, and the current decision's key — re-issued in the
    newcomer's welcome mail — only counts from the seat's registered address, which is now
    the newcomer's. The old holder gets a short mail saying so, without the board.
    """
    new_address = bare_address(address)
    if not ADDRESS_RE.match(new_address):
        raise BadArgument(f"bad address {address!r}: write e.g. ann@example.org")
    if base_address(new_address) == ctx.settings.service_address:
        raise BadArgument(f"{address!r} is the service's own address")
    if lang not in i18n.languages():
        raise BadArgument(f"bad language {lang!r}: one of {', '.join(i18n.languages())}")
    with ctx.session() as s, stale_is_refused(game_id):
        game = open_game(s, game_id)
        require_active(game, "replace a seat in")
        seat_row, old = seat_of(s, game, seat)
        assert game.id is not None
        if any(p.address == new_address for _, p in seats_of(s, game.id)):
            raise Refused(f"{new_address} already holds a seat in game #{game_id}")
        newcomer = create_player(s, new_address, name or new_address.split("@")[0], lang, tz, ctx=ctx)
        assert newcomer.id is not None
        revoked = s.execute(delete(ReplyKey).where(col(ReplyKey.game_id) == game.id, col(ReplyKey.seat) == seat))
        seat_row.player_id, seat_row.reply_key = newcomer.id, None
        s.add(seat_row)
        # bump the version: a reply being applied right now for this seat must start over
        set_deadline(s, ctx, game, game.deadline)
        s.flush()
        engine, state = load(game)
        others = [r.seat for r, _ in seats_of(s, game.id) if r.seat != seat]
        tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("Welcome! The operator gave you {name}'s seat in this game. Below is the game as it stands; reply to this mail to play.", name=old.name)[p.lang]), seats=[seat])
        tell_seats(s, ctx, game, engine, state, lambda p: (
            tr("{name} takes over {name2}'s place in this game.", name=newcomer.name, name2=old.name)[p.lang]), seats=others)
        _farewell(s, ctx, game, engine, old)
        record(s, ctx, operator=operator_name(by), game_id=game_id, command="replace",
               arguments={"seat": seat, "old_address": old.address, "old_name": old.name,
                          "new_address": new_address, "new_name": newcomer.name,
                          "revoked_keys": revoked.rowcount},  # type: ignore[attr-defined]
               why=why)
        s.commit()
        return _result(game, "replace", f"game #{game_id}: seat {seat} now held by {newcomer.name} <{new_address}> "
                       f"(was {old.name} <{old.address}>)", seat=seat, old=old.address, new=new_address)


def _farewell(session: Session, ctx: AppContext, game: Game, engine: Engine[Any], old: Player) -> None:
    """A short mail to the replaced player: no board, no key (a reply reaches no game)."""
    assert game.id is not None
    lang = old.lang if old.lang in i18n.languages() else i18n.SOURCE_LANG
    line = tr("The operator gave your seat in this game to another player; your replies to this game are no longer read.")[lang]
    rendered = ctx.renderer.render("info", lang, player=old.name, players=[], title=NOTICE_TITLE[lang],
                                   lines=[line], game={"id": game.id, "title": engine.title})
    queue_mail(session, ctx, to=old.address, kind="operator", subject=f"{subject_tag(engine.id, game.id)} {rendered.subject}",
               rendered=rendered, game_id=game.id)


def pause_info(session: Session, game_id: int) -> dict[str, Any] | None:
    row = session.get(GamePause, game_id)
    if row is None:
        return None
    return {"paused_at": row.paused_at.isoformat(), "remaining_seconds": row.remaining_seconds, "by": row.operator}



