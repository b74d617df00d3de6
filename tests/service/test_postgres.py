"""The same service code on PostgreSQL: migrations, a move through the pipeline, the lock.

Starts a throw-away PostgreSQL on a free loopback port (MAILSTACK.md recipe); skipped when
PostgreSQL is not installed, unless ``PBEM_REQUIRE_POSTGRES=1``."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from sqlmodel import select

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.inbound.pipeline import Pipeline, store
from service.outbound.keys import make_key
from service.play.start import create_game
from service.store.games import StaleGame, create_player, load, save_state
from service.store.models import Game, MoveLog, Outbox
from tests.support.postgres import fresh_database, running_postgres

from .conftest import SECRET

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def postgres_url() -> str:
    """A fresh, migrated database on this process's throw-away PostgreSQL (tests.support.postgres)."""
    return fresh_database(running_postgres())


def test_a_move_through_the_pipeline_on_postgresql(postgres_url: str) -> None:
    ctx = AppContext.create(Settings(database_url=postgres_url, secret=SECRET), ManualClock())
    with ctx.session() as s:
        players = [create_player(s, f"{n}@x.test", n.title(), ctx=ctx).address for n in ("ann", "bob")]
        game = create_game(s, "toy", players, seed=2**31 - 1, ctx=ctx)
        s.commit()
        assert game.id is not None
        key = make_key(ctx.key_secret, game.id, 0, "0")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@x.test", f"play+{key}@pbem.test", "Re: turn"
    msg["Message-ID"] = "<pg1@x.test>"
    msg.set_content("high")
    with ctx.session() as s:
        row, created = store(s, ctx, msg.as_bytes(), 1, "INBOX")
        assert created and store(s, ctx, msg.as_bytes(), 1, "INBOX")[1] is False
    assert row.id is not None and Pipeline(ctx).process(row.id) == "applied"
    with ctx.session() as s:
        assert [m.command for m in s.exec(select(MoveLog)).all()] == ["high"]
        assert len(s.exec(select(Outbox)).all()) >= 4
    with ctx.session() as first, ctx.session() as second:
        game_a, game_b = first.get_one(Game, game.id), second.get_one(Game, game.id)
        engine, state = load(game_a)
        new_state, _ = engine.apply(state, 0, engine.parse(state, 0, "play " + state.hands[0][0]))
        save_state(first, ctx, game_a, engine, new_state)
        first.commit()
        with pytest.raises(StaleGame):
            save_state(second, ctx, game_b, engine, new_state)


def test_deadlines_on_postgresql(postgres_url: str) -> None:
    """Reminders, a missed deadline with abandonment, and the stalled list on PostgreSQL."""
    from datetime import timedelta

    from service.schedule.deadlines import act_on_missed, send_reminders, stalled
    from service.store.models import GameSeat

    clock = ManualClock()
    ctx = AppContext.create(Settings(database_url=postgres_url, secret=SECRET, abandon_after_misses=1), clock)
    with ctx.session() as s:
        players = [create_player(s, f"{n}@pg.test", n.title(), ctx=ctx).address for n in ("cid", "dee")]
        game = create_game(s, "toy", players, seed=5, ctx=ctx)
        s.commit()
        game_id = game.id
        assert game_id is not None
    clock.advance(hours=48, minutes=1)
    with ctx.session() as s:
        assert "cid@pg.test" in send_reminders(s, ctx)  # the module's other game may remind too
        s.commit()
    clock.advance(hours=24)
    with ctx.session() as s:
        assert act_on_missed(s, ctx, game_id)
        s.commit()
    with ctx.session() as s:
        row = s.exec(select(GameSeat).where(GameSeat.game_id == game_id, GameSeat.seat == 0)).one()
        assert row.bot and row.open and row.misses == 1
        (listed,) = [g for g in stalled(s, ctx) if g.game_id == game_id]
        assert listed.abandoned == [0] and listed.open == [0]
        assert s.get_one(Game, game_id).deadline == clock.now() + timedelta(hours=72)
