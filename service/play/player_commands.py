"""Player commands besides moves: small named plugins, help is generated from them (Mailman).

``GAME_COMMANDS`` work in a reply to a game mail (the reply key names game and seat);
``MAILBOX_COMMANDS`` work in a mail to the plain service address (no game): starting
games by mail, accepting an invitation, language and time zone.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlmodel import Session, col, select

import engines
from engines import i18n
from engines.contract import Engine, Event, Text, tr
from engines.i18n import each_lang
from engines.wording import fold, strip_fillers
from service.addresses import bare_address
from service.context import AppContext
from service.outbound.howto import rules_lines
from service.outbound.invitations import queue_invitations
from service.outbound.notify import MAIL_MODES, Results, mail_to_seat, more_entries
from service.outbound.render import format_deadline, subject_tag
from service.play import seats as seat_api
from service.play.start import create_game
from service.store.games import create_player, load, player_by_address, seats_of
from service.store.models import Game, GameSeat, Invitation, MoveLog, Player

LOG_LINES = 20


class CommandFailed(Exception):
    """A player command that cannot be done; ``message`` says why in both languages."""

    def __init__(self, message: Text) -> None:
        super().__init__(message.en)
        self.message = message


@dataclass
class Turn:
    """Everything a reply to a game mail is processed with; commands update it in place."""

    session: Session
    ctx: AppContext
    game: Game
    engine: Engine[Any]
    state: Any
    seat: int
    player: Player
    results: Results
    changed: bool = False
    ended: bool = False
    #: moves already worked out on a position: line -> (the state it was tried on, action,
    #: canonical text, new state, events). ``one_move_per_decision`` tries every line on the
    #: stored position; ``play`` reuses the result while the position is still that one
    #: (engines are pure: the same move on the same state gives the same result).
    tried: dict[str, tuple[Any, Any, str, Any, Any]] = field(default_factory=dict)


@dataclass
class Mailbox:
    """A mail to the plain service address from ``address`` (``player`` if known)."""

    session: Session
    ctx: AppContext
    address: str
    display_name: str
    player: Player | None
    results: Results
    games_started: list[Game] = field(default_factory=list)


@dataclass(frozen=True)
class Command:
    """A player command. ``args`` is how many words may follow the name (min, max; None = any):
    a line is this command only when the whole line is the name and that many arguments."""

    names: tuple[str, ...]
    usage: str
    help: Text
    run: Callable[[Any, list[str]], None]
    args: tuple[int, int | None] = (0, 0)
    #: every argument must match this (full match), when given
    arg_pattern: str | None = None


def _set_lang(player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    if len(args) != 1 or args[0] not in i18n.languages():
        raise CommandFailed(tr("Write `lang` and one of: {join}.", join=', '.join(i18n.languages())))
    player.lang = args[0]
    results.done.append(f"lang {args[0]}")


#: City names and common aliases people write, folded (``engines.wording.fold``), to IANA
#: zones; anything else is looked up among the zoneinfo names (``Europe/Paris``, ``paris``,
#: ``new york`` -> ``America/New_York``).
TZ_ALIASES: dict[str, str] = {
    "hanoi": "Asia/Ho_Chi_Minh", "ha noi": "Asia/Ho_Chi_Minh", "saigon": "Asia/Ho_Chi_Minh",
    "sai gon": "Asia/Ho_Chi_Minh", "ho chi minh": "Asia/Ho_Chi_Minh", "ho chi minh city": "Asia/Ho_Chi_Minh",
    "hcm": "Asia/Ho_Chi_Minh", "hcmc": "Asia/Ho_Chi_Minh", "tp hcm": "Asia/Ho_Chi_Minh", "tphcm": "Asia/Ho_Chi_Minh",
    "thanh pho ho chi minh": "Asia/Ho_Chi_Minh", "da nang": "Asia/Ho_Chi_Minh", "danang": "Asia/Ho_Chi_Minh",
    "hue": "Asia/Ho_Chi_Minh", "hai phong": "Asia/Ho_Chi_Minh", "can tho": "Asia/Ho_Chi_Minh",
    "nha trang": "Asia/Ho_Chi_Minh", "vietnam": "Asia/Ho_Chi_Minh", "viet nam": "Asia/Ho_Chi_Minh",
    "nyc": "America/New_York", "washington": "America/New_York", "boston": "America/New_York",
    "san francisco": "America/Los_Angeles", "sf": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "munich": "Europe/Berlin", "munchen": "Europe/Berlin", "frankfurt": "Europe/Berlin", "hamburg": "Europe/Berlin",
    "beijing": "Asia/Shanghai", "peking": "Asia/Shanghai", "bangkok": "Asia/Bangkok", "delhi": "Asia/Kolkata",
    "new delhi": "Asia/Kolkata", "mumbai": "Asia/Kolkata", "bombay": "Asia/Kolkata", "melbourne": "Australia/Melbourne",
    "utc": "UTC", "gmt": "UTC", "z": "UTC",
}


@functools.cache
def _zones_by_city() -> dict[str, str]:
    """Folded zone names and their last parts (``new york``) -> IANA zone."""
    out: dict[str, str] = {}
    for zone in sorted(available_timezones()):
        if zone.startswith(("Etc/", "SystemV/", "posix/", "right/")):
            continue
        out.setdefault(fold(zone), zone)
        out.setdefault(fold(zone.rsplit("/", 1)[-1]).replace("_", " "), zone)
    return out


def resolve_zone(text: str) -> str | None:
    """The IANA zone a player means by ``text`` (``Hanoi``, ``Sài Gòn``, ``new york``,
    ``Europe/Paris``), or None."""
    words = fold(text).replace("_", " ").replace("-", " ").strip(" .,!")
    words = " ".join(words.split())
    if not words:
        return None
    if words in TZ_ALIASES:
        return TZ_ALIASES[words]
    zones = _zones_by_city()
    found = zones.get(words) or zones.get(words.replace(" ", "_")) or zones.get(words.replace(" / ", "/"))
    if found:
        return found
    if "/" in text:
        try:
            ZoneInfo(text.strip())
            return text.strip()
        except (ZoneInfoNotFoundError, ValueError):
            return None
    return None


def _set_tz(player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    wanted = " ".join(args)
    zone = resolve_zone(wanted)
    if zone is None:
        raise CommandFailed(tr("I do not know the time zone {wanted!r}: write a city, e.g. `tz Hanoi`, `tz Paris`, `tz New York`, or a zone name such as `tz Europe/Berlin`.", wanted=wanted))
    player.tz = zone
    results.done.append(f"tz {zone}")


def _set_calendar(player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    if len(args) != 1 or fold(args[0]) not in ("on", "off", "bat", "tat"):
        raise CommandFailed(tr("Write `calendar on` or `calendar off`."))
    player.calendar = fold(args[0]) in ("on", "bat")
    results.done.append(f"calendar {'on' if player.calendar else 'off'}")


#: What players write after ``mail`` / ``thư`` (folded, see ``engines.wording.fold``) -> mode.
MAIL_MODE_WORDS: dict[str, str] = {
    "every": "every", "all": "every", "moi": "every", "tat ca": "every", "moi nuoc": "every",
    "turns": "turns", "turn": "turns", "luot": "turns", "moi luot": "turns", "den luot": "turns",
    "daily": "daily", "day": "daily", "ngay": "daily", "hang ngay": "daily", "moi ngay": "daily",
}

MAIL_MODE_TEXT = {
    "every": tr("a full mail after each of your moves, with the board"),
    "turns": tr("a mail when it is your turn or the game ends, and a short receipt for each reply"),
    "daily": tr("a mail when it is your turn or the game ends, and one summary a day instead of receipts"),
}


def mail_mode_line(player: Player) -> str:
    """``Your mail: turns — …`` for help and the ``mail`` answer (``settings`` in help)."""
    mode = player.mail_mode if player.mail_mode in MAIL_MODES else "turns"
    command = {"every": tr("`mail every`"),
               "turns": tr("`mail turns`"),
               "daily": tr("`mail daily`")}[mode][player.lang]
    return tr("Your mail: {command} — {MAIL_MODE_TEXT}. Change it with `mail turns`, `mail every` or `mail daily`.", command=command, MAIL_MODE_TEXT=MAIL_MODE_TEXT[mode])[player.lang]


def _set_mail(ctx: AppContext, player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    if not args:
        results.done.append("mail")
        results.lines.append(mail_mode_line(player))
        return
    mode = MAIL_MODE_WORDS.get(fold(" ".join(args)).strip(" .!"))
    if mode is None:
        raise CommandFailed(tr("Write `mail turns`, `mail every` or `mail daily`."))
    if mode == "daily" and player.mail_mode != "daily":
        player.last_digest_at = ctx.clock.now()  # the first digest comes at the next digest hour
    player.mail_mode = mode
    results.done.append(f"mail {mode}")
    results.lines.append(mail_mode_line(player))


def _settings(player: Player | None, results: Results) -> None:
    """``settings``: the player's language, time zone, calendar and mail setting, and how to change them."""
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    lang = player.lang
    results.done.append("settings")
    results.lines.extend([
        tr("Language: {lang_} (`lang en` / `lang vi`)", lang_=player.lang)[lang],
        tr("Time zone: {tz} (`tz Hanoi`)", tz=player.tz)[lang],
        (tr("Calendar: on (`calendar on|off`)")[lang] if player.calendar
         else tr("Calendar: off (`calendar on|off`)")[lang]),
        mail_mode_line(player),
    ])


