"""One-line errors for the command line: ``error: <message>`` on stderr and an exit code.

Shared by ``pbem game …`` and ``pbem admin …`` so a missing game, a bad argument or a missing
``--config`` file is one line, never a traceback. Exit codes: 2 bad argument or configuration,
3 no such game/seat/file, 4 not allowed in the game's state, 1 anything else.
``PBEM_DEBUG=1`` re-raises unexpected errors (for a developer).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer

from service.config import ConfigError, Settings, load_settings

T = TypeVar("T")


def fail(message: str, code: int) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def settings_from(config: Path | None) -> Settings:
    """The settings; an explicit ``--config`` that does not exist is an error (instead of
    silently creating a new, empty database)."""
    if config is not None and not config.is_file():
        fail(f"no configuration file {config}", 2)
    try:
        return load_settings(config)
    except ConfigError as exc:
        fail(str(exc), 2)


def guarded(action: Callable[[], T]) -> T:
    """``action()`` with every refusal and unexpected error as one line and an exit code."""
    from sqlalchemy.exc import NoResultFound

    from service.admin.errors import AdminError

    try:
        return action()
    except AdminError as exc:
        fail(exc.message, exc.code)
    except typer.Exit:
        raise
    except NoResultFound:
        fail("no such record (check the id)", 3)
    except Exception as exc:
        if os.environ.get("PBEM_DEBUG"):
            raise
        first = str(exc).splitlines()[0] if str(exc) else ""
        fail(f"{type(exc).__name__}: {first}", 1)


def with_context(config: Path | None, action: Callable[[Any], T]) -> T:
    """``action(ctx)`` for the settings of ``config``, guarded."""
    from service.context import AppContext

    settings = settings_from(config)
    return guarded(lambda: action(AppContext.create(settings)))
