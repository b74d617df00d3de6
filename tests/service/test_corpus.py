"""The client corpus (tests/fixtures/mail/replies) through real SMTP and IMAP into the pipeline:
the service reads exactly the expected new text after transport, and answers every reply once
(never silence, never a crash)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from service.inbound.extract import new_text
from service.inbound.pipeline import parse_message
from service.outbound.keys import make_key
from service.outbound.render import MARKER
from service.store.models import Outbox
from tests.mail.corpus import UNREADABLE, corpus_sent
from tests.support.mailservers import send_mail

from .world import World

pytestmark = pytest.mark.e2e
CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mail" / "replies"
SENT = corpus_sent()  # the turn mail the corpus replies quote
REPLIES = sorted(p for p in CORPUS.glob("*.eml") if b"play+" in p.read_bytes().split(b"\n\n", 1)[0])


def readdress(raw: bytes, sender: str, key: str, game_id: int, name: str) -> bytes:
    """Point a corpus reply at our game: sender, reply address, subject tag, own Message-ID."""
    head, sep, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    head = re.sub(rb"(?m)^Message-ID:.*$", f"Message-ID: <{name}@client.test>".encode(), head, flags=re.IGNORECASE)
    head = re.sub(rb"(?m)^From:.*$", f"From: Ann <{sender}>".encode(), head)
    head = re.sub(rb"(?m)^To:.*(\n[ \t].*)*$", f"To: pbem <play+{key}@pbem.test>".encode(), head)
    head = head.replace(b"[TAC #42]", f"[TOY #{game_id}]".encode())
    head = re.sub(rb"(?m)^(Subject:.*Your turn)$", lambda m: m.group(1) + f" - ref {key}".encode(), head)
    return head + sep + body


@pytest.mark.skipif(not REPLIES, reason="the client corpus has not landed")
def test_every_client_reply_is_read_as_expected_and_answered_once(any_stack: Any, tmp_path: Path) -> None:
    world = World.create(any_stack, tmp_path, error_answers_per_day=1000, answers_per_hour=1000, answers_per_day=1000)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.step())
    with world.service.session() as s:
        key = make_key(world.service.ctx.key_secret, game_id, 0, "0")
        before = len(s.exec(select(Outbox.id).where(Outbox.to_address == ann)).all())
    for path in REPLIES:
        send_mail(world.stack, readdress(path.read_bytes(), ann, key, game_id, path.stem), ann, f"play+{key}@pbem.test")
    assert asyncio.run(world.service.poll_once()) == len(REPLIES)
    rows = world.inbound()
    assert len(rows) == len(REPLIES)
    by_message_id = {f"<{p.stem}@client.test>": p for p in REPLIES}
    for row in rows:
        assert row.status in ("applied", "rejected"), (row.subject, row.stage, row.error)
        path = by_message_id[row.message_id]
        expected = path.with_suffix(".expected.txt").read_text(encoding="utf-8").strip()
        if expected == UNREADABLE:
            assert row.status == "rejected" and (row.error or "").startswith("unreadable"), path.name
            continue
        assert new_text(parse_message(row.raw), MARKER, SENT).strip() == expected, path.name
    with world.service.session() as s:
        answers = len(s.exec(select(Outbox.id).where(Outbox.to_address == ann)).all()) - before
    assert answers == len(REPLIES)
