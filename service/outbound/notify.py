"""Composing the mails a game change causes, one per seat, each from that seat's view only.

The only things taken from a game are ``engine.view(state, seat)`` rendered by
``engine.render_view``, ``engine.menu(state, seat)`` and log events filtered by
``Event.visible(seat)`` — so a mail can show nothing its reader may not know.

Who gets a mail (brdgme: "play-by-email, not notify-by-email"): a seat whose decision is new
(its turn), the seat whose reply caused the change (a receipt with its results), and
everyone when the game ends. Others collect the events in their next mail's digest.
A seat kept by a bot (``GameSeat.bot``, see ``service.play.seats``) gets no mail.

How much a player gets is their ``mail`` setting (``Player.mail_mode``, ``MAIL_MODES``):

- ``turns`` (default): turn mails and game-over mails in full; the receipt for a reply is a
  few lines (what was done, what it caused, who is next, the deadline) — no board, no menu.
- ``every``: the receipt is a full mail with the board, as before the setting existed.
- ``daily``: turn mails still come (a turn game would stall without them); a reply that went
  through gets no receipt — its effects and everyone else's moves come in one digest a day
  (``service.schedule.digests``) or the next turn mail, whichever is first. A reply with a
  line that was not understood or ignored is always answered.

Nothing is lost in any mode: events are only marked as mailed (``GameSeat.last_log_id``)
when a mail shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, inspect, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from engines.contract import Engine, Outcome, tr
from service.context import AppContext
from service.outbound.calendar import cancelled_event, deadline_event, event_uid
from service.outbound.howto import first_mail_lines
from service.outbound.keys import issue_key, key_matches, reply_address
from service.outbound.outbox import queue_mail
from service.outbound.pictures import picture_for
from service.outbound.render import Attachment, format_deadline, subject_tag, thread_root
from service.store.games import events_since, seats_of, stored_outcome
from service.store.models import Game, GameSeat, Outbox, Player
from service.store.policy import policy_of


@dataclass
class Results:
    """What a reply did, Mailman-style: done / not understood (with why) / ignored."""

    done: list[str] = field(default_factory=list)
    not_understood: list[dict[str, str]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: titled blocks an answer shows after its lines (a league's standings table): see
    #: ``service.leagues.report`` for their shape
    sections: list[dict[str, Any]] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    wants_help: bool = False
    #: the answer's heading when a command sets one (``rules``, ``more``)
    title: str = ""
    #: the answer needs no board (``more`` pages): a short mail
    short: bool = False
    #: the reply asked for the board (``state``): its receipt is never the short one
    wants_view: bool = False

    def as_context(self, lang: str = "en") -> dict[str, Any] | None:
        """What the answer shows: never the whole reply (a 10 MB reply must not get a 10 MB
        answer, Mailman's rule against backscatter): at most ``SHOWN_LINES`` lines per list,
        each cut to ``SHOWN_WIDTH`` characters, and a count of the rest."""
        if not (self.done or self.not_understood or self.ignored):
            return None
        not_understood = [{**item, "text": _cut(item.get("text", ""))} for item in self.not_understood[:SHOWN_LINES]]
        if len(self.not_understood) > SHOWN_LINES:
            more = len(self.not_understood) - SHOWN_LINES
            not_understood.append({"text": "…", "why": MORE_LINES[lang if lang in MORE_LINES else "en"].format(n=more)})
        ignored = [_cut(line) for line in self.ignored[:SHOWN_LINES]]
        if len(self.ignored) > SHOWN_LINES:
            more = len(self.ignored) - SHOWN_LINES
            ignored.append("… " + MORE_LINES[lang if lang in MORE_LINES else "en"].format(n=more))
        return {"done": [_cut(line) for line in self.done], "not_understood": not_understood, "ignored": ignored}


#: How many lines of a reply an answer lists per kind, and how much of each.
SHOWN_LINES = 5
SHOWN_WIDTH = 120
MORE_LINES = tr("and {n} more lines, not shown")


def _cut(line: str) -> str:
    return line if len(line) <= SHOWN_WIDTH else line[: SHOWN_WIDTH - 1] + "…"


#: the words of an outcome line, each a message of the catalog (``[lang]`` picks the language)
OUTCOME_WORDS = {
    "win_one": tr("{names} wins — {reason}"),
    "win_many": tr("{names} win — {reason}"),
    "draw": tr("a draw — {reason}"),
    "lost": tr("nobody wins — {reason}"),
    "and": tr(" and "),
}


def outcome_text(outcome: Outcome | None, names: list[str], lang: str) -> str:
    words = {key: text[lang] for key, text in OUTCOME_WORDS.items()}
    if outcome is None:
        return ""
    reason = outcome.reason.get(lang)
    if outcome.draw:
        return words["draw"].format(reason=reason)
    if not outcome.winners:
        return words["lost"].format(reason=reason)
    winners = [names[s] for s in sorted(outcome.winners)]
    return words["win_one" if len(winners) == 1 else "win_many"].format(names=words["and"].join(winners),
                                                                       reason=reason)


def menu_context(engine: Engine[Any], state: Any, seat: int, lang: str) -> list[dict[str, Any]]:
    return [{"n": n, "command": c.command_in(lang), "label": c.label.get(lang)}
            for n, c in enumerate(engine.menu(state, seat), start=1)]


#: How often a player gets mail (see the module docstring); ``turns`` is the default.
MAIL_MODES = ("every", "turns", "daily")

#: Purposes that are receipts for a reply (shortened in ``turns``, left out in ``daily``).
RECEIPTS = ("moved", "received")


#: Menu lines a mail shows; the rest of the engine's menu (still valid numbers) and the legal
#: moves the engine's own menu leaves out are on the ``more`` pages. Why 10: with the board and
#: the digest, a turn mail then fits two phone screens (``python -m bench.mails``).
MENU_SHOWN = 10


def rest_of_menu(engine: Engine[Any], state: Any, seat: int) -> list[Any]:
    """The legal moves the engine's menu leaves out (a long menu is cut to stay readable):
    the ``more`` command pages through them, and a cut menu says so (never silently)."""
    shown = {c.action for c in engine.menu(state, seat)}
    return [c for c in engine.legal_actions(state, seat) if c.action not in shown]


def more_entries(engine: Engine[Any], state: Any, seat: int) -> list[tuple[int | None, Any]]:
    """What the ``more`` pages list: the menu's numbered lines past ``MENU_SHOWN`` (their
    numbers work in a reply), then the legal moves outside the menu (no number: written)."""
    menu = engine.menu(state, seat)
    return ([(n, c) for n, c in enumerate(menu, start=1) if n > MENU_SHOWN]
            + [(None, c) for c in rest_of_menu(engine, state, seat)])


def menu_more_line(hidden: int, lang: str) -> str:
    """The line under a cut menu: how many moves are not listed and how to see them."""
    if hidden <= 0:
        return ""
    return tr("… and {hidden} more move{value} not listed: reply `more` to see them, or write any move as text.", hidden=hidden, value='s' if hidden != 1 else '')[lang]


def next_line(names: list[str], to_act: frozenset[int], seat: int, deadline: str | None, over: bool,
              lang: str) -> str:
    """A receipt's "who is next" line: the seats that must act now and their deadline."""
    if over:
        return ""
    others = [names[s] for s in sorted(to_act) if s != seat]
    if not others:
        return ""
    who = tr(" and ")[lang].join(others)
    if deadline:
        return tr("Next: {who} (deadline {deadline}).", who=who, deadline=deadline)[lang]
    return tr("Next: {who}.", who=who)[lang]


