"""``pbem bench pipeline``: the whole service against the raw mail I/O it cannot beat.

N replies (default 2,000) across N live games of mixed engines are put in the service's inbox;
the service then takes them all in (fetch, store, route, extract, parse, apply, render, queue)
and sends every mail they cause. In the same run the raw baseline moves the same bytes with
no processing: the N replies fetched over IMAP (``BODY.PEEK[]``, batches of 100) and as many
outgoing mails as the service sent, sent over one SMTP connection. Printed: mails/s for both,
their ratio, the service's CPU time per reply (robust when other work shares the cores), the p50/p95 latency from a reply's arrival in the inbox to the last of its mails
being sent (all N arrive before the service starts, so this includes queueing), and the peak
memory (RSS) of this process, the service's (the pymap stack runs in a child process, so its
CPU and memory are not the service's; with --dovecot the aiosmtpd front shares this process).

Runs on the pure-Python stack by default and on Dovecot with ``--dovecot``.

The service is ``pbem serve``'s own loop (``Service.serve_forever``: IDLE, poll rounds, the
outbox worker), timed until every reply is handled and the outbox is empty. With
``--workers 1,2,4`` each count runs as that many worker processes (``bench.worker``) on one
fresh database (``--db postgresql``: a throw-away local server) and mailbox, and a table
shows how the rate scales. The workers share the work with the claims that exist (the
inbound attempt counter, the outbox ``pending`` → ``sending`` update): the counts of applied
replies and mails sent in each report show any double processing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosmtplib
from sqlalchemy import event
from sqlmodel import col, select

import engines
from bench.scale import (
    SERVICE_ADDRESS,
    SERVICE_PASSWORD,
    World,
    bench_values,
    handled_count,
    inject,
    outbox_empty,
    reply_for,
    serve_until_done,
)
from service.config import Settings
from service.inbound.imapconn import open_imap
from service.localmail.postgres import LocalPostgres
from service.schedule.runtime import Service
from service.store.models import InboundMail, Outbox


@dataclass
class PipelineReport:
    stack: str
    engines: list[str]
    replies: int
    applied: int
    mails_sent: int
    service_s: float
    raw_fetch_s: float
    raw_send_s: float
    latency_p50_s: float
    latency_p95_s: float
    apply_gap_p50_s: float
    service_cpu_s: float
    peak_rss_mb: float
    setup_s: float
    workers: int = 0
    #: statements and commits the service ran on its database (in-process runs only; -1: not counted)
    statements: int = -1
    commits: int = -1

    @property
    def service_rate(self) -> float:
        """Replies per second through the whole service."""
        return self.replies / self.service_s

    @property
    def raw_rate(self) -> float:
        """Replies per second when only the same mail I/O is done (fetch N, send as many)."""
        return self.replies / (self.raw_fetch_s + self.raw_send_s)

    @property
    def ratio(self) -> float:
        return self.service_rate / self.raw_rate

    def lines(self) -> list[str]:
        return [
            f"stack: {self.stack}; engines: {', '.join(self.engines)}; {self.replies:,} replies in "
            f"{self.replies:,} live games (setup {self.setup_s:.0f} s)",
            f"service: {self.service_rate:,.1f} replies/s ({self.service_s:.1f} s; {self.applied:,} applied, "
            f"{self.mails_sent:,} mails sent = {self.mails_sent / self.service_s:,.1f} mails/s out)",
            f"raw mail I/O: {self.raw_rate:,.1f} replies/s (IMAP fetch {self.replies / self.raw_fetch_s:,.0f}/s, "
            f"SMTP send {self.mails_sent / self.raw_send_s:,.0f}/s)",
            f"ratio service/raw: {self.ratio:.3f} (the service runs at {100 * self.ratio:.1f} % of the raw mail rate)",
            f"latency arrival -> last mail sent: p50 {self.latency_p50_s:.2f} s, p95 {self.latency_p95_s:.2f} s "
            "(all replies arrive before the service starts: mostly queueing)",
            f"service time per reply (median gap between consecutive replies applied): "
            f"{1000 * self.apply_gap_p50_s:.0f} ms",
            f"service CPU per reply (CPU time of the service's process(es), its outbox process too, while it ran / replies): "
            f"{1000 * self.service_cpu_s / self.replies:.1f} ms",
            f"peak memory (RSS of the service process; the pymap stack runs in its own process): "
            f"{self.peak_rss_mb:.0f} MB",
        ] + ([f"database work per reply (the service's own, load-independent): "
              f"{self.statements / self.replies:.1f} statements, {self.commits / self.replies:.1f} commits"]
             if self.statements >= 0 else [])


def _children_cpu() -> float:
    """CPU seconds of this process's children that ended and were waited for (the outbox
    process of ``pbem serve``; not the mail stack, which runs until the end)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


