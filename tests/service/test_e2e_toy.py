"""End to end against real servers (aiosmtpd + pymap, and Dovecot): games played by mail."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from service.inbound.pipeline import subject_command
from service.outbound.render import thread_root

from .world import SERVICE, World, menu_of, text_of

pytestmark = pytest.mark.e2e


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def world(any_stack: Any, tmp_path: Path) -> World:
    return World.create(any_stack, tmp_path)


def three_players(world: World) -> tuple[str, str, str]:
    return (world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob"),
            world.player("cat@pbem.test", "Cat", lang="vi"))


def test_full_game_by_mail_with_menu_numbers_and_free_text(world: World) -> None:
    ann, _bob, _cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=7)
    run(world.step())
    started = world.last(ann)
    assert f"[TOY #{game_id}]" in str(started["Subject"])
    assert started["Auto-Submitted"] == "auto-generated" and started["X-PBEM-Loop"]
    assert str(started["Reply-To"]).startswith("play+")
    assert "Cat" in text_of(started) and "cat@pbem.test" not in text_of(started)  # names, never addresses
    from engines.registry import get

    engine = get("toy")
    turn = 0
    while world.game_row(game_id).status == "active":
        state = engine.from_json(world.game_row(game_id).state)
        for seat in sorted(engine.to_act(state)):
            address = players[seat]
            mail = world.last(address)
            menu = menu_of(mail)
            assert menu, text_of(mail)
            number, command, _ = menu[turn % len(menu)]
            world.reply(address, str(number) if turn % 2 == 0 else command.upper())
            turn += 1
        run(world.step())
        assert turn < 100
    row = world.game_row(game_id)
    assert row.status == "finished" and row.outcome
    for address in players:
        last = world.last(address)
        assert "Game over" in str(last["Subject"]) or "kết thúc" in str(last["Subject"])
        root = thread_root(world.service.ctx.key_secret, game_id, players.index(address), "pbem.test")
        assert last["In-Reply-To"] == root and "game" not in root  # one thread, not a guessable id
    assert [(m.status, m.error) for m in world.inbound() if m.status != "applied"] == []
    assert len(world.moves(game_id)) == turn


def test_secret_choice_is_replaceable_until_the_last_seat_and_keeps_menus_valid(world: World) -> None:
    ann, bob, cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    world.reply(ann, "high")
    run(world.step())
    cat_turn = world.last(cat)  # Cat's menu for the secret step
    world.reply(bob, "1")
    run(world.step())
    received = world.last(bob)
    assert "waiting for 2 others" in text_of(received)
    world.reply(bob, "3")  # replace the choice
    run(world.step())
    assert "waiting for 2 others" in text_of(world.last(bob))
    world.reply(ann, "1")
    run(world.step())
    # Bob's and Ann's choices do not make Cat's menu outdated: her number still counts.
    world.reply(cat, "2", to=cat_turn)
    run(world.step())
    moves = world.moves(game_id)
    assert [m.command for m in moves] == ["high", "1", "3", "1", "2"]
    assert world.game_row(game_id).state.count('"chosen":{}') == 1  # the step resolved


def test_outdated_menu_number_is_refused_with_the_current_menu(world: World) -> None:
    ann, _bob, _cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    first = world.last(ann)
    world.reply(ann, "1", to=first)
    run(world.step())
    world.reply(ann, "1", to=first)  # answers the call menu, which is gone
    run(world.step())
    answer = world.last(ann)
    assert "older mail" in text_of(answer)
    assert next(c for _, c, _ in menu_of(answer)).startswith("play ")
    assert len(world.moves(game_id)) == 1


def test_duplicate_delivery_is_applied_once(world: World) -> None:
    ann, _bob, _cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    world.reply(ann, "high", message_id="<same@client.test>")
    world.reply(ann, "high", message_id="<same@client.test>")
    run(world.step())
    run(world.step())
    assert len(world.moves(game_id)) == 1
    assert len(world.inbound()) == 1


def test_auto_reply_and_bounce_are_never_answered(world: World) -> None:
    ann, bob, _cat = players = three_players(world)
    world.game("toy", list(players), seed=3)
    run(world.step())
    before = len(world.outbox())
    world.reply(ann, "I am out of the office until Monday.", subject="Automatic reply: your turn",
                headers={"Auto-Submitted": "auto-replied"})
    world.reply(ann, "Vắng mặt đến thứ Hai.", subject="Trả lời tự động: Đến lượt bạn", quote=False)
    bounce = world.reply("mailer-daemon@pbem.test", "Delivery failed", to=world.last(bob),
                         subject="Undelivered Mail Returned to Sender")
    del bounce
    run(world.step())
    assert [m.status for m in world.inbound()] == ["ignored"] * 3
    assert len(world.outbox()) == before


def test_stolen_key_and_spoofed_sender_change_nothing(world: World) -> None:
    ann, _bob, cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    world.new_mails(cat)
    ann_mail = world.last(ann)
    world.reply(cat, "high", to=ann_mail)  # Cat uses Ann's key
    world.reply("mallory@pbem.test", "low", to=ann_mail)  # a stranger uses it
    run(world.step())
    assert world.moves(game_id) == []
    assert [m.status for m in world.inbound()] == ["rejected", "rejected"]
    answers = world.new_mails(cat)
    assert len(answers) == 1 and "người chơi khác" in text_of(answers[0])  # Cat reads Vietnamese


def test_command_in_the_subject_with_an_empty_body(world: World) -> None:
    ann, _bob, _cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    assert subject_command(f"Re: [TOY #{game_id}] low") == "low"
    world.reply(ann, "", subject=f"Re: [TOY #{game_id}] low", quote=False)
    run(world.step())
    assert [m.command for m in world.moves(game_id)] == ["low"]


def resign(world: World, who: str) -> None:
    """``resign``, then ``resign CODE`` with the code from the answer, as a player does."""
    world.new_mails(who)
    world.reply(who, "resign", to=world.last(who))
    run(world.step())
    texts = [text_of(m) for m in world.new_mails(who)]
    codes = [c for t in texts for c in re.findall(r"(?:reply `resign|lời `bỏ cuộc) (\w{4})`", t)]
    assert codes, texts
    world.reply(who, f"resign {codes[-1]}", to=world.last(who))
    run(world.step())


def test_reply_to_a_finished_game_gets_one_polite_answer(world: World) -> None:
    ann, bob, _cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    resign(world, bob)
    assert world.game_row(game_id).status == "active"  # three players: a bot keeps Bob's seat
    resign(world, ann)
    resign(world, _cat)
    assert world.game_row(game_id).status == "finished"  # the bots played it to the end
    world.new_mails(ann)
    over = world.last(ann)
    world.reply(ann, "high", to=over)
    world.reply(ann, "high?", to=over)
    run(world.step())
    answers = world.new_mails(ann)
    assert len(answers) == 1 and "already over" in text_of(answers[0])


def test_player_commands_answer_done_not_understood_ignored(world: World) -> None:
    _ann, _bob, cat = players = three_players(world)
    game_id = world.game("toy", list(players), seed=3)
    run(world.step())
    world.new_mails(cat)
    world.reply(cat, "lang en\ntz Asia/Ho_Chi_Minh\nfly away\nlog\nhelp")
    run(world.step())
    (answer,) = world.new_mails(cat)
    text = text_of(answer)
    assert "done: lang en" in text and "done: tz Asia/Ho_Chi_Minh" in text
    assert 'NOT done: "fly away"' in text
    assert "resign" in text  # the help lists the commands
    world.reply(cat, "tz Mars/Olympus")
    run(world.step())
    (answer,) = world.new_mails(cat)
    assert "I do not know the time zone 'Mars/Olympus'" in text_of(answer)
    assert world.moves(game_id) == []


def test_new_game_by_mail_starts_when_everyone_accepted(world: World) -> None:
    ann = world.player("ann@pbem.test", "Ann")
    world.stack.add_user("dan@pbem.test", "secret")
    from email.message import EmailMessage

    from tests.support.mailservers import send_mail

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ann, SERVICE, "new game"
    msg["Message-ID"] = "<new1@client.test>"
    msg.set_content("new toy with dan@pbem.test\n")
    send_mail(world.stack, msg, ann, SERVICE)
    run(world.step())
    invite = world.last("dan@pbem.test")
    assert "invites you" in text_of(invite)
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = "Dan <dan@pbem.test>", SERVICE, f"Re: {invite['Subject']}"
    reply["Message-ID"] = "<acc1@client.test>"
    reply.set_content("accept\n")
    send_mail(world.stack, reply, "dan@pbem.test", SERVICE)
    run(world.step())
    started = [m for m in world.mails("dan@pbem.test") if "[TOY #" in str(m["Subject"])]
    assert started and "Ann, Dan" in text_of(started[0])
