"""``pbem db backup FILE`` / ``pbem db restore FILE`` / ``pbem db verify``.

A backup is the whole database: games, move logs, outbox, reply keys and the installation id
(so the reply addresses in mails already sent stay valid after a restore, with the same
``PBEM_SECRET``). SQLite is copied with its online backup API — consistent while ``pbem serve``
writes; PostgreSQL with ``pg_dump --format=custom`` (consistent by MVCC) and restored with
``pg_restore --clean --single-transaction``. A restore brings the schema to the newest migration
and then proves the data: every game's stored state must equal the state replayed from its seed
and its move log (``verify_replays``), the same check ``pbem admin undo`` trusts.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from sqlalchemy import func
from sqlalchemy.engine import URL, make_url
from sqlmodel import select

from service.admin.errors import AdminError, BadArgument, NotFound, Refused
from service.admin.undo import as_move, logged_moves, original_names, replay, same_state
from service.config import Settings
from service.context import AppContext
from service.store.db import make_engine, migrate, session
from service.store.games import load
from service.store.models import Game


@dataclass
class ReplayReport:
    """The outcome of replaying every game: how many were checked and which did not match."""

    games: int = 0
    mismatched: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatched


def verify_replays(ctx: AppContext) -> ReplayReport:
    """Replay every game from its seed and move log and compare with its stored state."""
    report = ReplayReport()
    with ctx.session() as s:
        for game in s.exec(select(Game).order_by(Game.id)).all():  # type: ignore[arg-type]
            assert game.id is not None
            report.games += 1
            try:
                engine, _stored = load(game)
                state = replay(engine, original_names(s, game), json.loads(game.options), game.seed,
                               [as_move(r) for r in logged_moves(s, game.id)])
            except Exception as exc:
                report.mismatched.append(f"game #{game.id}: the move log does not replay ({exc})")
                continue
            if not same_state(engine, state, game.state):
                report.mismatched.append(f"game #{game.id}: the replayed state differs from the stored one")
    return report


# -- where the database is ---------------------------------------------------------------------

def _kind(url: URL) -> str:
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            raise BadArgument("an in-memory SQLite database cannot be backed up or restored")
        return "sqlite"
    if url.get_backend_name() == "postgresql":
        return "postgresql"
    raise BadArgument(f"backup of {url.get_backend_name()} databases is not supported (SQLite, PostgreSQL)")


def pg_tool(name: str) -> str:
    """``pg_dump``/``pg_restore``: the newest of Debian's versioned folders, else the PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    tool = found[-1] if found else shutil.which(name)
    if tool is None:
        raise AdminError(f"{name} is not installed (apt-get install postgresql-client)")
    return tool


def _pg_env(url: URL) -> dict[str, str]:
    """The connection for the PostgreSQL tools, through libpq's variables: the password never
    appears on a command line (``ps`` shows those to every user)."""
    env = dict(os.environ)
    for var, value in (("PGHOST", url.host), ("PGPORT", url.port), ("PGUSER", url.username),
                       ("PGPASSWORD", url.password), ("PGDATABASE", url.database)):
        if value is not None:
            env[var] = str(value)
    return env


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise AdminError(f"{what} failed: {detail[-1] if detail else f'exit {done.returncode}'}")


# -- backup --------------------------------------------------------------------------------------

def backup(database_url: str, target: Path) -> str:
    """Write a consistent copy of the database to ``target`` (which must not exist yet)."""
    url = make_url(database_url)
    kind = _kind(url)
    if target.exists():
        raise Refused(f"{target} exists: choose a new file name (a backup never overwrites one)")
    if not target.parent.is_dir():
        raise NotFound(f"no folder {target.parent}")
    partial = target.with_name(target.name + ".partial")
    try:
        if kind == "sqlite":
            source_path = Path(str(url.database))
            if not source_path.is_file():
                raise NotFound(f"no database file {source_path}")
            _sqlite_copy(f"file:{source_path}?mode=ro", str(partial))
        else:
            _run([pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(partial)],
                 _pg_env(url), "pg_dump")
        partial.replace(target)  # a backup file is complete or absent, never half-written
    finally:
        partial.unlink(missing_ok=True)
    return kind


# -- restore -------------------------------------------------------------------------------------

def _games_in(database_url: str) -> int:
    """Games in the target database (0 when it is empty or has no schema yet)."""
    engine = make_engine(database_url)
    try:
        with session(engine) as s:
            return int(s.exec(select(func.count()).select_from(Game)).one())
    except Exception:
        return 0
    finally:
        engine.dispose()


def _sqlite_copy(source_uri: str, target: str) -> None:
    """SQLite's online backup: page by page, consistent even while another process writes."""
    with closing(sqlite3.connect(source_uri, uri=True)) as source, closing(sqlite3.connect(target)) as copy:
        source.backup(copy)


def _check_sqlite_backup(path: Path) -> None:
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise BadArgument(f"{path} is not a SQLite backup ({exc})") from None
    if not {"alembic_version", "games"} <= tables:
        raise BadArgument(f"{path} is not a pbem backup (no games table)")


def restore(database_url: str, source: Path, *, replace: bool = False) -> str:
    """Put the backup ``source`` into the configured database and migrate it to the newest schema.

    Stop ``pbem serve`` first. A database that already holds games is only overwritten with
    ``replace`` (the restore would throw them away)."""
    url = make_url(database_url)
    kind = _kind(url)
    if not source.is_file():
        raise NotFound(f"no backup file {source}")
    if not replace and (held := _games_in(database_url)):
        raise Refused(f"the database already holds {held} game(s): stop pbem serve and give --replace to "
                      "overwrite them with the backup")
    if kind == "sqlite":
        _check_sqlite_backup(source)
        target = Path(str(url.database))
        target.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(f"file:{source}?mode=ro", str(target))
    else:
        env = _pg_env(url)
        _run([pg_tool("pg_restore"), "--list", str(source)], env, f"reading {source} as a pg_dump archive")
        _run([pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction",
              "--exit-on-error", "--dbname", str(url.database), str(source)], env, "pg_restore")
    migrate(database_url)  # a backup from an older pbem is brought up to date
    return kind


# -- after a restore: read again what the mailbox delivered since the backup ---------------------

def reread_since(settings: Settings, since: date) -> int:
    """Take our ``PbemDone`` flag off the inbox's mails delivered on or after ``since``, so the
    next poll reads them again; returns how many.

    After a restore the database has forgotten the mails handled since the backup, while the
    mailbox still marks them done. Reading them again is safe: a mail the restored database
    knows is recognised by its Message-ID and not run twice; the others are run in the order they
    arrived, so each game reaches the state it had (reply keys are MACs of the decision, so the
    keys issued after the backup come out the same). Their answers are sent once more."""
    from service.inbound.fetch import DONE_KEYWORD, Inbox

    inbox = Inbox(settings)
    try:
        client = inbox.connect()
        uids = client.search(["SINCE", since, "KEYWORD", DONE_KEYWORD])
        if uids:
            client.remove_flags(uids, [DONE_KEYWORD.encode()])
        return len(uids)
    finally:
        inbox.close()
