"""``pbem db backup FILE``, ``pbem db restore FILE [--replace]``, ``pbem db verify``,
``pbem db reread --since DATE`` (after a restore: the mails handled since the backup).

Added to the ``db`` group of ``service.cli.ops_cli`` (registered after it). Library code:
``service.admin.backup``; refusals are one line with the exit codes of ``service.cli.errors``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from service.cli.errors import fail, guarded, settings_from

ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="TOML file (default config/pbem.toml)")]


def db_backup(file: Annotated[Path, typer.Argument(help="the backup file to write (must not exist)")],
              config: ConfigOpt = None) -> None:
    """Copy the database to FILE, consistently, while pbem serve may keep running."""
    from service.admin.backup import backup

    settings = settings_from(config)
    kind = guarded(lambda: backup(settings.database_url, file))
    typer.echo(f"backed up the {kind} database to {file}")


def db_restore(
    file: Annotated[Path, typer.Argument(help="a file written by pbem db backup")],
    replace: Annotated[bool, typer.Option("--replace", help="overwrite a database that holds games")] = False,
    config: ConfigOpt = None,
) -> None:
    """Put a backup into the configured database (stop pbem serve first), migrate it, and check
    that every game replays from its seed and moves to its stored state."""
    from service.admin.backup import restore

    settings = settings_from(config)
    guarded(lambda: restore(settings.database_url, file, replace=replace))
    typer.echo(f"restored {file}")
    _verify(config)


def db_verify(config: ConfigOpt = None) -> None:
    """Replay every game from its seed and move log; exit 1 when one differs from its stored state."""
    _verify(config)


def _verify(config: Path | None) -> None:
    from service.admin.backup import verify_replays
    from service.context import AppContext

    settings = settings_from(config)
    report = guarded(lambda: verify_replays(AppContext.create(settings)))
    for problem in report.mismatched:
        typer.echo(problem, err=True)
    if not report.ok:
        fail(f"{len(report.mismatched)} of {report.games} game(s) do not replay to their stored state", 1)
    typer.echo(f"{report.games} game(s) replay to their stored states")


def db_reread(
    since: Annotated[str, typer.Option("--since", help="the backup's date, YYYY-MM-DD", show_default=False)],
    config: ConfigOpt = None,
) -> None:
    """After a restore: read again the mails the inbox got since the backup (known ones are
    recognised by Message-ID; the others are applied in order by the next poll)."""
    from datetime import date

    from service.admin.backup import reread_since

    try:
        day = date.fromisoformat(since)
    except ValueError:
        fail(f"bad date {since!r}: write YYYY-MM-DD", 2)
    settings = settings_from(config)
    count = guarded(lambda: reread_since(settings, day))
    typer.echo(f"{count} mail(s) since {day} will be read again at the next poll")


def register(app: typer.Typer, bench: typer.Typer) -> None:
    from service.cli.ops_cli import db_app

    db_app.command("backup")(db_backup)
    db_app.command("restore")(db_restore)
    db_app.command("verify")(db_verify)
    db_app.command("reread")(db_reread)
