"""CLI for the mail infrastructure: ``pbem mailserver``, ``pbem demo``, ``pbem bench pipeline|scale``.

Command functions stay thin: each calls library code that tests call directly.
"""

from __future__ import annotations

from pathlib import Path

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
    ) -> None:
        """The whole service vs raw IMAP+SMTP on the same mails: rates, ratio, latency, memory."""
        from bench.pipeline import run_pipeline

        report = run_pipeline(replies, dovecot=dovecot, engine_ids=engine or None, seed=seed, echo=typer.echo)
        typer.echo("\n".join(report.lines()))

    @bench.command("scale")
    def bench_scale(
        replies: int = typer.Option(100, "--replies", help="New replies per measured poll cycle."),
        games: list[int] = typer.Option(  # noqa: B008
            [1000, 10000], "--games", help="Numbers of live TAC games to measure at (ascending; repeat)."
        ),
        seed: int = typer.Option(1, help="Seed."),
    ) -> None:
        """One poll cycle with new replies at 1,000 and 10,000 live games (4 players each)."""
        from bench.scale import run_scale

        reports = run_scale(sorted(games), replies, seed, echo=typer.echo)
        for r in reports:
            typer.echo(
                f"{r.games:>7,} games {r.players:>7,} players: cycle {r.cycle_s:.2f} s for {r.replies} replies"
            )
        if len(reports) > 1:
            first, last = reports[0], reports[-1]
            typer.echo(
                f"cycle time x{last.cycle_s / first.cycle_s:.2f} for x{last.games / first.games:.0f} games: "
                "the cost follows the new mail, not the number of games"
                if last.cycle_s < 2 * first.cycle_s
                else f"cycle time x{last.cycle_s / first.cycle_s:.2f} for x{last.games / first.games:.0f} games"
            )
