"""Database engine, sessions and migrations.

SQLite runs in WAL mode (readers never block the writer; a crash mid-write loses nothing
committed) with a busy timeout so a second process waits instead of failing. Any other
SQLAlchemy URL (PostgreSQL via ``postgresql+psycopg://``) works unchanged. The schema is
only ever created by Alembic (``migrate``), never by ``create_all``, so production and
tests run the same migrations.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from service.store.sqlite_writer import install as install_writer_turn

MIGRATIONS = Path(__file__).parent / "migrations"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys and a busy timeout."""
    if url.startswith("sqlite"):
        db_path = url.split("///", 1)[-1]
        if db_path and db_path != ":memory:":
            Path(db_path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        install_writer_turn(engine, wait_seconds=30)
        return engine
    # TCP keepalives (libpq options): a worker whose host dies holds the mailbox's advisory
    # lock until PostgreSQL notices the dead connection — ~25 s with these, ~2 h by default.
    keepalives = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}
    return create_engine(url, pool_pre_ping=True, connect_args=keepalives)


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def migrate(url: str, revision: str = "head") -> None:
    """Bring the schema at ``url`` up to ``revision`` (idempotent).

    On PostgreSQL under an advisory lock: several workers starting at once (``pbem serve
    --workers N``) migrate one after the other, never two upgrades side by side."""
    if not url.startswith("postgresql"):
        command.upgrade(alembic_config(url), revision)
        return
    from sqlalchemy import text

    from service.store.locks import lock_key

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": lock_key("migrate")})
            conn.commit()
            try:
                command.upgrade(alembic_config(url), revision)
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": lock_key("migrate")})
                conn.commit()
    finally:
        engine.dispose()


def session(engine: Engine) -> Session:
    return Session(engine, expire_on_commit=False)
