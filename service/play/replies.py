"""Handling the command lines of a reply to a game mail: moves and player commands, in order.

A bare number means the option of the menu in the mail being answered: it is accepted only
while the reply key's decision is still the seat's current decision (another seat's secret
choice does not change it), otherwise it is refused with the current menu. Free text is
always parsed against the current state. Lines nobody can read are listed as not
understood and skipped (a greeting such as "Hi!" must not cost the move below it); a line
that is understood but cannot be played stops the reply, and what follows is ignored, since
the player wrote it expecting the earlier line to have worked.
"""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import Session, select

from engines.contract import Action, CommandError, IllegalCommand, InvalidCommand, Text, tr
from engines.i18n import each_lang
from service.context import AppContext
from service.outbound.keys import KeyInfo
from service.outbound.notify import Results, mail_to_seat, queue_game_mails
from service.play.player_commands import (
    GAME_COMMANDS,
    CommandFailed,
    Turn,
    find_command,
    help_lines,
    mail_mode_line,
)
from service.play.seats import play_bot_seats, reclaim_seat
from service.store.games import load, log_move, save_state, seats_of
from service.store.models import Game, GameSeat, Outbox, Player

MAX_LINES = 20
#: A bare menu number as people write it: "3", "3.", "#3", "(3)", "no. 3", "số 3", "option 3".
MENU_NUMBER_RE = re.compile(r"^(?:#|no\.?|nr\.?|số|so|option|lựa chọn|lua chon)?\s*\(?(\d{1,3})[.)]?$", re.IGNORECASE)


def menu_number(line: str) -> int | None:
    match = MENU_NUMBER_RE.match(line.strip())
    return int(match.group(1)) if match else None


def outdated_menu_message() -> Text:
    return tr("That number answers an older mail; the game has moved on. Here is your current menu.")


def resolve_line(turn: Turn, key: KeyInfo, line: str) -> tuple[Action, str]:
    """The action a line means, and its canonical text. Raises ``CommandError``."""
    engine, state, seat = turn.engine, turn.state, turn.seat
    number = menu_number(line)
    if number is not None:
        if key.decision != engine.decision_key(state, seat):
            raise IllegalCommand(outdated_menu_message())
        menu = engine.menu(state, seat)
        as_command = _legal_command(turn, line)
        if not 1 <= number <= len(menu):
            if as_command is not None:  # not an option, but a move (TAC: "13" is the card)
                return as_command
            raise IllegalCommand(tr("There is no option {number}: the menu has 1 to {n}.", number=number, n=len(menu)))
        choice = menu[number - 1]
        if as_command is not None and as_command[0] != choice.action:
            raise IllegalCommand(tr('"{line}" can mean option {number} ({command_in}) or the move {as_command}; nothing was played. Write the move itself.', line=line, number=number, command_in=each_lang(choice.command_in), as_command=as_command[1]), [choice.command, as_command[1]])
        return choice.action, choice.command
    action = engine.parse(state, seat, line)
    return action, engine.format(state, action)


def _legal_command(turn: Turn, line: str) -> tuple[Action, str] | None:
    """What ``line`` means as a written command, if it is a legal move now (else ``None``)."""
    engine, state, seat = turn.engine, turn.state, turn.seat
    try:
        action = engine.parse(state, seat, line)
        engine.apply(state, seat, action)  # pure: only checks that the move is legal
    except CommandError:
        return None
    return action, engine.format(state, action)


def _in_reader_words(turn: Turn, action: Action, canonical: str) -> str:
    """The command as the menu showed it to this reader (Vietnamese words to a Vietnamese player),
    so the "done" line never answers a Vietnamese reply in English."""
    if turn.player.lang == "en":
        return canonical
    for choice in turn.engine.legal_actions(turn.state, turn.seat):
        if choice.action == action:
            return choice.command_in(turn.player.lang)
    return canonical


def localised_examples(turn: Turn, examples: list[str]) -> list[str]:
    """An error's example commands in the reader's command words, as the menu shows them.

    Engines write examples in canonical (English) form; each that reads back as a move is
    rewritten for the reader (``_in_reader_words``), any other is kept as it is."""
    if turn.player.lang == "en":
        return examples
    out = []
    for example in examples:
        try:
            action = turn.engine.parse(turn.state, turn.seat, example)
        except CommandError:
            out.append(example)
            continue
        out.append(_in_reader_words(turn, action, example))
    return out


