"""A reply's mails store each seat's digest bookmark and reply key (``notify.store_seat_marks``).

They are written by a Core UPDATE when the seat is otherwise unchanged, so the commit has no
seat left for the ORM to flush; a seat changed in the same session keeps the ORM's way."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import col, select

from service.context import AppContext
from service.inbound.pipeline import Pipeline, store
from service.outbound.notify import store_seat_marks
from service.store.models import GameSeat, MoveLog
from tests.service.test_stages import key_of, mail


def _seats(ctx: AppContext, game_id: int) -> list[tuple[int, str | None, int]]:
    with ctx.session() as s:
        rows = s.exec(select(GameSeat).where(GameSeat.game_id == game_id).order_by(col(GameSeat.seat))).all()
        return [(r.last_log_id, r.reply_key, r.misses) for r in rows]


def test_a_reply_stores_the_seats_bookmarks_and_keys_without_an_orm_flush_of_a_seat(
        ctx: AppContext, game_id: int) -> None:
    flushed: list[str] = []

    def note(session: OrmSession, _ctx: Any, _instances: Any) -> None:
        flushed.extend(type(o).__name__ for o in session.dirty if session.is_modified(o))

    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@x.test", f"play+{key}@pbem.test", "high").as_bytes(), 1, "INBOX")
    assert row.id is not None
    event.listen(OrmSession, "before_flush", note)
    try:
        assert Pipeline(ctx).process(row.id) == "applied"
    finally:
        event.remove(OrmSession, "before_flush", note)
    assert "GameSeat" not in flushed
    with ctx.session() as s:
        newest = max(m.id or 0 for m in s.exec(select(MoveLog).where(MoveLog.game_id == game_id)).all())
    ann, bob = _seats(ctx, game_id)
    assert ann[0] == newest  # Ann got the receipt: her digest starts after her move next time
    assert bob[1] == key_of(ctx, game_id, 1)  # Bob must act: his mail's key is his seat's key


def test_a_seat_changed_in_the_session_gets_its_marks_by_the_orm_flush(ctx: AppContext, game_id: int) -> None:
    with ctx.session() as s:
        seat = s.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == 0)).one()
        seat.misses = 2  # an unwritten change: the marks go with it
        store_seat_marks(s, seat, 7, "k" * 20)
        assert s.is_modified(seat)
        s.commit()
        other = s.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == 1)).one()
        store_seat_marks(s, other, 9, None)  # unchanged seat: written at once, nothing left to flush
        assert not s.is_modified(other)
        s.commit()
    assert _seats(ctx, game_id) == [(7, "k" * 20, 2), (9, None, 0)]
