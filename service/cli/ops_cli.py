"""``pbem status`` (queues, backlog, health; ``--json``; ``--check`` for a supervisor) and
``pbem db upgrade`` (apply the Alembic migrations and say where the database stands)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from service.config import Settings

console = Console()
ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="TOML file (default config/pbem.toml)")]
db_app = typer.Typer(help="The database: migrations.", no_args_is_help=True)


def _settings(config: Path | None) -> Settings:
    """The settings, or a one-line error and exit 2 — a ``--config`` file that does not exist
    included (it would otherwise create a new, empty database)."""
    from service.cli.errors import settings_from

    return settings_from(config)


def status(
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    check: Annotated[bool, typer.Option("--check", help="exit 1 when unhealthy (for a supervisor)")] = False,
    config: ConfigOpt = None,
) -> None:
    """Queue depths, the oldest waiting mail and answer, last mail in and out, quarantine, games."""
    from service.admin.status import read_status
    from service.context import AppContext

    settings = _settings(config)
    try:
        ctx = AppContext.create(settings)
        with ctx.session() as s:
            found = read_status(s, ctx.clock.now())
    except Exception as exc:  # the database itself is unreachable: that is the answer
        if as_json:
            typer.echo(json.dumps({"problems": [f"database: {exc.__class__.__name__}: {str(exc)[:200]}"]}))
        else:
            typer.echo(f"unhealthy: database: {exc.__class__.__name__}: {str(exc)[:200]}", err=True)
        raise typer.Exit(1) from None
    problems = found.problems()
    if as_json:
        typer.echo(json.dumps(found.as_json(), indent=2))
    else:
        table = Table("what", "value", show_header=False)
        table.add_row("received, waiting", f"{found.inbound_waiting} (oldest {found.oldest_waiting or '-'})")
        table.add_row("quarantined", str(found.quarantined))
        table.add_row("outbox", f"{found.outbox_pending} pending (oldest {found.oldest_unsent or '-'}), "
                                f"{found.outbox_failed} failed")
        table.add_row("last mail in / out", f"{found.last_received or '-'} / {found.last_sent or '-'}")
        table.add_row("active games", str(found.active_games))
        for g in found.waiting_longest:
            table.add_row(f"  game {g['game']} ({g['engine']})", f"quiet since {g['since']}, deadline {g['deadline']}")
        console.print(table)
        console.print("healthy" if not problems else "unhealthy: " + "; ".join(problems))
    if check and problems:
        raise typer.Exit(1)


@db_app.command("upgrade")
def db_upgrade(config: ConfigOpt = None) -> None:
    """Apply every pending migration (safe to run twice; SQLite and PostgreSQL alike)."""
    from alembic.runtime.migration import MigrationContext

    from service.store.db import make_engine, migrate

    settings = _settings(config)
    try:
        migrate(settings.database_url)
        with make_engine(settings.database_url).connect() as conn:
            revision = MigrationContext.configure(conn).get_current_revision()
    except Exception as exc:
        typer.echo(f"error: migration failed: {exc.__class__.__name__}: {str(exc)[:300]}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"database at revision {revision}")


def register(app: typer.Typer, bench: typer.Typer) -> None:
    app.command("status")(status)
    app.add_typer(db_app, name="db")
