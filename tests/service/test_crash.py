"""Kill -9 ``pbem serve`` in the middle of a batch, restart it: every move applied exactly once,
every mail sent (DESIGN.md, "never lose a move")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import select

from service.store.models import Game, InboundMail, MoveLog, Outbox
from tests.support.mailservers import fetch_all

from .world import PASSWORD, World

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
GAMES = 60


def serve(settings_env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, **settings_env, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], cwd=ROOT, env=env,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT)


def env_for(world: World, tmp: Path) -> dict[str, str]:
    s = world.service.settings
    return {
        "PBEM_CONFIG": str(tmp / "absent.toml"),
        "PBEM_DATABASE_URL": s.database_url, "PBEM_SERVICE_ADDRESS": s.service_address, "PBEM_SECRET": s.secret,
        "PBEM_IMAP_HOST": s.imap_host, "PBEM_IMAP_PORT": str(s.imap_port), "PBEM_IMAP_USER": s.imap_user,
        "PBEM_IMAP_PASSWORD": s.imap_password, "PBEM_IMAP_SSL": "false",
        "PBEM_SMTP_HOST": s.smtp_host, "PBEM_SMTP_PORT": str(s.smtp_port),
        "PBEM_POLL_INTERVAL_SECONDS": "0.3", "PBEM_OUTBOX_INTERVAL_SECONDS": "0.3",
        "PBEM_EXTRA_ENGINES": '["tests.support.toy:ENGINE"]',
    }


def count(world: World, query: Any) -> int:
    with world.service.session() as s:
        return int(s.exec(query).one())


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def test_kill_9_mid_batch_then_restart_applies_every_move_once_and_sends_every_mail(
        any_stack: Any, tmp_path: Path) -> None:
    world = World.create(any_stack, tmp_path)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_ids = [world.game("toy", [ann, bob], seed=i) for i in range(GAMES)]
    import asyncio

    asyncio.run(world.service.flush_outbox())
    started = {m["Subject"].split("]")[0] + "]": m for m in world.mails(ann)}
    for game_id in game_ids:  # the whole batch waits in the inbox before the service starts
        world.reply(ann, "high", to=started[f"[TOY #{game_id}]"], quote=False)
    moves = select(func.count()).select_from(MoveLog)
    env = env_for(world, tmp_path)
    log = tmp_path / "serve.log"

    first = serve(env, log)
    try:
        wait_for(lambda: count(world, moves) >= 5, 60, "the first moves")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    applied_at_kill = count(world, moves)
    print(f"killed after {applied_at_kill} of {GAMES} moves")

    second = serve(env, log)
    try:
        done = select(func.count()).select_from(InboundMail).where(InboundMail.status != "new")
        wait_for(lambda: count(world, done) == GAMES, 120, "every mail handled")
        pending = select(func.count()).select_from(Outbox).where(Outbox.status == "pending")
        wait_for(lambda: count(world, pending) == 0, 120, "the outbox to drain")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=30)

    assert applied_at_kill < GAMES, "the kill came after the batch; the test proved nothing"
    with world.service.session() as s:
        assert s.exec(select(func.count()).select_from(InboundMail).where(InboundMail.status == "applied")).one() == GAMES
        for game_id in game_ids:
            assert len(s.exec(select(MoveLog).where(MoveLog.game_id == game_id)).all()) == 1
            assert s.get_one(Game, game_id).version == 1
        outbox = s.exec(select(Outbox)).all()
    assert {row.status for row in outbox} == {"sent"}
    received = set()
    for address in (ann, bob):
        for raw in fetch_all(any_stack, address, PASSWORD):
            received.add(world_message_id(raw))
    missing = {row.message_id for row in outbox} - received
    assert not missing, f"{len(missing)} mails never arrived"


def world_message_id(raw: bytes) -> str:
    from .world import parse

    return str(parse(raw)["Message-ID"])
