"""League commands by mail: ``leagues``, ``join NAME``, ``leave NAME``, ``standings [NAME]``,
``schedule [NAME]``, ``ratings [NAME]`` — in a reply to any game mail or to the service
address, answered in the player's language. ``install`` also makes ``games`` name the league,
round and rating of a league game.

They live here, beside the league code, and are installed into the player-command tables by
the stages that read mail (``install``), because the play package sits below the leagues
and must not import them.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import col, select

import engines
from engines.contract import Text, tr
from service.leagues import report, season
from service.play import player_commands
from service.play.player_commands import Command, CommandFailed
from service.store.league_models import League, LeagueGame, LeagueMember
from service.store.models import Game, Player

NAME = r"[\w-]{1,40}"


def _who(box: Any) -> Player:
    player: Player | None = box.player
    if player is None:
        raise CommandFailed(tr("You are not a player yet."))
    return player


#: a league format as a player reads it
FORMAT_WORDS: dict[str, Text] = {
    "round-robin": tr("round robin: everyone plays everyone once"),
    "swiss": tr("Swiss: each round you meet someone with your score"),
    "partners": tr("partners change every round"),
    "tables": tr("tables of several players, mixed every round"),
}

#: a league game's state as a player reads it (``Game.status``)
GAME_STATUS_WORDS: dict[str, Text] = {
    "active": tr("in play"),
    "finished": tr("over"),
    "resigned": tr("over"),
}


def _leagues(box: Any, args: list[str]) -> None:
    """One paragraph per league open for sign-up or running: what game, how it is played, how
    full it is, and what to write to join."""
    lang = _who(box).lang
    found = box.session.exec(select(League).where(col(League.status).in_(("open", "running")))
                             .order_by(col(League.id))).all()
    lines: list[str] = []
    for league in found:
        count = len(season.members(box.session, league))
        how = FORMAT_WORDS.get(league.format)
        lines.append(f"{league.name} — {engines.get(league.engine).title}" + (f"; {how[lang]}" if how else ""))
        lines.append("  " + tr("{rounds} rounds of {days:g} days; {count} of {most} places taken",
                               rounds=league.rounds, days=league.round_days, count=count,
                               most=league.max_players)[lang])
        if league.status == "open":
            lines.append("  " + tr("sign-up open: write `join {name}`", name=league.name)[lang])
        else:
            lines.append("  " + tr("round {current_round} of {rounds} is being played", current_round=league.current_round,
                                   rounds=league.rounds)[lang])
        lines.append("")
    box.results.lines = lines[:-1] or [tr("No league is open right now.")[lang]]
    box.results.done.append("leagues")


def _join(box: Any, args: list[str]) -> None:
    player = _who(box)
    try:
        league = season.join(box.session, box.ctx, args[0], player)
    except season.LeagueError as exc:
        raise CommandFailed(_refusal(exc)) from None
    box.results.done.append(f"join {league.name}")
    box.results.lines = [tr("You are in {name}; round 1 comes by mail when the league starts.", name=league.name)[player.lang]]


def _leave(box: Any, args: list[str]) -> None:
    player = _who(box)
    try:
        league = season.leave(box.session, box.ctx, args[0], player)
    except season.LeagueError as exc:
        raise CommandFailed(_refusal(exc)) from None
    box.results.done.append(f"leave {league.name}")


def _my_leagues(box: Any, args: list[str]) -> list[League]:
    player = _who(box)
    if args:
        league = box.session.exec(select(League).where(League.name == args[0])).first()
        if league is None:
            raise CommandFailed(tr("No league {args!r}.", args=args[0]))
        return [league]
    mine = box.session.exec(select(League).join(LeagueMember, col(LeagueMember.league_id) == col(League.id))
                            .where(LeagueMember.player_id == player.id).order_by(col(League.id))).all()
    if not mine:
        raise CommandFailed(tr("You are in no league: write `leagues` to see the open ones."))
    return list(mine)


def _standings(box: Any, args: list[str]) -> None:
    player = _who(box)
    lang = player.lang
    for league in _my_leagues(box, args):
        title = tr("League {name} ({engine}), round {current_round} of {rounds}", name=league.name,
                   engine=engines.get(league.engine).title, current_round=league.current_round, rounds=league.rounds)[lang]
        box.results.sections.append(report.standings_section(season.table(box.session, league), lang, player.id, title))
    box.results.done.append("standings")


def _ratings(box: Any, args: list[str]) -> None:
    """A member's rating per round: before → after, and the game that moved it."""
    player = _who(box)
    assert player.id is not None
    lang = player.lang
    for league in _my_leagues(box, args):
        title = tr("Your rating in {name}", name=league.name)[lang]
        box.results.sections.append({"title": title, "items": report.rating_history(box.session, league, player.id, lang),
                                     "text": [], "table": None})
    box.results.done.append("ratings")


