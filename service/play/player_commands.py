"""Player commands besides moves: small named plugins, help is generated from them (Mailman).

``GAME_COMMANDS`` work in a reply to a game mail (the reply key names game and seat);
``MAILBOX_COMMANDS`` work in a mail to the plain service address (no game): starting
games by mail, accepting an invitation, language and time zone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session, col, select

import engines
from engines.contract import Engine, Outcome, Text, tr
from service.addresses import bare_address
from service.context import AppContext
from service.outbound.invitations import queue_invitations
from service.outbound.notify import Results
from service.play.start import create_game
from service.store.games import create_player, end_game, player_by_address, visible_events
from service.store.models import Game, GameSeat, Invitation, Player

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
        raise CommandFailed(tr("You are not a player yet.", "Bạn chưa là người chơi."))
    if len(args) != 1 or args[0] not in ("en", "vi"):
        raise CommandFailed(tr("Write `lang vi` or `lang en`.", "Viết `lang vi` hoặc `lang en`."))
    player.lang = args[0]
    results.done.append(f"lang {args[0]}")


def _set_tz(player: Player | None, args: list[str], results: Results) -> None:
    if player is None:
        raise CommandFailed(tr("You are not a player yet.", "Bạn chưa là người chơi."))
    zone = args[0] if len(args) == 1 else ""
    try:
        if not zone or ("/" not in zone and zone.upper() != "UTC"):
            raise ZoneInfoNotFoundError(zone)
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise CommandFailed(tr(f"Unknown time zone {zone!r}: write e.g. `tz Asia/Ho_Chi_Minh` or `tz Europe/Berlin`.",
                               f"Không rõ múi giờ {zone!r}: viết ví dụ `tz Asia/Ho_Chi_Minh`.")) from None
    player.tz = zone
    results.done.append(f"tz {zone}")


# -- in a game -----------------------------------------------------------------


def _help(turn: Turn, args: list[str]) -> None:
    turn.results.wants_help = True
    turn.results.done.append("help")


def _state(turn: Turn, args: list[str]) -> None:
    turn.results.done.append("state")


def _log(turn: Turn, args: list[str]) -> None:
    assert turn.game.id is not None
    events = visible_events(turn.session, turn.game.id, turn.seat, limit=LOG_LINES)
    turn.results.lines = [event.text.get(turn.player.lang) for _, event in events] or ["-"]
    turn.results.done.append("log")


def _resign(turn: Turn, args: list[str]) -> None:
    if turn.game.status != "active":
        raise CommandFailed(tr("The game is already over.", "Ván chơi đã kết thúc."))
    name = turn.player.name
    outcome = Outcome(frozenset(), False, tr(f"{name} resigned", f"{name} đã bỏ cuộc"))
    end_game(turn.session, turn.ctx, turn.game, "resigned", outcome)
    turn.ended = True
    turn.results.done.append("resign")


GAME_COMMANDS: list[Command] = [
    Command(("help", "trợ giúp", "tro giup", "?"), "help",
            tr("this help: the commands and the moves you can make now", "trợ giúp này: các lệnh và nước đi"), _help),
    Command(("state", "board", "trạng thái", "trang thai"), "state",
            tr("send me my view of the game again", "gửi lại thế cờ của tôi"), _state),
    Command(("log", "nhật ký", "nhat ky"), "log",
            tr(f"the last {LOG_LINES} things that happened that I may see", f"{LOG_LINES} sự kiện gần nhất"), _log),
    Command(("resign", "bỏ cuộc", "bo cuoc"), "resign",
            tr("give up: the game ends for everyone", "bỏ cuộc: ván chơi kết thúc cho mọi người"), _resign),
    Command(("lang",), "lang vi|en", tr("the language of my mails", "ngôn ngữ thư của tôi"),
            lambda t, a: _set_lang(t.player, a, t.results), (1, 1)),
    Command(("tz",), "tz Area/City", tr("my time zone for deadlines, e.g. tz Asia/Ho_Chi_Minh",
                                        "múi giờ của tôi, ví dụ tz Asia/Ho_Chi_Minh"),
            lambda t, a: _set_tz(t.player, a, t.results), (1, 1)),
]


# -- to the service address ------------------------------------------------------

NEW_RE = re.compile(r"^(?:new|mới|moi)\s+(\w+)\s+(?:with|với|voi)\s+(.+)$", re.IGNORECASE)


def _mailbox_help(box: Mailbox, args: list[str]) -> None:
    box.results.wants_help = True
    box.results.done.append("help")


def _new(box: Mailbox, args: list[str]) -> None:
    if box.player is None:
        raise CommandFailed(tr("Only registered players can start games.", "Chỉ người chơi đã đăng ký mới tạo ván."))
    match = NEW_RE.match(" ".join(["new", *args]))
    if not match:
        raise CommandFailed(tr("Write `new tac with b@example.org c@example.org d@example.org`.",
                               "Viết `new tac with b@example.org c@example.org d@example.org`."))
    engine_id = match.group(1).lower()
    try:
        engine = engines.get(engine_id)
    except KeyError:
        known = ", ".join(engines.names(include_extra=False)) or "-"
        raise CommandFailed(tr(f"No game {engine_id!r}; games: {known}.", f"Không có trò {engine_id!r}; các trò: {known}.")) from None
    others = [bare_address(a) for a in re.split(r"[\s,;]+", match.group(2)) if "@" in a]
    addresses = [box.player.address, *dict.fromkeys(a for a in others if a != box.player.address)]
    if not engine.min_players <= len(addresses) <= engine.max_players:
        raise CommandFailed(tr(f"{engine.title} takes {engine.min_players}-{engine.max_players} players.",
                               f"{engine.title} cần {engine.min_players}-{engine.max_players} người chơi."))
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
        raise CommandFailed(tr("There is no open invitation for you.", "Không có lời mời nào cho bạn."))
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


MAILBOX_COMMANDS: list[Command] = [
    Command(("help", "trợ giúp", "tro giup", "?"), "help", tr("this help", "trợ giúp này"), _mailbox_help),
    Command(("new", "mới", "moi"), "new GAME with ADDRESS ...",
            tr("start a game and invite the others, e.g. new tac with b@x c@x d@x",
               "tạo ván mới và mời người khác, ví dụ new tac with b@x c@x d@x"), _new, (3, None)),
    Command(("accept", "đồng ý", "dong y"), "accept", tr("join the game you were invited to", "tham gia ván được mời"),
            _accept, (0, 5), r"#?\d{1,9}"),
    Command(("lang",), "lang vi|en", tr("the language of my mails", "ngôn ngữ thư của tôi"),
            lambda b, a: _set_lang(b.player, a, b.results), (1, 1)),
    Command(("tz",), "tz Area/City", tr("my time zone for deadlines", "múi giờ của tôi"),
            lambda b, a: _set_tz(b.player, a, b.results), (1, 1)),
]


def find_command(commands: list[Command], line: str) -> tuple[Command, list[str]] | None:
    """The command the WHOLE line is (after ``engines.wording.strip_fillers``: "help please",
    "bỏ cuộc nhé"), with the number of arguments it takes; ``None`` for anything else.

    A sentence that merely contains a command word is not that command: "bỏ cuộc thì không
    bao giờ nhé, cường độ 3" ("give up? never") is not ``resign``. Accept's ``#3`` keeps its
    sign (the filler stripping would drop nothing else that matters)."""
    from engines.wording import strip_fillers

    raw = line.strip()
    text = "?" if raw == "?" else strip_fillers(raw.replace("#", " #"))
    lowered = text.lower()
    for command in sorted(commands, key=lambda c: -max(len(n) for n in c.names)):
        for name in sorted(command.names, key=len, reverse=True):
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


def help_lines(commands: list[Command], lang: str) -> list[tuple[str, str]]:
    return [(c.usage, c.help.get(lang)) for c in commands]


def seat_of(session: Session, game_id: int, seat: int) -> tuple[GameSeat, Player]:
    row = session.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == seat)).one()
    return row, session.get_one(Player, row.player_id)


def known_player(session: Session, address: str) -> Player | None:
    return player_by_address(session, address)
