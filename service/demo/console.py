"""``pbem demo`` on a terminal: a progress bar while the games run, then outcomes and paths."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from service.demo.outcome import outcome_line
from service.demo.run import DemoResult, run_demo
from service.demo.run import Progress as DemoProgress


def demo_on_console(
    out_dir: Path,
    engine_ids: Sequence[str],
    games: int,
    seed: int,
    timeout: float,
    console: Console | None = None,
    league_players: int = 0,
    league_rounds: int = 5,
) -> DemoResult:
    console = console or Console()
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[moves]} moves"),
        TimeElapsedColumn(),
        console=console,
    )
    with bar:
        task = bar.add_task("games finished", total=None, moves=0)
        hooks = DemoProgress(
            start=lambda total: bar.update(task, total=total),
            update=lambda done, moves: bar.update(task, completed=done, moves=moves),
        )
        result = run_demo(
            out_dir,
            engine_ids=engine_ids or None,
            games_per_engine=games,
            seed=seed,
            timeout=timeout,
            progress=hooks,
            league_players=league_players,
            league_rounds=league_rounds,
        )
    table = Table(title=f"pbem demo — {len(result.games)} games by mail in {result.seconds:.0f} s")
    for column in ("game", "players", "moves", "outcome"):
        table.add_column(column)
    for g in result.games:
        table.add_row(
            f"{g.engine_id.upper()} #{g.game_id}", ", ".join(g.names), str(g.moves), outcome_line(g)
        )
    console.print(table)
    console.print(
        f"{result.replies} replies by the players, {result.mails_archived} mails delivered in all, "
        f"{result.quarantined} quarantined."
    )
    console.print(f"Every mail: [bold]{result.mail_dir}[/bold] (.eml files, one folder per mailbox)")
    console.print(f"Browse them per game and player: [bold]{result.index_html}[/bold]")
    if result.standings:
        console.print(f"[bold]League standings[/bold] ({result.league_status}, {len(result.games)} games, "
                      f"{result.seconds:.0f} s):")
        for line in result.standings:
            console.print(line, markup=False, highlight=False)
    if result.timed_out:
        console.print(f"[red]Time limit of {timeout:.0f} s reached before every game ended.[/red]")
    return result