def play(turn: Turn, key: KeyInfo, line: str, inbound_id: int | None) -> None:
    """Apply one move line to ``turn.state`` and log it (the caller saves the state)."""
    if turn.game.status != "active":
        raise IllegalCommand(tr("The game is over."))
    if not turn.engine.legal_actions(turn.state, turn.seat):
        # not a stop: nothing the player wrote after it depended on this line working
        raise CommandFailed(tr("It is not your turn: you will get a mail when it is."))
    tried = turn.tried.get(line)
    if tried is not None and tried[0] is turn.state:  # worked out by one_move_per_decision
        _seen, action, canonical, new_state, events = tried
    else:
        action, canonical = resolve_line(turn, key, line)
        new_state, events = turn.engine.apply(turn.state, turn.seat, action)
    canonical = _in_reader_words(turn, action, canonical)
    log_move(turn.session, turn.ctx, turn.game, turn.seat, line, action, events,
             turn.engine.state_version(new_state), inbound_id)
    turn.state = new_state
    turn.changed = True
    turn.results.examples = []  # examples of an earlier error no longer fit the new position
    turn.results.done.append(canonical if canonical == line else f"{line} → {canonical}")
    if turn.engine.outcome(new_state) is not None:
        turn.ended = True


def handle_game_reply(
    session: Session, ctx: AppContext, game: Game, key: KeyInfo, seat_row: GameSeat, player: Player,
    lines: list[str], inbound_id: int | None, *, seats: list[tuple[GameSeat, Player]] | None = None,
) -> str:
    """Run every line, save the game once, queue every mail. Returns the inbound status.

    ``seats``: the game's ``seats_of`` when the caller read them already (``authenticate_seats``);
    a reply changes seat rows in place, never which player holds a seat."""
    engine, state = load(game)
    turn = Turn(session, ctx, game, engine, state, seat_row.seat, player, Results())
    lang = player.lang
    if seat_row.bot:
        if seat_row.bot_reason == "resigned":  # they left: nothing they write changes the game
            turn.results.not_understood.extend({"text": line, "why": tr("You resigned from this game; a bot plays your seat.").get(lang)} for line in lines[:MAX_LINES])
            answer_without_change(session, ctx, turn)
            return "rejected"
        reclaim_seat(session, seat_row)  # an abandoned player is back before a substitute came
        turn.results.done.append(tr("your seat is yours again")[lang])
    extra_lines = lines[MAX_LINES:]
    lines, duplicates, rivals = one_move_per_decision(turn, key, lines[:MAX_LINES])
    if rivals:
        answer_ambiguous(session, ctx, turn, rivals)
        return "rejected"
    lines = lines + extra_lines
    for index, line in enumerate(lines[:MAX_LINES]):
        if turn.ended:
            turn.results.ignored.extend(lines[index:])
            break
        found = find_command(GAME_COMMANDS, line)
        try:
            if found is not None:
                command, args = found
                command.run(turn, args)
            else:
                play(turn, key, line, inbound_id)
        except CommandFailed as exc:
            turn.results.not_understood.append({"text": line, "why": exc.message.get(lang)})
        except CommandError as exc:
            turn.results.not_understood.append({"text": line, "why": exc.message.get(lang)})
            turn.results.examples = localised_examples(turn, exc.examples[:5])
            if not isinstance(exc, InvalidCommand):
                turn.results.ignored.extend(lines[index + 1:])
                break
    else:
        turn.results.ignored.extend(lines[MAX_LINES:])
    turn.results.ignored.extend(f"{line} (same move as above)" for line in duplicates)
    # read once for the three steps below (seat rows change in place, never their players)
    if not (turn.changed or turn.ended):
        seats = []
    elif seats is None:
        seats = seats_of(session, game.id or 0)
    if turn.changed:
        if not seat_row.bot and seat_row.misses:
            # a move of the player's own: no longer "missed in a row" (set only when it changes:
            # an unchanged seat is not flushed by the ORM, see notify.store_seat_marks)
            seat_row.misses = 0
        if game.status == "active":  # a bot-kept seat that must act now moves at once
            turn.state, _ = play_bot_seats(session, ctx, game, engine, turn.state, seats)
        save_state(session, ctx, game, engine, turn.state, seats)
    if turn.changed or turn.ended:
        queue_game_mails(session, ctx, game, engine, turn.state, actor=turn.seat, results=turn.results,
                         seats=seats)
        return "applied"
    answer_without_change(session, ctx, turn)
    return "applied" if turn.results.done else "rejected"


AMBIGUOUS = tr("Your reply holds more than one move for the same decision, so I did not play any of them. Which one did you mean? Reply with just that line.")


