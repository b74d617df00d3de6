"""``pbem serve``, ``pbem game new|show|log|list`` and ``pbem admin quarantine``.

Thin commands: each loads the settings, builds the service context and calls library
code (``service.schedule.runtime``, ``service.store.games``, ``service.admin``) that tests call directly.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from email.utils import parseaddr
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from service.cli.errors import fail, guarded, settings_from
from service.config import ConfigError, Settings, load_settings

console = Console()
ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="TOML file (default config/pbem.toml)")]


def _settings(config: Path | None) -> Settings:
    """Settings, or a one-line error (a missing ``--config`` file included) and exit code 2."""
    return settings_from(config)


def serve(
    config: ConfigOpt = None,
    verbose: bool = typer.Option(False, "--verbose", "-v"),
    health_port: Annotated[int | None, typer.Option(
        "--health-port", help="answer GET /healthz on this port (200 healthy, 503 not); overrides health_port",
        min=0, max=65535)] = None,
    worker_id: Annotated[str | None, typer.Option(
        "--worker-id", help="name of this worker in claims and logs (default host:pid)")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, max=64, help="run this many worker processes (PostgreSQL only)")] = 1,
) -> None:
    """Run the mail service: poll/IDLE the inbox, send the outbox, sweep deadlines.

    Several ``pbem serve`` processes (on one machine or many) may share one PostgreSQL
    database: one reads the mailbox at a time, all of them process, send and sweep.

    Exit codes (``service.cli.exitcodes``): 0 clean stop, 2 bad arguments, 78 bad configuration,
    69 the health port is taken, 70 an unexpected error."""
    import faulthandler
    import os
    import socket

    from service.cli.exitcodes import EX_CONFIG, EX_SOFTWARE

    if not faulthandler.is_enabled():  # a crash of the interpreter itself leaves its stacks in the log
        faulthandler.enable()

    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not verbose:  # APScheduler logs every job run at INFO: 1,400 lines in 7 minutes, none about mail
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    if config is not None and not config.is_file():
        fail(f"no configuration file {config}", EX_CONFIG)
    try:
        settings = load_settings(config)
    except ConfigError as exc:
        fail(str(exc), EX_CONFIG)
    if health_port is not None:
        settings.health_port = health_port
    if worker_id is not None and not worker_id.strip():
        fail("--worker-id must not be empty", 2)
    if workers > 1:
        if not settings.database_url.startswith("postgresql"):
            fail("several workers need PostgreSQL (database_url postgresql+psycopg://…); SQLite has one writer", 2)
        from service.cli.workers import run_workers

        raise typer.Exit(run_workers(workers, worker_id or socket.gethostname(), config, verbose,
                                    settings.health_port or 0))
    worker = worker_id or f"{socket.gethostname()}:{os.getpid()}"
    try:
        asyncio.run(_serve(settings, worker))
    except StartError as exc:
        fail(str(exc), exc.code)
    except Exception as exc:
        from sqlalchemy.exc import ArgumentError

        if isinstance(exc, ArgumentError):  # an unusable database URL: no restart will fix it
            fail(f"bad configuration: database_url: {exc}", EX_CONFIG)
        logging.getLogger("service.serve").exception("the service stopped on an unexpected error")
        fail(f"stopped on an unexpected error: {type(exc).__name__}: {exc}", EX_SOFTWARE)


class StartError(Exception):
    """``pbem serve`` cannot start for a reason a restart does not fix; ``code`` is its exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


