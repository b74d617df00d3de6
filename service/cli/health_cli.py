"""``pbem health``: the health check for a supervisor or a container ``HEALTHCHECK``.

Asks the running ``pbem serve`` (``GET /healthz`` on ``health_port``, or ``--url``) and exits 0
when it is healthy, 1 with the reasons when not — also when nothing answers. Without a health
port it can only judge the database (reachable, no mail stuck) and says so.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Annotated, Any

import typer

from service.cli.errors import settings_from
from service.cli.exitcodes import EX_UNHEALTHY

ConfigOpt = Annotated[Path | None, typer.Option("--config", "-c", help="TOML file (default config/pbem.toml)")]


def ask(url: str, timeout: float) -> dict[str, Any]:
    """The verdict of the health endpoint at ``url`` (``healthy`` false when nothing answers)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return dict(json.load(answer))
    except urllib.error.HTTPError as exc:
        if exc.code == 503:
            return dict(json.load(exc))
        return {"healthy": False, "problems": [f"{url} answered HTTP {exc.code}"]}
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return {"healthy": False, "problems": [f"pbem serve does not answer at {url} ({reason})"]}


def database_only(config: Path | None) -> dict[str, Any]:
    """Without a health port: the database is reachable and no mail is stuck."""
    from service.admin.status import read_status
    from service.context import AppContext

    try:
        ctx = AppContext.create(settings_from(config), run_migrations=False)
        with ctx.session() as s:
            problems = read_status(s, ctx.clock.now()).stuck()
    except typer.Exit:
        raise
    except Exception as exc:
        first = str(exc).splitlines()[0][:200] if str(exc) else ""
        problems = [f"database unreachable: {type(exc).__name__}: {first}"]
    return {"healthy": not problems, "problems": problems,
            "note": "no health_port configured: the inbox poll was not checked"}


def health(
    url: Annotated[str | None, typer.Option(help="the health endpoint (default: health_host:health_port)")] = None,
    timeout: Annotated[float, typer.Option(help="seconds to wait for an answer", min=0.1)] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="print the verdict as JSON")] = False,
    config: ConfigOpt = None,
) -> None:
    """Exit 0 when the running service is healthy, 1 (with the reasons) when it is not."""
    if url is None:
        settings = settings_from(config)
        if settings.health_port:
            host = "127.0.0.1" if settings.health_host in ("0.0.0.0", "", "::") else settings.health_host
            url = f"http://{host}:{settings.health_port}/healthz"
    verdict = ask(url, timeout) if url else database_only(config)
    if as_json:
        typer.echo(json.dumps(verdict))
    elif verdict.get("healthy"):
        typer.echo("healthy" + (f" ({verdict['note']})" if verdict.get("note") else ""))
    else:
        typer.echo("unhealthy: " + "; ".join(verdict.get("problems") or ["no reason given"]), err=True)
    if not verdict.get("healthy"):
        raise typer.Exit(EX_UNHEALTHY)


def register(app: typer.Typer, bench: typer.Typer) -> None:
    app.command("health")(health)