def mail_to_seat(
    session: Session,
    ctx: AppContext,
    game: Game,
    engine: Engine[Any],
    state: Any,
    seat_row: GameSeat,
    player: Player,
    purpose: str,
    *,
    names: list[str],
    results: Results | None = None,
    kind: str | None = None,
    extra: dict[str, Any] | None = None,
    view_state: Any = None,
    short: bool = False,
) -> None:
    """Render and queue one mail for one seat, with the digest since its last mail.

    ``view_state`` (default ``state``) is the position the board is drawn from; the leak
    test passes the engine's marker-planted copy here. ``short`` (a receipt in the ``turns``
    mode): no board, picture or menu — what was done, what it caused, who is next and the
    deadline; ``state`` in a reply sends the whole view.
    """
    assert game.id is not None
    seat, lang = seat_row.seat, player.lang
    active = game.status == "active"
    to_act = engine.to_act(state) if active else frozenset()
    decision = engine.decision_key(state, seat)
    key = issue_key(session, ctx.key_secret, game.id, seat, decision, ctx.clock.now())
    events, last_log_id = events_since(session, game.id, seat, seat_row.last_log_id)
    digest = [event.text.get(lang) for _, event in events]
    view = engine.view(state if view_state is None else view_state, seat)
    shows_menu = active and not short
    deadline = format_deadline(game.deadline, player.tz, lang) if game.deadline else None
    values: dict[str, Any] = {
        "player": player.name,
        "players": names,
        "game": {"id": game.id, "title": engine.title},
        "digest": digest,
        "board": "" if short else engine.render_view(view, lang),
        "picture": picture_for(engine.id, view, lang) if ctx.settings.pictures and not short else None,
        "menu": menu_context(engine, state, seat, lang)[:MENU_SHOWN] if shows_menu else [],
        "menu_more": menu_more_line(len(more_entries(engine, state, seat)), lang) if shows_menu else "",
        "deadline": deadline if seat in to_act else None,
        "next": next_line(names, to_act, seat, deadline, not active, lang) if short else "",
        "short": short,
        "to_act": seat in to_act,
        "waiting": len(to_act - {seat}),
        "outcome": outcome_text(stored_outcome(game) or engine.outcome(state), names, lang),
        "final_board": not active,
    }
    if results is not None:
        values["results"] = results.as_context(lang)
        values["lines"] = results.lines
        values["sections"] = results.sections
        values["examples"] = results.examples
    values.update(extra or {})
    rendered = ctx.renderer.render(purpose, lang, **values)
    attachments = calendar_attachments(ctx, game, engine, seat_row, player, key, seat in to_act) \
        if player.calendar else []
    root = seat_thread_root(session, ctx, game.id, seat)
    queue_mail(
        session, ctx,
        to=player.address,
        kind=kind or purpose,
        subject=f"{subject_tag(engine.id, game.id)} {rendered.subject} · ref {key}",
        rendered=rendered,
        reply_to=reply_address(ctx.settings.service_address, key),
        game_id=game.id,
        in_reply_to=root,
        message_id=root if purpose == "started" else None,
        reply_key=key,
        attachments=attachments,
    )
    store_seat_marks(session, seat_row, last_log_id, key if seat in to_act else seat_row.reply_key)


