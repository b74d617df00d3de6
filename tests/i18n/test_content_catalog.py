"""Content names come from the catalogs (issue 15): every card, room, threat… name of TAC,
Barcadia and The Grizzled is extracted into ``pbem.pot`` by the Babel content extractor, and the
Vietnamese catalog translates each one; a content entry without a translation fails here."""

from __future__ import annotations

import configparser
import io
import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po

from engines import content_messages
from engines.barcadia.content import content as barcadia_content
from engines.contract import Text
from engines.grizzled.content import content as grizzled_content
from engines.tac.content import CARDS, name_text

ROOT = Path(__file__).resolve().parents[2]


def _catalog(lang: str) -> Catalog:
    with (ROOT / "engines" / "locale" / lang / "LC_MESSAGES" / "pbem.po").open("rb") as handle:
        return read_po(handle)


def _configured() -> list[tuple[str, str]]:
    """Every ``(context, English name)`` the ``babel.cfg`` content sections extract."""
    cfg = configparser.RawConfigParser()
    cfg.read(ROOT / "babel.cfg")
    out: list[tuple[str, str]] = []
    for section in cfg.sections():
        method, _, pattern = section.partition(":")
        if method.strip() != "content":
            continue
        for path in sorted(ROOT.glob(pattern.strip())):  # a pattern may name several files
            data = tomllib.loads(path.read_text("utf-8"))
            out += content_messages.names(data, *content_messages.contexts(dict(cfg.items(section))))
    return out


def _loaded_names() -> list[Text]:
    """The name of every content entry the three engines load."""
    b, g = barcadia_content(), grizzled_content()
    names = [name_text(cid) for cid in CARDS]
    names += [r.name for r in b.rooms.values()]
    names += [c.name for deck in (b.loot, b.powerups, b.characters, b.house_rules) for c in deck.values()]
    names += [t.name for t in g.threats] + [k.name for k in g.knocks.values()] + [t.name for t in g.tiles.values()]
    names += [n.name for n, _ in g.specials.values()]
    return names


def untranslated(names: Iterable[tuple[str | None, str]], catalog: Catalog) -> list[tuple[str | None, str]]:
    """The names ``catalog`` does not translate (missing, empty or fuzzy)."""
    out = []
    for context, msgid in names:
        message = catalog.get(msgid, context=context)
        if message is None or not message.string or message.fuzzy:
            out.append((context, msgid))
    return out


def test_the_extractor_reads_every_name_with_its_kind() -> None:
    toml = b'[[monster]]\nid = "goblin"\nen = "Goblin"\nlevel = 3\n[[house_rule]]\nid = "x"\nen = "Brawl Night"\n'
    found = list(extract("engines.content_messages:extract", io.BytesIO(toml), {"pgettext": ((1, "c"), 2)},
                         options={"context": "room", "contexts": "house_rule:house rule"}))
    assert [(m[3], m[1]) for m in found] == [("room", "Goblin"), ("house rule", "Brawl Night")]


def test_every_content_name_is_extracted_into_the_template() -> None:
    with (ROOT / "engines" / "locale" / "pbem.pot").open("rb") as handle:
        pot = {(m.context, m.id) for m in read_po(handle) if m.id}
    configured = set(_configured())
    loaded = {(t.context, t.msgid) for t in _loaded_names()}
    assert len(loaded) > 100
    assert loaded <= configured, sorted(loaded - configured)[:5]  # the engines ask for what babel.cfg extracts
    assert configured <= pot, sorted(configured - pot)[:5]


def test_every_content_name_has_a_vietnamese_translation() -> None:
    vi = _catalog("vi")
    assert untranslated([(t.context, t.msgid) for t in _loaded_names()], vi) == []
    assert untranslated(_configured(), vi) == []
    goblin = barcadia_content().rooms["goblin"].name
    assert (goblin.get("en"), goblin.get("vi")) == ("Goblin", "Yêu Tinh")


def test_a_name_without_a_translation_is_reported() -> None:
    vi = _catalog("vi")
    vi.delete("Goblin", context="room")
    vi.get("Rain", context="threat").string = ""
    assert untranslated([("room", "Goblin"), ("threat", "Rain"), ("card", "Angel")], vi) == [
        ("room", "Goblin"), ("threat", "Rain")]


def test_loaders_refuse_a_translation_in_a_data_file() -> None:
    """A ``vi`` (or ``name_vi``) field would be a second, unchecked copy of a catalog entry."""
    from engines.barcadia.content import LOOT_EFFECTS, ContentError, _cards
    from engines.grizzled.content import ContentError as GrizzledError
    from engines.grizzled.content import _named
    from engines.tac.content import CardDataError, _card

    loot = {"id": "x", "en": "X", "vi": "Ếch", "timing": "turn", "effect": "heal", "amount": 5}
    with pytest.raises(ContentError, match="translations belong"):
        _cards({"loot": [loot]}, "loot", "loot.toml", LOOT_EFFECTS, timed=True, deck="loot")
    with pytest.raises(GrizzledError, match="name_vi"):
        _named({"id": "rain", "en": "Rain", "name_vi": "Mưa", "aliases": ["rain"]}, "threats.toml threat 1", "threat")
    with pytest.raises(CardDataError, match="translations belong"):
        _card("1", {"count": 9, "order": 1, "en": "1", "vi": "1"})
    assert _card("1", {"count": 9, "order": 1, "en": "1"}).en == "1"