#: what the SQL of the benchmark's progress checks (``handled_count``, ``outbox_empty``) holds
_PROGRESS_CHECKS = ("inbound_mails.status !=", "outbox.status IN")


@contextlib.contextmanager
def count_database_work(service: Service) -> Iterator[dict[str, int]]:
    """Count the statements and commits on the service's engine meanwhile, less the
    benchmark's own progress checks (``handled_count``, ``outbox_empty``: reads, no commit)."""
    counted = {"statements": 0, "commits": 0}

    def statement(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        if not (sql.startswith("SELECT count(*)") and any(mark in sql for mark in _PROGRESS_CHECKS)):
            counted["statements"] += 1

    def commit(_conn: Any) -> None:
        counted["commits"] += 1

    event.listen(service.ctx.db, "before_cursor_execute", statement)
    event.listen(service.ctx.db, "commit", commit)
    try:
        yield counted
    finally:
        event.remove(service.ctx.db, "before_cursor_execute", statement)
        event.remove(service.ctx.db, "commit", commit)


def raw_fetch(stack: Any, expected: int) -> float:
    """Seconds to fetch every message of the service inbox over IMAP, batches of 100."""
    started = time.perf_counter()
    client = open_imap(stack.host, stack.imap_port, SERVICE_ADDRESS, SERVICE_PASSWORD)
    try:
        client.select_folder("INBOX", readonly=True)
        uids = sorted(client.search("ALL"))
        fetched = 0
        for start in range(0, len(uids), 100):
            data = client.fetch(uids[start : start + 100], ["BODY.PEEK[]"])
            fetched += sum(1 for v in data.values() if b"BODY[]" in v)
    finally:
        client.logout()
    assert fetched >= expected, (fetched, expected)
    return time.perf_counter() - started


async def raw_send(stack: Any, mails: list[tuple[str, bytes]]) -> float:
    """Seconds to send these (recipient, bytes) over one SMTP connection, no processing."""
    started = time.perf_counter()
    smtp = aiosmtplib.SMTP(hostname=stack.host, port=stack.smtp_port, timeout=60)
    await smtp.connect()
    try:
        for to, raw in mails:
            await smtp.sendmail(SERVICE_ADDRESS, [to], raw)
    finally:
        await smtp.quit()
    return time.perf_counter() - started


def run_workers(service: Service, values: dict[str, Any], workers: int, expected: int,
                timeout: float = 900.0) -> tuple[float, float]:
    """Start ``workers`` service processes (``bench.worker``: what ``pbem serve`` runs) on the
    database and mailbox of ``values``; (seconds until ``expected`` replies are handled and the
    outbox is empty, CPU seconds of all workers together)."""
    env = {**os.environ, "PBEM_BENCH_SETTINGS": json.dumps(values)}
    procs = [subprocess.Popen([sys.executable, "-m", "bench.worker"], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(workers)]
    try:
        startup_cpu = 0.0
        for proc in procs:  # ready = migrated and connected: startup is not part of the rate
            assert proc.stdout is not None
            ready = proc.stdout.readline().split()
            if not ready or ready[0] != "ready":
                raise RuntimeError("a benchmark worker did not start")
            startup_cpu += float(ready[1])
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            time.sleep(0.05)
            if any(p.poll() is not None for p in procs):
                raise RuntimeError("a benchmark worker died")
            if handled_count(service) >= expected and outbox_empty(service):
                break
        took = time.perf_counter() - started
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        outputs = [proc.communicate(timeout=60)[0] for proc in procs]
    cpu = sum(float(line.split()[1]) for out in outputs for line in out.splitlines() if line.startswith("cpu "))
    return took, cpu - startup_cpu


def run_pipeline(
    replies: int = 2000,
    *,
    dovecot: bool = False,
    engine_ids: list[str] | None = None,
    seed: int = 1,
    echo: Any = print,
    database_url: str | None = None,
    workers: int = 0,
) -> PipelineReport:
    """One measurement. ``workers`` 0: the service runs in this process (its CPU and memory
    are measured); N: N worker processes share the database (``database_url``, default a
    SQLite file) and the mailbox, as N ``pbem serve`` would."""
    from service.localmail.dovecot import DovecotStack
    from service.localmail.stackprocess import SubprocessMailStack

    chosen = engine_ids or engines.names(include_extra=False)
    rng = random.Random(seed)
    stack_cls: type[DovecotStack] | type[SubprocessMailStack] = (
        DovecotStack if dovecot else SubprocessMailStack
    )
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp, stack_cls(auto_create=True) as stack:
        stack.add_user(SERVICE_ADDRESS, SERVICE_PASSWORD)
        setup_started = time.perf_counter()
        values = bench_values(stack, database_url or Path(tmp) / "pbem.sqlite3")
        service = Service(Settings(**values))
        world = World(service)
        world.add_templates(chosen, seed)
        world.add_games(replies, rng)
        messages = [reply_for(live, rng) for live in world.to_act[:replies]]
        arrivals = asyncio.run(inject(stack, messages))
        game_of = [live.game_id for live in world.to_act[:replies]]
        setup_s = time.perf_counter() - setup_started
        echo(f"{replies:,} replies waiting in the inbox of {stack!r}; running the service ...")

        counted = {"statements": 0, "commits": 0}
        if workers:
            service_s, service_cpu_s = run_workers(service, values, workers, replies)
        else:
            cpu_started = time.process_time() + _children_cpu()
            with count_database_work(service) as counted:
                service_s = asyncio.run(serve_until_done(service, replies))
            # with the outbox process's: it ended (and was waited for) when the service stopped
            service_cpu_s = time.process_time() + _children_cpu() - cpu_started
        with service.session() as s:
            applied = len(s.exec(select(InboundMail.id).where(InboundMail.status == "applied")).all())
            done_at = sorted(
                t
                for t in s.exec(select(InboundMail.processed_at).where(InboundMail.status == "applied")).all()
                if t
            )
            sent_rows = s.exec(
                select(Outbox.game_id, Outbox.sent_at, Outbox.to_address, Outbox.raw).where(
                    Outbox.status == "sent", col(Outbox.game_id).in_(game_of)
                )
            ).all()
        last_sent: dict[int, datetime] = {}
        for game_id, sent_at, _to, _raw in sent_rows:
            if (
                game_id is not None
                and sent_at is not None
                and (game_id not in last_sent or sent_at > last_sent[game_id])
            ):
                last_sent[game_id] = sent_at
        latencies = [
            last_sent[g].timestamp() - arrived
            for g, arrived in zip(game_of, arrivals, strict=True)
            if g in last_sent
        ]
        echo("service done; raw baseline: the same fetch and the same number of sends ...")
        fetch_s = raw_fetch(stack, replies)
        send_s = asyncio.run(raw_send(stack, [(to, raw) for _g, _s, to, raw in sent_rows]))
        service.ctx.db.dispose()
        return PipelineReport(
            stack=("dovecot (aiosmtpd front in-process)" if dovecot else "pymap (own process)")
            + f"; database: {'sqlite' if (database_url or 'sqlite').startswith('sqlite') else 'postgresql'}"
            + (f"; {workers} worker process(es)" if workers else "; service in this process"),
            engines=chosen,
            replies=replies,
            applied=applied,
            mails_sent=len(sent_rows),
            service_s=service_s,
            raw_fetch_s=fetch_s,
            raw_send_s=send_s,
            latency_p50_s=_percentile(latencies, 50) if latencies else float("nan"),
            latency_p95_s=_percentile(latencies, 95) if latencies else float("nan"),
            apply_gap_p50_s=statistics.median((b - a).total_seconds() for a, b in itertools.pairwise(done_at))
            if len(done_at) > 1
            else float("nan"),
            service_cpu_s=service_cpu_s,
            peak_rss_mb=_peak_rss_mb(),
            setup_s=setup_s,
            workers=workers,
            statements=counted["statements"] if not workers else -1,
            commits=counted["commits"] if not workers else -1,
        )


def run_scaling(
    replies: int, workers: list[int], *, db: str = "postgresql", dovecot: bool = False,
    engine_ids: list[str] | None = None, seed: int = 1, echo: Any = print,
) -> list[PipelineReport]:
    """``run_pipeline`` once per worker count, each on a fresh database (a local PostgreSQL
    with ``db="postgresql"``) and a fresh mailbox; the same replies every time."""
    reports: list[PipelineReport] = []
    with contextlib.ExitStack() as stack:
        pg = stack.enter_context(LocalPostgres()) if db == "postgresql" else None
        for n in workers:
            url = pg.create_database(f"bench_w{n}_{len(reports)}") if pg is not None else None
            echo(f"-- {n} worker(s) on {db} --")
            reports.append(run_pipeline(replies, dovecot=dovecot, engine_ids=engine_ids, seed=seed, echo=echo,
                                        database_url=url, workers=n))
    return reports


def scaling_lines(reports: list[PipelineReport]) -> list[str]:
    """The table of ``run_scaling``: rate per worker count, against the raw I/O of the same run."""
    lines = ["workers  replies/s  raw replies/s  ratio  CPU ms/reply  x rate of the first"]
    for n, r in enumerate(reports):
        lines.append(f"{r.workers:>7}  {r.service_rate:>9.1f}  {r.raw_rate:>13.1f}  {r.ratio:>5.2f}  "
                     f"{1000 * r.service_cpu_s / r.replies:>12.1f}  {r.service_rate / reports[0].service_rate:>5.2f}"
                     + ("" if n else "  (baseline)"))
    return lines


def main() -> None:
    report = run_pipeline()
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