def store_seat_marks(session: Session, seat_row: GameSeat, last_log_id: int, reply_key: str | None) -> None:
    """Set the seat's digest bookmark and reply key; a seat the session holds unchanged gets
    them written at once by a Core UPDATE, as committed values.

    Why: set on the ORM object, the changed seat made the commit run a unit-of-work flush for
    one row, which cost several times the UPDATE. A seat not yet in the database, or already
    changed in this session, gets them as ordinary attributes for the flush, as before; either
    way the row ends the same."""
    if (seat_row.last_log_id, seat_row.reply_key) == (last_log_id, reply_key):
        return
    state = inspect(seat_row)
    if seat_row.id is None or state.pending or state.modified:
        seat_row.last_log_id, seat_row.reply_key = last_log_id, reply_key
        return
    session.connection().execute(_STORE_SEAT_MARKS, {"seat_id": seat_row.id, "new_last_log_id": last_log_id,
                                                     "new_reply_key": reply_key})
    set_committed_value(seat_row, "last_log_id", last_log_id)
    set_committed_value(seat_row, "reply_key", reply_key)


#: ``store_seat_marks``'s UPDATE, built once.
_STORE_SEAT_MARKS = (update(GameSeat).where(col(GameSeat.id) == bindparam("seat_id"))
                     .values(last_log_id=bindparam("new_last_log_id"), reply_key=bindparam("new_reply_key")))


