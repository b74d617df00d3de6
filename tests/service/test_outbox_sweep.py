"""The outbox sender against a real SMTP server, its backoff and limits, and the deadline sweep."""

from __future__ import annotations

import asyncio
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from service.clock import ManualClock
from service.context import AppContext
from service.outbound.outbox import backoff, queue_mail, send_due
from service.outbound.render import Renderer
from service.play.start import create_game
from service.schedule.runtime import Service
from service.store.games import create_player
from service.store.models import Game, MoveLog, Outbox

from .world import make_settings, parse


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ctx_for(stack: Any, tmp: Path, **extra: Any) -> AppContext:
    return AppContext.create(make_settings(stack, tmp, **extra), ManualClock())


def queue(ctx: AppContext, to: str, kind: str = "info") -> Outbox | None:
    rendered = Renderer().render("info", "en", player="A", title="Hello")
    with ctx.session() as s:
        row = queue_mail(s, ctx, to=to, kind=kind, subject="[PBEM] hello", rendered=rendered)
        s.commit()
        return row


@pytest.mark.e2e
def test_outbox_sends_over_smtp_with_the_stored_message_id(mail_stack: Any, tmp_path: Path) -> None:
    from tests.support.mailservers import fetch_all

    mail_stack.add_user("ann@pbem.test", "pw")
    ctx = ctx_for(mail_stack, tmp_path)
    row = queue(ctx, "ann@pbem.test")
    assert row is not None
    assert asyncio.run(send_due(ctx)) == 1
    (raw,) = fetch_all(mail_stack, "ann@pbem.test", "pw")
    assert parse(raw)["Message-ID"] == row.message_id
    with ctx.session() as s:
        assert s.get_one(Outbox, row.id).status == "sent"
    assert asyncio.run(send_due(ctx)) == 0  # sent once


@pytest.mark.e2e
def test_a_refused_recipient_fails_at_once(mail_stack: Any, tmp_path: Path) -> None:
    ctx = ctx_for(mail_stack, tmp_path)
    row = queue(ctx, "nobody@pbem.test")  # the stack answers 550 for unknown users
    assert row is not None and asyncio.run(send_due(ctx)) == 0
    with ctx.session() as s:
        stored = s.get_one(Outbox, row.id)
        assert stored.status == "failed" and stored.last_error and stored.last_error.startswith("550")


def test_an_unreachable_server_backs_off_briefly_and_never_fails_a_mail(tmp_path: Path) -> None:
    """A server that is away is the server's fault, not the mail's: the sender backs off
    (1 s, doubling) and the mail stays pending however long the outage lasts."""
    from service.outbound.outbox import Sender

    class NoStack:
        host, smtp_port, imap_port = "127.0.0.1", free_port(), free_port()

    ctx = ctx_for(NoStack(), tmp_path, max_send_attempts=3)
    row = queue(ctx, "ann@pbem.test")
    assert row is not None
    sender = Sender()
    for round_ in range(6):
        sender.retry_at = 0.0  # the backoff elapsed
        assert asyncio.run(send_due(ctx, sender=sender)) == 0
        assert sender.smtp_backoff.failures == round_ + 1
    assert asyncio.run(send_due(ctx, sender=sender)) == 0  # within the backoff: not even a connect
    assert sender.smtp_backoff.failures == 6
    with ctx.session() as s:
        stored = s.get_one(Outbox, row.id)
    assert (stored.status, stored.attempts) == ("pending", 0)
    assert backoff(1).total_seconds() == 30 and backoff(2).total_seconds() == 60 and backoff(30).total_seconds() == 6 * 3600


def test_error_answers_are_limited_per_address_and_day(tmp_path: Path) -> None:
    class NoStack:
        host, smtp_port, imap_port = "127.0.0.1", 1, 1

    ctx = ctx_for(NoStack(), tmp_path, error_answers_per_day=2)
    assert queue(ctx, "a@x.test", "rejected") is not None
    assert queue(ctx, "a@x.test", "rejected") is not None
    assert queue(ctx, "a@x.test", "rejected") is None
    assert queue(ctx, "b@x.test", "rejected") is not None  # per address
    assert queue(ctx, "a@x.test", "turn") is not None  # game mails are never limited
    assert isinstance(ctx.clock, ManualClock)
    ctx.clock.advance(days=1, seconds=1)
    assert queue(ctx, "a@x.test", "rejected") is not None


