"""The watchdog keeps every job of ``serve_forever`` alive: a round waiting for something that
never comes is logged with WHERE it waits, cancelled, and the job runs again — replies keep
being applied. (Found live: after database faults and a kill -9, a restarted worker's poll
job stopped for good with 30 claimed mails, and nothing said why.)"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from service.schedule.watchdog import await_chain

from .world import World


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_await_chain_names_every_coroutine_down_to_the_future_it_waits_on() -> None:
    async def inner(never: asyncio.Future[None]) -> None:
        await never

    async def outer(never: asyncio.Future[None]) -> None:
        await inner(never)

    async def main() -> str:
        never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(outer(never))
        await asyncio.sleep(0.01)
        chain = await_chain(task)
        task.cancel()
        return chain

    chain = asyncio.run(main())
    assert chain.startswith("outer (test_watchdog.py:") and " → inner (test_watchdog.py:" in chain
    assert chain.endswith("<Future pending cb=[Task.task_wakeup()]>"), chain


def test_a_stuck_poll_round_is_logged_cancelled_and_the_next_round_applies_the_reply(
        mail_stack: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    world = World.create(mail_stack, tmp_path, job_round_timeout_seconds=1.0, poll_interval_seconds=0.5,
                         outbox_interval_seconds=0.2)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game = world.game("toy", [ann, bob], seed=4)
    service = world.service
    real_round = service._poll_round
    hung = {"rounds": 0}

    async def poll_round_that_hangs_once() -> None:
        if hung["rounds"] == 0:
            hung["rounds"] += 1
            await asyncio.get_running_loop().create_future()  # nothing will ever complete it
        await real_round()

    service._poll_round = poll_round_that_hangs_once  # type: ignore[method-assign]
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(service.serve_forever(),), daemon=True)
    caplog.set_level(logging.ERROR, logger="service.schedule.runtime")
    thread.start()
    try:
        wait_for(lambda: len(world.mails(ann)) >= 1, 60, "the first turn mail")
        world.reply(ann, "high")
        wait_for(lambda: len(world.moves(game)) == 1, 60, "the reply to be applied after the stuck round")
    finally:
        loop.call_soon_threadsafe(service.stop)
        thread.join(timeout=60)
    assert not thread.is_alive(), "serve_forever did not stop"
    assert service.stuck_rounds == 1
    stuck = [r.getMessage() for r in caplog.records if "round stuck" in r.getMessage()]
    assert len(stuck) == 1 and stuck[0].startswith("poll round stuck for ")
    assert "poll_round_that_hangs_once (test_watchdog.py:" in stuck[0]  # where it waited
    assert [m.status for m in world.inbound()] == ["applied"]


def test_every_wake_up_is_set_on_the_event_loop_thread(
        mail_stack: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The root cause of the live stall: APScheduler ran the interval job ``Event.set`` in a
    worker thread; asyncio events are not thread-safe, and one lost race left the poll job
    waiting forever on an event already set. Every ``set`` must happen on the loop's thread."""
    world = World.create(mail_stack, tmp_path, poll_interval_seconds=0.1, outbox_interval_seconds=0.1,
                         sweep_interval_seconds=0.1)
    service = world.service
    sets: list[tuple[asyncio.Event, str, int]] = []
    real_set = asyncio.Event.set

    def recording_set(event: asyncio.Event) -> None:
        sets.append((event, threading.current_thread().name, threading.get_ident()))
        real_set(event)

    monkeypatch.setattr(asyncio.Event, "set", recording_set)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(service.serve_forever(),), daemon=True)
    thread.start()
    try:
        wait_for(lambda: sum(e in service._wakes.values() for e, _n, _i in sets) >= 30, 30,
                 "the interval jobs to fire")
    finally:
        loop.call_soon_threadsafe(service.stop)
        thread.join(timeout=60)
    wakes = [(name, ident) for event, name, ident in sets if event in service._wakes.values()]
    assert {ident for _name, ident in wakes} == {thread.ident}, sorted(set(wakes))


def test_a_worker_that_misses_its_wake_up_is_started_afresh(
        mail_stack: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The stall's exact state, made by hand: the sweep's event is set but its waiting worker
    was never woken (what the thread race left). The watchdog sees it a look later."""
    world = World.create(mail_stack, tmp_path, job_round_timeout_seconds=1.0, sweep_interval_seconds=3600)
    service = world.service
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(service.serve_forever(),), daemon=True)
    caplog.set_level(logging.ERROR, logger="service.schedule.runtime")
    thread.start()
    try:
        wait_for(lambda: "sweep" in service._tasks and service._rounds_begun.get("sweep", 0) == 0, 30,
                 "the sweep worker to wait")
        time.sleep(0.3)
        loop.call_soon_threadsafe(setattr, service._wakes["sweep"], "_value", True)  # set, waiter not woken
        wait_for(lambda: service._rounds_begun.get("sweep", 0) >= 1, 30, "the sweep to run after all")
    finally:
        loop.call_soon_threadsafe(service.stop)
        thread.join(timeout=60)
    lines = [r.getMessage() for r in caplog.records]
    assert any(line.startswith("sweep worker does not take its wake-up, waiting in _worker (runtime.py:")
               for line in lines), lines
    assert service.stuck_rounds == 1


def test_startup_objects_are_frozen_out_of_the_collectors_sight() -> None:
    """`pbem serve` freezes what is alive at start, so a full collection does not walk it."""
    import gc

    from service.schedule.runtime import freeze_startup_objects

    gc.unfreeze()  # (a benchmark test in this process may have frozen already)
    assert gc.get_freeze_count() == 0
    alive = len(gc.get_objects())
    try:
        freeze_startup_objects()
        assert gc.get_freeze_count() > alive // 2, "what was alive is frozen"
        assert len(gc.get_objects()) < alive // 2, "and a collection no longer walks it"
    finally:
        gc.unfreeze()