def seat_thread_root(session: Session, ctx: AppContext, game_id: int, seat: int) -> str:
    """The Message-ID every mail of this seat's thread points to.

    Normally the MAC under the current secret. After a rotation (``PBEM_SECRET_PREVIOUS`` set) a
    game started under a retired secret keeps the root its first mail carried, found in the
    outbox, so the players' clients keep the game in one conversation. Without retired secrets
    this costs no query."""
    domain = ctx.settings.domain
    roots = [thread_root(secret, game_id, seat, domain) for secret in ctx.key_secrets]
    if len(roots) > 1:
        used = set(session.exec(select(Outbox.message_id).where(col(Outbox.message_id).in_(roots))).all())
        for root in roots:
            if root in used:
                return root
    return roots[0]


def calendar_attachments(ctx: AppContext, game: Game, engine: Engine[Any], seat_row: GameSeat, player: Player,
                         key: str, acts: bool) -> list[Attachment]:
    """``calendar on``: the current decision's deadline as an event (a new version whenever a
    mail carries it again, e.g. after the deadline moved), and a cancellation of the seat's
    previous decision once it is made (``seat_row.reply_key`` names it until then)."""
    assert game.id is not None
    now, domain, lang = ctx.clock.now(), ctx.settings.domain, player.lang
    title = f"{subject_tag(engine.id, game.id)} {engine.title}"
    out: list[Attachment] = []
    previous = seat_row.reply_key
    if previous and (not acts or previous != key):
        summary = tr("{title}: move made", title=title)[lang]
        out.append(Attachment("text/calendar; method=CANCEL", "cancelled.ics",
                              cancelled_event(uid=event_uid(previous, domain), now=now, summary=summary)))
        if not acts:
            seat_row.reply_key = None
    if acts and game.deadline is not None:
        summary = tr("Deadline: your move in {title}", title=title)[lang]
        how = tr("Reply to the game's latest mail to move.")[lang]
        out.append(Attachment("text/calendar; method=PUBLISH", "deadline.ics", deadline_event(
            uid=event_uid(key, domain), deadline=game.deadline, now=now, summary=summary, description=how,
            reminders=policy_of(game, ctx.settings).reminders)))
    return out


def queue_game_mails(
    session: Session,
    ctx: AppContext,
    game: Game,
    engine: Engine[Any],
    state: Any,
    *,
    actor: int | None,
    started: bool = False,
    results: Results | None = None,
    seats: Sequence[tuple[GameSeat, Player]] | None = None,
) -> None:
    """Queue the mails a change of ``game`` causes (see the module docstring for who gets one).

    ``seats``: the game's ``seats_of`` when the caller holds them already."""
    assert game.id is not None
    seats = seats if seats is not None else seats_of(session, game.id)
    names = [player.name for _, player in seats]
    over = game.status != "active"
    to_act = frozenset() if over else engine.to_act(state)
    for seat_row, player in seats:
        seat = seat_row.seat
        if seat_row.bot:
            continue  # a bot-kept seat's decisions are played at once; nobody reads its mail
        if started:
            purpose = "started"
        elif over:
            purpose = "over"
        elif seat in to_act and (seat == actor or not key_matches(
                ctx.key_secrets, seat_row.reply_key, game.id, seat, engine.decision_key(state, seat))):
            purpose = "turn"
        elif seat == actor:
            purpose = "received" if engine.legal_actions(state, seat) else "moved"
        else:
            continue
        mode = player.mail_mode if player.mail_mode in MAIL_MODES else "turns"
        if purpose in RECEIPTS and mode == "daily" and not _needs_answer(results):
            continue  # its effects wait for the daily digest or the next turn mail
        wants_view = results is not None and (results.wants_view or results.wants_help)
        extra = {"lines_first": first_mail_lines(names, player.lang)} if started else None
        mail_to_seat(session, ctx, game, engine, state, seat_row, player, purpose, names=names,
                     results=results if seat == actor else None, extra=extra,
                     short=purpose in RECEIPTS and mode != "every" and not wants_view)


def _needs_answer(results: Results | None) -> bool:
    """A reply is always answered, whatever the mode, when a line was not understood or
    ignored, or when it asked for something besides the move (``state``, ``help``, ``log``…)."""
    return results is not None and bool(results.not_understood or results.ignored or results.lines
                                        or results.wants_help or results.wants_view)
