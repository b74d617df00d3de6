"""CLI for the mail infrastructure: ``pbem mailserver``, ``pbem demo``, ``pbem bench pipeline|scale``.

Command functions stay thin: each calls library code that tests call directly.
"""

from __future__ import annotations

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
