"""Three ``pbem serve`` workers on one PostgreSQL and one Dovecot mailbox, and a kill -9.

200 toy games (133 of two players, 67 of three: about 2,000 replies) are played by simulated
players over real IMAP/SMTP while three worker processes share the work; the worker that
reads the mailbox is killed with -9 a third of the way in (not restarted: another worker
must take the mailbox over). Afterwards:

- every reply is stored once and applied at most once (one move log entry per mail), none is
  left ``new`` and none quarantined, every game is finished;
- every outbox mail is ``sent``; no mailbox holds two copies of one Message-ID unless the
  worker that sent it died mid-send (``crash_resends``: the documented at-most-twice case);
- no mailbox holds two mails with the same body under different Message-IDs (what a reply
  processed twice would produce: each mail differs by its game tag, reply key and digest).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import col, select

from service.store.models import Game, InboundMail, MoveLog, Outbox
from tests.support.mailservers import fetch_all
from tests.support.players import Players
from tests.support.postgres import fresh_database, running_postgres

from .world import PASSWORD, SERVICE, World

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
ROOT = Path(__file__).resolve().parents[2]
GAMES, THREE_SEATED, PLAYERS = 200, 67, 40


def worker_env(world: World, tmp: Path) -> dict[str, str]:
    s = world.service.settings
    return {
        **os.environ, "PYTHONPATH": str(ROOT),
        "PBEM_CONFIG": str(tmp / "absent.toml"),
        "PBEM_DATABASE_URL": s.database_url, "PBEM_SERVICE_ADDRESS": s.service_address, "PBEM_SECRET": s.secret,
        "PBEM_IMAP_HOST": s.imap_host, "PBEM_IMAP_PORT": str(s.imap_port), "PBEM_IMAP_USER": s.imap_user,
        "PBEM_IMAP_PASSWORD": s.imap_password, "PBEM_IMAP_SSL": "false",
        "PBEM_SMTP_HOST": s.smtp_host, "PBEM_SMTP_PORT": str(s.smtp_port),
        "PBEM_EXTRA_ENGINES": '["tests.support.toy:ENGINE"]',
        "PBEM_POLL_INTERVAL_SECONDS": "30", "PBEM_OUTBOX_INTERVAL_SECONDS": "1", "PBEM_SWEEP_INTERVAL_SECONDS": "5",
        # answers are limited per address; these players play ten games each at once
        "PBEM_ANSWERS_PER_HOUR": "1000", "PBEM_ANSWERS_PER_DAY": "1000",
    }


def start_worker(name: str, env: dict[str, str], tmp: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--worker-id", name], cwd=ROOT, env=env,
                            stdout=(tmp / f"{name}.log").open("ab"), stderr=subprocess.STDOUT)


def wait_for_line(path: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in path.read_text(errors="replace"):
        assert time.monotonic() < deadline, f"{path.name} never said {text!r}"
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_three_workers_share_2000_replies_and_survive_a_kill_9(dovecot_stack: Any, tmp_path: Path) -> None:
    world = World.create(dovecot_stack, tmp_path, database_url=fresh_database(running_postgres()))
    world.clock.set(datetime.now(UTC))  # the workers run on the real clock: deadlines three days ahead
    addresses = [world.player(f"p{i}@pbem.test", f"P{i}") for i in range(PLAYERS)]
    for n in range(GAMES):
        a = n % PLAYERS
        seats = [addresses[(a + k * (1 + n // PLAYERS)) % PLAYERS] for k in range(3 if n < THREE_SEATED else 2)]
        world.game("toy", seats, seed=n + 1)
    expected = THREE_SEATED * 12 + (GAMES - THREE_SEATED) * 9  # toy: 3 rounds of a call and one card per seat
    env = worker_env(world, tmp_path)
    players = Players(dovecot_stack, addresses, PASSWORD, SERVICE, think=(0.0, 0.05))
    workers: dict[str, subprocess.Popen[bytes]] = {}
    started = time.monotonic()
    try:
        workers["w1"] = start_worker("w1", env, tmp_path)
        wait_for_line(tmp_path / "w1.log", "reads the mailbox", 120)  # w1 holds the mailbox lock
        workers["w2"] = start_worker("w2", env, tmp_path)
        workers["w3"] = start_worker("w3", env, tmp_path)
        players.start()
        progress: dict[str, Any] = {}

        def look() -> dict[str, Any]:
            with world.service.session() as s:
                progress.update(
                    replies=len(players.replies), moves=s.exec(select(func.count()).select_from(MoveLog)).one(),
                    new=s.exec(select(func.count()).select_from(InboundMail).where(InboundMail.status == "new")).one(),
                    unsent=s.exec(select(func.count()).select_from(Outbox)
                                  .where(col(Outbox.status).in_(("pending", "sending")))).one(),
                    active=s.exec(select(func.count()).select_from(Game).where(Game.status == "active")).one(),
                    seconds=round(time.monotonic() - started))
            return progress

        killed_at = None
        deadline = time.monotonic() + 600
        while True:
            state = look()
            if killed_at is None and state["replies"] >= expected // 3:
                workers["w1"].send_signal(signal.SIGKILL)  # the mailbox holder, mid-run
                workers["w1"].wait()
                killed_at = time.monotonic()
                print(f"\nkill -9 of w1 (the mailbox holder) after {state}")
            unanswered = [r for r in players.replies if r.answered is None]
            if state["active"] == 0 and state["new"] == 0 and state["unsent"] == 0 and not unanswered:
                break
            assert time.monotonic() < deadline, f"not done in time: {state}, {len(unanswered)} replies unanswered"
            time.sleep(1)
        wall = time.monotonic() - started
        time.sleep(3)  # a last look: nothing more may arrive
    finally:
        players.stop()
        for proc in workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in workers.values():
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
    assert killed_at is not None

    with world.service.session() as s:
        inbound = s.exec(select(InboundMail)).all()
        moves = s.exec(select(MoveLog)).all()
        outbox = s.exec(select(Outbox)).all()
        games = s.exec(select(Game)).all()
    replies = players.replies
    by_id = {m.message_id: m for m in inbound}
    statuses = Counter(by_id[r.message_id].status if r.message_id in by_id else "LOST" for r in replies)
    per_mail = Counter(m.inbound_id for m in moves if m.inbound_id is not None)
    resent = {o.message_id for o in outbox if o.crash_resends}
    copies = players.copies
    id_dupes = [(p, mid, n) for (p, mid), n in copies.items() if n > 1 and mid not in resent]
    body_dupes: list[tuple[str, int]] = []
    for address in addresses:
        bodies: dict[str, set[str]] = {}
        for raw in fetch_all(dovecot_stack, address, PASSWORD):
            msg = message_from_bytes(raw, policy=policy.default)
            part = msg.get_body(("plain",))  # type: ignore[attr-defined]
            bodies.setdefault(str(part.get_content()) if part else "", set()).add(str(msg["Message-ID"]))
        body_dupes += [(address, len(ids)) for ids in bodies.values() if len(ids) > 1]
    claimed_by = Counter((m.claimed_by or "-").rsplit(":", 1)[-1] for m in inbound)
    print(f"\n{len(replies)} replies (expected {expected}) in {len(games)} games by {PLAYERS} players, 3 workers "
          f"(w1 killed -9 at {killed_at - started:.0f} s, not restarted), wall {wall:.0f} s; "
          f"{len(outbox)} mails sent, {len(resent)} resent after the kill; reply statuses {dict(statuses)}; "
          f"mails processed per worker {dict(claimed_by)}; duplicates by Message-ID {len(id_dupes)}, "
          f"by content {len(body_dupes)}")
    worker_logs = "".join((tmp_path / f"{n}.log").read_text(errors="replace") for n in ("w2", "w3"))
    assert "reads the mailbox" in worker_logs, "no worker took the mailbox over"
    assert statuses.get("LOST", 0) == 0 and statuses.get("new", 0) == 0, statuses
    assert [m for m in inbound if m.status == "quarantined"] == []
    assert all(n == 1 for n in per_mail.values()), "a reply was applied twice"
    assert len(replies) >= 0.95 * expected and statuses["applied"] >= 0.95 * expected, statuses
    assert all(g.status == "finished" for g in games)
    assert all(o.status == "sent" for o in outbox), Counter(o.status for o in outbox)
    assert all(o.sends + o.crash_resends <= 2 for o in outbox)
    assert id_dupes == [], id_dupes[:5]
    assert body_dupes == [], body_dupes[:5]
    assert len([w for w, n in claimed_by.items() if n > 50]) >= 2, f"the work was not shared: {claimed_by}"
