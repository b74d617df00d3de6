"""Fewer, shorter mails: the ``mail every|turns|daily`` setting, short receipts, the daily
digest, paged menus (``more``), the first mail's how-to and the ``rules`` command.

The mode behaviour runs end to end over the local mail stack (aiosmtpd + pymap) with the
toy engine; paging, the first mail and ``rules`` run in process against the real outbox
(``play.replies.handle_game_reply`` is what an inbox mail reaches).
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import random
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine as DbEngine
from sqlmodel import col, select

import engines
from engines.summary import MAX_LINES, MIN_LINES, rules_summary
from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.outbound.keys import KeyInfo
from service.outbound.notify import MENU_SHOWN, more_entries
from service.play.replies import handle_game_reply
from service.play.start import create_game
from service.schedule.digests import DIGEST_HOUR, digest_due, last_digest_time, send_daily_digests
from service.store.games import create_player, load, seats_of
from service.store.models import Game, MoveLog, Outbox, Player

from .world import MENU_LINE, World, menu_of, text_of

#: A receipt is "a few lines": what was done, what it caused, who is next, the deadline.
RECEIPT_MAX_LINES = 20


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# -- end to end over the local mail stack ------------------------------------------------


@pytest.fixture
def world(mail_stack: Any, tmp_path: Path) -> World:
    return World.create(mail_stack, tmp_path, pictures=False)


def _set_mode(world: World, address: str, mode: str) -> None:
    """As the ``mail`` command does: a new daily player's first digest is at the next digest hour."""
    with world.service.session() as s:
        player = s.exec(select(Player).where(Player.address == address)).one()
        player.mail_mode = mode
        player.last_digest_at = world.clock.now()
        s.commit()


@pytest.mark.e2e
def test_mail_modes_over_the_mail_stack(world: World) -> None:
    """Ann keeps the default (turns), Bob chose every, Cat chose daily: after the leader's call
    Ann gets a short receipt, Bob the full mail with the board, Cat nothing until her turn
    mail; the digest job then sends Cat what her own move caused, once a day."""
    ann = world.player("ann@pbem.test", "Ann")
    bob = world.player("bob@pbem.test", "Bob")
    cat = world.player("cat@pbem.test", "Cat", lang="vi")
    _set_mode(world, bob, "every")
    _set_mode(world, cat, "daily")
    game_id = world.game("toy", [ann, bob, cat], seed=3)
    run(world.step())
    for address in (ann, bob, cat):
        world.new_mails(address)  # the first mails

    world.reply(ann, "high")  # the leader's call: now everyone chooses a card at once
    run(world.step())
    ann_mails = world.new_mails(ann)
    assert [str(m["Subject"]).split("] ")[1].split(" ·")[0] for m in ann_mails] == ["Your turn"]

    # Bob (every) chooses: a full "choice received" mail with the board and the menu
    world.reply(bob, "1")
    run(world.step())
    bob_receipt = world.new_mails(bob)[-1]
    assert "Choice received" in str(bob_receipt["Subject"])
    assert menu_of(bob_receipt), text_of(bob_receipt)

    # Ann (turns) chooses: a short receipt — done, who is next, the deadline; no menu
    world.reply(ann, "1")
    run(world.step())
    receipt = world.new_mails(ann)[-1]
    text = text_of(receipt)
    assert "Choice received" in str(receipt["Subject"])
    assert not menu_of(receipt)
    assert len(text.splitlines()) <= RECEIPT_MAX_LINES, text
    assert "done: 1" in text and "Next: Cat (deadline " in text and "`state`" in text

    # Cat (daily) chooses: the round resolves; no receipt for her, a turn mail for the next round's leader
    cat_before = len(world.mails(cat))
    world.reply(cat, "1")
    run(world.step())
    after = world.mails(cat)
    kinds = [row.kind for row in world.outbox() if row.to_address == cat]
    assert "received" not in kinds and "moved" not in kinds
    assert all("Đã nhận" not in str(m["Subject"]) and "Đã đi" not in str(m["Subject"]) for m in after[cat_before:])

    # the digest hour passes: Cat gets what happened since her last mail, once
    with world.service.session() as s:
        sent_before = send_daily_digests(s, world.service.ctx)
        s.commit()
    world.clock.set(datetime(2026, 1, 1, DIGEST_HOUR, 30, tzinfo=UTC))
    with world.service.session() as s:
        sent = send_daily_digests(s, world.service.ctx)
        s.commit()
    with world.service.session() as s:
        again = send_daily_digests(s, world.service.ctx)
        s.commit()
    run(world.service.flush_outbox())
    assert sent_before == 0 and again == 0  # not before the hour, and once a day
    digests = [row for row in world.outbox() if row.to_address == cat and row.kind == "digest"]
    assert sent == 1 and len(digests) == 1
    mail = world.last(cat)
    assert "Hôm nay trong ván của bạn" in str(mail["Subject"]) and not menu_of(mail)
    assert "Cat" in text_of(mail) and "- " in text_of(mail)  # her own move and what it caused
    assert world.game_row(game_id).status == "active"


