"""``pbem league new|list|show|open|close|start|pair|standings|ratings|drop|settle``: the operator's leagues.

Thin commands over ``service.leagues.season``; every refusal is one line and exit code 1,
a bad configuration exit code 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from sqlmodel import Session, col, select

from engines import i18n
from service.config import ConfigError, load_settings
from service.context import AppContext

console = Console()
ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="TOML file (default config/pbem.toml)")]
league_app = typer.Typer(help="Leagues: seasons of rounds, pairings, standings and ratings.", no_args_is_help=True)


def _fail(message: str, code: int = 1) -> None:
    console.print(f"[red]error:[/red] {message}", markup=True, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def _session(config: Path | None) -> Iterator[tuple[Session, AppContext]]:
    from service.leagues.season import LeagueError

    try:
        ctx = AppContext.create(load_settings(config))
    except ConfigError as exc:
        _fail(str(exc), 2)
    with ctx.session() as s:
        try:
            yield s, ctx
            s.commit()
        except (LeagueError, ValueError, KeyError) as exc:
            s.rollback()
            # a KeyError's str() is its repr ('name'); every other error's text is the message
            _fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc))


def _league(s: Session, name: str) -> Any:
    from service.leagues.season import LeagueError
    from service.store.league_models import League

    league = s.exec(select(League).where(League.name == name)).first()
    if league is None:
        raise LeagueError(f"no league {name!r}")
    return league


def _names(s: Session, player_ids: list[int]) -> str:
    """Players by name, in the order given: an operator reads names, not row ids."""
    from service.store.models import Player

    return ", ".join((p.name if (p := s.get(Player, pid)) else f"#{pid}") for pid in player_ids)


@league_app.command("new")
def league_new(
    name: Annotated[str, typer.Argument(help="one word, e.g. spring-tt")],
    engine_id: Annotated[str, typer.Argument(help="tac, tagteam, grizzled or barcadia")],
    fmt: Annotated[str | None, typer.Option("--format", help="round-robin, swiss, partners or tables")] = None,
    rounds: Annotated[int | None, typer.Option(help="number of rounds (default: by format)")] = None,
    round_days: Annotated[float, typer.Option(help="length of a round in days")] = 14.0,
    turn_hours: Annotated[float | None, typer.Option(help="deadline per decision in hours")] = None,
    max_players: Annotated[int, typer.Option(help="player limit")] = 32,
    signup_days: Annotated[float | None, typer.Option(help="sign-up window in days")] = None,
    policy: Annotated[str, typer.Option(help="deadline policy of the games, e.g. 'hours=48 reminders=24 miss=wait'")] = "",
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE game option")] = None,
    tie_breaks: Annotated[str, typer.Option(help="standings order, e.g. 'points,h2h,buchholz,wins,rating'")] = "",
    config: ConfigOpt = None,
) -> None:
    """Create a league, open for sign-up (players write `join NAME` to the service)."""
    from service.leagues.season import LeagueError, new_league

    options: dict[str, Any] = {}
    for item in option or []:
        key, sep, value = item.partition("=")
        if not sep:
            _fail(f"option {item!r} is not NAME=VALUE")
        options[key] = value
    with _session(config) as (s, ctx):
        if round_days <= 0:
            raise LeagueError("--round-days must be positive")
        league = new_league(s, ctx, name, engine_id, fmt=fmt, rounds=rounds, round_days=round_days,
                            turn_hours=turn_hours, max_players=max_players, options=options, signup_days=signup_days,
                            policy=policy, tie_breaks=tie_breaks)
        console.print(f"league {league.name}: {league.engine}, {league.format}, open for sign-up")


@league_app.command("list")
def league_list(config: ConfigOpt = None) -> None:
    """Every league with its game, format, status, round and members."""
    from service.leagues.season import members
    from service.store.league_models import League

    with _session(config) as (s, _):
        table = Table("name", "game", "format", "status", "round", "players")
        for league in s.exec(select(League).order_by(col(League.id))).all():
            table.add_row(league.name, league.engine, league.format, league.status,
                          f"{league.current_round}/{league.rounds or '?'}", str(len(members(s, league))))
        console.print(table)


@league_app.command("show")
def league_show(name: str, config: ConfigOpt = None) -> None:
    """The league's settings, members and the games of the current round."""
    from service.leagues.season import members
    from service.store.league_models import LeagueGame
    from service.store.models import Game

    with _session(config) as (s, _):
        league = _league(s, name)
        console.print(f"{league.name}: {league.engine} ({league.format}), {league.status}, round "
                      f"{league.current_round}/{league.rounds or '?'}, {league.round_days:g} days a round, "
                      f"{league.turn_hours:g} h a decision", markup=False)
        console.print("members: " + ", ".join(f"{p.name} <{p.address}>" for _, p in members(s, league)), markup=False)
        games = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                LeagueGame.round == league.current_round)).all()
        table = Table("game", "players (seat order)", "status", "points")
        for lg in games:
            game = s.get(Game, lg.game_id)
            table.add_row(str(lg.game_id), _names(s, json.loads(lg.seats)), game.status if game else "?",
                          lg.points or "")
        console.print(table)


def _status(to: str, allowed: tuple[str, ...]) -> Callable[[str, Path | None], None]:
    def command(name: str, config: ConfigOpt = None) -> None:
        from service.leagues.season import LeagueError

        with _session(config) as (s, _):
            league = _league(s, name)
            if league.status not in allowed:
                raise LeagueError(f"league {name} is {league.status}")
            league.status = to
            console.print(f"league {name} is {to}")
    return command


league_app.command("open", help="Open the sign-up again.")(_status("open", ("closed",)))
league_app.command("close", help="Close the sign-up (start later with `start`).")(_status("closed", ("open",)))


