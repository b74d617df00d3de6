"""``pbem admin stalled|show|log|nudge|extend|deadline|force|replace|pause|resume|undo|resend|abort|
export`` and ``pbem game replay FILE``: the operator's commands for games that stall.

Thin commands over ``service.admin``: each prints a rich table or one line (``--json`` prints
JSON for scripts), records who did it (``--by``, default ``$USER``) and why (``--why``) in the
audit log, and turns every refusal into ``error: <one line>`` on stderr with a non-zero exit
code (2 bad argument, 3 no such game/seat/file, 4 not allowed in the game's state, 1 other) —
never a traceback. ``PBEM_DEBUG=1`` re-raises unexpected errors for a developer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from service.cli.errors import fail, settings_from, with_context

console = Console()
ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="TOML file (default config/pbem.toml)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON (for scripts)")]
ByOpt = Annotated[str | None, typer.Option("--by", help="operator name for the audit log (default $USER)")]
WhyOpt = Annotated[str, typer.Option("--why", help="why: kept in the audit log")]
GameArg = Annotated[int, typer.Argument(help="game id", show_default=False)]


def emit(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(result, default=str, ensure_ascii=False))
    else:
        console.print(result["message"], markup=False)


def stalled(limit: Annotated[int, typer.Option(help="at most this many games")] = 50,
            as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Active games, the longest-waiting first: on whom, since when, reminders, bounces, absences."""
    from service.admin.stalled import stalled_games

    if limit < 1:
        fail(f"bad limit {limit}: give 1 or more", 2)
    rows = with_context(config, lambda ctx: stalled_games(ctx, limit))
    if as_json:
        typer.echo(json.dumps(rows, default=str, ensure_ascii=False))
        return
    table = Table("game", "engine", "waiting on", "since", "waited", "deadline", "reminders", "bounces",
                  "absent", "paused", title="Stalled games, longest waiting first", caption="times in UTC")
    for r in rows:
        deadline = _short_time(r["deadline"]) + (" OVERDUE" if r["overdue"] else "")
        table.add_row(f"#{r['game']}", r["engine"], ", ".join(r["waiting_on"]) or "-", _short_time(r["since"]),
                      r["waiting"], deadline, str(r["reminders"]), str(r["bounces"]), ", ".join(r["absent"]) or "-",
                      "yes" if r["paused"] else "-")
    Console().print(table)  # made now: the width ($COLUMNS) of this run


def _short_time(iso: str | None) -> str:
    """``2026-01-04T13:00+00:00`` -> ``01-04 13:00`` (the table is in UTC)."""
    return iso[5:16].replace("T", " ") if iso else "-"


