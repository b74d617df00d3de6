"""``Service.serve_forever``: IDLE wakes the poll at once, the outbox job sends the answers."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from .world import World

pytestmark = pytest.mark.e2e


def test_idle_brings_a_reply_in_long_before_the_poll_interval(any_stack: Any, tmp_path: Path) -> None:
    world = World.create(any_stack, tmp_path, poll_interval_seconds=60, outbox_interval_seconds=0.2)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)

    async def scenario() -> float:
        task = asyncio.create_task(world.service.serve_forever())
        try:
            while len(world.mails(ann)) < 1:  # the outbox job sends the first mails
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)  # the first poll has run; the next is 60 s away
            sent = time.monotonic()
            await asyncio.to_thread(world.reply, ann, "high")
            while not world.moves(game_id):
                if time.monotonic() - sent > 15:
                    raise AssertionError("the reply was not picked up")
                await asyncio.sleep(0.05)
            latency = time.monotonic() - sent
            while len(world.mails(bob)) < 2:  # Bob's turn mail follows through the outbox job
                await asyncio.sleep(0.05)
            return latency
        finally:
            world.service.stop()
            await asyncio.wait_for(task, 10)

    latency = asyncio.run(scenario())
    assert latency < 10, latency


def _slow_first_mail(world: World, during: Any) -> list[int]:
    """Make the pipeline take a second over the first mail and call ``during()`` meanwhile."""
    real = world.service.pipeline.process
    calls: list[int] = []

    def process(inbound_id: int, attempts: int | None = None) -> str:
        calls.append(inbound_id)
        if len(calls) == 1:
            during()
            time.sleep(1.0)
        return real(inbound_id, attempts)

    world.service.pipeline.process = process  # type: ignore[method-assign]
    return calls


def test_news_during_a_running_poll_runs_the_poll_again_at_once(any_stack: Any, tmp_path: Path) -> None:
    """IDLE news that arrives while a poll is busy must not wait for the next interval (60 s)."""
    world = World.create(any_stack, tmp_path, poll_interval_seconds=60, outbox_interval_seconds=60)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    carl, dora = world.player("carl@pbem.test", "Carl"), world.player("dora@pbem.test", "Dora")
    first = world.game("toy", [ann, bob], seed=1)
    second = world.game("toy", [carl, dora], seed=1)
    asyncio.run(world.service.flush_outbox())
    carl_mail = world.last(carl)
    _slow_first_mail(world, lambda: world.reply(carl, "high", carl_mail))

    async def scenario() -> float:
        task = asyncio.create_task(world.service.serve_forever())
        try:
            await asyncio.sleep(0.5)  # the first poll found nothing; the next is 60 s away
            sent = time.monotonic()
            await asyncio.to_thread(world.reply, ann, "high")
            while not world.moves(second):  # Carl replied during the poll that took Ann's reply
                if time.monotonic() - sent > 20:
                    raise AssertionError("the reply that came during a poll waited for the interval")
                await asyncio.sleep(0.05)
            return time.monotonic() - sent
        finally:
            world.service.stop()
            await asyncio.wait_for(task, 20)

    latency = asyncio.run(scenario())
    assert len(world.moves(first)) == 1 and len(world.moves(second)) == 1
    assert latency < 15, latency


def test_stop_during_a_poll_finishes_the_round_without_errors(
    any_stack: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A stop asked while a poll runs lets it commit, flag and send; nothing is cancelled."""
    world = World.create(any_stack, tmp_path, poll_interval_seconds=60, outbox_interval_seconds=60)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.service.flush_outbox())
    world.reply(ann, "high")
    calls = _slow_first_mail(world, world.service.stop)

    async def scenario() -> None:
        await asyncio.wait_for(world.service.serve_forever(), 30)

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    assert calls, "the poll never ran"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert len(world.moves(game_id)) == 1
    assert len(world.mails(bob)) == 2, "the round's answers were sent before stopping"
    from service.inbound.imapconn import open_imap

    client = open_imap(any_stack.host, any_stack.imap_port, "play@pbem.test", "secret")
    try:
        client.select_folder("INBOX", readonly=True)
        assert client.search(["NOT", "KEYWORD", "PbemDone"]) == []
    finally:
        client.logout()