def _vacation(session: Session, ctx: AppContext, player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    if len(args) != 1 or not args[0].isdigit():
        raise CommandFailed(tr("Write `vacation 7` for 7 days away (`back` ends it)."))
    try:
        until = seat_api.start_absence(session, ctx, player, int(args[0]))
    except seat_api.SeatError as exc:
        raise CommandFailed(exc.message) from None
    left = seat_api.vacation_days_left(ctx, player)
    results.done.append(f"vacation {args[0]}")
    results.lines.append(tr("Your clocks stand still until {format_deadline}; the other players have been told. Days of absence left this year: {left}. Write `back` when you return earlier.", format_deadline=each_lang(format_deadline, until, player.tz), left=left).get(player.lang))


def _back(session: Session, ctx: AppContext, player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    try:
        refund = seat_api.end_absence(session, ctx, player)
    except seat_api.SeatError as exc:
        raise CommandFailed(exc.message) from None
    results.done.append("back")
    results.lines.append(tr("Welcome back. {refund} unused day(s) returned to your allowance; your deadlines run again.", refund=refund).get(player.lang))


#: Extra words for `games` from features above this package (a league game names its league,
#: round and the player's rating): each maps game ids to a note; installed by those features.
GAME_NOTES: list[Callable[[Session, Player, list[int]], dict[int, str]]] = []


def my_games_lines(session: Session, ctx: AppContext, player: Player) -> list[str]:
    """``games``: one line per running game of ``player``: whose move, and the deadline (and
    any ``GAME_NOTES``, such as the league and rating)."""
    lang = player.lang
    rows = session.exec(select(Game, GameSeat).where(GameSeat.game_id == Game.id, GameSeat.player_id == player.id,
                                                     Game.status == "active").order_by(col(Game.id))).all()
    lines: list[str] = []
    notes: dict[int, str] = {}
    for add_notes in GAME_NOTES:
        notes.update(add_notes(session, player, [game.id for game, _ in rows if game.id is not None]))
    for game, row in rows:
        assert game.id is not None
        engine, state = load(game)
        to_act = engine.to_act(state)
        seats = seats_of(session, game.id)
        others = [p.name for r, p in seats if r.seat in to_act and r.seat != row.seat]
        when = format_deadline(game.deadline, player.tz, lang) if game.deadline else (
            tr("paused").get(lang))
        if row.seat in to_act:
            whose = tr("your move")[lang]
        else:
            joined = tr(" and ")[lang].join(others) or "-"
            whose = tr("waiting for {joined}", joined=joined)[lang]
        deadline = tr("deadline")[lang]
        note = f" ({notes[game.id]})" if game.id in notes else ""
        lines.append(f"{subject_tag(game.engine, game.id)} {engine.title}{note} — {whose}; {deadline} {when}")
    if not lines:
        lines.append(tr("You have no running games.")[lang])
    return lines


def _games(session: Session, ctx: AppContext, player: Player | None, results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    results.lines.extend(my_games_lines(session, ctx, player))
    results.done.append("games")


# -- in a game -----------------------------------------------------------------


def _help(turn: Turn, args: list[str]) -> None:
    turn.results.wants_help = True
    turn.results.done.append("help")


def _state(turn: Turn, args: list[str]) -> None:
    turn.results.done.append("state")
    turn.results.wants_view = True


def _rules(turn: Turn, args: list[str]) -> None:
    """The game's rules in short (``engines.summary``), with the seat's current mail."""
    turn.results.done.append("rules")
    turn.results.lines.extend(rules_lines(turn.engine, turn.player.lang))
    turn.results.title = tr("The rules in short").get(turn.player.lang)


#: Lines of the rest of a long menu per ``more`` page (page 1 is the mail's own menu).
PAGE_LINES = 20


def _more(turn: Turn, args: list[str]) -> None:
    """``more`` / ``more 3``: the moves a long menu leaves out, ``PAGE_LINES`` a page (page 1
    is the mail's own menu). Lines of the engine's menu keep their numbers, which work in a
    reply; moves outside it are listed as commands to write, so no number means two moves."""
    lang = turn.player.lang
    if turn.game.status != "active" or not turn.engine.legal_actions(turn.state, turn.seat):
        raise CommandFailed(tr("You have no move to choose now."))
    entries = more_entries(turn.engine, turn.state, turn.seat)
    if not entries:
        raise CommandFailed(tr("The menu in your mail already lists every move."))
    pages = (len(entries) + PAGE_LINES - 1) // PAGE_LINES + 1
    page = int(args[0]) if args else 2
    if not 2 <= page <= pages:
        raise CommandFailed(tr("There are pages 2 to {pages} (page 1 is the menu in your mail).", pages=pages))
    chunk = entries[(page - 2) * PAGE_LINES:(page - 1) * PAGE_LINES]
    turn.results.done.append(f"more {page}")
    turn.results.lines.append(
        tr("More moves, page {page} of {pages} — reply with the number, or write the move as shown:", page=page, pages=pages)[lang])
    turn.results.lines.extend(f"  {n}. {c.command} — {c.label.get(lang)}" if n is not None
                              else f"  {c.command} — {c.label.get(lang)}" for n, c in chunk)
    if page < pages:
        next_page = page + 1
        turn.results.lines.append(tr("Next page: `more {next_page}`.", next_page=next_page)[lang])
    turn.results.title = tr("More moves").get(lang)
    turn.results.short = True


def _log(turn: Turn, args: list[str]) -> None:
    """The last ``LOG_LINES`` events this seat may see, each with its time in the player's zone."""
    assert turn.game.id is not None
    rows = turn.session.exec(select(MoveLog).where(MoveLog.game_id == turn.game.id).order_by(col(MoveLog.id))).all()
    lines: list[str] = []
    for row in rows:
        for data in json.loads(row.events):
            event = Event.from_json(data)
            if event.visible(turn.seat):
                when = format_deadline(row.created_at, turn.player.tz, turn.player.lang).split(" (")[0]
                lines.append(f"{when}  {event.text.get(turn.player.lang)}")
    turn.results.lines = lines[-LOG_LINES:] or ["-"]
    turn.results.done.append("log")


RESIGN_CODE_RE = re.compile(r"^[A-Za-z0-9]{4}$")


def _resign(turn: Turn, args: list[str]) -> None:
    """``resign`` asks for a confirmation code; ``resign CODE`` does it (``play.seats``)."""
    if turn.game.status != "active":
        raise CommandFailed(tr("The game is already over."))
    lang = turn.player.lang
    row = turn.session.exec(select(GameSeat).where(GameSeat.game_id == turn.game.id,
                                                   GameSeat.seat == turn.seat)).one()
    if not args:
        code = seat_api.request_resignation(turn.session, turn.ctx, turn.game, row)
        rule = seat_api.resign_rule(turn.game, len(seats_of(turn.session, turn.game.id or 0)))
        effect = {
            "team": tr("the game ends and the other team wins"),
            "opponent": tr("the game ends and your opponent wins"),
            "bot": tr("a bot plays your seat and the others play on"),
        }[rule].get(lang)
        turn.results.done.append("resign")
        turn.results.lines.append(tr("To confirm, reply `resign {code}` within 24 hours. If you do, {effect}.", code=code, effect=effect).get(lang))
        return
    if len(args) != 1 or not RESIGN_CODE_RE.match(args[0]):
        raise CommandFailed(tr("To resign, write `resign` alone on a line; you will get a code to confirm."))
    if not seat_api.resign_code_valid(turn.ctx, row, args[0]):
        raise CommandFailed(tr("That code is wrong or older than a day: write `resign` for a new one."))
    before = turn.game.version
    state, ended = seat_api.confirm_resignation(turn.session, turn.ctx, turn.game, turn.engine, turn.state, row,
                                                turn.player)
    turn.results.done.append(f"resign {args[0].upper()}")
    turn.ended = True
    if turn.game.version != before:  # the game ended (``end_game``): everyone gets the final mail
        return
    turn.state, turn.changed = state, True
    # the seat is a bot's now: this is the player's last mail from the game; the others are told
    names = [p.name for _, p in seats_of(turn.session, turn.game.id or 0)]
    mail_to_seat(turn.session, turn.ctx, turn.game, turn.engine, state, row, turn.player, "info", names=names,
                 results=turn.results, kind="info", extra={"title": tr("You left the game; a bot plays your seat from now on. Thank you for playing!").get(lang)})
    name = turn.player.name
    if not ended:
        seat_api.notify_seats(turn.session, turn.ctx, turn.game,
                              lambda lg, _tz: tr("{name} left the game; a bot plays their seat", name=name).get(lg),
                              skip={turn.player.id}, engine_state=(turn.engine, state))


VACATION_NAMES = ("vacation", "away", "nghỉ", "nghi", "vắng", "vang")
BACK_NAMES = ("back", "quay lại", "quay lai", "về rồi", "ve roi")


def _shared_commands(player: Callable[[Any], Player | None], session: Callable[[Any], Session],
                     ctx: Callable[[Any], AppContext], results: Callable[[Any], Results]) -> list[Command]:
    """The player's own settings and overview, the same in a game reply and to the address."""
    return [
        Command(("games", "ván", "van", "các ván", "cac van"), "games",
                tr("my running games: whose move, and the deadlines"),
                lambda t, a: _games(session(t), ctx(t), player(t), results(t))),
        Command(("lang",), "lang vi|en", tr("the language of my mails"),
                lambda t, a: _set_lang(player(t), a, results(t)), (1, 1)),
        Command(("tz",), "tz CITY", tr("my time zone for deadlines, e.g. tz Hanoi, tz Paris, tz New York"),
                lambda t, a: _set_tz(player(t), a, results(t)), (1, 3)),  # "tz Ho Chi Minh"
        Command(VACATION_NAMES, "vacation DAYS",
                tr("away for some days: my clocks stop in all my games (`back` ends it)"),
                lambda t, a: _vacation(session(t), ctx(t), player(t), a, results(t)), (1, 1), r"\d{1,4}"),
        Command(BACK_NAMES, "back", tr("I am back: end my absence"),
                lambda t, a: _back(session(t), ctx(t), player(t), a, results(t))),
        Command(("settings", "cài đặt", "cai dat"), "settings",
                tr("my settings: language, time zone, calendar, mail"),
                lambda t, a: _settings(player(t), results(t))),
        Command(("mail", "thư"), "mail turns|every|daily",  # not "thu": a word of engine commands (thu tu)
                tr("how much mail I get: turns (default: my turns and a short receipt per reply), every (a full mail after each move), daily (my turns and one summary a day)"),
                lambda t, a: _set_mail(ctx(t), player(t), a, results(t)), (0, 2)),
        Command(("calendar", "lịch", "lich"), "calendar on|off",
                tr("turn mails carry the deadline as a calendar event"),
                lambda t, a: _set_calendar(player(t), a, results(t)), (1, 1)),
    ]


GAME_COMMANDS: list[Command] = [
    Command(("help", "trợ giúp", "tro giup", "?"), "help",
            tr("this help: the commands and the moves you can make now"), _help),
    Command(("state", "board", "trạng thái", "trang thai"), "state",
            tr("send me my view of the game again"), _state),
    Command(("rules", "luật", "luat", "luật chơi", "luat choi"), "rules",
            tr("the rules of this game in short"), _rules),
    Command(("more", "xem thêm", "xem them", "trang", "menu"), "more [PAGE]",
            tr("the moves a long menu leaves out, a page at a time (more 3: page 3)"),
            _more, (0, 1), r"\d{1,3}"),
    Command(("log", "nhật ký", "nhat ky"), "log",
            tr("the last {LOG_LINES} things that happened that I may see, with their times", LOG_LINES=LOG_LINES), _log),
    Command(("resign", "bỏ cuộc", "bo cuoc"), "resign",
            tr("give up (you get a code to confirm)"), _resign, (0, 1), r"[A-Za-z0-9]{3,8}"),
    *_shared_commands(lambda t: t.player, lambda t: t.session, lambda t: t.ctx, lambda t: t.results),
]


# -- to the service address ------------------------------------------------------

NEW_RE = re.compile(r"^(?:new|mới|moi)\s+(\w+)\s+(?:with|với|voi)\s+(.+)$", re.IGNORECASE)


def _mailbox_help(box: Mailbox, args: list[str]) -> None:
    box.results.wants_help = True
    box.results.done.append("help")


def _new(box: Mailbox, args: list[str]) -> None:
    if box.player is None:
        raise CommandFailed(tr("Only registered players can start games."))
    match = NEW_RE.match(" ".join(["new", *args]))
    if not match:
        raise CommandFailed(tr("Write `new tac with b@example.org c@example.org d@example.org`."))
    engine_id = match.group(1).lower()
    try:
        engine = engines.get(engine_id)
    except KeyError:
        known = ", ".join(engines.names(include_extra=False)) or "-"
        raise CommandFailed(tr("No game {engine_id!r}; games: {known}.", engine_id=engine_id, known=known)) from None
    others = [bare_address(a) for a in re.split(r"[\s,;]+", match.group(2)) if "@" in a]
    addresses = [box.player.address, *dict.fromkeys(a for a in others if a != box.player.address)]
    if not engine.min_players <= len(addresses) <= engine.max_players:
        raise CommandFailed(tr("{title} takes {min_players}-{max_players} players.", title=engine.title, min_players=engine.min_players, max_players=engine.max_players))
    assert box.player.id is not None
    invitation = Invitation(engine=engine_id, host_id=box.player.id, addresses=json.dumps(addresses),
                            accepted=json.dumps([box.player.address]), created_at=box.ctx.clock.now())
    box.session.add(invitation)
    box.session.flush()
    queue_invitations(box.session, box.ctx, invitation, box.player, engine)
    box.results.done.append(f"new {engine_id} with {' '.join(addresses[1:])} (invitation #{invitation.id})")


def _accept(box: Mailbox, args: list[str]) -> None:
    query = select(Invitation).where(Invitation.status == "open").order_by(col(Invitation.id))
    wanted = {int(a.lstrip("#")) for a in args if a.lstrip("#").isdigit()}
    open_for_me = [inv for inv in box.session.exec(query).all()
                   if box.address in json.loads(inv.addresses) and (not wanted or inv.id in wanted)]
    if not open_for_me:
        raise CommandFailed(tr("There is no open invitation for you."))
    if box.player is None:
        box.player = create_player(box.session, box.address, box.display_name, ctx=box.ctx)
    for inv in open_for_me:
        accepted = json.loads(inv.accepted)
        if box.address not in accepted:
            accepted.append(box.address)
            inv.accepted = json.dumps(accepted)
        box.results.done.append(f"accept #{inv.id}")
        addresses = json.loads(inv.addresses)
        if set(addresses) <= set(accepted):
            game = create_game(box.session, inv.engine, addresses, json.loads(inv.options), ctx=box.ctx)
            inv.status, inv.game_id = "started", game.id
            box.games_started.append(game)


def _takeover(box: Mailbox, args: list[str]) -> None:
    if box.player is None:
        raise CommandFailed(tr("Only registered players can take over a seat."))
    if len(args) != 1 or not args[0].lstrip("#").isdigit():
        raise CommandFailed(tr("Write `takeover 12` to take the open seat of game #12."))
    try:
        seat_api.take_over(box.session, box.ctx, box.player, int(args[0].lstrip("#")))
    except seat_api.SeatError as exc:
        raise CommandFailed(exc.message) from None
    box.results.done.append(f"takeover {args[0].lstrip('#')}")


MAILBOX_COMMANDS: list[Command] = [
    Command(("help", "trợ giúp", "tro giup", "?"), "help", tr("this help"), _mailbox_help),
    Command(("new", "mới", "moi"), "new GAME with ADDRESS ...",
            tr("start a game and invite the others, e.g. new tac with b@x c@x d@x"), _new, (3, None)),
    Command(("accept", "đồng ý", "dong y"), "accept", tr("join the game you were invited to"),
            _accept, (0, 5), r"#?\d{1,9}"),
    Command(("takeover", "thay chỗ", "thay cho"), "takeover GAME",
            tr("take an open seat of a running game"), _takeover, (1, 1), r"#?\d{1,9}"),
    *_shared_commands(lambda b: b.player, lambda b: b.session, lambda b: b.ctx, lambda b: b.results),
]


def find_command(commands: list[Command], line: str) -> tuple[Command, list[str]] | None:
    """The command the WHOLE line is (after ``engines.wording.strip_fillers``: "help please",
    "bỏ cuộc nhé"), with the number of arguments it takes; ``None`` for anything else.

    A sentence that merely contains a command word is not that command: "bỏ cuộc thì không
    bao giờ nhé, cường độ 3" ("give up? never") is not ``resign``. Accept's ``#3`` keeps its
    sign (the filler stripping would drop nothing else that matters)."""
    raw = line.strip()
    text = "?" if raw == "?" else strip_fillers(raw.replace("#", " #"))
    lowered = text.lower()
    for name, command in _longest_first(commands):
        if lowered == name or lowered.startswith(name + " "):
            count = len(text[len(name):].split())
            # the arguments as written (addresses keep their dots), less trailing fillers
            source = raw if raw.lower().startswith(name) else text
            args = source[len(name):].split()[:count]
            args = [a.rstrip(".,;!") or a for a in args]
            low, high = command.args
            if count < low or (high is not None and count > high):
                return None
            if command.arg_pattern and not all(re.fullmatch(command.arg_pattern, a) for a in args):
                return None
            return command, args
    return None


#: ``_longest_first``'s answers: id of the list -> (the list, its items then, the order)
_ORDERS: dict[int, tuple[list[Command], list[Command], list[tuple[str, Command]]]] = {}


def _longest_first(commands: list[Command]) -> list[tuple[str, Command]]:
    """Every (name, command) in the order ``find_command`` tries them: commands by their
    longest name, longest first, then each command's names longest first (both stable).

    Sorted once per list and kept (sorting on every line was a tenth of reading a reply); a
    list that changed since (``install`` adds the league commands) is sorted again. The
    list itself is kept with its order, so its id cannot be reused by another list."""
    kept = _ORDERS.get(id(commands))
    if kept is not None and len(kept[1]) == len(commands) and all(a is b for a, b in zip(kept[1], commands, strict=True)):
        return kept[2]
    order = [(name, command) for command in sorted(commands, key=lambda c: -max(len(n) for n in c.names))
             for name in sorted(command.names, key=len, reverse=True)]
    _ORDERS[id(commands)] = (commands, list(commands), order)
    return order


def help_lines(commands: list[Command], lang: str) -> list[tuple[str, str]]:
    return [(c.usage, c.help.get(lang)) for c in commands]


def seat_of(session: Session, game_id: int, seat: int) -> tuple[GameSeat, Player]:
    row = session.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == seat)).one()
    return row, session.get_one(Player, row.player_id)


def known_player(session: Session, address: str) -> Player | None:
    return player_by_address(session, address)
