"""Alembic environment: runs migrations on the URL ``service.store.db.alembic_config`` sets."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import service.store.league_models
import service.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from service.store.db import make_engine

target_metadata = SQLModel.metadata


def run() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url, "sqlalchemy.url is not set"
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run()
