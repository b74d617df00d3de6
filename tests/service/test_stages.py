"""Each pipeline stage alone, and the transaction/quarantine rules around them."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from sqlmodel import col, select

import engines
from service.context import AppContext
from service.inbound.pipeline import (
    Pipeline,
    Rejected,
    authenticate,
    extract,
    filter_automatic,
    route,
    split_commands,
    store,
    subject_command,
)
from service.outbound.keys import make_key
from service.outbound.render import MARKER
from service.store.games import StaleGame, load, save_state
from service.store.models import Game, GameSeat, InboundMail, MoveLog, Outbox


def mail(frm: str, to: str, body: str, subject: str = "Re: hi", **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = frm, to, subject
    msg["Message-ID"] = headers.pop("message_id", "<m1@x.test>")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def key_of(ctx: AppContext, game_id: int, seat: int) -> str:
    with ctx.session() as s:
        game = s.get_one(Game, game_id)
        engine, state = load(game)
        return make_key(ctx.key_secret, game_id, seat, engine.decision_key(state, seat))


def test_store_dedupes_by_message_id(ctx: AppContext) -> None:
    raw = mail("a@x.test", "play@pbem.test", "hi").as_bytes()
    with ctx.session() as s:
        first, created = store(s, ctx, raw, 7, "INBOX")
        again, created_again = store(s, ctx, raw, 8, "INBOX")
    assert created and not created_again and first.id == again.id and again.uid == 7


def test_store_gives_a_mail_without_message_id_a_stable_one(ctx: AppContext) -> None:
    raw = b"From: a@x.test\r\nSubject: x\r\n\r\nbody\r\n"
    with ctx.session() as s:
        row, _ = store(s, ctx, raw, None, "INBOX")
        _, created = store(s, ctx, raw, None, "INBOX")
    assert row.message_id.startswith("<sha256-") and not created


def test_filter_drops_our_own_loop_and_auto_replies() -> None:
    own = {"play@pbem.test"}
    assert filter_automatic(mail("a@x.test", "play@pbem.test", "1", X_PBEM_Loop="play@pbem.test"), own)
    assert filter_automatic(mail("a@x.test", "play@pbem.test", "1", Auto_Submitted="auto-replied"), own)
    assert filter_automatic(mail("a@x.test", "play@pbem.test", "1", subject="Out of Office: away"), own)
    assert filter_automatic(mail("a@x.test", "play@pbem.test", "1"), own) is None


def test_route_by_plus_address_then_subject(ctx: AppContext, game_id: int) -> None:
    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        plus = route(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "1"))
        assert plus.via == "plus" and plus.info is not None and plus.info.seat == 0
        subj = route(s, ctx, mail("ann@x.test", "play@pbem.test", "1", subject=f"Re: [TOY #1] Your turn · ref {key}"))
        assert subj.via == "subject" and subj.info == plus.info
        assert route(s, ctx, mail("ann@x.test", "play@pbem.test", "new toy with b@x")).info is None
        with pytest.raises(Rejected):
            route(s, ctx, mail("ann@x.test", "play+aaaaaaaaaaaaaaaaaaaa@pbem.test", "1"))


def test_authenticate_accepts_only_the_seats_own_address(ctx: AppContext, game_id: int) -> None:
    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        info = route(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "1")).info
        assert info is not None
        _, seat_row, player = authenticate(s, info, "Ann <ANN@x.test>")
        assert seat_row.seat == 0 and player.name == "Ann"
        with pytest.raises(Rejected, match=r"used by bob@x\.test"):
            authenticate(s, info, "bob@x.test")


def test_extract_cuts_at_our_marker_and_reads_the_subject_when_the_body_is_empty() -> None:
    body = f"play 7\n\n{MARKER}\n\nIt is your turn.\n  1. high — call high\n"
    assert extract(mail("a@x.test", "play@pbem.test", body)) == "play 7"
    assert extract(mail("a@x.test", "play@pbem.test", "", subject="Re: [TAC #42] 7 a4 c3")) == "7 a4 c3"
    assert subject_command("Re: [TAC #42] Your turn · ref abcdefghijklmnopqrst") == ""
    assert subject_command("AW: RE: [TAC #42] 7 a4 c3") == "7 a4 c3"
    assert subject_command("Hello") == ""


def test_split_keeps_order_and_drops_blank_lines() -> None:
    assert split_commands("lang vi\n\n 3 \r\nstate; log\n") == ["lang vi", "3", "state", "log"]


def test_a_crashing_stage_quarantines_with_stage_and_error(ctx: AppContext, game_id: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    key = key_of(ctx, game_id, 0)
    toy = engines.get("toy")

    def boom(*args: object) -> None:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(toy, "apply", boom)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "high").as_bytes(), 1, "INBOX")
    assert row.id is not None
    before = _outbox_count(ctx)
    assert Pipeline(ctx).process(row.id) == "quarantined"
    with ctx.session() as s:
        stored = s.get_one(InboundMail, row.id)
        assert (stored.stage, stored.status) == ("apply", "quarantined")
        assert "engine exploded" in (stored.error or "")
        assert s.exec(select(MoveLog)).all() == []
    assert _outbox_count(ctx) == before  # nothing of the failed transaction survived


def test_a_mail_that_crashed_three_times_is_not_tried_again(ctx: AppContext, game_id: int) -> None:
    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "high").as_bytes(), 1, "INBOX")
        row.attempts = ctx.settings.max_crashes  # three earlier runs died mid-way
        s.add(row)
        s.commit()
    assert row.id is not None
    assert Pipeline(ctx).process(row.id) == "quarantined"
    with ctx.session() as s:
        assert s.get_one(InboundMail, row.id).stage == "crashed"
        assert s.exec(select(MoveLog)).all() == []


def test_admin_retry_puts_a_quarantined_mail_back(ctx: AppContext, game_id: int) -> None:
    from service.admin.quarantine import retry_quarantined

    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "high").as_bytes(), 1, "INBOX")
        row.status, row.attempts = "quarantined", 3
        s.add(row)
        s.commit()
    assert row.id is not None
    retry_quarantined(ctx.settings, row.id)
    assert Pipeline(ctx).process(row.id) == "applied"


def test_optimistic_lock_refuses_a_write_from_a_stale_read(ctx: AppContext, game_id: int) -> None:
    with ctx.session() as first, ctx.session() as second:
        game_a, game_b = first.get_one(Game, game_id), second.get_one(Game, game_id)
        engine, state = load(game_a)
        new_state, _ = engine.apply(state, 0, engine.parse(state, 0, "high"))
        save_state(first, ctx, game_a, engine, new_state)
        first.commit()
        with pytest.raises(StaleGame):
            save_state(second, ctx, game_b, engine, new_state)


def test_resign_asks_for_a_code_then_ends_a_two_player_game_with_the_other_winning(ctx: AppContext,
                                                                                    game_id: int) -> None:
    key = key_of(ctx, game_id, 1)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("bob@x.test", f"play+{key}@pbem.test", "resign\nhigh").as_bytes(), 1, "INBOX")
    assert row.id is not None
    assert Pipeline(ctx).process(row.id) == "applied"
    with ctx.session() as s:
        assert s.get_one(Game, game_id).status == "active"  # nothing ends without the code
        seat = s.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == 1)).one()
        code = seat.resign_code
    assert code and len(code) == 4
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("bob@x.test", f"play+{key}@pbem.test", f"resign {code.lower()}\nhigh",
                                    message_id="<confirm@x.test>").as_bytes(), 2, "INBOX")
    assert row.id is not None
    assert Pipeline(ctx).process(row.id) == "applied"
    with ctx.session() as s:
        game = s.get_one(Game, game_id)
        assert game.status == "resigned" and game.outcome and '"winners": [0]' in game.outcome
        over = s.exec(select(Outbox).where(Outbox.kind == "over")).all()
        assert sorted(o.to_address for o in over) == ["ann@x.test", "bob@x.test"]


def _outbox_count(ctx: AppContext) -> int:
    with ctx.session() as s:
        return len(s.exec(select(Outbox.id).order_by(col(Outbox.id))).all())


def test_a_processed_mail_is_never_processed_again(ctx: AppContext, game_id: int) -> None:
    """A second worker (or a re-fetch after a crash) finds the result and changes nothing."""
    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "high").as_bytes(), 1, "INBOX")
    assert row.id is not None
    first, second = Pipeline(ctx), Pipeline(ctx)
    assert first.process(row.id) == "applied"
    assert second.process(row.id) == "applied"  # sees the result, does nothing
    with ctx.session() as s:
        assert len(s.exec(select(MoveLog)).all()) == 1
        assert s.get_one(InboundMail, row.id).attempts == 1


def test_route_by_in_reply_to_when_plus_address_and_subject_key_are_lost(ctx: AppContext, game_id: int) -> None:
    with ctx.session() as s:
        started = s.exec(select(Outbox).where(Outbox.to_address == "ann@x.test")).one()
        reply = mail("ann@x.test", "play@pbem.test", "", subject=f"Re: [TOY #{game_id}] low",
                     In_Reply_To=started.message_id, References=started.message_id)
        found = route(s, ctx, reply)
        assert found.via == "in-reply-to" and found.info is not None and found.info.seat == 0
        stranger = mail("ann@x.test", "play@pbem.test", "", In_Reply_To="<unknown@elsewhere>")
        assert route(s, ctx, stranger).info is None
    with ctx.session() as s:
        row, _ = store(s, ctx, reply.as_bytes(), 1, "INBOX")
    # In-Reply-To names the seat but never authenticates a move: the seat gets its mail back
    assert row.id is not None and Pipeline(ctx).process(row.id) == "rejected"
    with ctx.session() as s:
        assert s.exec(select(MoveLog)).all() == []
        answer = s.exec(select(Outbox).where(Outbox.to_address == "ann@x.test").order_by(col(Outbox.id).desc())).first()
        assert answer is not None and answer.kind == "rejected" and answer.reply_key == key_of(ctx, game_id, 0)
        assert b"without its reply address" in answer.raw.replace(b"=\n", b"")


def test_menu_numbers_as_people_write_them() -> None:
    from service.play.replies import menu_number

    for text, number in [("3", 3), ("3.", 3), ("#3", 3), ("(3)", 3), ("số 3", 3), ("So 12", 12),
                         ("no. 4", 4), ("option 2", 2), ("lựa chọn 1", 1)]:
        assert menu_number(text) == number, text
    for text in ("7 a4 c3", "play 3", "3 4", "", "1234"):
        assert menu_number(text) is None, text


def test_every_mail_leaves_one_log_line_with_game_seat_and_message_id(
        ctx: AppContext, game_id: int, caplog: pytest.LogCaptureFixture) -> None:
    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "high",
                                    message_id="<logline@x.test>").as_bytes(), 1, "INBOX")
    assert row.id is not None
    with caplog.at_level("INFO", logger="service.inbound.pipeline"):
        assert Pipeline(ctx).process(row.id) == "applied"
    lines = [r.getMessage() for r in caplog.records if "<logline@x.test>" in r.getMessage()]
    assert lines == [f"mail {row.id} <logline@x.test> from ann@x.test game={game_id} seat=0: applied"]