async def _serve(settings: Settings, worker: str) -> None:
    """Build the service (waiting for the database), answer the health check, run until a signal."""
    from service.admin.health import HealthServer, evaluate, starting
    from service.cli.exitcodes import EX_UNAVAILABLE
    from service.schedule.runtime import Service, freeze_startup_objects

    health: HealthServer | None = None
    if settings.health_port:
        try:
            health = HealthServer(settings.health_host, settings.health_port, starting).start()
        except OSError as exc:
            raise StartError(f"cannot answer health checks on {settings.health_host}:{settings.health_port}: "
                             f"{exc.strerror or exc}", EX_UNAVAILABLE) from None
    try:
        service = await Service.when_ready(settings, worker)
        if health is not None:
            health.probe = lambda: evaluate(service)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, service.stop)
        console.print(f"pbem serving {settings.service_address} (IMAP {settings.imap_host}:{settings.imap_port}) "
                      f"as worker {service.worker_id}"
                      + (f", health check on http://{settings.health_host}:{health.port}/healthz" if health else ""),
                      soft_wrap=True)
        freeze_startup_objects()
        await service.serve_forever()
    finally:
        if health is not None:
            health.stop()


game_app = typer.Typer(help="Start and inspect games.", no_args_is_help=True)
admin_app = typer.Typer(help="Operator commands.", no_args_is_help=True)


@game_app.command("new")
def game_new(
    engine_id: Annotated[str, typer.Argument(help="engine id, e.g. tac")],
    player: Annotated[list[str], typer.Option("--player", "-p", help="address or 'Name <address>', in seat order")],
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE")] = None,
    seed: Annotated[int | None, typer.Option(help="RNG seed (default random)")] = None,
    lang: Annotated[str, typer.Option(help="language of new players")] = "en",
    config: ConfigOpt = None,
) -> None:
    """Start a game; unknown players are created; the first mails are queued at once."""
    from service.admin.games import new_game_from_cli

    settings = _settings(config)
    try:
        game_id = new_game_from_cli(settings, engine_id, [parseaddr(p) for p in player],
                                    dict(_option(o) for o in option or []), seed, lang)
    except (ValueError, KeyError) as exc:
        fail(str(exc).strip("'\""), 1)
    console.print(f"game #{game_id} started")


def _option(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


@game_app.command("list")
def game_list(config: ConfigOpt = None, status: str | None = None) -> None:
    """Games with their status and who must act."""
    from service.admin.games import list_games

    table = Table("id", "engine", "status", "players", "to act", "deadline")
    settings = _settings(config)
    for row in guarded(lambda: list_games(settings, status)):
        table.add_row(*(str(v) for v in row))
    console.print(table)


@game_app.command("show")
def game_show(game_id: int, seat: Annotated[int | None, typer.Option(help="show this seat's view")] = None,
              lang: str = "en", config: ConfigOpt = None) -> None:
    """A game's view (an observer's unless --seat is given)."""
    from service.admin.games import show_game

    settings = _settings(config)
    console.print(guarded(lambda: show_game(settings, game_id, seat, lang)), markup=False)


@game_app.command("log")
def game_log(game_id: int, config: ConfigOpt = None) -> None:
    """Every applied move with its command as received (operator view: all events)."""
    from service.admin.games import game_log_lines

    settings = _settings(config)
    for line in guarded(lambda: game_log_lines(settings, game_id)):
        console.print(line, markup=False)


@admin_app.command("quarantine")
def quarantine(
    retry: Annotated[int | None, typer.Option("--retry", help="put this mail back into the pipeline")] = None,
    discard: Annotated[int | None, typer.Option("--discard", help="drop this mail for good")] = None,
    config: ConfigOpt = None,
) -> None:
    """List quarantined mails, or retry/discard one."""
    from service.admin.quarantine import discard_quarantined, list_quarantined, retry_quarantined

    settings = _settings(config)
    if retry is not None:
        guarded(lambda: retry_quarantined(settings, retry))
        console.print(f"mail {retry} will be processed again at the next poll")
        return
    if discard is not None:
        guarded(lambda: discard_quarantined(settings, discard))
        console.print(f"mail {discard} discarded")
        return
    table = Table("id", "from", "subject", "stage", "error")
    for row in list_quarantined(settings):
        table.add_row(*(str(v) for v in row))
    console.print(table)


def register(app: typer.Typer, bench: typer.Typer) -> None:
    app.command("serve")(serve)
    app.add_typer(game_app, name="game")
    app.add_typer(admin_app, name="admin")