def show(game: GameArg, seat: Annotated[int | None, typer.Option(help="draw this seat's view")] = None,
         lang: str = "en",
         state: Annotated[bool, typer.Option("--state", help="also print the engine state (every secret)")] = False,
         as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """The full state of one game, operator view: seats with addresses, deadline, pause, board."""
    from service.admin.stalled import show as show_game

    info = with_context(config, lambda ctx: show_game(ctx, game, seat, lang, with_state=state))
    if as_json:
        typer.echo(json.dumps(info, default=str, ensure_ascii=False))
        return
    paused = info["paused"]
    console.print(f"#{info['game']} {info['title']} ({info['engine']}) — {info['status']}, version {info['version']}, "
                  f"state {info['state_version']}, seed {info['seed']}, options {json.dumps(info['options'])}",
                  markup=False)
    console.print(f"created {info['created']}, last change {info['updated']}, deadline {info['deadline'] or '-'}"
                  + (f", PAUSED since {paused['paused_at']} by {paused['by']}" if paused else "")
                  + f"; {info['moves']} log rows, {info['operator_actions']} operator actions", markup=False)
    table = Table("seat", "name", "address", "lang", "tz", "to act", "absent", "last mail")
    for x in info["seats"]:
        table.add_row(str(x["seat"]), x["name"], x["address"], x["lang"], x["tz"], "yes" if x["to_act"] else "-",
                      "yes" if x["absent"] else "-", x["last_mail"] or "-")
    Console().print(table)  # made now: the width ($COLUMNS) of this run
    console.print("observer view:" if info["board_seat"] is None else f"seat {info['board_seat']}'s view:")
    console.print(info["board"], markup=False)
    if state:
        console.print("engine state (operator only: every secret):")
        console.print(json.dumps(info["state"], ensure_ascii=False), markup=False)


def log(game: GameArg, as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Every move (all events, operator view) and every operator action on the game, in order."""
    from service.admin.stalled import log_lines

    rows = with_context(config, lambda ctx: log_lines(ctx, game))
    if as_json:
        typer.echo(json.dumps(rows, default=str, ensure_ascii=False))
        return
    for r in rows:
        if r["kind"] == "move":
            line = f"{r['at']}  seat {r['seat']}: {r['command']!r} -> {r['events']}"
        else:
            why = f" — why: {r['why']}" if r["why"] else ""
            line = f"{r['at']}  operator {r['operator']}: {r['command']} {json.dumps(r['arguments'], default=str)}{why}"
        console.print(line, markup=False)


def nudge(game: GameArg, seat: Annotated[int | None, typer.Argument(help="seat (default: every seat to act)")] = None,
          by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Resend the turn mail with a reminder line."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.nudge(ctx, game, seat, by=by, why=why)), as_json)


def extend(game: GameArg, duration: Annotated[str, typer.Argument(help="2d, 12h, 1d6h, 90m")],
           by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Move the deadline later (from the current deadline)."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.extend(ctx, game, duration, by=by, why=why)), as_json)


def deadline(game: GameArg, hours: Annotated[float, typer.Option("--hours", help="hours from now")],
             by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Set a new deadline N hours from now."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.set_new_deadline(ctx, game, hours, by=by, why=why)), as_json)


def force(game: GameArg, seat: Annotated[int, typer.Argument(help="seat number (see show)")],
          by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Play the seat's default move now (a pending secret choice too)."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.force(ctx, game, seat, by=by, why=why)), as_json)


def replace(game: GameArg, seat: Annotated[int, typer.Argument(help="seat number (see show)")],
            address: Annotated[str, typer.Argument(help="the new player's address")],
            name: Annotated[str | None, typer.Option(help="the new player's name (if new)")] = None,
            lang: Annotated[str, typer.Option(help="the new player's language (if new): en or vi")] = "en",
            tz: Annotated[str, typer.Option(help="the new player's time zone (if new)")] = "UTC",
            by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Give a seat to another player: a welcome mail with the game; the old reply keys are revoked."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.replace(ctx, game, seat, address, name=name, lang=lang, tz=tz,
                                                    by=by, why=why)), as_json)


def pause(game: GameArg, by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False,
          config: ConfigOpt = None) -> None:
    """Stop the game's clock (its deadline does not run until resume)."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.pause(ctx, game, by=by, why=why)), as_json)


def resume(game: GameArg, by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False,
           config: ConfigOpt = None) -> None:
    """Restart the clock with the time that was left."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.resume(ctx, game, by=by, why=why)), as_json)


def undo(game: GameArg, n: Annotated[int, typer.Argument(help="moves to take back")] = 1,
         by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Take back the last N moves (replayed from the seed); everyone is told, no secret shown."""
    from service.admin.undo import undo as undo_moves

    emit(with_context(config, lambda ctx: undo_moves(ctx, game, n, by=by, why=why)), as_json)


def resend(game: GameArg, seat: Annotated[int | None, typer.Argument(help="seat (default: every seat)")] = None,
           by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False, config: ConfigOpt = None) -> None:
    """Send the current mail again (turn mail to seats that must act)."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.resend(ctx, game, seat, by=by, why=why)), as_json)


def abort(game: GameArg, by: ByOpt = None, why: WhyOpt = "", as_json: JsonOpt = False,
          config: ConfigOpt = None) -> None:
    """End the game with no result; every seat is told."""
    from service.admin import operations

    emit(with_context(config, lambda ctx: operations.abort(ctx, game, by=by, why=why)), as_json)


def export(game: GameArg, out: Annotated[Path | None, typer.Option("--out", "-o", help="write to this file")] = None,
           config: ConfigOpt = None) -> None:
    """The game as JSON (options, seed, seats, the whole move log, a state fingerprint)."""
    from service.admin.export import export_game

    data = with_context(config, lambda ctx: export_game(ctx, game))
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if out is None:
        typer.echo(text)
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}", 2)
    console.print(f"game #{game} exported to {out} ({len(data['moves'])} moves)", markup=False)


def replay(file: Annotated[Path, typer.Argument(help="an export from pbem admin export")],
           config: ConfigOpt = None) -> None:
    """Rebuild a game from an export and check it reaches the same state (exit 1 on mismatch)."""
    from service.admin.errors import AdminError
    from service.admin.export import read_export, replay_export
    from service.context import register_extra_engines

    try:
        data = read_export(file)
        # plugin engines of this install: from --config, or PBEM_EXTRA_ENGINES (no secret needed)
        extra = settings_from(config).extra_engines if config is not None else json.loads(
            os.environ.get("PBEM_EXTRA_ENGINES", "[]"))
        register_extra_engines(extra)
        ok, verdict = replay_export(data)
    except AdminError as exc:
        fail(exc.message, exc.code)
    except (ValueError, ImportError, AttributeError) as exc:
        fail(f"cannot load the extra engines: {exc}", 2)
    typer.echo(verdict)
    if not ok:
        raise typer.Exit(1)


def register(app: typer.Typer, bench: typer.Typer) -> None:
    from service.cli.service_cli import admin_app, game_app

    for name, command in (("stalled", stalled), ("show", show), ("log", log), ("nudge", nudge),
                          ("extend", extend), ("deadline", deadline), ("force", force), ("replace", replace),
                          ("pause", pause), ("resume", resume), ("undo", undo), ("resend", resend),
                          ("abort", abort), ("export", export)):
        admin_app.command(name)(command)
    game_app.command("replay")(replay)