@pytest.mark.e2e
def test_mail_command_by_reply_in_both_languages(world: World) -> None:
    ann = world.player("ann@pbem.test", "Ann")
    bob = world.player("bob@pbem.test", "Bob", lang="vi")
    cat = world.player("cat@pbem.test", "Cat")
    world.game("toy", [ann, bob, cat], seed=3)
    run(world.step())
    world.reply(ann, "mail daily")
    world.reply(bob, "thư mọi")
    world.reply(cat, "mail sometimes")
    run(world.step())
    with world.service.session() as s:
        modes = {p.address: p.mail_mode for p in s.exec(select(Player)).all()}
    assert modes == {ann: "daily", bob: "every", cat: "turns"}
    assert "Your mail: `mail daily`" in text_of(world.last(ann))
    assert "Thư của bạn: `thư mọi`" in text_of(world.last(bob))
    refused = text_of(world.last(cat))
    assert "NOT done" in refused and "mail turns" in refused
    world.reply(cat, "help")
    run(world.step())
    help_text = text_of(world.last(cat))
    assert "mail turns|every|daily" in help_text and "Your mail: `mail turns`" in help_text
    assert "rules" in help_text and "more [PAGE]" in help_text


# -- in process: the real outbox -----------------------------------------------------------


@pytest.fixture
def ctx(settings: Settings, db: DbEngine) -> AppContext:
    return AppContext(settings=settings.model_copy(update={"pictures": False}), db=db, clock=ManualClock())


NAMES = ("Lan", "Quang", "Thảo", "Vũ")


def _game(ctx: AppContext, engine_id: str, players: int, langs: tuple[str, ...] = ("en", "vi"),
          options: dict[str, Any] | None = None, seed: int = 1) -> int:
    with ctx.session() as s:
        addresses = []
        for n in range(players):
            address = f"p{n}@pbem.test"
            create_player(s, address, NAMES[n], langs[n % len(langs)], ctx=ctx)
            addresses.append(address)
        game = create_game(s, engine_id, addresses, options, seed, ctx=ctx)
        s.commit()
        assert game.id is not None
        return game.id


def _reply(ctx: AppContext, game_id: int, seat: int, *lines: str) -> str:
    with ctx.session() as s:
        game = s.get_one(Game, game_id)
        engine, state = load(game)
        row, player = next((r, p) for r, p in seats_of(s, game_id) if r.seat == seat)
        status = handle_game_reply(s, ctx, game, KeyInfo(game_id, seat, engine.decision_key(state, seat)), row,
                                   player, list(lines), None)
        s.commit()
        return status


def _last_text(ctx: AppContext, seat: int) -> tuple[str, str]:
    with ctx.session() as s:
        row = s.exec(select(Outbox).where(Outbox.to_address == f"p{seat}@pbem.test")
                     .order_by(col(Outbox.id).desc())).first()
        assert row is not None
        msg = email.message_from_bytes(row.raw, policy=email.policy.default)
        body = msg.get_body(("plain",))  # type: ignore[attr-defined]
        return row.kind, str(body.get_content())


def _play_until(ctx: AppContext, game_id: int, wanted: Any, limit: int = 400) -> int:
    """Random menu moves until ``wanted(engine, state, seat)`` holds for a seat to act; that seat."""
    rng = random.Random(5)
    for _ in range(limit):
        with ctx.session() as s:
            game = s.get_one(Game, game_id)
            engine, state = load(game)
        assert game.status == "active"
        for seat in sorted(engine.to_act(state)):
            if wanted(engine, state, seat):
                return seat
        seat = sorted(engine.to_act(state))[0]
        menu = engine.menu(state, seat)
        _reply(ctx, game_id, seat, menu[rng.randrange(len(menu))].command)
    raise AssertionError("no such position reached")


