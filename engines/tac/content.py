"""The TAC card list, loaded from ``cards.toml`` and validated on load.

Why data: deck composition and card words are content (TAC-4, FACTS.md); a typo in the
file must fail loudly at import, not produce a 99-card deck in some game months later.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engines import i18n
from engines.contract import Text, trc
from engines.datafile import refuse_translations

NUMBER_CARDS: frozenset[str] = frozenset({"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "13"})
SPECIAL_CARDS: frozenset[str] = frozenset({"trick", "tac", "angel", "devil", "warrior", "fool"})
BASE_SIZE = 100
MASTER_SIZE = 104


class CardDataError(ValueError):
    """``cards.toml`` is malformed; the message names the card and the field."""


@dataclass(frozen=True)
class Card:
    id: str
    count: int
    master: bool
    order: int
    en: str  # the name in mails: a msgid (msgctxt "card") translated by the catalogs
    words: tuple[str, ...]


def fold(text: str) -> str:
    """Lower-case and strip Vietnamese diacritics, so ``Thiên thần`` matches ``thien than``."""
    text = text.lower().replace("đ", "d")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _card(card_id: str, raw: Any) -> Card:
    if card_id not in NUMBER_CARDS | SPECIAL_CARDS:
        raise CardDataError(f"cards.toml: unknown card id {card_id!r}")
    if not isinstance(raw, dict):
        raise CardDataError(f"cards.toml: [cards.{card_id}] must be a table")
    refuse_translations(raw, f"cards.toml: card {card_id!r}", CardDataError)
    for key, kind in (("count", int), ("order", int), ("en", str)):
        if not isinstance(raw.get(key), kind):
            raise CardDataError(f"cards.toml: card {card_id!r} needs {key} ({kind.__name__})")
    words = raw.get("words", [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise CardDataError(f"cards.toml: card {card_id!r}: words must be a list of strings")
    if raw["count"] < 1:
        raise CardDataError(f"cards.toml: card {card_id!r}: count must be positive")
    return Card(card_id, raw["count"], bool(raw.get("master", False)), raw["order"], raw["en"],
                tuple(fold(w) for w in words))


def load_cards(text: str) -> dict[str, Card]:
    """Parse and validate the card table; checks the deck sizes of TAC-3/TAC-4."""
    data = tomllib.loads(text)
    table = data.get("cards")
    if not isinstance(table, dict):
        raise CardDataError("cards.toml: missing [cards] table")
    cards = {cid: _card(cid, raw) for cid, raw in table.items()}
    missing = (NUMBER_CARDS | SPECIAL_CARDS) - set(cards)
    if missing:
        raise CardDataError(f"cards.toml: cards missing: {', '.join(sorted(missing))}")
    base = sum(c.count for c in cards.values() if not c.master)
    full = sum(c.count for c in cards.values())
    if base != BASE_SIZE or full != MASTER_SIZE:
        raise CardDataError(f"cards.toml: deck sizes {base}/{full}, expected {BASE_SIZE}/{MASTER_SIZE}")
    return cards


CARDS: dict[str, Card] = load_cards(resources.files(__package__).joinpath("data", "cards.toml").read_text("utf-8"))


def deck(version: str) -> list[str]:
    """All card ids of a fresh deck, unshuffled (base: 100 cards, master: 104)."""
    out: list[str] = []
    for card in sorted(CARDS.values(), key=lambda c: c.order):
        if card.master and version != "master":
            continue
        out.extend([card.id] * card.count)
    return out


def sort_key(card_id: str) -> tuple[int, str]:
    """Hand order; tolerant of unknown strings (the leak test plants markers in hands)."""
    card = CARDS.get(card_id)
    return (card.order if card else 99, card_id)


#: the gettext context of card names (babel.cfg extracts each ``en`` of cards.toml with it)
CONTEXT = "card"


def name(card_id: str, lang: str = "en") -> str:
    card = CARDS.get(card_id)
    if card is None:
        return card_id
    return i18n.gettext(lang, card.en, CONTEXT)


def name_text(card_id: str) -> Text:
    """The card's name as a Text, translated when a mail is written."""
    card = CARDS.get(card_id)
    return trc(CONTEXT, card.en) if card is not None else Text.fixed(card_id)


def steps(card_id: str) -> int:
    """Movement value of a number card."""
    return int(card_id)


def card_words() -> dict[str, str]:
    """Words a player may write for a card, folded: the id, the ``words`` aliases and the name
    in every language served (a new catalog's card names parse with no code change)."""
    return _card_words(i18n.locale_key(), i18n.languages())


@cache
def _card_words(folder: str, langs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for card in CARDS.values():
        out[card.id] = card.id
        for word in (*i18n.translations(card.en, CONTEXT), *card.words):
            out[fold(word)] = card.id
    return out
