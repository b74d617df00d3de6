"""What every part of the service shares: settings, the clock, the database and the renderer.

One object passed explicitly (no module globals), so a test builds its own with a manual
clock and a temporary database, and two services can run side by side in one process.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from sqlalchemy.engine import Engine
from sqlmodel import Session

import engines
from service.clock import Clock, SystemClock
from service.config import Settings
from service.outbound.render import Renderer
from service.store.db import make_engine, migrate, session


@dataclass
class AppContext:
    settings: Settings
    db: Engine
    clock: Clock = field(default_factory=SystemClock)
    renderer: Renderer = field(default_factory=Renderer)

    @classmethod
    def create(cls, settings: Settings, clock: Clock | None = None, *, run_migrations: bool = True) -> AppContext:
        """Build the context; migrates the database and registers plugin engines."""
        register_extra_engines(settings.extra_engines)
        if run_migrations:
            migrate(settings.database_url)
        return cls(
            settings=settings,
            db=make_engine(settings.database_url),
            clock=clock or SystemClock(),
            renderer=Renderer(settings.templates_dir or None, settings.service_name),
        )

    def session(self) -> Session:
        return session(self.db)


def register_extra_engines(targets: list[str]) -> None:
    """Register engines named ``module:attribute`` (tests run a toy game in a subprocess so)."""
    for target in targets:
        module_name, _, attr = target.partition(":")
        engines.register(getattr(importlib.import_module(module_name), attr or "ENGINE"))
