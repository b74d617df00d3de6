"""Keeping games moving, over the real local mail stack and the manual clock: deadlines,
reminders, missed deadlines under each policy, abandoned seats and substitutes, absences,
bounces. Mails are read as the players get them (English and Vietnamese)."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from service.schedule.deadlines import DeadlinePolicy
from service.store.models import Game, GameSeat, Player

from .world import SERVICE, World, text_of

pytestmark = pytest.mark.e2e

OPERATOR = "ops@pbem.test"
SHOW = bool(os.environ.get("PBEM_SHOW_MAILS"))


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def world(mail_stack: Any, tmp_path: Path) -> World:
    w = World.create(mail_stack, tmp_path, operator_address=OPERATOR, abandon_after_misses=2)
    mail_stack.add_user(OPERATOR, "secret")
    return w


def person(world: World, address: str, name: str, lang: str, tz: str) -> str:
    world.player(address, name, lang)
    with world.service.session() as s:
        player = s.exec(select(Player).where(Player.address == address)).one()
        player.tz = tz
        s.add(player)
        s.commit()
    return address


def duo(world: World) -> tuple[str, str]:
    """Dũng (Vietnamese, Hanoi time) and Ann (English, Paris time)."""
    return (person(world, "dung@pbem.test", "Dũng", "vi", "Asia/Ho_Chi_Minh"),
            person(world, "ann@pbem.test", "Ann", "en", "Europe/Paris"))


async def tick(world: World) -> None:
    """One round of everything ``pbem serve`` does: mail in, the sweep, mail out."""
    await world.service.poll_once()
    await world.service.sweep()
    await world.service.flush_outbox()


def texts(world: World, address: str) -> list[str]:
    mails = world.new_mails(address)
    out = [f"Subject: {m['Subject']}\n{text_of(m)}" for m in mails]
    if SHOW:
        for text in out:
            print(f"\n===== to {address}\n{text}")
    return out


def seat(world: World, game_id: int, number: int) -> GameSeat:
    with world.service.session() as s:
        return s.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == number)).one()


def set_policy(world: World, game_id: int, **values: Any) -> None:
    from service.schedule.deadlines import set_policy as store_policy

    with world.service.session() as s:
        game = s.get_one(Game, game_id)
        base = DeadlinePolicy.defaults(world.service.settings)
        store_policy(s, world.service.ctx, game, base.with_values(values))
        s.commit()


def test_a_game_over_several_days_reminds_at_the_right_times_then_plays_the_default(world: World) -> None:
    dung, ann = duo(world)
    game_id = world.game("toy", [dung, ann], seed=3)  # Thursday 2026-01-01 12:00 UTC; 72 h
    run(tick(world))
    (started,) = texts(world, dung)
    assert "Hạn chót: 2026-01-04 19:00 (Asia/Ho_Chi_Minh)" in started  # his zone, his language
    (started_ann,) = texts(world, ann)
    assert "Deadline" not in started_ann  # not her decision yet

    world.clock.advance(hours=47, minutes=59)
    run(tick(world))
    assert texts(world, dung) == []  # 24 h before: not yet
    world.clock.advance(minutes=2)
    run(tick(world))
    (reminder,) = texts(world, dung)
    assert "Nhắc lượt: [TOY #1] High or Low đang chờ bạn đi" in reminder
    assert "đến lượt bạn; hạn chót 2026-01-04 19:00 (Asia/Ho_Chi_Minh), còn 23 giờ" in reminder
    assert 'Trả lời "nghỉ 7" để dừng đồng hồ của bạn trong 7 ngày' in reminder
    run(tick(world))
    assert texts(world, dung) == []  # once per reminder point
    assert texts(world, ann) == []

    world.clock.advance(hours=22)  # 70 h 01: the 2-hour reminder
    run(tick(world))
    (second,) = texts(world, dung)
    assert "còn 1 giờ" in second

    world.clock.advance(hours=2)  # past the deadline: the default move, and everyone is told
    run(tick(world))
    (late,) = texts(world, dung)
    assert "Bạn đã lỡ hạn chót; hệ thống đã đi thay bạn: high" in late or \
        "Bạn đã lỡ hạn chót; hệ thống đã đi thay bạn: low" in late
    (told,) = texts(world, ann)
    assert "Dũng missed the deadline; a default move was played for them. Your move" in told
    assert "Deadline: 2026-01-07" in told  # her card is due now, in Paris time
    assert seat(world, game_id, 0).misses == 1
    missed_mail = world.mails(dung)[-1]

    world.clock.advance(hours=48, minutes=1)  # both must choose a card: both are reminded
    run(tick(world))
    (english,) = texts(world, ann)
    assert "Subject: [PBEM] Reminder: [TOY #1] High or Low waits for your move" in english
    assert "Hello Ann, a reminder about your games:" in english
    assert "[TOY #1] High or Low — your move; deadline 2026-01-07 13:01 (Europe/Paris), in 23 hours." in english
    assert 'Reply "vacation 7" and your clocks stop for 7 days' in english
    assert len(texts(world, dung)) == 1

    # Dũng plays himself again: his misses in a row start over
    world.reply(dung, "3", to=missed_mail)
    run(tick(world))
    assert seat(world, game_id, 0).misses == 0


def test_wait_policy_tells_the_operator_then_abandons_the_seat_and_a_substitute_takes_over(world: World) -> None:
    dung, ann = duo(world)
    cid = person(world, "cid@pbem.test", "Cid", "en", "America/New_York")
    game_id = world.game("toy", [dung, ann], seed=3)
    set_policy(world, game_id, on_miss="wait")
    run(tick(world))
    for who in (dung, ann, OPERATOR):
        texts(world, who)

    world.clock.advance(hours=72, minutes=1)
    run(tick(world))
    (late,) = texts(world, dung)
    assert "Bạn đã lỡ hạn chót; ván chơi đang chờ bạn — hãy đi ngay nhé" in late
    (told,) = texts(world, ann)
    assert "Dũng missed the deadline; the game waits for them" in told
    (ops,) = texts(world, OPERATOR)
    assert "Game #1 waits for Dũng" in ops and "Policy: wait" in ops
    assert world.moves(game_id)[-1].action is None  # nothing was played

    world.clock.advance(hours=72, minutes=1)  # the second fresh period passes: abandoned (K=2)
    run(tick(world))
    assert texts(world, dung) == []  # no more mail to a seat a bot keeps
    row = seat(world, game_id, 0)
    assert row.bot and row.open and row.abandoned_at is not None and row.misses == 2
    from service.schedule.deadlines import stalled

    with world.service.session() as s:
        (listed,) = stalled(s, world.service.ctx)
    assert (listed.game_id, listed.abandoned, listed.open, listed.misses) == (game_id, [0], [0], {0: 2})
    (ops,) = texts(world, OPERATOR)
    assert "the seat of Dũng is abandoned" in ops and "takeover 1" in ops
    (told,) = texts(world, ann)
    assert "a bot keeps their seat until a substitute takes it over" in told
    assert "Reply with a number" in told  # the bot called at once: Ann's card is due

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = cid, SERVICE, "seat"
    msg["Message-ID"] = "<takeover1@client.test>"
    msg.set_content("takeover 1 please\n")
    from tests.support.mailservers import send_mail

    send_mail(world.stack, msg, cid, SERVICE)
    run(tick(world))
    mails = texts(world, cid)
    assert any("You took over a seat in game #1" in t for t in mails)
    row = seat(world, game_id, 0)
    assert not row.bot and not row.open
    with world.service.session() as s:
        assert s.get_one(Player, row.player_id).address == cid


def test_grace_makes_a_player_late_first_and_skip_falls_back_to_the_default(world: World) -> None:
    dung, ann = duo(world)
    game_id = world.game("toy", [dung, ann], seed=3)
    set_policy(world, game_id, on_miss="skip", grace_hours=12, reminders=[])
    run(tick(world))
    texts(world, dung)
    world.clock.advance(hours=73)
    run(tick(world))
    (late,) = texts(world, dung)
    assert "bạn đã trễ: hạn chót là 2026-01-04 19:00 (Asia/Ho_Chi_Minh)" in late
    assert "Lúc 2026-01-05 07:00 (Asia/Ho_Chi_Minh) hệ thống sẽ đi thay bạn một nước mặc định" in late
    assert len(world.moves(game_id)) == 0
    world.clock.advance(hours=11)
    run(tick(world))
    (done,) = texts(world, dung)
    assert "Bạn đã lỡ hạn chót; hệ thống đã đi thay bạn" in done  # the toy has no pass: default
    assert len(world.moves(game_id)) == 1


def test_one_reminder_mail_merges_every_game_and_late_ones_come_once_a_day(world: World) -> None:
    dung, ann = duo(world)
    bob = person(world, "bob@pbem.test", "Bob", "en", "UTC")
    first = world.game("toy", [dung, ann], seed=3)
    second = world.game("toy", [dung, bob], seed=4)
    for game_id in (first, second):
        set_policy(world, game_id, grace_hours=72)
    run(tick(world))
    texts(world, dung)
    world.clock.advance(hours=48, minutes=1)
    run(tick(world))
    (merged,) = texts(world, dung)
    assert "Nhắc lượt: 2 ván đang chờ bạn đi" in merged
    assert "[TOY #1] High or Low — đến lượt bạn" in merged and "[TOY #2] High or Low — đến lượt bạn" in merged
    world.clock.advance(hours=22)
    run(tick(world))
    assert len(texts(world, dung)) == 1  # the 2-hour reminder, still one mail
    world.clock.advance(hours=3)  # late in both (within the grace), but reminded 3 hours ago
    run(tick(world))
    assert texts(world, dung) == []  # at most one reminder mail a day once late
    world.clock.advance(hours=21)  # a day after the last reminder: one mail for both games
    run(tick(world))
    (late,) = texts(world, dung)
    assert late.count("bạn đã trễ") == 2
    world.clock.advance(hours=6)
    run(tick(world))
    assert texts(world, dung) == []
    world.clock.advance(hours=18, minutes=1)
    run(tick(world))
    assert len(texts(world, dung)) == 1


def test_vacation_stops_the_clock_the_others_are_told_and_back_ends_it(world: World) -> None:
    dung, ann = duo(world)
    game_id = world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    texts(world, ann)
    texts(world, dung)
    before = world.game_row(game_id).deadline
    assert before is not None
    world.reply(dung, "nghỉ 30")
    run(tick(world))
    (refused,) = texts(world, dung)
    assert "Năm nay bạn còn được vắng mặt từ 1 đến 21 ngày" in refused
    world.reply(dung, "nghỉ 7 nhé", to=world.mails(dung)[0])
    run(tick(world))
    (answer,) = texts(world, dung)
    assert "đã làm: vacation 7" in answer and "Đồng hồ của bạn dừng đến 2026-01-08 19:00 (Asia/Ho_Chi_Minh)" in answer
    assert "Số ngày vắng mặt còn lại năm nay: 14" in answer
    assert world.game_row(game_id).deadline == before + timedelta(days=7)
    (told,) = texts(world, ann)
    assert "Dũng is away until 2026-01-08 13:00 (Europe/Paris); the new deadline is 2026-01-11 13:00 (Europe/Paris)" in told

    world.clock.advance(hours=100)  # past the old deadline: nothing happens, no reminders
    run(tick(world))
    assert texts(world, dung) == [] and world.moves(game_id) == []

    world.reply(dung, "back", to=world.mails(dung)[0])
    run(tick(world))
    (answer,) = texts(world, dung)
    assert "đã làm: back" in answer and "2 ngày chưa dùng đã được trả lại" in answer
    (told,) = texts(world, ann)
    assert "Dũng is back; the new deadline is" in told
    with world.service.session() as s:
        assert s.exec(select(Player).where(Player.address == dung)).one().vacation_days_used == 5


def test_a_hard_bounce_of_our_mail_marks_the_address_unreachable(world: World) -> None:
    dung, ann = duo(world)
    world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    texts(world, OPERATOR)
    ours = world.mails(ann)[0]
    report = (
        "From: Mail Delivery System <MAILER-DAEMON@mx.example>\r\n"
        f"To: {SERVICE}\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn1@mx.example>\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\r\n\r\n'
        "--b1\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n"
        "--b1\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example\r\n\r\nFinal-Recipient: rfc822; ann@pbem.test\r\n"
        "Action: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 no such user\r\n\r\n"
        "--b1\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"Message-ID: {ours['Message-ID']}\r\nTo: ann@pbem.test\r\nSubject: game\r\n\r\n"
        "--b1--\r\n"
    ).encode()
    from tests.support.mailservers import send_mail

    send_mail(world.stack, report, "", SERVICE)
    run(tick(world))
    with world.service.session() as s:
        player = s.exec(select(Player).where(Player.address == ann)).one()
        assert player.unreachable and player.bounced_at == world.clock.now()
        assert not s.exec(select(Player).where(Player.address == dung)).one().unreachable
    (ops,) = texts(world, OPERATOR)
    assert "Ann <ann@pbem.test> is unreachable (hard bounce)" in ops
    assert any("hard bounce 5.1.1" in (m.error or "") for m in world.inbound())


def resign(world: World, who: str, confirm: str = "resign") -> list[str]:
    """``resign`` (or ``bỏ cuộc``), then the confirmation with the code from the answer."""
    texts(world, who)
    world.reply(who, confirm)
    run(tick(world))
    (answer,) = texts(world, who)
    import re

    found = re.search(r"(?:reply `resign|lời `bỏ cuộc) (\w{4})`", answer)
    assert found, answer
    world.reply(who, f"{confirm} {found.group(1)}", to=world.last(who))
    run(tick(world))
    return [answer, *texts(world, who)]


def names(world: World, count: int) -> list[str]:
    people = [("dung", "Dũng", "vi"), ("ann", "Ann", "en"), ("bob", "Bob", "en"), ("chi", "Chi", "vi")]
    return [person(world, f"{a}@pbem.test", n, lang, "UTC") for a, n, lang in people[:count]]


def test_resign_in_a_team_game_the_other_team_wins(world: World) -> None:
    players = names(world, 4)
    game_id = world.game("tac", players, seed=5)
    run(tick(world))
    for p in players:
        texts(world, p)
    answer = resign(world, players[1])[0]  # Ann, partner of Chi (seats 1 and 3)
    assert "If you do, the game ends and the other team wins." in answer
    game = world.game_row(game_id)
    assert game.status == "resigned" and json.loads(game.outcome or "{}")["winners"] == [0, 2]
    (over,) = texts(world, players[0])
    assert "Trò chơi kết thúc" in over or "kết thúc" in over
    assert "Dũng và Bob thắng — Ann đã bỏ cuộc" in over


def test_resign_in_a_two_player_game_the_opponent_wins(world: World) -> None:
    players = names(world, 2)
    game_id = world.game("tagteam", players, seed=5)
    run(tick(world))
    answer = resign(world, players[0], "bỏ cuộc")[0]
    assert "Khi đó ván chơi kết thúc và đối thủ của bạn thắng." in answer
    assert json.loads(world.game_row(game_id).outcome or "{}")["winners"] == [1]
    assert any("Ann wins — Dũng resigned" in t for t in texts(world, players[1]))


def test_resign_in_a_cooperative_game_a_bot_keeps_the_seat(world: World) -> None:
    players = names(world, 3)
    game_id = world.game("grizzled", players, seed=5)
    run(tick(world))
    for p in players:
        texts(world, p)
    answer, *after = resign(world, players[1])
    assert "a bot plays your seat and the others play on" in answer
    assert any("You left the game; a bot plays your seat from now on" in t for t in after)
    assert world.game_row(game_id).status == "active" and seat(world, game_id, 1).bot
    told = texts(world, players[0])
    assert any("Ann đã rời ván; máy chơi thay chỗ của họ" in t for t in told)
    world.reply(players[1], "1", to=world.last(players[1]))  # a resigned player cannot play on
    run(tick(world))
    (refused,) = texts(world, players[1])
    assert "You resigned from this game; a bot plays your seat." in refused
    assert seat(world, game_id, 1).bot


def test_resign_in_a_free_for_all_of_three_a_bot_keeps_the_seat(world: World) -> None:
    players = names(world, 3)
    game_id = world.game("barcadia", players, seed=5)
    run(tick(world))
    answer = resign(world, players[2])[0]
    assert "a bot plays your seat and the others play on" in answer
    assert world.game_row(game_id).status == "active" and seat(world, game_id, 2).bot
    assert any("Bob left the game; a bot plays their seat" in t for t in texts(world, players[1]))


def test_a_sentence_with_resign_in_it_is_not_a_resignation(world: World) -> None:
    dung, ann = duo(world)
    game_id = world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    texts(world, dung)
    world.reply(dung, "bỏ cuộc thì không bao giờ nhé\nresign now or never")
    run(tick(world))
    (answer,) = texts(world, dung)
    assert seat(world, game_id, 0).resign_code is None
    assert world.game_row(game_id).status == "active"
    assert "CHƯA làm" in answer


def test_games_log_with_times_and_tz_by_city(world: World) -> None:
    dung, ann = duo(world)
    world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    texts(world, ann)
    world.reply(ann, "tz new york\ngames")
    run(tick(world))
    (answer,) = texts(world, ann)
    assert "done: tz America/New_York" in answer
    assert "[TOY #1] High or Low — waiting for Dũng; deadline 2026-01-04 07:00 (America/New_York)" in answer
    world.reply(dung, "high")
    run(tick(world))
    world.clock.advance(hours=1)
    texts(world, dung)
    world.reply(dung, "tz Sài Gòn\nlog\ntz Atlantis")
    run(tick(world))
    (answer,) = texts(world, dung)
    assert "đã làm: tz Asia/Ho_Chi_Minh" in answer
    assert "2026-01-01 19:00  " in answer  # the call, at its time in his zone
    assert "Không rõ múi giờ 'Atlantis'" in answer


def events_in(msg: EmailMessage) -> list[tuple[str, str, int, str | None]]:
    """(METHOD, UID, SEQUENCE, DTEND in UTC) of every calendar attachment, read with icalendar."""
    from icalendar import Calendar

    out = []
    for part in msg.iter_attachments():
        if part.get_content_type() != "text/calendar":
            continue
        cal = Calendar.from_ical(part.get_content())
        for event in cal.walk("VEVENT"):
            end = event.get("dtend")
            out.append((str(cal["method"]), str(event["uid"]), int(event["sequence"]),
                        end.dt.strftime("%Y-%m-%d %H:%M") if end else None))
    return out


def test_calendar_on_sends_the_deadline_as_an_event_updated_and_cancelled(world: World) -> None:
    from service.schedule.deadlines import extend

    dung, ann = duo(world)
    game_id = world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    world.new_mails(dung)
    world.reply(dung, "lịch bật")  # Vietnamese: "calendar on"
    run(tick(world))
    (answer,) = world.new_mails(dung)
    assert "đã làm: calendar on" in text_of(answer)
    ((method, uid, first_seq, end),) = events_in(answer)
    assert (method, end) == ("PUBLISH", "2026-01-04 12:00")  # the deadline, in UTC inside the file

    world.clock.advance(hours=1)
    with world.service.session() as s:
        extend(s, world.service.ctx, s.get_one(Game, game_id), timedelta(hours=24))
        s.commit()
    run(tick(world))
    (moved,) = world.new_mails(dung)
    assert "Hạn chót đã thay đổi: 2026-01-05 19:00 (Asia/Ho_Chi_Minh)" in text_of(moved)
    ((method, same_uid, seq, end),) = events_in(moved)
    assert (method, same_uid, end) == ("PUBLISH", uid, "2026-01-05 12:00") and seq > first_seq
    assert all(events_in(m) == [] for m in world.new_mails(ann))  # Ann has the calendar off

    world.reply(dung, "high", to=moved)
    run(tick(world))
    (turn,) = world.new_mails(dung)  # his call is made; his card is the next decision
    events = events_in(turn)
    assert ("CANCEL", uid) in [(m, u) for m, u, _s, _e in events]
    assert [m for m, u, _s, _e in events if u != uid] == ["PUBLISH"]
    world.reply(dung, "1", to=turn)
    run(tick(world))
    (done,) = world.new_mails(dung)
    assert [m for m, *_ in events_in(done)] == ["CANCEL"]


def test_an_abandoned_player_who_writes_again_gets_the_seat_back(world: World) -> None:
    dung, ann = duo(world)
    game_id = world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    for _ in range(2):  # two missed deadlines in a row (K=2), default moves played
        world.clock.advance(hours=72, minutes=1)
        run(tick(world))
    assert seat(world, game_id, 0).bot and seat(world, game_id, 0).open
    texts(world, dung)
    world.reply(dung, "state", to=world.mails(dung)[0])
    run(tick(world))
    (answer,) = texts(world, dung)
    assert "đã làm: chỗ của bạn đã trở lại với bạn" in answer
    row = seat(world, game_id, 0)
    assert not row.bot and not row.open and row.misses == 0


def test_replying_to_a_reminder_works_without_a_game_key(world: World) -> None:
    dung, ann = duo(world)
    world.game("toy", [dung, ann], seed=3)
    run(tick(world))
    world.clock.advance(hours=48, minutes=1)
    run(tick(world))
    texts(world, dung)
    reminder = world.last(dung)
    assert str(reminder["Reply-To"]) == SERVICE  # the plain address: mailbox commands
    world.reply(dung, "ván\nnghỉ 3", to=reminder)
    run(tick(world))
    (answer,) = texts(world, dung)
    assert "[TOY #1] High or Low — đến lượt bạn; hạn chót 2026-01-04 19:00 (Asia/Ho_Chi_Minh)" in answer
    assert "Đồng hồ của bạn dừng đến 2026-01-06 19:01 (Asia/Ho_Chi_Minh)" in answer
    assert world.game_row(1).deadline is not None and world.game_row(1).deadline.day == 7
