"""The outbox rounds in a child process (``outbox_process``, service/outbound/smtpprocess.py):
mails go out from the child, a child that dies is replaced, and a child never outlives its
parent's pipe."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from service.clock import ManualClock
from service.outbound.smtpprocess import SmtpProcess
from service.schedule.runtime import Service

from .world import World, make_settings

pytestmark = pytest.mark.e2e


def _world(stack: Any, tmp_path: Path, **extra: Any) -> World:
    """A world whose service runs on the real clock, as ``pbem serve`` does (a test clock keeps
    the rounds on a thread: it cannot cross into another process)."""
    world = World.create(stack, tmp_path, **extra)
    world.service = Service(make_settings(stack, tmp_path, **extra))
    return world


async def _until(check: Any, seconds: float, why: str) -> None:
    started = time.monotonic()
    while not await asyncio.to_thread(check):
        assert time.monotonic() - started < seconds, why
        await asyncio.sleep(0.1)


def test_serving_sends_from_a_child_process_and_replaces_one_that_died(mail_stack: Any, tmp_path: Path) -> None:
    world = _world(mail_stack, tmp_path, poll_interval_seconds=60, outbox_interval_seconds=0.3)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    service = world.service
    pids: list[int | None] = []

    async def scenario() -> None:
        task = asyncio.create_task(service.serve_forever())
        try:
            await _until(lambda: len(world.mails(bob)) == 1, 30, "the first mails were not sent")
            process = service._smtp_process
            assert process is not None and process.pid not in (None, os.getpid())
            pids.append(process.pid)
            assert process.owner is not None and f":{process.pid}:" in process.owner  # claims carry the child's pid
            os.kill(process.pid or 0, signal.SIGKILL)  # the child dies between rounds
            await asyncio.sleep(0.5)
            await asyncio.to_thread(world.reply, ann, "high")
            await _until(lambda: len(world.moves(game_id)) == 1 and len(world.mails(bob)) == 2, 30,
                         "the reply was not answered after the outbox process died")
            pids.append(process.pid)
            assert process.starts == 2
        finally:
            service.stop()
            await asyncio.wait_for(task, 30)

    asyncio.run(scenario())
    assert pids[0] != pids[1]
    assert all(row.status == "sent" for row in world.outbox())
    ids = [str(m["Message-ID"]) for m in world.mails(bob)]
    assert len(ids) == len(set(ids)) == 2


def test_a_test_clock_keeps_the_rounds_on_a_thread(mail_stack: Any, tmp_path: Path) -> None:
    world = World.create(mail_stack, tmp_path)
    assert isinstance(world.service.ctx.clock, ManualClock)
    assert not world.service._outbox_in_a_process()
    assert not Service(make_settings(mail_stack, tmp_path, outbox_process=False))._outbox_in_a_process()


def test_the_child_ends_when_its_parent_is_gone(mail_stack: Any, tmp_path: Path) -> None:
    """The parent's end of the pipe closing (what a kill -9 of ``pbem serve`` does) ends the
    child: it never sends on its own."""
    world = World.create(mail_stack, tmp_path)
    process = SmtpProcess(world.service.settings)

    async def scenario() -> None:
        assert await process.round() == (0, False)  # started, nothing due
        child = process._proc
        assert child is not None and child.poll() is None
        assert process._conn is not None
        process._conn.close()  # the parent's end goes away, as with the parent's death
        assert await asyncio.to_thread(child.wait, 20) == 0

    asyncio.run(scenario())


_PARENT = """
import asyncio, json, sys, time
from service.config import Settings
from service.outbound.smtpprocess import SmtpProcess
process = SmtpProcess(Settings(**json.loads(sys.argv[1])))
asyncio.run(process.round())
print(process.pid, flush=True)
time.sleep(60)
"""


def test_a_kill_9_of_the_parent_ends_the_child_at_once(mail_stack: Any, tmp_path: Path) -> None:
    world = World.create(mail_stack, tmp_path)
    values = world.service.settings.model_dump(mode="json")
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, json.dumps(values)], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        os.kill(child, 0)  # alive
        parent.kill()
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while Path(f"/proc/{child}").exists() and "Z" not in Path(f"/proc/{child}/stat").read_text().split()[2]:
            assert time.monotonic() < deadline, "the outbox process outlived its parent"
            time.sleep(0.05)
    finally:
        parent.kill()


def test_two_rounds_asked_at_once_each_get_their_answer(mail_stack: Any, tmp_path: Path) -> None:
    """The outbox job and a direct flush_outbox (pbem demo does both) share one pipe: rounds
    run one at a time (without that, the second waiter was never woken and pbem demo hung)."""
    world = World.create(mail_stack, tmp_path)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    world.game("toy", [ann, bob], seed=1)
    process = SmtpProcess(world.service.settings)

    async def scenario() -> list[tuple[int, bool]]:
        try:
            return list(await asyncio.wait_for(asyncio.gather(process.round(), process.round(), process.round()), 60))
        finally:
            await process.close()

    answers = asyncio.run(scenario())
    assert sorted(sent for sent, _more in answers) == [0, 0, 2]
    assert process.starts == 1
    assert all(row.status == "sent" for row in world.outbox())
