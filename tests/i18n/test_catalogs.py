"""The catalog checks of the quick suite (issue 15): the Vietnamese catalog is complete and
fresh, its translations keep their fields, and no Vietnamese mail of a whole game reads English."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engines import i18n
from engines.contract import Text, tr
from service.outbound.render import Renderer
from tests.i18n.mails import GAMES, english_pieces, game_mails, looks_english

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "engines" / "locale"


def _catalog(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "pbem.po").open("rb") as handle:
        return read_po(handle)


def _codemod():
    spec = importlib.util.spec_from_file_location("i18n_codemod", ROOT / "tools" / "i18n_codemod.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_codemod"] = module
    spec.loader.exec_module(module)
    return module


def test_vietnamese_catalog_is_fully_translated() -> None:
    catalog = _catalog("vi")
    empty = [m.id for m in catalog if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string)))]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not empty, f"{len(empty)} untranslated, e.g. {empty[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"
    assert len(catalog) > 400


def test_catalogs_hold_every_msgid_of_a_fresh_extraction(tmp_path: Path) -> None:
    """Extraction freshness: the code and templates as they are now need no msgid the
    catalogs lack (run ``tools/i18n_codemod.py`` or ``pybabel extract/update`` when this fails)."""
    copy = tmp_path / "tree"
    for part in ("engines", "service", "mail_templates"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "babel.cfg", copy / "babel.cfg")
    _codemod().refresh_catalogs(copy)
    with (copy / "engines" / "locale" / "pbem.pot").open("rb") as handle:
        fresh = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(handle) if m.id}
    for lang in ("en", "vi"):
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _catalog(lang) if m.id}
        missing = sorted(map(str, fresh - have))
        assert not missing, f"{lang}.po lacks {len(missing)} msgids, e.g. {missing[:5]}"


def test_translations_use_only_the_fields_of_their_msgid() -> None:
    """A translation may leave a field out (an English-only detail) but never invent one: an
    unknown field would make the sentence fall back to English."""
    bad = [m.id for m in _catalog("vi") if m.id and isinstance(m.id, str) and m.string
           and not i18n.placeholders(m.string) <= i18n.placeholders(m.id)]
    assert not bad, bad[:5]


def test_english_heuristic_flags_sentences_not_vietnamese_with_names() -> None:
    assert looks_english("Your reply holds more than one move for the same decision.")
    assert looks_english("  - Ann plays Trample: attack both opponents, then lose 1 Power.") is False  # 2 words
    assert looks_english("The Trials pile is empty: nothing is drawn and the game goes on.")
    assert not looks_english("  - Vòng 1: Ann lật Wong Fei-Hung «...The harder they fall», Bao lật «Badge of the Marshal».")
    assert not looks_english("Viết `add 2 top` hoặc \"play the card\" để đi.")
    assert not looks_english("Chào Ann, một ván TAC bắt đầu: Ann, Bao, Chi, Dung.")


@pytest.mark.parametrize(("engine_id", "players", "seed"), GAMES)
def test_no_english_in_a_vietnamese_game(engine_id: str, players: int, seed: int) -> None:
    """Every Vietnamese mail of a whole bot-played game: no line reads as English, and no fixed
    English piece of a translated message shows up untranslated."""
    pieces = english_pieces(_catalog("vi"))
    renderer = Renderer()
    offending: list[str] = []
    count = 0
    for mail in game_mails(engine_id, players, seed, "vi", renderer):
        count += 1
        for line in (mail.subject + "\n" + mail.text).splitlines():
            if looks_english(line) or any(piece in line for piece in pieces):
                offending.append(f"{mail.purpose}/{mail.seat}: {line.strip()}")
    assert count > players * 3
    assert not offending, "\n".join(sorted(set(offending))[:20])


def test_a_text_is_translated_when_read_and_keeps_its_json() -> None:
    text = tr("{a} and {b} have all eight marbles home and win!", a="Ann", b="Chi")
    assert text.get("en") == "Ann and Chi have all eight marbles home and win!"
    assert text.get("vi") == "Ann và Chi đã đưa cả tám bi về nhà và chiến thắng!"
    assert Text.from_json(text.to_json()) == text
    nested = tr("{p} is skipped: discard a card (or answer with a TAC).", p=tr("the Starting Point"))
    assert Text.from_json(nested.to_json()).get("vi").startswith("Điểm Xuất Phát")
    stored = tr("Game over: {reason}.", reason=tr("{names} knocked out", names="Ching Shih").to_json())
    assert stored.get("vi") == "Hết trận: Ching Shih bị hạ gục."  # an argument kept as a state's JSON
    old = Text.from_json({"en": "Bob wins", "vi": "Bob thắng"})  # stored before the catalogs
    assert (old.get("en"), old.get("vi"), old.get("fr")) == ("Bob wins", "Bob thắng", "Bob wins")


def test_a_broken_translation_falls_back_to_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "locale" / "vi" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    folder.joinpath("pbem.po").write_text('msgid "{n} cards"\nmsgstr "{m} lá"\n', encoding="utf-8")
    monkeypatch.setenv(i18n.LOCALE_ENV, str(tmp_path / "locale"))
    i18n.reload()
    try:
        assert tr("{n} cards", n=3).get("vi") == "3 cards"
    finally:
        monkeypatch.delenv(i18n.LOCALE_ENV)
        i18n.reload()