@pytest.mark.parametrize("engine_id, players", [("barcadia", 2), ("tagteam", 2)])
def test_a_cut_menu_says_so_and_more_pages_through_the_rest(ctx: AppContext, engine_id: str, players: int) -> None:
    game_id = _game(ctx, engine_id, players, langs=("en",))
    seat = _play_until(ctx, game_id, lambda e, st, se: len(more_entries(e, st, se)) > 2)
    _reply(ctx, game_id, seat, "state")
    kind, text = _last_text(ctx, seat)
    with ctx.session() as s:
        engine, state = load(s.get_one(Game, game_id))
    hidden = len(more_entries(engine, state, seat))
    assert f"… and {hidden} more move" in text and "reply `more`" in text
    assert 0 < len(MENU_LINE.findall(text)) <= MENU_SHOWN

    assert _reply(ctx, game_id, seat, "more") == "applied"
    kind, page = _last_text(ctx, seat)
    assert kind == "info" and "More moves, page 2 of" in page
    entries = more_entries(engine, state, seat)
    for number, choice in entries[:20]:
        assert (f"  {number}. {choice.command} — " if number else f"  {choice.command} — ") in page
    assert "Your hand" not in page and "Reply with a number" not in page  # a page, not the board again

    assert _reply(ctx, game_id, seat, "more 999") == "rejected"
    assert "There are pages 2 to" in _last_text(ctx, seat)[1]

    # a move from the page is played as written there
    _number, choice = entries[-1]
    with ctx.session() as s:
        moves = len(s.exec(select(MoveLog)).all())
    assert _reply(ctx, game_id, seat, choice.command) == "applied"
    with ctx.session() as s:
        assert len(s.exec(select(MoveLog)).all()) == moves + 1


def test_more_in_vietnamese_and_without_a_cut_menu(ctx: AppContext) -> None:
    game_id = _game(ctx, "toy", 3, langs=("vi",))
    _reply(ctx, game_id, 0, "xem thêm")
    kind, text = _last_text(ctx, 0)
    assert kind == "rejected" and "Danh sách trong thư đã có mọi nước đi" in text


@pytest.mark.parametrize("engine_id, players", [("tac", 4), ("tagteam", 2), ("grizzled", 3), ("barcadia", 3)])
def test_the_first_mail_explains_mail_play_in_five_lines_with_real_names(
        ctx: AppContext, engine_id: str, players: int) -> None:
    game_id = _game(ctx, engine_id, players)
    for seat in range(players):
        kind, text = _last_text(ctx, seat)
        assert kind == "started"
        lang = "en" if seat % 2 == 0 else "vi"
        howto = [line for line in text.splitlines() if line.startswith(
            ("How to play by mail", "Write the number", "Quoting our mail", "Every decision has", "The rules in short")
            if lang == "en" else
            ("Cách chơi qua thư", "Viết số", "Trích dẫn thư", "Mỗi lựa chọn có hạn chót", "Luật tóm tắt"))]
        assert len(howto) == 5, text
        assert ("`rules`" if lang == "en" else "`luật`") in howto[4]
        for name in NAMES[:players]:
            assert name in howto[4]
        for made_up in ("bob", "alice", "Bob", "Alice"):
            assert made_up not in text
    assert game_id


def test_barcadia_command_examples_name_a_real_opponent(ctx: AppContext) -> None:
    game_id = _game(ctx, "barcadia", 2, langs=("en",))
    seat = _play_until(ctx, game_id, lambda e, st, se: "duel " in e.render_view(e.view(st, se), "en"))
    _reply(ctx, game_id, seat, "state")
    text = _last_text(ctx, seat)[1]
    opponent = NAMES[1 - seat]
    assert f"duel {opponent}" in text and "bob" not in text


@pytest.mark.parametrize("lang, command, first", [("en", "rules", "TAC: 4 players"), ("vi", "luật", "TAC: 4 người")])
def test_rules_command_answers_with_the_summary(ctx: AppContext, lang: str, command: str, first: str) -> None:
    game_id = _game(ctx, "tac", 4, langs=(lang,))
    assert _reply(ctx, game_id, 0, command) == "applied"
    kind, text = _last_text(ctx, 0)
    assert kind == "info"
    for line in rules_summary("tac", lang):
        assert line in text
    assert first in text
    with ctx.session() as s:
        assert s.get_one(Game, game_id).version == 0  # a question, not a move


def test_rules_for_an_engine_without_a_summary_says_so(ctx: AppContext) -> None:
    game_id = _game(ctx, "toy", 3, langs=("en",))
    _reply(ctx, game_id, 0, "rules")
    assert "This game has no rules summary yet." in _last_text(ctx, 0)[1]


@pytest.mark.parametrize("engine_id", ["tac", "tagteam", "grizzled", "barcadia"])
def test_every_engine_has_a_rules_summary_in_both_languages(engine_id: str) -> None:
    assert engine_id in engines.names(include_extra=False)
    en, vi = rules_summary(engine_id, "en"), rules_summary(engine_id, "vi")
    assert MIN_LINES <= len(en) <= MAX_LINES and len(vi) == len(en)
    untranslated = [line for line, line_vi in zip(en, vi, strict=True) if line == line_vi]
    assert untranslated == []  # every line has its Vietnamese in the catalog (context "rules summary")


