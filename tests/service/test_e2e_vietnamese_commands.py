"""By mail, in Vietnamese: menus show Vietnamese command words, and both a menu number and the
Vietnamese command itself play the move; the receipt says the move in the reader's words.

Why end to end: the words are written by the engines, shown by the renderer and read back by the
reply pipeline; only a real mail round trip proves the three agree.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from engines.registry import get

from .world import World, menu_of, text_of

pytestmark = pytest.mark.e2e


@pytest.fixture
def world(any_stack: Any, tmp_path: Path) -> World:
    return World.create(any_stack, tmp_path)


def test_barcadia_by_mail_in_vietnamese_words(world: World) -> None:
    an, dung = world.player("an@pbem.test", "An", lang="vi"), world.player("dung@pbem.test", "Dũng", lang="vi")
    game_id = world.game("barcadia", [an, dung], seed=5)
    asyncio.run(world.step())
    engine = get("barcadia")
    state = engine.from_json(world.game_row(game_id).state)
    seat = min(engine.to_act(state))
    me = (an, dung)[seat]
    menu = menu_of(world.last(me))
    assert menu and all(not cmd.startswith(("reveal", "enter", "pass")) for _, cmd, _ in menu)
    number, command, _ = next(m for m in menu if m[1].startswith("lật "))
    world.reply(me, str(number))
    asyncio.run(world.step())
    assert f"{number} → {command}" in text_of(world.last(me))  # the receipt in the reader's words
    assert len(world.moves(game_id)) == 1
    # the next decision, answered with the Vietnamese command itself (whole line)
    state = engine.from_json(world.game_row(game_id).state)
    seat = min(engine.to_act(state))
    me = (an, dung)[seat]
    _, command, _ = menu_of(world.last(me))[0]
    world.reply(me, command)
    asyncio.run(world.step())
    assert len(world.moves(game_id)) == 2
    # a line that is no command: the answer's examples are Vietnamese commands too
    state = engine.from_json(world.game_row(game_id).state)
    me = (an, dung)[min(engine.to_act(state))]
    world.reply(me, "xyzzy")
    asyncio.run(world.step())
    examples = next(line for line in text_of(world.last(me)).splitlines() if line.startswith("Ví dụ bạn có thể viết"))
    assert any(verb in examples for verb in ("lật ", "vào ", "bỏ qua", "dùng ")), examples
    assert not any(verb in examples for verb in ("reveal ", "enter ", "pass")), examples
    assert len(world.moves(game_id)) == 2


def test_tagteam_menu_in_vietnamese_words(world: World) -> None:
    an, binh = world.player("an@pbem.test", "An", lang="vi"), world.player("binh@pbem.test", "Bình")
    game_id = world.game("tagteam", [an, binh], seed=3)
    asyncio.run(world.step())
    vi_menu, en_menu = menu_of(world.last(an)), menu_of(world.last(binh))
    assert vi_menu and all(cmd.startswith("chọn ") for _, cmd, _ in vi_menu)
    assert en_menu and all(cmd.startswith("pick ") for _, cmd, _ in en_menu)
    world.reply(an, vi_menu[0][1])
    asyncio.run(world.step())
    assert len(world.moves(game_id)) == 1
    assert [(m.status, m.error) for m in world.inbound() if m.status != "applied"] == []
