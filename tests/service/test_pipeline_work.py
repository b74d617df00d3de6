"""The database work of a reply stays small: what the pipeline's speed rests on, kept honest.

A fetch is stored in one commit, the game row is written once per reply, a move tried by
``one_move_per_decision`` is not applied a second time, a reply key is recorded once however
often it is issued. Each test counts what actually happens (statements, commits, engine calls),
on SQLite and on PostgreSQL (``PBEM_TEST_DATABASE=postgresql``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import select

import engines
from engines.contract import tr
from service.context import AppContext
from service.inbound.pipeline import Pipeline, store_batch
from service.outbound.keys import issue_key, lookup_key, make_key
from service.play.player_commands import Command, find_command
from service.store.games import load
from service.store.models import Game, InboundMail, MoveLog, ReplyKey


def mail(frm: str, to: str, body: str, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = frm, to, "Re: hi", message_id
    msg.set_content(body)
    return msg.as_bytes()


def key_of(ctx: AppContext, game_id: int, seat: int) -> str:
    with ctx.session() as s:
        engine, state = load(s.get_one(Game, game_id))
        return make_key(ctx.key_secret, game_id, seat, engine.decision_key(state, seat))


@contextmanager
def counted(engine: Engine) -> Iterator[dict[str, Any]]:
    """The statements (SQL text) and commits run on ``engine`` meanwhile."""
    seen: dict[str, Any] = {"sql": [], "commits": 0}

    def statement(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        seen["sql"].append(" ".join(sql.split()))

    def commit(_conn: Any) -> None:
        seen["commits"] += 1

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(engine, "commit", commit)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(engine, "commit", commit)


def test_a_fetch_is_stored_in_one_commit_and_known_mails_are_recognised(ctx: AppContext, game_id: int) -> None:
    key = key_of(ctx, game_id, 0)
    handled = mail("ann@x.test", f"play+{key}@pbem.test", "high", "<handled@x.test>")
    with ctx.session() as s:
        (first,) = store_batch(s, ctx, [(1, handled)], "INBOX")
    assert Pipeline(ctx).process(first.id) == "applied"
    fetch = [(2, mail("bob@x.test", "play@pbem.test", "hello", "<new1@x.test>")),
             (3, handled),  # re-fetched after a crash between the commit and the IMAP flag
             (4, mail("bob@x.test", "play@pbem.test", "again", "<new2@x.test>")),
             (5, mail("bob@x.test", "play@pbem.test", "hello", "<new1@x.test>"))]  # twice in one fetch
    with counted(ctx.db) as seen, ctx.session() as s:
        rows = store_batch(s, ctx, fetch, "INBOX")
    assert seen["commits"] == 1
    assert [r.status for r in rows] == ["new", "applied", "new", "new"]
    assert rows[1].id == first.id and rows[0].id == rows[3].id and len({rows[0].id, rows[2].id, first.id}) == 3
    assert [r.message_id for r in rows] == ["<new1@x.test>", "<handled@x.test>", "<new2@x.test>", "<new1@x.test>"]
    with ctx.session() as s:
        stored = s.exec(select(InboundMail).where(InboundMail.id == rows[0].id)).one()
        assert stored.uid == 2 and stored.sender == "bob@x.test" and stored.status == "new" and b"hello" in stored.raw
        assert len(s.exec(select(InboundMail.id)).all()) == 3


def test_an_empty_fetch_touches_nothing(ctx: AppContext) -> None:
    with counted(ctx.db) as seen, ctx.session() as s:
        assert store_batch(s, ctx, [], "INBOX") == []
    assert seen["sql"] == [] and seen["commits"] == 0


def test_a_reply_writes_the_game_once_and_applies_its_move_once(ctx: AppContext, game_id: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    toy = engines.get("toy")
    applied: list[object] = []
    real_apply = toy.apply

    def counting_apply(state: Any, seat: int, action: Any) -> Any:
        applied.append(action)
        return real_apply(state, seat, action)

    monkeypatch.setattr(toy, "apply", counting_apply)
    key = key_of(ctx, game_id, 0)
    with ctx.session() as s:
        version = s.get_one(Game, game_id).version
        (row,) = store_batch(s, ctx, [(1, mail("ann@x.test", f"play+{key}@pbem.test", "high", "<m1@x.test>"))],
                             "INBOX")
    with counted(ctx.db) as seen:
        assert Pipeline(ctx).process(row.id) == "applied"
    game_writes = [sql for sql in seen["sql"] if sql.startswith("UPDATE games")]
    assert len(game_writes) == 1 and "games.version = " in game_writes[0]  # the version-checked one only
    assert len(applied) == 1  # one_move_per_decision tried it; play used that result
    with ctx.session() as s:
        game = s.get_one(Game, game_id)
        assert game.version == version + 1 and len(s.exec(select(MoveLog)).all()) == 1
        engine, state = load(game)
        assert engine.decision_key(state, 0) != key  # the move is in the stored state


def test_a_reply_key_issued_twice_is_recorded_once_and_found_at_once(ctx: AppContext, game_id: int) -> None:
    with ctx.session() as s:
        first = issue_key(s, ctx.key_secret, game_id, 1, "d-test", ctx.clock.now())
        again = issue_key(s, ctx.key_secret, game_id, 1, "d-test", ctx.clock.now())
        found = lookup_key(s, ctx.key_secrets, first)
        s.commit()
    assert first == again and found is not None and (found.game_id, found.seat, found.decision) == (game_id, 1, "d-test")
    with ctx.session() as s:
        assert len(s.exec(select(ReplyKey).where(ReplyKey.key == first)).all()) == 1


def test_a_command_list_that_grew_is_sorted_again() -> None:
    def nothing(_turn: Any, _args: list[str]) -> None:
        return None

    commands = [Command(("show",), "show", tr("show"), nothing)]
    assert find_command(commands, "show all") is None  # "show" takes no argument
    commands.append(Command(("show all",), "show all", tr("show all"), nothing))
    found = find_command(commands, "show all")
    assert found is not None and found[0].usage == "show all"  # the longer name is tried first
