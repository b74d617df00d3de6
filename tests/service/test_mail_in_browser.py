"""Turn mails as a person sees them: every engine, both languages, rendered by headless
Chromium at phone (390 px) and desktop (1,280 px) width, light and dark.

The mails come from the real path (``notify.mail_to_seat`` → the outbox row's raw MIME); the
HTML part is opened with its inline picture (``cid:`` rewritten to the image file the MIME part
carries). Asserted: no horizontal scroll, the picture is loaded and visible, every menu line is
on screen, no element runs past the right edge, and dark mode really darkens the page.
Chromium is Debian's package driven by Playwright from PyPI (Playwright's own browser download
is not reachable here); the test is skipped without it unless ``PBEM_REQUIRE_CHROMIUM=1`` (CI).
"""

from __future__ import annotations

import email
import email.policy
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

import engines
from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.outbound.notify import Results, mail_to_seat
from service.play.start import create_game
from service.store.games import create_player, seats_of
from service.store.models import Outbox

ENGINE_PLAYERS = {"tac": 4, "tagteam": 2, "grizzled": 4, "barcadia": 4}
NAMES = ["Anh", "Bình", "Chi", "Dũng"]
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
SHOTS = os.environ.get("PBEM_SCREENSHOTS", "")


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        path = None
    if path is None:
        if os.environ.get("PBEM_REQUIRE_CHROMIUM", "") not in ("", "0"):
            pytest.fail("PBEM_REQUIRE_CHROMIUM=1 but chromium or playwright is missing")
        pytest.skip("chromium (Debian) or playwright (PyPI) not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()


def _mid_game(engine_id: str, seed: int = 5) -> tuple[Any, Any, int]:
    """A position some moves into a seeded random game, and a seat that must act in it."""
    engine = engines.get(engine_id)
    state = engine.new_game(NAMES[: ENGINE_PLAYERS[engine_id]], None, seed)
    rng = random.Random(seed)
    steps = {"tac": 120, "tagteam": 6, "grizzled": 10, "barcadia": 40}[engine_id]
    for _ in range(steps):
        seats = sorted(engine.to_act(state))
        if not seats or engine.outcome(state) is not None:
            break
        seat = seats[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).action)
    seats = sorted(engine.to_act(state)) or [0]
    return engine, state, seats[0]


def _turn_mail(engine_id: str, lang: str, settings: Settings, db: Engine) -> bytes:
    ctx = AppContext(settings=settings, db=db, clock=ManualClock())
    engine, state, seat = _mid_game(engine_id)
    count = ENGINE_PLAYERS[engine_id]
    with ctx.session() as s:
        addresses = [create_player(s, f"p{i}.{engine_id}.{lang}@x.test", NAMES[i], lang, ctx=ctx).address
                     for i in range(count)]
        game = create_game(s, engine_id, addresses, seed=5, ctx=ctx)
        assert game.id is not None
        results = Results()
        results.not_understood.append({"text": "a long line with a-very-long-unbroken-word-" + "x" * 80,
                                       "why": "not a command" if lang == "en" else "không phải lệnh"})
        row, player = seats_of(s, game.id)[seat]
        mail_to_seat(s, ctx, game, engine, state, row, player, "turn", names=NAMES[:count], results=results)
        s.flush()
        raw: bytes = s.exec(select(Outbox.raw).where(Outbox.to_address == player.address, Outbox.kind == "turn")).one()
        return raw


def _open(raw: bytes, folder: Path) -> tuple[Path, int]:
    """Write the HTML part with its picture beside it; returns the page and the picture size."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    html = ""
    size = 0
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            html = str(part.get_content())
        elif part.get_content_type() == "image/png":
            cid = str(part["Content-ID"]).strip("<>")
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes)
            size = len(data)
            (folder / "board.png").write_bytes(data)
            html = html.replace(f"cid:{cid}", "board.png")
    page = folder / "mail.html"
    page.write_text(html, encoding="utf-8")
    return page, size


CHECKS = """() => {
  const vw = window.innerWidth;
  const doc = document.documentElement;
  const img = document.querySelector('img.pb-board');
  const r = img ? img.getBoundingClientRect() : null;
  const items = [...document.querySelectorAll('li.pb-item')];
  const off = [...document.querySelectorAll('body *')].filter(e => {
      const b = e.getBoundingClientRect(); return b.width > 0 && (b.right > vw + 1 || b.left < -1); })
    .map(e => e.tagName + ':' + (e.textContent || '').slice(0, 40));
  const bg = getComputedStyle(document.querySelector('.pb-card')).backgroundColor;
  const fg = getComputedStyle(document.querySelector('.pb-card')).color;
  return {scroll: doc.scrollWidth, vw,
          img: img ? {complete: img.complete, natural: img.naturalWidth, w: r.width, left: r.left, right: r.right} : null,
          items: items.length, itemsOff: items.filter(li => { const b = li.getBoundingClientRect();
              return b.right > vw + 1 || b.left < 0 || b.width < 50; }).length,
          off, bg, fg};
}"""


def _luma(css: str) -> float:
    r, g, b = (int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("engine_id", list(ENGINE_PLAYERS))
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_turn_mail_reads_on_a_phone_and_a_desktop_light_and_dark(
        engine_id: str, lang: str, browser: Any, settings: Settings, db: Engine, tmp_path: Path) -> None:
    raw = _turn_mail(engine_id, lang, settings, db)
    page_file, picture_bytes = _open(raw, tmp_path)
    assert picture_bytes > 0, "the turn mail carries its board picture"
    assert len(raw) < 120_000, f"a turn mail stays small ({len(raw)} bytes)"
    for width_name, (width, height) in WIDTHS.items():
        for scheme in ("light", "dark"):
            page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
            page.goto(page_file.as_uri())
            page.wait_for_load_state("load")
            found = page.evaluate(CHECKS)
            where = f"{engine_id}/{lang}/{width_name}/{scheme}"
            assert found["scroll"] <= found["vw"], f"{where}: horizontal scroll {found}"
            assert found["img"] and found["img"]["complete"] and found["img"]["natural"] > 0, f"{where}: picture"
            assert found["img"]["w"] > 200 and found["img"]["right"] <= found["vw"] + 1, f"{where}: picture on screen"
            assert found["items"] > 0 and found["itemsOff"] == 0, f"{where}: menu lines on screen {found}"
            assert found["off"] == [], f"{where}: clipped {found['off'][:5]}"
            if scheme == "dark":
                assert _luma(found["bg"]) < 60 and _luma(found["fg"]) > 180, f"{where}: dark mode {found}"
            else:
                assert _luma(found["bg"]) > 200 and _luma(found["fg"]) < 80, f"{where}: light mode {found}"
            if SHOTS:
                page.screenshot(path=str(Path(SHOTS) / f"{engine_id}-{lang}-{width_name}-{scheme}.png"), full_page=True)
            page.close()
