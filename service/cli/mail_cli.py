"""CLI for the mail infrastructure: ``pbem mailserver``, ``pbem demo``, ``pbem bench pipeline|scale``.

Command functions stay thin: each calls library code that tests call directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def mailserver(
        user: list[str] = typer.Option(  # noqa: B008 - typer's declaration style
            [], "--user", "-u", help="address[:password]; repeat. Default: play, alice, bob, carol, dave."
        ),
        domain: str = typer.Option("pbem.test", help="Mail domain for bare user names."),
        auto_create: bool = typer.Option(False, help="Create a mailbox for any recipient on first mail."),
        host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0 in a container)."),
        smtp_port: int = typer.Option(0, help="SMTP port (0: any free port)", min=0, max=65535),
        imap_port: int = typer.Option(0, help="IMAP port (0: any free port)", min=0, max=65535),
    ) -> None:
        """Run the embedded mail server (SMTP + IMAP, no TLS; for trying pbem) until Ctrl-C."""
        from service.localmail.mailserver import run_mailserver

        run_mailserver(user, domain, auto_create=auto_create, echo=typer.echo, host=host, smtp_port=smtp_port,
                       imap_port=imap_port)

    @app.command()
    def demo(
        games: int = typer.Option(1, "--games", help="Games per engine."),
        engine: list[str] = typer.Option(  # noqa: B008
            [], "--engine", "-e", help="Engine id; repeat. Default: every landed engine."
        ),
        seed: int = typer.Option(1, help="Seed of the games and of the players' choices."),
        out: Path = typer.Option(  # noqa: B008
            Path("demo-out"), help="Folder for the database, the .eml files and index.html (git-ignored)."
        ),
        timeout: float = typer.Option(600.0, help="Stop after this many seconds."),
        league: bool = typer.Option(False, "--league", help="Instead: a Tag Team league of bots, by mail."),
        league_players: int = typer.Option(6, help="Players of the --league."),
        league_rounds: int = typer.Option(5, help="Rounds of the --league."),
    ) -> None:
        """Play a game of every engine by mail on the embedded mail server, with bot players."""
        from service.demo.console import demo_on_console

        if league and not 2 <= league_players <= 14:
            typer.echo("error: --league-players must be 2..14", err=True)
            raise typer.Exit(2)
        result = demo_on_console(out, engine, games, seed, timeout, league_players=league_players if league else 0,
                                 league_rounds=league_rounds)
        if not result.all_finished or (league and result.league_status != "finished"):
            raise typer.Exit(1)

    @bench.command("pipeline")
    def bench_pipeline(
        replies: int = typer.Option(2000, "--replies", help="Replies put in the inbox (one per live game)."),
        dovecot: bool = typer.Option(
            False, "--dovecot", help="Run on Dovecot instead of the pure-Python stack."
        ),
        engine: list[str] = typer.Option(  # noqa: B008
            [], "--engine", "-e", help="Engine id; repeat. Default: every landed engine, mixed."
        ),
        seed: int = typer.Option(1, help="Seed of the games and replies."),
        db: str = typer.Option("sqlite", "--db", help="sqlite, or postgresql (a throw-away local server)."),
        workers: str = typer.Option(
            "", "--workers", help="Worker processes on one database, e.g. 1,2,4: one run per count, "
            "printed as a table. Default: the service in the benchmark's own process."),
    ) -> None:
        """The whole service (``pbem serve``'s loop) vs raw IMAP+SMTP on the same mails, in one run."""
        from bench.pipeline import run_pipeline, run_scaling, scaling_lines
        from service.localmail.postgres import LocalPostgres, available

        counts = _counts("--workers", workers, 1, 32)
        if db not in ("sqlite", "postgresql"):
            _fail(f"--db must be sqlite or postgresql, not {db!r}")
        if db == "postgresql" and not available():
            _fail("--db postgresql needs PostgreSQL installed and root (it runs as the postgres user)")
        if replies < 1:
            _fail("--replies must be at least 1")
        if counts:
            reports = run_scaling(replies, counts, db=db, dovecot=dovecot, engine_ids=engine or None, seed=seed,
                                  echo=typer.echo)
            for report in reports:
                typer.echo("\n".join(report.lines()))
            typer.echo("\n".join(scaling_lines(reports)))
            return
        if db == "postgresql":
            with LocalPostgres() as pg:
                report = run_pipeline(replies, dovecot=dovecot, engine_ids=engine or None, seed=seed,
                                      echo=typer.echo, database_url=pg.create_database("bench"))
        else:
            report = run_pipeline(replies, dovecot=dovecot, engine_ids=engine or None, seed=seed, echo=typer.echo)
        typer.echo("\n".join(report.lines()))

    @bench.command("scale")
    def bench_scale(
        replies: int = typer.Option(100, "--replies", help="New replies per measured poll cycle."),
        games: str = typer.Option(
            "1000,10000", "--games", help="Numbers of live TAC games to measure at, e.g. 1000,10000,100000."),
        seed: int = typer.Option(1, help="Seed."),
    ) -> None:
        """One poll cycle with new replies at each number of live games (4 players each)."""
        from bench.scale import run_scale

        sizes = sorted(_counts("--games", games, 1, 1_000_000))
        if not sizes:
            _fail("--games needs at least one number")
        if replies < 1 or replies > sizes[0]:
            _fail(f"--replies must be 1..{sizes[0]} (the smallest --games)")
        reports = run_scale(sizes, replies, seed, echo=typer.echo)
        typer.echo("  games  players  insert s  cycle s  ms/reply  CPU ms/reply")
        for r in reports:
            typer.echo(f"{r.games:>7,} {r.players:>8,} {r.insert_s:>9.1f} {r.cycle_s:>8.2f} {r.ms_per_reply:>9.1f} "
                       f"{r.cpu_ms_per_reply:>13.1f}")
        if len(reports) > 1:
            first, last = reports[0], reports[-1]
            typer.echo(f"CPU per reply x{last.cpu_ms_per_reply / first.cpu_ms_per_reply:.2f} for "
                       f"x{last.games / first.games:.0f} games")

    @bench.command("latency")
    def bench_latency(
        replies: int = typer.Option(30, "--replies", help="Replies sent, one at a time."),
        rate: float = typer.Option(1.0, "--rate", help="Replies per second."),
        dovecot: bool = typer.Option(False, "--dovecot", help="Run on Dovecot instead of the pure-Python stack."),
        seed: int = typer.Option(1, help="Seed."),
    ) -> None:
        """Light load: the service's own time from a stored reply to its sent answers (p50/p95)."""
        from bench.latency import run_latency

        if replies < 1:
            _fail("--replies must be at least 1")
        if not 0 < rate <= 100:
            _fail("--rate must be above 0 and at most 100 replies a second")
        typer.echo("\n".join(run_latency(replies, rate, dovecot=dovecot, seed=seed, echo=typer.echo).lines()))


def _fail(message: str) -> NoReturn:
    """A one-line error and exit code 2 (a usage error), as every operator command does."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _counts(option: str, text: str, low: int, high: int) -> list[int]:
    """``1,2,4`` as numbers in ``low..high`` (a one-line error for anything else)."""
    if not text.strip():
        return []
    try:
        counts = [int(part.replace("_", "")) for part in text.split(",")]
    except ValueError:
        _fail(f"{option} takes numbers like 1,2,4, not {text!r}")
    if any(not low <= n <= high for n in counts):
        _fail(f"{option} numbers must be {low:,}..{high:,}")
    return counts
