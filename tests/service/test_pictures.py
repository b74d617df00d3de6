"""Board pictures: one per engine, drawn from a seat's view, small, cached, carried inline."""

from __future__ import annotations

import email
import email.policy
import io
import random
from datetime import UTC, datetime

import pytest
from PIL import Image

import engines
from service.outbound import pictures
from service.outbound.pictures import picture_for
from service.outbound.render import Renderer, build_message

PLAYERS = {"tac": 4, "tagteam": 2, "grizzled": 5, "barcadia": 6}


def _views(engine_id: str, steps: int = 60, seed: int = 3) -> list[dict]:
    engine = engines.get(engine_id)
    state = engine.new_game([f"Người{i}" for i in range(PLAYERS[engine_id])], None, seed)
    rng = random.Random(seed)
    out = [engine.view(state, 0)]
    for step in range(steps):
        seats = sorted(engine.to_act(state))
        if not seats:
            break
        state, _ = engine.apply(state, seats[0], rng.choice(engine.legal_actions(state, seats[0])).action)
        if step % 10 == 9:
            out.append(engine.view(state, seats[0]))
    out.append(engine.view(state, None))
    return out


@pytest.mark.parametrize("engine_id", list(PLAYERS))
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_every_engine_draws_its_board_from_a_view(engine_id: str, lang: str) -> None:
    for view in _views(engine_id):
        picture = pictures.drawer_for(engine_id)(view, lang)  # type: ignore[misc]
        image = Image.open(io.BytesIO(picture.png))
        assert image.format == "PNG" and image.size == (picture.width, picture.height)
        assert 300 <= picture.width <= 700 and picture.height > 100
        assert len(picture.png) < 60_000, "a board picture stays small"
        assert picture.alt and len(picture.alt) < 600
        # the picture is not blank: several colours are used
        assert len(image.convert("RGB").getcolors(maxcolors=100_000) or []) > 4


def test_alt_text_summarises_the_position_in_the_players_language() -> None:
    view = _views("tac")[-2]
    assert "ring" in picture_for("tac", view, "en").alt  # type: ignore[union-attr]
    assert "vòng" in picture_for("tac", view, "vi").alt  # type: ignore[union-attr]


def test_equal_views_share_one_drawing() -> None:
    view = _views("grizzled")[0]
    first = picture_for("grizzled", view, "en")
    again = picture_for("grizzled", dict(view), "en")
    assert first is again
    assert picture_for("grizzled", view, "vi") is not first


def test_an_engine_without_a_picture_gets_none() -> None:
    assert picture_for("toy-without-picture", {}, "en") is None


def test_the_picture_travels_inline_in_the_html_part() -> None:
    picture = picture_for("tagteam", _views("tagteam")[-1], "en")
    rendered = Renderer().render("turn", "en", player="Anh", picture=picture, board="board text")
    raw = build_message(from_name="pbem", from_address="play@x.test", to="a@x.test", reply_to="play@x.test",
                        subject="s", rendered=rendered, message_id="<m@x>", date=datetime(2026, 1, 1, tzinfo=UTC))
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "multipart/alternative"
    types = [p.get_content_type() for p in msg.walk()]
    assert types == ["multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png"]
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html").get_content()
    image = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    assert f"cid:{image['Content-ID'].strip('<>')}" in html
    assert image.get_payload(decode=True) == picture.png  # type: ignore[union-attr]
    assert 'alt="Tag Team' in html
    text = next(p for p in msg.walk() if p.get_content_type() == "text/plain").get_content()
    assert "board text" in text and "cid:" not in text


def test_the_tac_picture_draws_the_last_move_from_the_view() -> None:
    """The TAC view names the marbles the last play moved (from, to); the picture draws them as
    arrows: the same position with its last move differs from one without."""
    import engines as registry

    engine = registry.get("tac")
    state = engine.new_game(["A", "B", "C", "D"], None, 3)
    rng = random.Random(1)
    view: dict = {}
    while not (view.get("last_play") or {}).get("moves"):
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).action)
        view = engine.view(state, 0)
    moves = view["last_play"]["moves"]
    assert all(len(m) == 3 and m[1] != m[2] for m in moves)
    without = {**view, "last_play": {k: v for k, v in view["last_play"].items() if k != "moves"}}
    with_arrows = pictures.drawer_for("tac")(view, "en").png  # type: ignore[misc]
    plain = pictures.drawer_for("tac")(without, "en").png  # type: ignore[misc]
    assert with_arrows != plain


def test_tagteam_board_names_the_special_track_in_the_readers_language() -> None:
    """The view keeps the track's English name; the picture words it from the catalog (context
    "track"), as the text part does — "Rage" never shows in a Vietnamese picture."""
    from service.outbound.pictures import tagteam as board

    class Recorder:  # the drawing calls of one fighter row, as text
        def __init__(self) -> None:
            self.texts: list[str] = []

        def text(self, _xy: object, text: str, **_kw: object) -> None:
            self.texts.append(text)

        def __getattr__(self, _name: str) -> object:
            return lambda *_a, **_k: None

    fighter = {"hp": 9, "max": 12, "name": "Bödvar", "power": 2, "special": 3, "special_max": 6,
               "special_name": "Rage", "track": {}, "start": 12}
    for lang, word in (("en", "Rage 3/6"), ("vi", "Cuồng Nộ 3/6")):
        d = Recorder()
        board._fighter(d, fighter, 0, lang)
        assert any(word in t for t in d.texts), (lang, d.texts)


@pytest.mark.parametrize("engine_id", list(PLAYERS))
def test_cached_text_draws_the_same_bytes_as_pillow(engine_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Labels reuse their glyph masks (``canvas.CachedTextDraw``) for speed only: every
    picture is byte for byte the one Pillow's own ``ImageDraw.text`` draws, in both languages,
    drawn twice so the second drawing comes from the cache."""
    from PIL import ImageDraw

    from service.outbound.pictures import canvas

    draw = pictures.drawer_for(engine_id)
    assert draw is not None
    for lang in ("en", "vi"):
        for view in _views(engine_id, steps=80, seed=5):
            cached = [draw(view, lang).png for _ in range(2)]
            with monkeypatch.context() as m:
                m.setattr(canvas, "CachedTextDraw", ImageDraw.Draw)
                plain = draw(view, lang).png
            assert cached[0] == cached[1] == plain
    assert canvas._text_mask.cache_info().hits > 0


def test_cached_text_falls_back_to_pillow_for_what_it_does_not_cache() -> None:
    """Several lines, a stroke or no anchor still draw exactly as Pillow draws them."""
    from PIL import ImageDraw

    from service.outbound.pictures import canvas

    def drawn(make: type) -> bytes:
        image = Image.new("RGB", (200, 80), canvas.PAPER)
        d = make(image)
        d.text((10.5, 10.25), "Hàng 1\nHàng 2", font=canvas.font(12), fill=canvas.INK)
        d.text((100, 40), "Ăn 7", font=canvas.font(14, True), fill=canvas.BLUE, stroke_width=1, stroke_fill="#FFFFFF")
        d.text((150.7, 60.3), "P3 · 12 HP", font=canvas.font(12), fill=canvas.MUTED)
        d.text((20, 60), "x", font=canvas.font(12), fill=canvas.INK, anchor="mm")
        return image.tobytes()

    assert drawn(canvas.CachedTextDraw) == drawn(ImageDraw.Draw)
