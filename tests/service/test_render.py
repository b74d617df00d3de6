"""Mails are built from a seat's view only: no secret of another seat can reach them."""

from __future__ import annotations

import email
import email.policy
from typing import Any

import jinja2.ext
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

import engines
from engines import i18n
from engines.contract import Event, tr
from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.outbound.notify import mail_to_seat
from service.outbound.render import MARKER, PURPOSES, Renderer, format_deadline, thread_root
from service.play.start import create_game
from service.store.games import create_player, load, log_move, seats_of
from service.store.models import Game, Outbox

ENGINE_IDS = ["toy", *engines.names(include_extra=False)]


def _ctx(settings: Settings, db: Engine) -> AppContext:
    return AppContext(settings=settings, db=db, clock=ManualClock())


def _text(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return "\n".join(str(part.get_content()) for part in msg.walk() if part.get_content_maintype() == "text")


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_rendered_mails_carry_no_marker_of_another_seat(engine_id: str, settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    engine = engines.get(engine_id)
    count = max(engine.min_players, min(4, engine.max_players))
    with ctx.session() as s:
        addresses = [create_player(s, f"p{i}@x.test", f"P{i}", ctx=ctx).address for i in range(count)]
        game = create_game(s, engine_id, addresses, seed=11, ctx=ctx)
        assert game.id is not None
        _, state = load(game)
        # a private event for seat 1 only, carrying its own marker
        log_move(s, ctx, game, 1, "x", None, [Event(tr("SECRETEVENT1Z"), frozenset({1}))], 0)
        planted, markers = engine.plant_markers(state)
        for seat_row, player in seats_of(s, game.id):
            for purpose in ("turn", "over", "info"):
                mail_to_seat(s, ctx, game, engine, state, seat_row, player, purpose,
                             names=[f"P{i}" for i in range(count)], view_state=planted, extra={"title": "t"})
        s.flush()
        rows = s.exec(select(Outbox).where(Outbox.game_id == game.id, Outbox.kind != "started")).all()
        by_seat: dict[str, list[str]] = {}
        for row in rows:
            by_seat.setdefault(row.to_address, []).append(_text(row.raw))
        for seat in range(count):
            text = "\n".join(by_seat[f"p{seat}@x.test"])
            for owner, owned in markers.items():
                if owner == seat:
                    continue
                leaked = [m for m in owned if m in text]
                assert not leaked, f"seat {seat}'s mail shows {owner}'s secrets {leaked[:3]}"
            assert ("SECRETEVENT1Z" in text) == (seat == 1)
            for name in addresses:  # players are named, never addressed
                assert name not in text


def test_every_purpose_renders_in_both_languages() -> None:
    renderer = Renderer()
    values: dict[str, Any] = {"player": "An", "players": ["An", "Bình"], "game": {"id": 1, "title": "TAC"},
                              "to_act": True, "waiting": 2, "outcome": "An thắng", "final_board": True,
                              "why": "", "title": "Info", "host": "An", "game_title": "TAC"}
    for lang in ("en", "vi"):
        for purpose in PURPOSES:
            out = renderer.render(purpose, lang, **values)
            assert out.subject and MARKER in out.text and MARKER in out.html
            assert "<html" in out.html and "{{" not in out.text


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_gettext_callables_render_every_purpose_as_jinja2s_own(lang: str) -> None:
    """``render.gettext_callables`` replace jinja2's newstyle callables: every purpose, with
    names that need escaping and counts that pick plural forms, renders to the same subject,
    text and HTML with jinja2's own (reinstalled on a second renderer)."""
    ours, reference = Renderer(), Renderer()
    for env in reference._environments(lang):
        env.install_gettext_callables(  # type: ignore[attr-defined]
            gettext=lambda msgid: i18n.gettext(lang, msgid),
            ngettext=lambda one, many, n: i18n.ngettext(lang, one, many, n),
            pgettext=lambda context, msgid: i18n.gettext(lang, msgid, context),
            npgettext=lambda context, one, many, n: i18n.ngettext(lang, one, many, n, context), newstyle=True)
        env.globals["_"] = jinja2.ext._gettext_alias
    assert ours._environments(lang)[1].globals["_"] is not jinja2.ext._gettext_alias
    for waiting in (0, 1, 2):
        values: dict[str, Any] = {
            "player": "<b>An & 50%</b>", "players": ["An", "Bình <x>"], "game": {"id": 7, "title": "T&C"},
            "to_act": waiting == 0, "waiting": waiting, "outcome": "An thắng <3", "final_board": waiting == 2,
            "why": "a < b", "title": "Info %s", "host": "Hà & co", "game_title": "TAC",
            "digest": ["x < y", "50 %"], "menu": [{"n": 1, "command": "7 a4", "label": "split <&>"}],
            "menu_more": "… 3 more", "deadline": "2026-01-04 13:00 (UTC)", "short": waiting == 1,
            "next": "Next: Bình."}
        for purpose in PURPOSES:
            assert ours.render(purpose, lang, **values) == reference.render(purpose, lang, **values), purpose


def test_menu_lines_have_the_documented_shape() -> None:
    out = Renderer().render("turn", "en", player="An", menu=[{"n": 1, "command": "7 a4 c3", "label": "split"}])
    assert "  1. 7 a4 c3 — split" in out.text.splitlines()


def test_deadline_is_shown_in_the_players_time_zone() -> None:
    when = ManualClock().now()  # 2026-01-01 12:00 UTC
    assert format_deadline(when, "Asia/Ho_Chi_Minh", "vi") == "2026-01-01 19:00 (Asia/Ho_Chi_Minh)"
    assert format_deadline(when, "Nowhere/Else", "en") == "2026-01-01 12:00 (UTC)"


def test_game_mails_thread_under_one_root_per_seat(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        a = create_player(s, "a@x.test", "A", ctx=ctx).address
        b = create_player(s, "b@x.test", "B", ctx=ctx).address
        game = create_game(s, "toy", [a, b], seed=1, ctx=ctx)
        s.commit()
        rows = s.exec(select(Outbox).where(Outbox.game_id == game.id)).all()
    assert {r.message_id for r in rows} == {thread_root(ctx.key_secret, game.id, 0, "pbem.test"),
                                            thread_root(ctx.key_secret, game.id, 1, "pbem.test")}
    with ctx.session() as s:
        assert s.get_one(Game, game.id).status == "active"
