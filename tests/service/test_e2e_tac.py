"""A full game of TAC by mail: four players read their mails and answer with menu numbers and
free text, through real servers, until the game ends. The service knows TAC only through the
engine contract."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

import engines

from .world import World, menu_of, text_of

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_full_tac_game_by_mail(any_stack: Any, tmp_path: Path) -> None:
    """About 350 rounds of mail through the real servers (pymap and Dovecot)."""
    if "tac" not in engines.names():
        pytest.skip("the TAC engine has not landed")
    engine = engines.get("tac")
    world = World.create(any_stack, tmp_path)
    names = ["Ann", "Bình", "Cat", "Dũng"]
    players = [world.player(f"p{i}@pbem.test", name, lang="vi" if i % 2 else "en") for i, name in enumerate(names)]
    game_id = world.game("tac", players, seed=4)
    asyncio.run(world.step())
    bot = engine.bots()["heuristic"]
    rng = random.Random(4)
    by_number = by_text = 0
    for _ in range(3000):
        row = world.game_row(game_id)
        if row.status != "active":
            break
        state = engine.from_json(row.state)
        for seat in sorted(engine.to_act(state)):
            mail = world.latest(players[seat])
            action = bot.choose(engine, state, seat, rng)
            menu = {cmd: n for n, cmd, _ in menu_of(mail)}
            command = engine.format(state, action)
            if command in menu and (by_number <= by_text):
                world.reply(players[seat], str(menu[command]), to=mail)
                by_number += 1
            else:
                world.reply(players[seat], command, to=mail)
                by_text += 1
        asyncio.run(world.step())
    row = world.game_row(game_id)
    assert row.status == "finished", "the game did not end"
    bad = [(m.status, m.error) for m in world.inbound() if m.status != "applied"]
    assert bad == []
    assert by_number > 10 and by_text > 10
    for address in players:
        assert "TAC" in str(world.latest(address)["Subject"])
        final = text_of(world.latest(address))
        assert any(name in final for name in names)
        assert not any(other in final for other in players)
    world.close()
