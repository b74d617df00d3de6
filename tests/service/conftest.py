"""Fixtures of the service tests: a migrated database, settings, a manual clock.

The mail-server fixtures (``mail_stack``, ``dovecot_stack``) come from
``tests.support.mailservers`` (owned by the mail-infrastructure work); they are imported
here rather than through ``pytest_plugins``, which pytest only allows in the root conftest.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.play.start import create_game
from service.store.db import make_engine, migrate
from service.store.games import create_player
from tests.support.postgres import database_url_for

try:
    from tests.support.mailservers import any_stack, dovecot_stack, mail_stack  # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - until the mail fixtures land
    if exc.name != "tests.support.mailservers":
        raise

SECRET = "test-secret-0123456789abcdef"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        database_url=database_url_for(tmp_path),
        service_address="play@pbem.test",
        secret=SECRET,
        imap_ssl=False,
        templates_dir="",
    )


@pytest.fixture
def db(settings: Settings) -> Iterator[Engine]:
    migrate(settings.database_url)
    engine = make_engine(settings.database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def ctx(settings: Settings, db: Engine) -> AppContext:
    """The service's context on the test database, its own manual clock (a module may define
    its own ``ctx``, sharing the ``clock`` fixture)."""
    return AppContext(settings=settings, db=db, clock=ManualClock())


@pytest.fixture
def game_id(ctx: AppContext) -> int:
    """A toy game of Ann and Bob (seed 5), committed."""
    with ctx.session() as s:
        players = [create_player(s, f"{n}@x.test", n.title(), ctx=ctx).address for n in ("ann", "bob")]
        game = create_game(s, "toy", players, seed=5, ctx=ctx)
        s.commit()
        assert game.id is not None
        return game.id
