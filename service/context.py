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
    _installation_id: str | None = field(default=None, repr=False)

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

    @property
    def installation_id(self) -> str:
        """The random id the database was created with (read once; see ``Installation``)."""
        if self._installation_id is None:
            from service.store.models import Installation

            with self.session() as s:
                row = s.get(Installation, 1)
            if row is None:
                raise RuntimeError("the database has no installation id: run the migrations (pbem db upgrade)")
            self._installation_id = row.installation_id
        return self._installation_id

    @property
    def key_secret(self) -> str:
        """What reply keys and thread Message-IDs are MACed with: the configured secret AND this
        database's random installation id, so the same secret with a fresh database issues
        different keys and ids (an old mail is never a valid key for a new game)."""
        return f"{self.settings.secret}\x00{self.installation_id}"

    @property
    def key_secrets(self) -> tuple[str, ...]:
        """``key_secret`` first, then the same under each retired secret (``PBEM_SECRET_PREVIOUS``):
        what a reply key or thread id is VERIFIED against; new ones are made with the first only."""
        return (self.key_secret,
                *(f"{old}\x00{self.installation_id}" for old in self.settings.previous_secrets))


def register_extra_engines(targets: list[str]) -> None:
    """Register engines named ``module:attribute`` (tests run a toy game in a subprocess so)."""
    for target in targets:
        module_name, _, attr = target.partition(":")
        engines.register(getattr(importlib.import_module(module_name), attr or "ENGINE"))
