"""Several workers on one PostgreSQL: what they claim, who reads the mailbox, who sweeps.

Quick tests on this process's throw-away PostgreSQL (tests.support.postgres): claimers
racing in threads never get the same inbound mail or outbox row (SKIP LOCKED), a claim whose
lease ran out or whose process died is taken over, the mailbox's advisory lock passes to the
next worker the moment its holder is killed with -9, and two sweeps at once queue each
reminder once.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import insert, text, update
from sqlmodel import col, select

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.schedule.runtime import Service
from service.store.claims import claim_inbound, claim_outbox, worker_token
from service.store.locks import AdvisoryLock, job_lock
from service.store.models import InboundMail, Outbox
from tests.support.postgres import fresh_database, running_postgres

from .conftest import SECRET

pytestmark = pytest.mark.postgres
LEASE = timedelta(seconds=60)


@pytest.fixture
def ctx() -> Any:
    clock = ManualClock()
    context = AppContext.create(Settings(database_url=fresh_database(running_postgres()), secret=SECRET,
                                         imap_ssl=False, templates_dir=""), clock)
    yield context
    context.db.dispose()


def add_inbound(ctx: AppContext, n: int) -> list[int]:
    now = ctx.clock.now()
    with ctx.db.begin() as conn:
        conn.execute(insert(InboundMail), [
            {"message_id": f"<m{i}@x.test>", "mailbox": "INBOX", "raw": b"x", "sender": "a@x.test", "subject": "",
             "status": "new", "attempts": 0, "received_at": now} for i in range(n)])
    with ctx.session() as s:
        return sorted(i for i in s.exec(select(InboundMail.id)).all() if i is not None)


def add_outbox(ctx: AppContext, n: int) -> None:
    now = ctx.clock.now()
    with ctx.db.begin() as conn:
        conn.execute(insert(Outbox), [
            {"message_id": f"<o{i}@pbem.test>", "to_address": f"p{i}@x.test", "kind": "turn", "raw": b"x",
             "status": "pending", "attempts": 0, "sends": 0, "crash_resends": 0, "next_attempt_at": now,
             "created_at": now} for i in range(n)])


def race(workers: int, claim_some: Callable[[str], list[int]]) -> dict[str, list[int]]:
    """Run ``workers`` threads, each claiming with its own owner token until nothing is left."""
    got: dict[str, list[int]] = {}
    start = threading.Barrier(workers)

    def work(n: int) -> None:
        me = f"host-{n}:{1000 + n}:{uuid.uuid4().hex[:8]}"  # workers on other machines (own claims kept)
        mine: list[int] = got.setdefault(me, [])
        start.wait()
        while batch := claim_some(me):
            assert len(batch) <= 7
            mine += batch

    threads = [threading.Thread(target=work, args=(n,)) for n in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return got


def test_racing_claimers_never_get_the_same_inbound_mail_or_outbox_row(ctx: AppContext) -> None:
    ids = add_inbound(ctx, 300)
    now = ctx.clock.now()
    def claim_and_process(me: str) -> list[int]:
        batch = list(claim_inbound(ctx.db, me, now, LEASE, limit=7))
        if batch:  # what the pipeline does with them: each mail leaves ``new``
            with ctx.db.begin() as conn:
                conn.execute(update(InboundMail).where(col(InboundMail.id).in_(batch)).values(status="applied"))
        return batch

    got = race(4, claim_and_process)
    claimed = [i for batch in got.values() for i in batch]
    assert sorted(claimed) == ids, "every mail claimed exactly once"
    assert sum(1 for batch in got.values() if batch) >= 2, "the work was shared"
    with ctx.session() as s:
        rows = s.exec(select(InboundMail)).all()
    assert {r.attempts for r in rows} == {1}
    assert all(r.claimed_by in got and r.id in got[r.claimed_by] for r in rows)

    add_outbox(ctx, 200)

    def one(me: str) -> list[int]:
        row = claim_outbox(ctx.db, me, now)
        return [] if row is None else [row[0]]

    sent = race(4, one)
    outbox = [i for batch in sent.values() for i in batch]
    assert len(outbox) == 200 and len(set(outbox)) == 200
    with ctx.session() as s:
        assert {o.status for o in s.exec(select(Outbox)).all()} == {"sending"}


def test_a_claim_is_taken_over_when_its_lease_runs_out_or_its_process_died(ctx: AppContext) -> None:
    first, second, third = add_inbound(ctx, 3)
    now = ctx.clock.now()
    elsewhere = "other-host:4242:abcd1234"  # a worker on another machine: trusted until its lease ends
    assert claim_inbound(ctx.db, elsewhere, now, LEASE, ids=[first]) == {first: 1}
    me = worker_token()
    assert claim_inbound(ctx.db, me, now + timedelta(seconds=59), LEASE, ids=[first]) == {}
    assert claim_inbound(ctx.db, me, now + timedelta(seconds=61), LEASE, ids=[first]) == {first: 2}

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = worker_token().split(":")[0] + f":{int(dead.stdout)}:feedbeef"  # this host, a pid that has exited
    assert claim_inbound(ctx.db, gone, now, LEASE, ids=[second]) == {second: 1}
    assert claim_inbound(ctx.db, me, now, LEASE, ids=[second]) == {second: 2}, "a dead process's claim is free"

    other = worker_token()  # another live worker of this very process is not ours to take over...
    assert claim_inbound(ctx.db, other, now, LEASE, ids=[third]) == {third: 1}
    # ...but this process runs one Service per token: a token of it not in hand is a Service that is gone
    assert claim_inbound(ctx.db, me, now, LEASE, ids=[third]) == {third: 2}


def test_a_container_on_the_same_host_name_keeps_its_claims_until_its_lease_ends(ctx: AppContext) -> None:
    """Two containers on the host network share the host name, and each `pbem serve` is pid 1
    in its own pid namespace: a claim of the other one is not a dead process of ours."""
    (mail,) = add_inbound(ctx, 1)
    now = ctx.clock.now()
    me = worker_token()
    assert me.startswith(socket.gethostname() + "@"), "the token names the pid namespace"
    neighbour = f"{socket.gethostname()}@1:1:abcd1234"  # pid 1 in another pid namespace
    assert claim_inbound(ctx.db, neighbour, now, LEASE, ids=[mail]) == {mail: 1}
    assert claim_inbound(ctx.db, me, now + timedelta(seconds=59), LEASE, ids=[mail]) == {}, "alive until its lease ends"
    assert claim_inbound(ctx.db, me, now + timedelta(seconds=61), LEASE, ids=[mail]) == {mail: 2}


HOLDER = textwrap.dedent("""
    import sys, time
    from service.store.db import make_engine
    from service.store.locks import AdvisoryLock
    lock = AdvisoryLock(make_engine(sys.argv[1]), "mailbox:play@pbem.test")
    assert lock.try_acquire()
    print("held", flush=True)
    time.sleep(600)
