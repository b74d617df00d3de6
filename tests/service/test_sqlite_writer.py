"""The in-process writer turn on SQLite (service/store/sqlite_writer.py): writers of one process
take turns without SQLite's polling, and no way out of a transaction keeps the turn."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from service.store.db import make_engine
from service.store.sqlite_writer import install, turn_of


def _engine(tmp_path: Path, busy_seconds: float = 30) -> Engine:
    engine = create_engine(f"sqlite:///{tmp_path / 'w.sqlite3'}",
                           connect_args={"timeout": busy_seconds, "check_same_thread": False})
    with engine.begin() as conn:
        conn.execute(text("PRAGMA journal_mode=WAL"))
        conn.execute(text("CREATE TABLE t (n INTEGER)"))
    install(engine, wait_seconds=busy_seconds)
    return engine


def _free(engine: Engine) -> bool:
    turn = turn_of(engine)
    assert turn is not None
    return not turn._lock.locked()


def test_make_engine_gives_sqlite_a_writer_turn_and_postgresql_none(tmp_path: Path) -> None:
    assert turn_of(make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")) is not None
    assert turn_of(make_engine("postgresql+psycopg://u:p@127.0.0.1:1/x")) is None


def test_two_threads_writing_at_once_both_finish_and_the_turn_ends_free(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    errors: list[BaseException] = []

    def writer(base: int) -> None:
        try:
            for n in range(150):
                with engine.begin() as conn:
                    conn.execute(text("INSERT INTO t VALUES (:n)"), {"n": base + n})
                    conn.execute(text("UPDATE t SET n = n WHERE n = :n"), {"n": base + n})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k * 1000,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM t")).scalar() == 450
    assert _free(engine)


def test_a_rollback_or_a_session_closed_mid_write_gives_the_turn_back(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    with engine.connect() as conn:
        conn.execute(text("INSERT INTO t VALUES (1)"))
        assert not _free(engine)
        conn.rollback()
        assert _free(engine)
        conn.execute(text("INSERT INTO t VALUES (2)"))
        assert not _free(engine)
    assert _free(engine)  # returned to the pool uncommitted: the pool rolled it back
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM t")).scalar() == 0


def test_a_connection_invalidated_mid_write_gives_the_turn_back(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    with engine.connect() as conn:
        conn.execute(text("INSERT INTO t VALUES (1)"))
        conn.invalidate()
    assert _free(engine)


def test_a_second_write_transaction_on_the_same_thread_is_answered_by_sqlite_not_a_hang(tmp_path: Path) -> None:
    engine = _engine(tmp_path, busy_seconds=0.3)
    with engine.connect() as first:
        first.execute(text("INSERT INTO t VALUES (1)"))
        with engine.connect() as second, pytest.raises(OperationalError, match="locked"):
            second.execute(text("INSERT INTO t VALUES (2)"))
        first.commit()
    assert _free(engine)


_HOLDER = """
import sys, time
from sqlalchemy import create_engine, text
from service.store.sqlite_writer import install
engine = create_engine("sqlite:///" + sys.argv[1], connect_args={"timeout": 30})
install(engine, wait_seconds=30)
with engine.connect() as conn:
    conn.execute(text("INSERT INTO t VALUES (7)"))
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    conn.commit()
"""


def _holder(tmp_path: Path, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _HOLDER, str(tmp_path / "w.sqlite3"), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
    return proc


def test_another_process_writing_waits_for_the_turn_and_then_writes(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    assert (tmp_path / "w.sqlite3-writer").exists()
    holder = _holder(tmp_path, 0.5)
    with engine.begin() as conn:  # waits for the other process's commit, then writes
        conn.execute(text("INSERT INTO t VALUES (8)"))
    assert holder.wait(timeout=30) == 0
    with engine.connect() as conn:
        assert sorted(conn.execute(text("SELECT n FROM t")).scalars()) == [7, 8]
    assert _free(engine)


def test_a_process_that_never_lets_go_gets_sqlites_own_answer_not_a_hang(tmp_path: Path) -> None:
    engine = _engine(tmp_path, busy_seconds=0.3)
    holder = _holder(tmp_path, 30)
    try:
        with pytest.raises(OperationalError, match="locked"), engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (8)"))
        assert _free(engine)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    with engine.begin() as conn:  # the dead process let go of its turn
        conn.execute(text("INSERT INTO t VALUES (9)"))
