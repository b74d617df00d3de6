"""Operator actions over the real local mail stack (aiosmtpd + pymap) with a manual clock:
what players receive, in their language and time zone; a paused game's deadline does not run;
a replaced player's old reply keys no longer work; an undo of a secret choice reveals nothing."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

import engines
from engines.contract import Event, Text, tr
from service.admin import operations
from service.admin.undo import undo
from service.outbound.render import format_deadline
from service.store.models import AuditLog, InboundMail, MoveLog, Outbox, Player

from .world import PASSWORD, World, menu_of, text_of

pytestmark = pytest.mark.e2e


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def world(mail_stack: Any, tmp_path: Path) -> World:
    return World.create(mail_stack, tmp_path)


def set_tz(world: World, address: str, tz: str) -> None:
    with world.service.session() as s:
        player = s.exec(select(Player).where(Player.address == address)).one()
        player.tz = tz
        s.add(player)
        s.commit()


def test_extend_pause_resume_and_force_over_real_mail(world: World) -> None:
    ann = world.player("ann@pbem.test", "Ann")
    binh = world.player("binh@pbem.test", "Bình", lang="vi")
    set_tz(world, binh, "Asia/Ho_Chi_Minh")
    gid = world.game("toy", [ann, binh], seed=5)
    ctx = world.service.ctx
    run(world.step())
    world.new_mails(ann), world.new_mails(binh)
    start = world.game_row(gid).deadline
    assert start is not None

    operations.extend(ctx, gid, "2d", by="ops", why="holiday")
    run(world.step())
    new_deadline = start + timedelta(days=2)
    [to_ann], [to_binh] = world.new_mails(ann), world.new_mails(binh)
    assert ("The operator extended the deadline by 2 days: new deadline "
            f"{format_deadline(new_deadline, 'UTC', 'en')}.") in text_of(to_ann)
    local = format_deadline(new_deadline, "Asia/Ho_Chi_Minh", "vi")
    assert local.endswith("(Asia/Ho_Chi_Minh)") and local != format_deadline(new_deadline, "UTC", "vi")
    assert f"Người điều hành đã gia hạn thêm 2 ngày: hạn mới là {local}." in text_of(to_binh)
    assert "Thông báo từ người điều hành" in str(to_binh["Subject"])
    assert "holiday" not in text_of(to_ann)  # the why is for the audit log

    # paused: the clock passes the old deadline and nothing happens
    world.clock.advance(hours=1)
    operations.pause(ctx, gid)
    paused_at = world.clock.now()
    world.clock.advance(days=30)
    assert run(world.service.sweep()) == []
    assert world.moves(gid) == []
    run(world.step())
    assert "tạm dừng" in text_of(world.new_mails(binh)[-1])
    # resumed: the same time left as when it was paused
    operations.resume(ctx, gid)
    resumed = world.game_row(gid).deadline
    assert resumed == world.clock.now() + (new_deadline - paused_at)
    world.clock.advance(seconds=(new_deadline - paused_at).total_seconds() - 60)
    assert run(world.service.sweep()) == []
    world.clock.advance(minutes=2)
    assert run(world.service.sweep()) == [gid]  # Ann's call, by the deadline sweep
    run(world.step())
    world.new_mails(ann), world.new_mails(binh)

    # force Bình's secret card; Ann answers the operator's mail with a menu number, by mail
    operations.force(ctx, gid, 1, by="ops")
    run(world.step())
    [ann_mail], [binh_mail] = world.new_mails(ann), world.new_mails(binh)
    assert "The operator played the default move for Bình." in text_of(ann_mail)
    assert "Người điều hành đã chơi nước đi mặc định thay cho Bình." in text_of(binh_mail)
    assert menu_of(ann_mail)  # (Bình may still replace the secret card the operator chose)
    world.reply(ann, "1", to=ann_mail)
    run(world.step())
    moves = world.moves(gid)
    assert [m.command for m in moves] == ["(deadline: default move)", "(operator: default move)", "1"]
    assert world.inbound()[-1].status == "applied"
    with world.service.session() as s:
        audit = [(a.operator, a.command) for a in s.exec(select(AuditLog).order_by(col(AuditLog.id))).all()]
    assert audit == [("ops", "extend"), (audit[1][0], "pause"), (audit[2][0], "resume"), ("ops", "force")]


def test_a_replaced_player_can_no_longer_play(world: World) -> None:
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    gid = world.game("toy", [ann, bob], seed=3)
    run(world.step())
    bob_started = world.last(bob)
    world.reply(ann, "1")  # Ann calls; now both choose a card
    run(world.step())
    bob_turn = world.last(bob)
    assert menu_of(bob_turn)
    world.stack.add_user("cat@pbem.test", PASSWORD)

    operations.replace(world.service.ctx, gid, 1, "Cat <cat@pbem.test>", name="Cat", by="ops", why="Bob left")
    run(world.step())
    welcome = world.last("cat@pbem.test")
    assert "Welcome! The operator gave you Bob's seat in this game." in text_of(welcome)
    assert "Your hand" in text_of(welcome) and menu_of(welcome)
    assert "Cat takes over Bob's place in this game." in text_of(world.last(ann))
    farewell = world.last(bob)
    assert "no longer read" in text_of(farewell) and "Your hand" not in text_of(farewell)
    assert "play+" not in str(farewell["Reply-To"])

    # Bob answers his last turn mail, and his first mail: both refused, nothing moves
    moves_before = len(world.moves(gid))
    world.reply(bob, "1", to=bob_turn)
    world.reply(bob, "2", to=bob_started)
    run(world.step())
    assert [m.status for m in world.inbound()[-2:]] == ["rejected", "rejected"]
    assert [m.stage for m in world.inbound()[-2:]] == ["authenticate", "route"]
    assert len(world.moves(gid)) == moves_before
    # Cat answers the welcome mail: it counts
    world.reply("cat@pbem.test", "1", to=welcome)
    run(world.step())
    assert world.inbound()[-1].status == "applied"
    last = world.moves(gid)[-1]
    assert last.seat == 1 and last.inbound_id == world.inbound()[-1].id


MARKERS = ("MARKCMD0Z", "MARKEVT0Z")


def test_undo_of_a_secret_choice_reveals_nothing(world: World) -> None:
    """Tag Team's draft is a secret simultaneous choice. Ann picks by mail; the operator takes it
    back. Planted markers in the undone log row (command and a private event) and the real private
    events must appear in no mail; the audit log, which only the operator reads, keeps them."""
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob", lang="vi")
    gid = world.game("tagteam", [ann, bob], seed=2)
    run(world.step())
    world.reply(ann, "1")
    run(world.step())
    engine = engines.get("tagteam")
    state = engine.from_json(world.game_row(gid).state)
    assert engine.to_act(state) == {1}  # Ann's pick is pending, secret
    with world.service.session() as s:
        row = s.exec(select(MoveLog).where(MoveLog.game_id == gid)).one()
        events = json.loads(row.events)
        private = [Text.from_json(e["text"]).get(lang) for e in events if e["visible_to"] == [0]
                   for lang in ("en", "vi")]
        assert private, events
        row.command = MARKERS[0]
        row.events = json.dumps([*events, Event(tr(MARKERS[1]), frozenset({0})).to_json()])
        s.add(row)
        s.commit()
    with world.service.session() as s:
        first_undo_mail = max(r.id or 0 for r in s.exec(select(Outbox)).all())

    result = undo(world.service.ctx, gid, 1, by="ops", why="Ann mis-clicked")
    assert result["undone"] == 1
    run(world.step())
    state = engine.from_json(world.game_row(gid).state)
    assert engine.to_act(state) == {0, 1} and world.moves(gid) == []
    with world.service.session() as s:
        mails = s.exec(select(Outbox).where(col(Outbox.id) > first_undo_mail)).all()
        audit = s.exec(select(AuditLog).where(AuditLog.command == "undo")).one()
    assert sorted(m.to_address for m in mails) == [ann, bob] and {m.status for m in mails} == {"sent"}
    for mail in mails:
        raw = mail.raw.decode("ascii", "replace")
        for secret in (*MARKERS, *private):
            assert secret not in raw and secret not in text_of(world.last(mail.to_address)), (mail.to_address, secret)
    assert "The operator took back the last 1 move;" in text_of(world.last(ann))
    assert "Người điều hành đã hủy 1 nước đi gần nhất" in text_of(world.last(bob))
    assert MARKERS[0] in audit.arguments and MARKERS[1] in audit.arguments  # kept for the operator only
    assert menu_of(world.last(ann)) and menu_of(world.last(bob))  # both choose again
    # the replayed log and the stored state agree: the game goes on by mail
    world.reply(ann, "2", to=world.last(ann))
    run(world.step())
    assert world.inbound()[-1].status == "applied"
    assert [i.status for i in world.inbound()] == ["applied", "applied"]
    assert isinstance(world.inbound()[0], InboundMail)


def test_a_move_during_a_pause_keeps_the_clock_stopped(world: World) -> None:
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    gid = world.game("toy", [ann, bob], seed=3)
    run(world.step())
    operations.pause(world.service.ctx, gid)
    world.reply(ann, "1")  # players may still move while the clock is stopped
    run(world.step())
    assert len(world.moves(gid)) == 1
    assert world.game_row(gid).deadline is None