def test_sweep_plays_the_default_move_after_the_deadline(tmp_path: Path) -> None:
    class NoStack:
        host, smtp_port, imap_port = "127.0.0.1", 1, 1

    clock = ManualClock()
    service = Service(make_settings(NoStack(), tmp_path, turn_hours=48), clock)
    with service.session() as s:
        players = [create_player(s, f"{n}@x.test", n, ctx=service.ctx).address for n in ("a", "b")]
        game = create_game(s, "toy", players, seed=2, ctx=service.ctx)
        s.commit()
    clock.advance(hours=47)
    assert asyncio.run(service.sweep()) == []
    clock.advance(hours=2)
    assert asyncio.run(service.sweep()) == [game.id]
    with service.session() as s:
        moves = s.exec(select(MoveLog).where(MoveLog.game_id == game.id)).all()
        assert [m.seat for m in moves] == [0]
        updated = s.get_one(Game, game.id)
        assert updated.version == 1 and updated.deadline == clock.now() + timedelta(hours=48)
        told = s.exec(select(Outbox).where(Outbox.kind == "missed").order_by(col(Outbox.id))).all()
        assert {m.to_address for m in told} == {"a@x.test", "b@x.test"}  # the late one and the other
    assert asyncio.run(service.sweep()) == []  # the new deadline lies ahead


@pytest.mark.e2e
def test_each_mail_sent_costs_one_commit_its_record_and_the_next_claim_together(
    mail_stack: Any, tmp_path: Path
) -> None:
    """The outbox claims a mail before SMTP and records it after; the record of one mail and
    the claim of the next share a commit, so N mails cost N + 1 commits (not 2N + 1), and
    every mail is still sent exactly once, in order, each recorded ``sent`` once."""
    from sqlalchemy import event

    from tests.support.mailservers import fetch_all

    mail_stack.add_user("ann@pbem.test", "pw")
    ctx = ctx_for(mail_stack, tmp_path)
    rows = [queue(ctx, "ann@pbem.test") for _ in range(5)]
    commits: list[int] = []
    event.listen(ctx.db, "commit", lambda _conn: commits.append(1))
    assert asyncio.run(send_due(ctx)) == 5
    assert len(commits) == 5 + 1
    received = [parse(raw)["Message-ID"] for raw in fetch_all(mail_stack, "ann@pbem.test", "pw")]
    assert received == [row.message_id for row in rows if row is not None]
    with ctx.session() as s:
        stored = s.exec(select(Outbox).order_by(col(Outbox.id))).all()
    assert [(o.status, o.sends, o.claimed_by) for o in stored] == [("sent", 1, None)] * 5


@pytest.mark.e2e
def test_serving_sends_on_its_smtp_thread_and_stops_it(mail_stack: Any, tmp_path: Path) -> None:
    """``serve_forever`` runs the outbox rounds on a thread of their own (answers go out while
    the next reply is processed); a queued mail is sent, and the thread ends with the service."""
    import threading

    from tests.support.mailservers import fetch_all

    mail_stack.add_user("ann@pbem.test", "pw")
    service = Service(make_settings(mail_stack, tmp_path, poll_interval_seconds=60, outbox_interval_seconds=60))
    row = queue(service.ctx, "ann@pbem.test")
    assert row is not None

    async def scenario() -> list[str]:
        task = asyncio.create_task(service.serve_forever())
        try:
            for _ in range(200):  # the first outbox round runs 0.2 s after the start
                await asyncio.sleep(0.05)
                with service.session() as s:
                    if s.get_one(Outbox, row.id).status == "sent":
                        break
            return [t.name for t in threading.enumerate()]
        finally:
            service.stop()
            await asyncio.wait_for(task, 20)

    running = asyncio.run(scenario())
    assert "pbem-smtp" in running
    assert "pbem-smtp" not in [t.name for t in threading.enumerate()]
    (raw,) = fetch_all(mail_stack, "ann@pbem.test", "pw")
    assert parse(raw)["Message-ID"] == row.message_id