@league_app.command("start")
def league_start(name: str, config: ConfigOpt = None) -> None:
    """Close the sign-up, pair round 1 and start its games (their first mails go out)."""
    from service.leagues.season import start

    with _session(config) as (s, ctx):
        league = start(s, ctx, name)
        console.print(f"league {name}: round 1 of {league.rounds} started")


@league_app.command("pair")
def league_pair(name: str, config: ConfigOpt = None) -> None:
    """Show the pairing the next round would get (nothing is created)."""
    from service.leagues.season import LeagueError, pair_round

    with _session(config) as (s, ctx):
        league = _league(s, name)
        if league.status == "finished" or (league.rounds and league.current_round >= league.rounds):
            raise LeagueError(f"league {name} has played all its {league.rounds} rounds: there is no next round")
        rnd = pair_round(s, league, league.current_round + 1, ctx.clock.now())
        console.print(f"round {league.current_round + 1} would be:", markup=False)
        for game in rnd.games:
            console.print("  " + " vs ".join(_names(s, [pid]) for pid in game), markup=False)
        if rnd.byes:
            console.print("  byes: " + _names(s, list(rnd.byes)), markup=False)
        s.rollback()


@league_app.command("standings")
def league_standings(name: str, lang: str = "en", mail: bool = typer.Option(False, help="also mail them to members"),
                     config: ConfigOpt = None) -> None:
    """The standings, recomputed from the stored games."""
    from service.leagues.report import mail_standings
    from service.leagues.scoring import standings_text
    from service.leagues.season import LeagueError, table

    with _session(config) as (s, ctx):
        league = _league(s, name)
        if lang not in i18n.languages():
            raise LeagueError(f"--lang is {' or '.join(i18n.languages())}")
        console.print(f"tie-breaks: {league.tie_breaks.replace(',', ', ')}", markup=False, highlight=False)
        for line in standings_text(table(s, league), lang):
            console.print(line, markup=False, highlight=False)
        if mail:
            mail_standings(s, ctx, league)


@league_app.command("ratings")
def league_ratings(name: str, player: Annotated[str | None, typer.Option("--player", help="one member's history, "
                                                                           "by address")] = None,
                   lang: str = "en", config: ConfigOpt = None) -> None:
    """Ratings (openskill, shown as mu - 3 sigma): every member after each round, or one
    member's history (before → after, and the game) with ``--player``."""
    from service.leagues.report import START, rating_history
    from service.leagues.scoring import Rating
    from service.leagues.season import LeagueError, members
    from service.store.league_models import LeagueRating

    if lang not in i18n.languages():
        _fail(f"--lang is {' or '.join(i18n.languages())}")
    with _session(config) as (s, _):
        league = _league(s, name)
        everyone = members(s, league, active_only=False)
        if player is not None:
            who = next((p for _, p in everyone if p.address.lower() == player.strip().lower()), None)
            if who is None or who.id is None:
                raise LeagueError(f"{player} is not a member of {name}")
            console.print(f"{who.name} <{who.address}> in {name}:", markup=False, highlight=False)
            for line in rating_history(s, league, who.id, lang):
                console.print("  " + line, markup=False, highlight=False)
            return
        ratings = s.exec(select(LeagueRating).where(LeagueRating.league_id == league.id)).all()
        rounds = sorted({r.round for r in ratings})
        by = {(r.player_id, r.round): Rating(r.mu, r.sigma).shown for r in ratings}
        table = Table("player", *[f"r{n}" for n in rounds], "now")
        for member, p in sorted(everyone, key=lambda mp: -Rating(mp[0].mu, mp[0].sigma).shown):
            last = START.shown
            cells = []
            for n in rounds:
                last = by.get((member.player_id, n), last)
                cells.append(f"{last:.1f}" if (member.player_id, n) in by else "·")
            table.add_row(p.name, *cells, f"{Rating(member.mu, member.sigma).shown:.1f}")
        console.print(table)


@league_app.command("drop")
def league_drop(name: str, address: str, config: ConfigOpt = None) -> None:
    """Drop a member: no more rounds; their open game this round is settled as their loss."""
    from service.leagues.report import mail_dropped
    from service.leagues.season import LeagueError, drop, members
    from service.store.games import player_by_address

    with _session(config) as (s, ctx):
        league = _league(s, name)
        player = player_by_address(s, address)
        member = next((m for m, p in members(s, league) if player and p.id == player.id), None)
        if member is None:
            raise LeagueError(f"{address} is not an active member of {name}")
        drop(s, ctx, league, member, reason="operator")
        assert player is not None
        mail_dropped(s, ctx, league, player, reason="operator")
        console.print(f"{address} dropped from {name}")


@league_app.command("settle")
def league_settle(name: str, game_id: int, how: Annotated[str, typer.Option(help="draw or adjudicate")] = "draw",
                  config: ConfigOpt = None) -> None:
    """Settle one unfinished game of the current round now (a draw, or by position)."""
    from service.leagues.season import LeagueError, settle_game
    from service.store.league_models import LeagueGame

    if how not in ("draw", "adjudicate"):
        _fail("--how is draw or adjudicate")
    with _session(config) as (s, ctx):
        league = _league(s, name)
        lg = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id, LeagueGame.game_id == game_id)).first()
        if lg is None:
            raise LeagueError(f"game {game_id} is not a game of {name}")
        if lg.settled:
            raise LeagueError(f"game {game_id} is settled already ({lg.settled})")
        points = settle_game(s, ctx, lg, force=how)
        console.print(f"game {game_id} settled: {points}")


def register(app: typer.Typer, bench: typer.Typer) -> None:
    app.add_typer(league_app, name="league")
