"""League commands by mail, over the real local mail stack: join, leagues, standings, schedule,
leave — to the service address and inside a game reply, answered in the player's language."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from service.leagues import season
from tests.support.mailservers import send_mail

from .world import SERVICE, World, text_of


@pytest.fixture
def world(mail_stack: Any, tmp_path: Path) -> Iterator[World]:
    w = World.create(mail_stack, tmp_path)
    yield w
    w.close()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def _to_service(world: World, sender: str, body: str, n: int) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, SERVICE, "league"
    msg["Message-ID"] = f"<league{n}.{sender}>"
    msg.set_content(body + "\n")
    send_mail(world.stack, msg, sender, SERVICE)


def test_join_standings_schedule_and_leave_by_mail(world: World) -> None:
    players = [world.player(f"{n}@pbem.test", name, lang) for n, name, lang in
               (("ann", "Ann", "en"), ("binh", "Bình", "vi"), ("cat", "Cat", "en"), ("dung", "Dũng", "vi"))]
    with world.service.session() as s:
        season.new_league(s, world.service.ctx, "spring", "tagteam", rounds=3)
        s.commit()
    _to_service(world, players[0], "leagues", 1)
    run(world.step())
    (answer,) = world.new_mails(players[0])
    text = text_of(answer)
    assert "spring — Tag Team; round robin: everyone plays everyone once" in text, "the game's name, not its id"
    assert "3 rounds of 14 days; 0 of 32 places taken" in text and "sign-up open: write `join spring`" in text
    for n, address in enumerate(players):
        _to_service(world, address, "join spring please", 10 + n)
    run(world.step())
    assert "done: join spring" in text_of(world.new_mails(players[0])[-1])
    assert "đã làm: join spring" in text_of(world.new_mails(players[1])[-1])
    _to_service(world, players[0], "join spring", 20)  # twice: a clear refusal, nothing changes
    _to_service(world, players[2], "I will join spring later", 21)  # a sentence: not a command
    run(world.step())
    assert "already in spring" in text_of(world.new_mails(players[0])[-1])
    assert 'NOT done: "I will join spring later"' in text_of(world.new_mails(players[2])[-1])
    with world.service.session() as s:
        season.start(s, world.service.ctx, "spring")
        s.commit()
    run(world.step())
    turn = world.new_mails(players[1])[-1]  # Bình's first game mail: league commands work in it
    world.reply(players[1], "schedule", to=turn)
    run(world.step())
    text = text_of(world.new_mails(players[1])[-1])
    assert "Giải spring, vòng 1/3" in text and "←" in text
    assert "(đang chơi)" in text and "active" not in text, "the game's state in the reader's words"
    _to_service(world, players[3], "bảng xếp hạng spring", 30)
    run(world.step())
    answer = world.new_mails(players[3])[-1]
    text = text_of(answer)
    assert "Người chơi" in text and "Dũng" in text and "Ann" in text
    mine = next(line for line in text.splitlines() if line.endswith("←"))
    assert "Dũng" in mine, "the reader's row is marked"
    html = str(answer.get_body(("html",)).get_content())  # type: ignore[union-attr]
    table = html[html.index('<table class="pb-table"'):]
    table = table[:table.index("</table>")]
    assert table.count("<tr") == 5 and table.count('<th scope="col"') == 7 and "pb-mine" in table
    world.reply(players[1], "games\nhệ số spring", to=turn)
    _to_service(world, players[0], "ratings", 32)
    run(world.step())
    text = text_of(world.new_mails(players[1])[-1])
    assert "(giải spring, vòng 1; hệ số của bạn 0.0)" in text, text
    assert "Hệ số của bạn trong giải spring" in text and "Chưa có vòng nào được tính hệ số" in text
    text = text_of(world.new_mails(players[0])[-1])
    assert "Your rating in spring" in text and "No rated round yet" in text
    _to_service(world, players[2], "leave spring", 31)
    run(world.step())
    assert "done: leave spring" in text_of(world.new_mails(players[2])[-1])
    with world.service.session() as s:
        league = s.exec(season.select(season.League).where(season.League.name == "spring")).one()
        dropped = [m for m, _ in season.members(s, league, active_only=False) if m.status == "dropped"]
        assert len(dropped) == 1