def one_move_per_decision(turn: Turn, key: KeyInfo, lines: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(lines to run, later lines that repeat the same move, rival lines).

    Every line that is a legal move in the position the player saw is a candidate for the
    decision they were answering. Two candidates that mean different moves are rivals: the
    player offered alternatives (or a signature such as "2 kids, 1 dog" read as a choice, or a
    later line that would silently replace an earlier secret choice), and one wrong move is
    worse than a question, so nothing is applied. A line that is only legal AFTER an earlier
    one (the next step of a turn) is not a rival. The engine is pure: trying a move on the
    stored position changes nothing.
    """
    engine, state, seat = turn.engine, turn.state, turn.seat
    if turn.game.status != "active" or not engine.legal_actions(state, seat):
        return lines, [], []
    seen: dict[str, str] = {}
    keep: list[str] = []
    duplicates: list[str] = []
    for line in lines:
        if find_command(GAME_COMMANDS, line) is None:
            try:
                action, canonical = resolve_line(turn, key, line)
                new_state, events = engine.apply(state, seat, action)
                turn.tried[line] = (state, action, canonical, new_state, events)  # play reuses it
            except CommandError:
                pass
            else:
                if canonical in seen:
                    duplicates.append(line)
                    continue
                seen[canonical] = line
        keep.append(line)
    if len(seen) > 1:
        return lines, [], list(seen.values())
    return keep, duplicates, []


def answer_ambiguous(session: Session, ctx: AppContext, turn: Turn, rivals: list[str]) -> None:
    """Nothing applied: the seat's mail again, listing the rival lines, asking which one."""
    why = tr("one decision, several moves — which one?")
    turn.results.not_understood = [{"text": line, "why": why.get(turn.player.lang)} for line in rivals]
    assert turn.game.id is not None
    seats = seats_of(session, turn.game.id)
    seat_row = next(row for row, _ in seats if row.seat == turn.seat)
    mail_to_seat(session, ctx, turn.game, turn.engine, turn.state, seat_row, turn.player, "rejected",
                 names=[p.name for _, p in seats], results=turn.results, kind="rejected",
                 extra={"why": AMBIGUOUS.get(turn.player.lang)})


def answer_without_change(session: Session, ctx: AppContext, turn: Turn) -> None:
    """The one answer to a reply that changed no game: help, state, log, or what went wrong."""
    results, game, engine, state = turn.results, turn.game, turn.engine, turn.state
    assert game.id is not None
    seats = seats_of(session, game.id)
    names = [p.name for _, p in seats]
    seat_row = next(row for row, _ in seats if row.seat == turn.seat)
    if not results.done and results.not_understood:
        purpose, kind = "rejected", "rejected"
        extra: dict[str, Any] = {"why": ""}
    elif results.wants_help:
        purpose, kind = "help", "help"
        extra = {"commands": help_lines(GAME_COMMANDS, turn.player.lang)}
        results.lines.append(mail_mode_line(turn.player))
        if not results.examples:
            results.examples = [c.command_in(turn.player.lang) for c in engine.menu(state, turn.seat)[:3]]
    else:
        purpose, kind = "info", "info"
        extra = {"title": results.title or tr("Your game")[turn.player.lang]}
    mail_to_seat(session, ctx, game, engine, state, seat_row, turn.player, purpose, names=names,
                 results=results, kind=kind, extra=extra, short=results.short and purpose == "info")


def answer_finished(session: Session, ctx: AppContext, game: Game, seat_row: GameSeat, player: Player) -> bool:
    """One polite "this game is over" per player and game; later replies stay unanswered."""
    already = session.exec(select(Outbox.id).where(
        Outbox.game_id == game.id, Outbox.to_address == player.address, Outbox.kind == "finished")).first()
    if already is not None:
        return False
    engine, state = load(game)
    names = [p.name for _, p in seats_of(session, game.id or 0)]
    mail_to_seat(session, ctx, game, engine, state, seat_row, player, "finished", names=names)
    return True


UNCONFIRMED = tr('Your mail reached me without its reply address (the part after the + sign, or "ref …" in the subject), so I cannot be sure it comes from you. Reply to this mail to play.')

UNREADABLE = tr("I could not read your reply: it had no text I can read (for example only a winmail.dat attachment, or an encrypted message). Please reply again as plain text or HTML — in Outlook, choose Format Text › Plain Text or HTML — and write your move above the line.")


TOO_LARGE = tr("Your reply is too large for me to read (very long text or a huge attachment). Please reply again with just your move above the line.")


def answer_unconfirmed(session: Session, ctx: AppContext, game: Game, seat_row: GameSeat, player: Player) -> None:
    """A reply that reached us without its reply key (only In-Reply-To pointed at our mail).

    Anyone can copy a Message-ID into a forged mail, so nothing is applied; the seat's own
    address gets its current mail, whose reply address carries the key, and replying to that
    mail plays. Counted as an error answer (rate-limited), so forgeries cannot flood the seat.
    """
    answer_problem(session, ctx, game, seat_row, player, UNCONFIRMED)


def answer_problem(session: Session, ctx: AppContext, game: Game, seat_row: GameSeat, player: Player,
                   why: Text) -> None:
    """The seat's current mail (board, menu, key) with one sentence saying why nothing changed."""
    engine, state = load(game)
    names = [p.name for _, p in seats_of(session, game.id or 0)]
    mail_to_seat(session, ctx, game, engine, state, seat_row, player, "rejected", names=names,
                 results=Results(), kind="rejected", extra={"why": why.get(player.lang)})
