"""``Service.serve_forever``: IDLE wakes the poll at once, the outbox job sends the answers."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

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
