"""``pbem selfplay``, ``pbem play`` (hot-seat) and ``pbem bench engines``: the rules without mail."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import engines
from engines.contract import CommandError, Engine
from service.cli.selfplay import NAMES, Summary, play_game

console = Console()


def _parse_options(engine: Engine[Any], pairs: list[str] | None) -> dict[str, Any]:
    """``--option version=master`` → ``{"version": "master"}`` (ints and booleans converted),
    checked against the engine's options so that a wrong name or value is a one-line error."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise typer.BadParameter(f"option {pair!r} must look like name=value")
        name, raw = pair.split("=", 1)
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        out[name.strip()] = value
    try:
        engine.resolve_options(out)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--option") from exc
    return out


def _engine(engine_id: str) -> Engine[Any]:
    try:
        return engines.get(engine_id)
    except KeyError as exc:
        raise typer.BadParameter(str(exc)) from exc


def selfplay(
    engine_id: Annotated[str, typer.Argument(help="engine id: " + ", ".join(engines.names(False)))],
    games: Annotated[int, typer.Option(help="number of games")] = 10,
    seed: Annotated[int, typer.Option(help="seed of the first game; game i uses seed+i")] = 1,
    players: Annotated[int | None, typer.Option(help="player count (default: the engine's maximum)")] = None,
    bots: Annotated[str, typer.Option(help="bots by seat, comma-separated, repeated over seats")] = "heuristic",
    option: Annotated[list[str] | None, typer.Option(help="game option name=value (repeatable)")] = None,
    show: Annotated[int, typer.Option(help="print the move log of the first N games")] = 1,
    lang: Annotated[str, typer.Option(help="language of the printed log: en or vi")] = "en",
) -> None:
    """Bots play whole games; prints the first game move by move and a summary of all."""
    engine = _engine(engine_id)
    n = players or (4 if engine.id == "tac" else engine.max_players)
    lineup = [b.strip() for b in bots.split(",") if b.strip()]
    options = _parse_options(engine, option)
    summary = Summary()
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{engine.title}: {games} games", total=games)
        for i in range(games):
            record = play_game(engine, n, seed + i, lineup, options, keep_log=i < show)
            summary.add(record)
            if i < show:
                progress.stop()
                _print_game(engine, record, lang)
                progress.start()
            progress.advance(task)
    elapsed = time.perf_counter() - started
    table = Table(title=f"{engine.title}: {games} games, {n} players, bots {', '.join(lineup)}")
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for s in range(n):
        table.add_row(NAMES[s], lineup[s % len(lineup)], str(summary.seat_wins[s]),
                      f"{summary.seat_wins[s] / games:.1%}")
    console.print(table)
    console.print(
        f"draws: {summary.draws}  average moves/game: {summary.moves / games:.1f}  "
        f"time: {elapsed:.1f} s ({games / elapsed:.2f} games/s)"
    )
    if len(set(lineup)) > 1:
        for bot in sorted(set(lineup)):
            console.print(f"games won by a '{bot}' seat: {summary.bot_wins[bot]}/{games} ({summary.win_rate(bot):.1%})")


def _print_game(engine: Engine[Any], record: Any, lang: str) -> None:
    console.rule(f"{engine.title} — seed {record.seed} — {', '.join(record.players)}")
    for seat, command, events in record.log:
        public = [e.text.get(lang) for e in events if e.visible_to is None]
        console.print(f"[bold]{record.players[seat]}[/]: {command}" + (f"  — {' '.join(public)}" if public else ""))
    o = record.outcome
    who = ", ".join(record.players[s] for s in sorted(o.winners)) or ("draw" if o.draw else "nobody")
    console.print(f"[bold green]Result:[/] {who} — {o.reason.get(lang)} ({record.moves} moves)")


def play(
    engine_id: Annotated[str, typer.Argument(help="engine id")],
    players: Annotated[int | None, typer.Option(help="player count")] = None,
    seed: Annotated[int, typer.Option(help="game seed")] = 1,
    lang: Annotated[str, typer.Option(help="en or vi")] = "en",
    option: Annotated[list[str] | None, typer.Option(help="game option name=value (repeatable)")] = None,
) -> None:
    """Hot-seat in the terminal: every seat is played here, to try the rules.

    Each turn shows the acting seat's own view and numbered menu; type a number or a command,
    `?` for every legal command, `q` to quit.
    """
    engine = _engine(engine_id)
    n = players or (4 if engine.id == "tac" else engine.min_players)
    state = engine.new_game(NAMES[:n], _parse_options(engine, option), seed)
    while engine.to_act(state):
        seat = min(engine.to_act(state))
        view = engine.view(state, seat)
        console.rule(f"{NAMES[seat]} to act")
        console.print(engine.render_view(view, lang))
        menu = engine.menu(state, seat)
        for i, choice in enumerate(menu, 1):
            console.print(f"  {i}. {choice.command_in(lang)} — {choice.label.get(lang)}")
        try:
            text = console.input(f"[bold]{NAMES[seat]}>[/] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print("bye")
            return
        if text in ("q", "quit"):
            return
        if text == "?":
            for choice in engine.legal_actions(state, seat):
                console.print(f"  {choice.command_in(lang)} — {choice.label.get(lang)}")
            continue
        try:
            if text.isdigit():
                index = int(text)
                if not 1 <= index <= len(menu):
                    console.print(f"[red]Choose 1–{len(menu)}.[/]")
                    continue
                action = menu[index - 1].action
            else:
                action = engine.parse(state, seat, text)
            state, events = engine.apply(state, seat, action)
        except CommandError as err:
            console.print(f"[red]{err.message.get(lang)}[/]")
            if err.examples:
                console.print("e.g. " + ", ".join(err.examples[:5]))
            continue
        for event in events:
            console.print("• " + event.text.get(lang))
    outcome = engine.outcome(state)
    if outcome:
        winners = ", ".join(NAMES[s] for s in sorted(outcome.winners)) or "nobody"
        console.print(f"[bold green]Game over:[/] {winners} — {outcome.reason.get(lang)}")


def bench_engines(
    seconds: Annotated[float, typer.Option(help="seconds of random games per engine")] = 5.0,
    engine_id: Annotated[list[str] | None, typer.Option("--engine", help="only these engines")] = None,
) -> None:
    """Random full games per second, median µs of legal_actions / apply, median ms to draw a board picture."""
    from bench.engines import run

    table = Table(title="Engine benchmark (random players, one core)")
    for col in ("engine", "players", "games", "games/s", "moves/game", "legal_actions µs", "apply µs", "picture ms"):
        table.add_column(col, justify="right" if col != "engine" else "left")
    for r in run(engine_id, seconds):
        table.add_row(r.engine, str(r.players), str(r.games), f"{r.games_per_s:.2f}", f"{r.moves_per_game:.1f}",
                      f"{r.legal_actions_us:.1f}", f"{r.apply_us:.1f}", f"{r.picture_ms:.1f}")
    console.print(table)


def register(app: typer.Typer, bench: typer.Typer) -> None:
    app.command()(selfplay)
    app.command()(play)
    bench.command("engines")(bench_engines)