def test_serving_never_sends_a_mail_twice(any_stack: Any, tmp_path: Path) -> None:
    """The poll's own flush and the outbox job must not both send the same pending rows."""
    world = World.create(any_stack, tmp_path, poll_interval_seconds=0.05, outbox_interval_seconds=0.05)
    pairs = [(world.player(f"a{n}@pbem.test", f"A{n}"), world.player(f"b{n}@pbem.test", f"B{n}")) for n in range(6)]
    for first, second in pairs:
        world.game("toy", [first, second], seed=1)
    asyncio.run(world.service.flush_outbox())

    async def scenario() -> None:
        task = asyncio.create_task(world.service.serve_forever())
        try:
            await asyncio.sleep(0.3)
            for first, _second in pairs:
                await asyncio.to_thread(world.reply, first, "high")
            started = time.monotonic()
            while any(len(world.mails(second)) < 2 for _first, second in pairs) or any(
                row.status == "pending" for row in world.outbox()
            ):
                assert time.monotonic() - started < 30, "the replies were not all answered"
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)  # time for a duplicate to arrive, if one was sent
        finally:
            world.service.stop()
            await asyncio.wait_for(task, 20)

    asyncio.run(scenario())
    for first, second in pairs:
        for address in (first, second):
            ids = [str(m["Message-ID"]) for m in world.mails(address)]
            assert len(ids) == len(set(ids)), (address, ids)


def test_a_backlog_longer_than_one_outbox_round_drains_without_waiting_for_the_next_tick(
    any_stack: Any, tmp_path: Path
) -> None:
    """A round sends at most 200 mails; one that stopped at that limit runs the next at once.
    (It used to wait for the outbox job's next tick: a backlog drained 200 mails per tick.)"""
    world = World.create(any_stack, tmp_path, poll_interval_seconds=60, outbox_interval_seconds=60)
    for n in range(110):  # 220 "the game starts" mails waiting: more than one round
        world.game("toy", [world.player(f"a{n}@pbem.test", f"A{n}"), world.player(f"b{n}@pbem.test", f"B{n}")])
    assert sum(row.status == "pending" for row in world.outbox()) == 220

    async def scenario() -> None:
        task = asyncio.create_task(world.service.serve_forever())
        try:
            started = time.monotonic()  # the first outbox round starts at once; the next tick is 60 s away
            while any(row.status != "sent" for row in world.outbox()):
                assert time.monotonic() - started < 30, "the backlog waited for the next tick"
                await asyncio.sleep(0.2)
        finally:
            world.service.stop()
            await asyncio.wait_for(task, 20)

    asyncio.run(scenario())
    assert len(world.mails("b109@pbem.test")) == 1


def test_the_next_batch_is_read_ahead_and_nothing_is_skipped_or_handled_twice(any_stack: Any, tmp_path: Path) -> None:
    """poll_once reads the next batch while it processes a full one; each batch's flags are
    set before poll_once returns; a batch read ahead and never stored (a stop) stays unflagged
    in the inbox and is handled after the restart."""
    from service.inbound.fetch import DONE_KEYWORD
    from service.store.models import InboundMail

    world = World.create(any_stack, tmp_path)
    pairs = [(world.player(f"a{n}@pbem.test", f"A{n}"), world.player(f"b{n}@pbem.test", f"B{n}")) for n in range(9)]
    for first, second in pairs:
        world.game("toy", [first, second], seed=1)
    asyncio.run(world.service.flush_outbox())
    for first, _second in pairs:
        world.reply(first, "high")
    reads: list[tuple[int, int | None]] = []
    fetch_new = world.service.inbox.fetch_new

    def counting(limit: int = 100, above: int | None = None) -> list[tuple[int, bytes]]:
        got = fetch_new(limit, above)
        reads.append((len(got), above))
        return got

    world.service.inbox.fetch_new = counting  # type: ignore[method-assign]

    def flagged() -> int:
        client = world.service.inbox.connect()
        return len(client.search(["KEYWORD", DONE_KEYWORD]))

    assert asyncio.run(world.service.poll_once(limit=4)) == 4
    assert flagged() == 4 and reads[0] == (4, None) and reads[1][0] == 4  # the next 4 read ahead
    world.service._drop_prefetch()  # what a stop does: the batch read ahead is dropped, never stored
    with world.service.session() as s:
        assert len(s.exec(select(InboundMail)).all()) == 4
    assert world.service._prefetch is None
    while asyncio.run(world.service.poll_once(limit=4)):
        pass
    assert flagged() == 9
    with world.service.session() as s:
        rows = s.exec(select(InboundMail)).all()
    assert len(rows) == 9 and all(row.status == "applied" for row in rows)
