"""The fetch stage against real servers: what a poll sees, and how handled mail is flagged."""

from __future__ import annotations

import asyncio
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from service.inbound.fetch import Inbox
from tests.support.mailservers import send_mail

from .world import SERVICE, World, make_settings

pytestmark = pytest.mark.e2e


def _mail(n: int) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@pbem.test", SERVICE, f"hello {n}"
    msg["Message-ID"] = f"<inbox-test-{n}@client.test>"
    msg.set_content("help")
    return msg


def test_fetch_new_sees_mail_delivered_since_the_last_command(dovecot_stack: Any, tmp_path: Path) -> None:
    """Dovecot tells an open session about new mail only at a sync point (NOOP); without one
    a poll woken by IDLE would search the stale mailbox and find nothing."""
    dovecot_stack.add_user(SERVICE, "secret")
    inbox = Inbox(make_settings(dovecot_stack, tmp_path))
    try:
        assert inbox.fetch_new() == []  # the session is open and the mailbox selected
        for n in range(1, 4):
            send_mail(dovecot_stack, _mail(n), "ann@pbem.test", SERVICE)
            fetched = inbox.fetch_new()
            assert len(fetched) == n  # none flagged yet
            assert f"hello {n}".encode() in fetched[-1][1]
    finally:
        inbox.close()


def test_a_batch_is_flagged_in_one_store_after_its_commits(mail_stack: Any, tmp_path: Path) -> None:
    world = World.create(mail_stack, tmp_path)
    world.player("ann@pbem.test", "Ann")
    for n in range(1, 4):
        send_mail(mail_stack, _mail(n), "ann@pbem.test", SERVICE)
    stores: list[tuple[list[int], list[str]]] = []
    real = world.service.inbox.mark_done

    def mark_done(uids: list[int]) -> None:
        stores.append((list(uids), [m.status for m in world.inbound()]))
        real(uids)

    world.service.inbox.mark_done = mark_done  # type: ignore[method-assign]
    assert asyncio.run(world.service.poll_once()) == 3
    assert len(stores) == 1
    uids, statuses_then = stores[0]
    assert len(uids) == 3
    assert "new" not in statuses_then  # every mail was committed before the flag
    assert world.service.inbox.fetch_new() == []
    world.service.inbox.close()
