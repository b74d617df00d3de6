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
    ) -> None:
        """Run the embedded mail server (SMTP + IMAP on 127.0.0.1) until Ctrl-C."""
        from service.mail.mailserver import run_mailserver

        run_mailserver(user, domain, auto_create=auto_create, echo=typer.echo)

    @app.command()
    def demo(
        games: int = typer.Option(1, "--games", help="Games per engine."),
        engine: list[str] = typer.Option(  # noqa: B008
            [], "--engine", "-e", help="Engine id; repeat. Default: every landed engine."
        ),
        seed: int = typer.Option(1, help="Seed of the games and of the players' choices."),
        out: Path = typer.Option(  # noqa: B008
            Path("pbem-demo"), help="Folder for the database, the .eml files and index.html."
        ),
        timeout: float = typer.Option(600.0, help="Stop after this many seconds."),
    ) -> None:
        """Play a game of every engine by mail on the embedded mail server, with bot players."""
        from service.demo.console import demo_on_console

        result = demo_on_console(out, engine, games, seed, timeout)
        if not result.all_finished:
            raise typer.Exit(1)
