"""``pbem bench latency``: the service's own time per reply under light load.

``pbem serve``'s loop runs (IDLE on) over live games while replies arrive one at a time, at a
steady rate (default one a second). For every reply two times are printed as p50/p95:

- **service time**: from the moment the service stored the reply (``InboundMail.received_at``)
  to the moment the last mail it caused was handed to SMTP (``Outbox.sent_at``): what the
  service itself adds, the figure the issue's goal (p95 ≤ 50 ms) is about;
- **end to end**: from the SMTP server accepting the reply to that last send, which adds the
  mail server's delivery into the mailbox and the IDLE notification (Dovecot notifies 0.5 s
  after storing; the pymap stack at once).

The service time is split in two, from the database's own stamps (nothing is instrumented):
**pipeline** (stored -> the reply's transaction commits, ``InboundMail.processed_at``: parse,
apply, render every answer) and **answers out** (that commit -> the last answer's ``250``,
``Outbox.sent_at``: the hand-off to the SMTP thread, one SMTP transaction per answer, each
including the mail server's own delivery). Per engine too, with the answers per reply: which
game's replies make the slow tail is what to work on.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosmtplib
from sqlmodel import col, select

import engines
from bench.scale import SERVICE_ADDRESS, SERVICE_PASSWORD, World, bench_settings, outbox_empty, reply_for
from service.schedule.runtime import Service, freeze_startup_objects
from service.store.models import InboundMail, Outbox


@dataclass
class LatencyReport:
    stack: str
    replies: int
    rate: float
    service_ms: list[float]
    end_to_end_ms: list[float]
    #: per answered reply, in the order of ``service_ms``: stored -> committed, committed ->
    #: last answer sent, the reply's engine and how many answers it caused
    pipeline_ms: list[float] = field(default_factory=list)
    answers_ms: list[float] = field(default_factory=list)
    engines: list[str] = field(default_factory=list)
    mails: list[int] = field(default_factory=list)

    def lines(self) -> list[str]:
        s, e = self.service_ms, self.end_to_end_ms
        out = [
            f"stack: {self.stack}; {self.replies} replies at {self.rate:g}/s into a serving service (IDLE on)",
            f"service time, reply stored -> last answer sent: p50 {_p(s, 50):.1f} ms, p95 {_p(s, 95):.1f} ms, "
            f"max {max(s):.1f} ms",
            f"end to end, SMTP accepted -> last answer sent: p50 {_p(e, 50):.1f} ms, p95 {_p(e, 95):.1f} ms "
            "(adds delivery into the mailbox and the IDLE wake-up)",
        ]
        if self.pipeline_ms and self.answers_ms:
            pipe, out_ms = self.pipeline_ms, self.answers_ms
            out += [
                f"  pipeline, stored -> committed (parse, apply, render): p50 {_p(pipe, 50):.1f} ms, "
                f"p95 {_p(pipe, 95):.1f} ms, max {max(pipe):.1f} ms",
                f"  answers out, committed -> last answer sent (SMTP, server delivery included): "
                f"p50 {_p(out_ms, 50):.1f} ms, p95 {_p(out_ms, 95):.1f} ms, max {max(out_ms):.1f} ms",
            ]
        for engine_id in sorted(set(self.engines)):
            mine = [n for n, name in enumerate(self.engines) if name == engine_id]
            times = [s[n] for n in mine]
            out.append(f"  {engine_id:<9} {len(mine):>3} replies, {statistics.mean(self.mails[n] for n in mine):.1f} "
                       f"answers each: p50 {_p(times, 50):.1f} ms, p95 {_p(times, 95):.1f} ms "
                       f"(pipeline p50 {_p([self.pipeline_ms[n] for n in mine], 50):.1f}, "
                       f"answers out p50 {_p([self.answers_ms[n] for n in mine], 50):.1f})")
        return out


def _p(values: list[float], q: int) -> float:
    """The ``q``-th percentile (inclusive method; the value itself for one sample)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