""")


def test_the_mailbox_lock_passes_to_the_next_worker_when_its_holder_is_killed(ctx: AppContext) -> None:
    url = ctx.settings.database_url
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, url], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        waiting = AdvisoryLock(ctx.db, "mailbox:play@pbem.test")
        assert not waiting.try_acquire() and not waiting.held()
        assert AdvisoryLock(ctx.db, "mailbox:other@pbem.test").try_acquire(), "another mailbox is free"
        holder.kill()  # kill -9: no unlock, the server sees the connection close
        holder.wait()
        killed = time.monotonic()
        while not waiting.try_acquire():
            assert time.monotonic() - killed < 5, "the lock was not free within 5 s of the kill"
            time.sleep(0.05)
        print(f"mailbox lock taken over {time.monotonic() - killed:.2f} s after kill -9")
        assert waiting.held()
        with job_lock(ctx.db, "sweep") as mine:
            assert mine
            with job_lock(ctx.db, "sweep") as also:
                assert not also, "a job lock has one holder"
        waiting.release()
    finally:
        holder.kill()
        holder.wait()


def test_two_sweeps_at_once_queue_each_reminder_once(ctx: AppContext) -> None:
    clock = ctx.clock
    assert isinstance(clock, ManualClock)
    services = [Service(ctx.settings, clock) for _ in range(2)]
    first = services[0]
    for n in range(6):
        players = [f"p{n}{k}@x.test" for k in (0, 1)]
        for k, address in enumerate(players):
            first.add_player(address, f"P{n}{k}")
        first.new_game("toy", players, seed=n + 1)
    clock.advance(hours=72 - 23)  # the 24-hour reminder of every game is due
    start = threading.Barrier(2)
    swept: list[Any] = []

    def sweep(service: Service) -> None:
        start.wait()
        swept.append(asyncio.run(service.sweep()))

    for _ in range(3):
        threads = [threading.Thread(target=sweep, args=(s,)) for s in services]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    with ctx.session() as s:
        reminders = Counter(o.to_address for o in s.exec(select(Outbox).where(Outbox.kind == "reminder")).all())
    assert len(swept) == 6
    # every toy game's leader (seat 0) must call first: one reminder each, however many sweeps ran
    assert sorted(reminders) == sorted(f"p{n}0@x.test" for n in range(6)), reminders
    assert set(reminders.values()) == {1}, reminders
    for service in services:
        service.ctx.db.dispose()


def test_a_released_job_lock_is_free_at_once_for_the_next_round(ctx: AppContext) -> None:
    """Found in CI: closing the holder's connection frees an advisory lock only when the server's
    backend exits, a moment later — the second of two sweeps in a row skipped its round. Release
    unlocks on the holder's own connection before closing it (checked by the statements it runs,
    which does not depend on timing), and the lock is then free for the next round at once."""
    from sqlalchemy import event

    said: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        said.append(statement)

    event.listen(ctx.db, "before_cursor_execute", record)
    try:
        for _ in range(10):
            said.clear()
            with job_lock(ctx.db, "sweep") as mine:
                assert mine
            assert any("pg_advisory_unlock" in statement for statement in said), said
            with ctx.db.connect() as conn:
                held = conn.execute(text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                                         "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                                         )).scalar()
            assert held == 0
    finally:
        event.remove(ctx.db, "before_cursor_execute", record)