def test_a_rules_summary_with_a_translation_in_the_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Translations live in the catalogs: a `vi` list (the old shape) or a `vi` field is refused on load."""
    import engines.summary as summary

    for text in ('lines = [{ en = "a" }]\nvi = ["b"]\n', 'lines = [{ en = "a", vi = "b" }]\n'):
        monkeypatch.setattr(summary, "load_toml", lambda *_a, text=text, **_k: tomllib.loads(text))
        summary._summary.cache_clear()
        with pytest.raises(summary.SummaryError, match="translations belong in engines/locale"):
            summary.rules_summary("tac", "en")
    summary._summary.cache_clear()


def _modes(ctx: AppContext, **modes: str) -> None:
    with ctx.session() as s:
        for player in s.exec(select(Player)).all():
            player.mail_mode = modes.get(player.address.split("@")[0], player.mail_mode)
        s.commit()


def test_receipt_is_short_in_turns_and_whole_in_every(ctx: AppContext) -> None:
    game_id = _game(ctx, "toy", 3, langs=("en",))
    _modes(ctx, p2="every")
    _reply(ctx, game_id, 0, "high")
    _reply(ctx, game_id, 1, "1")
    kind, text = _last_text(ctx, 1)
    assert kind == "received" and len(text.splitlines()) <= RECEIPT_MAX_LINES
    assert "Reply with a number" not in text and "done: 1" in text
    assert "Next: Lan and Thảo (deadline " in text
    _reply(ctx, game_id, 2, "1")
    kind, text = _last_text(ctx, 2)
    assert kind == "received" and "Reply with a number" in text and "Next:" not in text


def test_daily_player_gets_no_receipt_but_an_answer_to_a_refused_line(ctx: AppContext) -> None:
    game_id = _game(ctx, "toy", 3, langs=("en",))
    _modes(ctx, p0="daily", p1="daily", p2="daily")
    _reply(ctx, game_id, 0, "high")  # the leader calls: everyone's turn, no receipt needed
    _reply(ctx, game_id, 1, "1")
    kinds = [row.kind for row in ctx.session().exec(select(Outbox).where(Outbox.to_address == "p1@pbem.test"))]
    assert kinds == ["started", "turn"]
    _reply(ctx, game_id, 2, "1", "xyzzy")  # one move and a line nobody can read
    kind, text = _last_text(ctx, 2)
    assert kind == "received" and "NOT done" in text


def test_digest_hour_follows_the_players_time_zone() -> None:
    player = Player(address="x@pbem.test", name="X", tz="Asia/Ho_Chi_Minh", created_at=datetime(2026, 1, 1, tzinfo=UTC),
                    mail_mode="daily")
    before = datetime(2026, 1, 1, 10, 59, tzinfo=UTC)  # 17:59 in Hanoi
    after = datetime(2026, 1, 1, 11, 0, tzinfo=UTC)  # 18:00 in Hanoi
    player.last_digest_at = datetime(2025, 12, 31, 11, 0, tzinfo=UTC)
    assert not digest_due(player, before) and digest_due(player, after)
    player.last_digest_at = after
    assert not digest_due(player, datetime(2026, 1, 2, 10, 0, tzinfo=UTC))
    assert last_digest_time(after, "No/Such_Zone").hour == DIGEST_HOUR  # an unknown zone falls back to UTC


def test_settings_shows_the_mail_setting(ctx: AppContext) -> None:
    game_id = _game(ctx, "toy", 3, langs=("vi",))
    _reply(ctx, game_id, 1, "thư ngày")
    _reply(ctx, game_id, 1, "cài đặt")
    kind, text = _last_text(ctx, 1)
    assert kind == "info" and "Thư của bạn: `thư ngày`" in text and "Múi giờ: UTC" in text


def test_a_move_with_state_gets_the_whole_view_even_in_daily(ctx: AppContext) -> None:
    game_id = _game(ctx, "toy", 3, langs=("en",))
    _modes(ctx, p1="daily", p2="turns")
    _reply(ctx, game_id, 0, "high")
    _reply(ctx, game_id, 1, "1", "state")
    kind, text = _last_text(ctx, 1)
    assert kind == "received" and "Reply with a number" in text
    _reply(ctx, game_id, 2, "state", "1")
    kind, text = _last_text(ctx, 2)
    assert kind == "received" and "Reply with a number" in text and "Next:" not in text
