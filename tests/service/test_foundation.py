"""Configuration, schema, reply keys: the ground the pipeline stands on."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from service.clock import ManualClock
from service.config import ConfigError, load_settings
from service.outbound.keys import issue_key, lookup_key, make_key, reply_address
from service.store.db import session

from .conftest import SECRET


def test_settings_from_toml_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('service_address = "game@club.test"\npoll_interval_seconds = 7\n[imap]\nport = 1143\n')
    monkeypatch.setenv("PBEM_SECRET", SECRET)
    monkeypatch.setenv("PBEM_POLL_INTERVAL_SECONDS", "3")
    s = load_settings(cfg)
    assert s.service_address == "game@club.test"
    assert s.imap_port == 1143
    assert s.poll_interval_seconds == 3  # the environment wins over the file
    assert s.imap_user == "game@club.test"
    assert s.domain == "club.test"


def test_secret_in_file_is_refused(tmp_path: Path) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('secret = "0123456789abcdefxyz"\n')
    with pytest.raises(ConfigError, match="secret must come from the environment"):
        load_settings(cfg)


def test_bad_configuration_names_every_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text('service_address = "nobody"\n[smtp]\nport = 70000\n')
    monkeypatch.delenv("PBEM_SECRET", raising=False)
    with pytest.raises(ConfigError) as err:
        load_settings(cfg)
    message = str(err.value)
    assert "service_address" in message and "smtp_port" in message and "secret" in message


def test_unknown_setting_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "pbem.toml"
    cfg.write_text("pol_interval = 3\n")
    monkeypatch.setenv("PBEM_SECRET", SECRET)
    with pytest.raises(ConfigError, match="pol_interval"):
        load_settings(cfg)


def test_shipped_example_config_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_SECRET", SECRET)
    s = load_settings(Path(__file__).parents[2] / "config" / "pbem.toml")
    assert s.service_address == "play@pbem.test"


def test_migration_creates_every_table_in_wal_mode(db: Engine) -> None:
    tables = set(inspect(db).get_table_names())
    assert {"players", "games", "seats", "reply_keys", "move_log", "inbound_mails", "outbox",
            "invitations", "alembic_version"} <= tables
    if db.dialect.name == "sqlite":  # WAL is SQLite's; PostgreSQL has its own log
        with db.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"


def test_reply_key_is_bound_to_game_seat_and_decision() -> None:
    key = make_key(SECRET, 42, 1, "7")
    assert key == make_key(SECRET, 42, 1, "7")
    others = {make_key(SECRET, 43, 1, "7"), make_key(SECRET, 42, 2, "7"), make_key(SECRET, 42, 1, "8"),
              make_key("another-secret-xxxxxxxx", 42, 1, "7")}
    assert key not in others and len(others) == 4
    assert "42" not in key or not key.startswith("42")
    assert reply_address("play@pbem.test", key) == f"play+{key}@pbem.test"


def test_lookup_knows_issued_keys_only(db: Engine) -> None:
    clock = ManualClock()
    with session(db) as s:
        from service.store.models import Game

        game = Game(engine="toy", seed=1, state="{}", created_at=clock.now(), updated_at=clock.now())
        s.add(game)
        s.flush()
        assert game.id is not None
        key = issue_key(s, SECRET, game.id, 0, "3", clock.now())
        s.commit()
        info = lookup_key(s, SECRET, key.upper())
        assert info is not None and (info.game_id, info.seat, info.decision) == (game.id, 0, "3")
        assert lookup_key(s, SECRET, make_key(SECRET, game.id, 1, "3")) is None  # never issued
        assert lookup_key(s, "another-secret-xxxxxxxx", key) is None  # MAC does not verify
        assert lookup_key(s, SECRET, "short") is None


def test_migrations_match_the_models(db: Engine) -> None:
    """A model change without its Alembic migration fails here, not in production."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from sqlmodel import SQLModel

    import service.store.models  # noqa: F401

    with db.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert diff == []
