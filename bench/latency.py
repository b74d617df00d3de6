"""``pbem bench latency``: the service's own time per reply under light load.

``pbem serve``'s loop runs (IDLE on) over live games while replies arrive one at a time, at a
steady rate (default one a second). For every reply two times are printed as p50/p95:

- **service time**: from the moment the service stored the reply (``InboundMail.received_at``)
  to the moment the last mail it caused was handed to SMTP (``Outbox.sent_at``): what the
  service itself adds, the figure the issue's goal (p95 ≤ 50 ms) is about;
- **end to end**: from the SMTP server accepting the reply to that last send, which adds the
  mail server's delivery into the mailbox and the IDLE notification (Dovecot notifies 0.5 s
  after storing; the pymap stack at once).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosmtplib
from sqlmodel import col, select

import engines
from bench.scale import SERVICE_ADDRESS, SERVICE_PASSWORD, World, bench_settings, outbox_empty, reply_for
from service.schedule.runtime import Service
from service.store.models import InboundMail, Outbox


@dataclass
class LatencyReport:
    stack: str
    replies: int
    rate: float
    service_ms: list[float]
    end_to_end_ms: list[float]

    def lines(self) -> list[str]:
        def p(values: list[float], q: int) -> float:
            if len(values) == 1:
                return values[0]
            return statistics.quantiles(values, n=100, method="inclusive")[q - 1]

        s, e = self.service_ms, self.end_to_end_ms
        return [
            f"stack: {self.stack}; {self.replies} replies at {self.rate:g}/s into a serving service (IDLE on)",
            f"service time, reply stored -> last answer sent: p50 {p(s, 50):.1f} ms, p95 {p(s, 95):.1f} ms, "
            f"max {max(s):.1f} ms",
            f"end to end, SMTP accepted -> last answer sent: p50 {p(e, 50):.1f} ms, p95 {p(e, 95):.1f} ms "
            "(adds delivery into the mailbox and the IDLE wake-up)",
        ]


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


async def _feed(service: Service, stack: Any, messages: list[Any], rate: float) -> list[float]:
    """Serve while sending ``messages`` at ``rate`` per second; SMTP acceptance times."""
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
                service_ms.append(1000 * (last - _aware(row.received_at).timestamp()))
                end_to_end_ms.append(1000 * (last - accepted[n]))
        if not service_ms:
            raise RuntimeError("no reply was answered: the service did not run")
        return LatencyReport("dovecot" if dovecot else "pymap (own process)", replies, rate, service_ms,
                             end_to_end_ms)