async def _feed(service: Service, stack: Any, messages: list[Any], rate: float) -> list[float]:
    """Serve while sending ``messages`` at ``rate`` per second; SMTP acceptance times."""
    freeze_startup_objects()  # as `pbem serve` does
    serving = asyncio.create_task(service.serve_forever())
    accepted: list[float] = []
    try:
        await asyncio.sleep(1.0)  # connected, first catch-up poll done
        smtp = aiosmtplib.SMTP(hostname=stack.host, port=stack.smtp_port, timeout=60)
        await smtp.connect()
        try:
            for n, msg in enumerate(messages):
                await smtp.send_message(msg, sender=str(msg["From"]), recipients=[str(msg["To"])])
                accepted.append(time.time())
                if serving.done():
                    serving.result()
                if n + 1 < len(messages):
                    await asyncio.sleep(max(0.0, accepted[0] + (n + 1) / rate - time.time()))
        finally:
            await smtp.quit()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            with service.session() as s:
                left = s.exec(select(InboundMail.id).where(InboundMail.status == "new")).first()
            if left is None and len(_stored(service)) >= len(messages) and outbox_empty(service):
                break
    finally:
        service.stop()
        await serving
    return accepted


def _stored(service: Service) -> list[InboundMail]:
    with service.session() as s:
        return list(s.exec(select(InboundMail).order_by(col(InboundMail.id))).all())


def run_latency(replies: int = 30, rate: float = 1.0, *, dovecot: bool = False, seed: int = 1,
                echo: Any = print) -> LatencyReport:
    from service.localmail.dovecot import DovecotStack
    from service.localmail.stackprocess import SubprocessMailStack

    rng = random.Random(seed)
    stack_cls: type[DovecotStack] | type[SubprocessMailStack] = DovecotStack if dovecot else SubprocessMailStack
    with tempfile.TemporaryDirectory(prefix="pbem-latency-") as tmp, stack_cls(auto_create=True) as stack:
        stack.add_user(SERVICE_ADDRESS, SERVICE_PASSWORD)
        service = Service(bench_settings(stack, Path(tmp) / "pbem.sqlite3"))
        world = World(service)
        world.add_templates(engines.names(include_extra=False), seed)
        world.add_games(replies, rng)
        chosen = world.to_act[:replies]
        messages = [reply_for(live, rng) for live in chosen]
        echo(f"{replies} replies, {rate:g} a second, into a serving service on {stack!r} ...")
        accepted = asyncio.run(_feed(service, stack, messages, rate))
        by_message_id = {str(m["Message-ID"]): n for n, m in enumerate(messages)}
        service_ms: list[float] = []
        end_to_end_ms: list[float] = []
        pipeline_ms: list[float] = []
        answers_ms: list[float] = []
        engine_of: list[str] = []
        mails: list[int] = []
        with service.session() as s:
            for row in _stored(service):
                n = by_message_id.get(row.message_id)
                if n is None or row.status != "applied":
                    continue
                sent = [t for t in s.exec(select(Outbox.sent_at).where(
                    Outbox.game_id == chosen[n].game_id, Outbox.status == "sent",
                    col(Outbox.created_at) >= row.received_at)).all() if t is not None]
                if not sent:
                    continue
                last = _aware(max(sent)).timestamp()
                stored_at = _aware(row.received_at).timestamp()
                service_ms.append(1000 * (last - stored_at))
                end_to_end_ms.append(1000 * (last - accepted[n]))
                committed = _aware(row.processed_at).timestamp() if row.processed_at is not None else stored_at
                pipeline_ms.append(1000 * (committed - stored_at))
                answers_ms.append(1000 * (last - committed))
                engine_of.append(chosen[n].engine_id)
                mails.append(len(sent))
        if not service_ms:
            raise RuntimeError("no reply was answered: the service did not run")
        return LatencyReport("dovecot" if dovecot else "pymap (own process)", replies, rate, service_ms,
                             end_to_end_ms, pipeline_ms, answers_ms, engine_of, mails)
