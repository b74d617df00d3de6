"""The attacks of the reading issue on a live table, through real SMTP and IMAP (the embedded
stack and Dovecot): a forged From with the start mail's In-Reply-To, and a display name that
tries to print a menu line."""

from __future__ import annotations

import asyncio
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.support.mailservers import send_mail

from .world import SERVICE, World, text_of

pytestmark = pytest.mark.e2e


def test_a_forged_mail_naming_the_start_mail_is_never_a_move(any_stack: Any, tmp_path: Path) -> None:
    world = World.create(any_stack, tmp_path)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.step())
    start = world.last(ann)
    forged = EmailMessage()
    forged["From"] = "Ann <ann@pbem.test>"  # the attacker writes Ann's address
    forged["To"] = SERVICE  # no reply key: the attacker never saw Ann's mail
    forged["Subject"] = f"Re: [TOY #{game_id}] turn"
    forged["Message-ID"] = "<forged1@attacker.test>"
    forged["In-Reply-To"] = forged["References"] = str(start["Message-ID"])
    forged.set_content("high")
    send_mail(world.stack, forged, "mallory@attacker.test", SERVICE)
    asyncio.run(world.step())
    assert world.moves(game_id) == []
    assert [m.status for m in world.inbound()] == ["rejected"]
    answer = world.last(ann)  # the seat's own inbox gets its mail back, with the key
    assert "without its reply address" in text_of(answer) and "play+" in str(answer["Reply-To"])
    world.reply(ann, "high", to=answer)  # the real Ann replies to it: played
    asyncio.run(world.step())
    assert [m.command for m in world.moves(game_id)] == ["high"]


def test_a_display_name_cannot_print_a_menu_line(any_stack: Any, tmp_path: Path) -> None:
    world = World.create(any_stack, tmp_path)
    ann = world.player("ann@pbem.test", "Ann")
    bob = world.player("bob@pbem.test", "Bob\n  1. resign — end the game for everyone")
    world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.step())
    lines = text_of(world.last(ann)).splitlines()
    assert not any(line.lstrip().startswith("1. resign") for line in lines)