def _schedule(box: Any, args: list[str]) -> None:
    player = _who(box)
    lang = player.lang
    lines: list[str] = []
    for league in _my_leagues(box, args):
        games = box.session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                          LeagueGame.round == league.current_round)).all()
        ends = season.round_ends_at(box.session, league)
        head = tr("League {name}, round {current_round} of {rounds}", name=league.name, current_round=league.current_round, rounds=league.rounds)[lang]
        if ends is not None:
            head += tr(" (ends {ends:%Y-%m-%d})", ends=ends)[lang]
        lines.append(head + ":")
        for lg in games:
            seats = json.loads(lg.seats)
            names = [_name(box, pid) for pid in seats]
            game = box.session.get(Game, lg.game_id)
            said = GAME_STATUS_WORDS.get(game.status) if game else None
            status = said[lang] if said else (game.status if game else "?")
            mark = " ←" if player.id in seats else ""
            lines.append(f"  #{lg.game_id}: {' – '.join(names)} ({status}){mark}")
        lines.append("")
    box.results.lines = lines
    box.results.done.append("schedule")


def _name(box: Any, player_id: int) -> str:
    player = box.session.get(Player, player_id)
    return player.name if player else str(player_id)


def _refusal(exc: season.LeagueError) -> Text:
    """A league refusal as the player reads it: the words ``season`` gave it for players (a
    catalog Text), else the operator's English line as fixed words."""
    said = exc.said
    if isinstance(said, Text):
        return said
    if said is not None:
        return Text(said["en"], literal=said)
    return Text(str(exc))


LEAGUE_COMMANDS: list[Command] = [
    Command(("leagues", "các giải", "cac giai", "giải", "giai"), "leagues",
            tr("the leagues open for sign-up or running"), _leagues),
    Command(("join", "tham gia"), "join LEAGUE", tr("sign up for a league"), _join, (1, 1), NAME),
    Command(("leave", "rời giải", "roi giai"), "leave LEAGUE",
            tr("leave a league (before it starts, or drop out)"), _leave, (1, 1), NAME),
    Command(("standings", "bảng xếp hạng", "bang xep hang", "xếp hạng", "xep hang"), "standings [LEAGUE]",
            tr("the standings of my leagues"), _standings, (0, 1), NAME),
    Command(("schedule", "lịch thi đấu", "lich thi dau"), "schedule [LEAGUE]",
            tr("this round's games of my leagues"), _schedule, (0, 1), NAME),
    Command(("ratings", "hệ số", "he so"), "ratings [LEAGUE]",
            tr("my rating in my leagues, round by round"), _ratings,
            (0, 1), NAME),
]


def install() -> None:
    """Add the league commands to the game-reply and service-address command tables, and the
    league note to `games` (once each)."""
    for table in (player_commands.GAME_COMMANDS, player_commands.MAILBOX_COMMANDS):
        if not any(c is LEAGUE_COMMANDS[0] for c in table):
            table.extend(LEAGUE_COMMANDS)
    if report.game_notes not in player_commands.GAME_NOTES:
        player_commands.GAME_NOTES.append(report.game_notes)
