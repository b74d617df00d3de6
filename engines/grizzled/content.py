"""The Grizzled content (threats, Trial cards, Hard Knocks, characters, Support tiles) as data.

Why data: the rulebook leaves card texts and counts open (GR-3, GR-7 … GR-10), so a designer
must be able to change them without touching rule code. Every file is validated on load and a
broken file raises ``ContentError`` naming the file and the entry, so a typo never becomes a
silently different game.

A card's *face* is what players see and write: ``"rain shell trap"``, ``"phobia gas"``,
``"wounded"``, ``"christmas"``. Cards with the same face are interchangeable, so actions name
faces, not card ids.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engines.contract import Text, tr, trc
from engines.datafile import load_toml, refuse_translations, require

TRIALS_TOTAL = 59
THREAT_CARDS_TOTAL = 39
KNOCK_EFFECTS = frozenset(
    {
        "counts_as_threat",
        "weight_only",
        "no_speech",
        "clumsy_draw",
        "fragile",
        "hard_headed",
        "prideful",
        "fearful",
        "panicked",
        "absent_minded",
        "selfish",
        "frenzied",
        "demoralized",
        "tyrannical",
    }
)
SPECIAL_EFFECTS = frozenset({"remove_knock"})


class ContentError(ValueError):
    """A content file breaks a rule of the data format; the message names file and entry."""


@dataclass(frozen=True)
class Named:
    """Something with a display name in both languages and the words a player may write."""

    id: str
    name: Text
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class KnockType(Named):
    effect: str
    amount: int
    weight: int


@dataclass(frozen=True)
class TileType(Named):
    offset: int
    count: int
    base: bool
    double: bool


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    charm: str


@dataclass(frozen=True)
class Card:
    """One Trial card. ``threats`` is what the card *shows* (a Phobia/Trauma shows one threat)."""

    id: str
    kind: str  # "threat" | "hard_knock" | "special"
    threats: tuple[str, ...]
    trap: bool
    knock: str | None
    special: str | None
    face: str


@dataclass(frozen=True)
class Content:
    threats: tuple[Named, ...]
    knocks: dict[str, KnockType]
    specials: dict[str, tuple[Named, str]]  # id -> (names, effect)
    characters: tuple[Character, ...]
    tiles: dict[str, TileType]
    cards: dict[str, Card]  # by card id
    faces: dict[str, Card]  # one representative card per face
    _face_texts: dict[str, Text] = field(default_factory=dict, compare=False, repr=False)

    @property
    def threat_ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.threats)

    def threat_name(self, threat: str) -> Text:
        for t in self.threats:
            if t.id == threat:
                return t.name
        return Text.fixed(threat)  # an unknown id shows as written

    def face_order(self, face: str) -> tuple[int, str]:
        """Sort key for showing a hand: threat cards first, then Hard Knocks, then specials."""
        card = self.faces.get(face)
        if card is None:
            return (9, face)
        rank = {"threat": 0, "hard_knock": 1, "special": 2}[card.kind]
        return (rank, face)

    def face_text(self, face: str) -> Text:
        """A face for people: ``Rain + Shell (trap)``, ``Phobia (Shell)``, ``Merry Christmas``."""
        known = self._face_texts.get(face)
        if known is None:
            known = self._make_face_text(face)
            if face in self.faces:  # only real faces: planted test markers must not pile up
                self._face_texts[face] = known
        return known

    def _make_face_text(self, face: str) -> Text:
        card = self.faces.get(face)
        if card is None:
            return Text.fixed(face)  # planted markers and unknown ids show as written
        if card.kind == "threat":
            # the names joined by a sign, in the reader's language: a template no catalog translates
            threats = Text(" + ".join(f"{{t{i}}}" for i in range(len(card.threats))),
                           args={f"t{i}": self.threat_name(t) for i, t in enumerate(card.threats)})
            if card.trap:
                return tr("{threats} (trap)", threats=threats)
            return threats
        if card.kind == "hard_knock":
            assert card.knock is not None
            name = self.knocks[card.knock].name
            if card.threats:
                t = self.threat_name(card.threats[0])
                return tr("{name} ({t})", name=name, t=t)
            return name
        assert card.special is not None
        return self.specials[card.special][0].name


def _load(name: str) -> dict[str, Any]:
    return load_toml("engines.grizzled", "data", name, error=ContentError)


def _req(entry: dict[str, Any], key: str, kind: type, where: str) -> Any:
    return require(entry, key, kind, where, ContentError)


def _named(entry: dict[str, Any], where: str, context: str) -> Named:
    """An entry's id, name and aliases. The name is its English ``en`` as a catalog message
    (msgctxt ``context``, as babel.cfg extracts it); translations live in the ``.po`` files."""
    refuse_translations(entry, where, ContentError)
    aliases = _req(entry, "aliases", list, where)
    if not aliases or not all(isinstance(a, str) and a for a in aliases):
        raise ContentError(f"{where}: aliases must be a non-empty list of words")
    return Named(
        _req(entry, "id", str, where),
        trc(context, _req(entry, "en", str, where)),
        tuple(aliases),
    )


def _unique(ids: list[str], what: str) -> None:
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    if dupes:
        raise ContentError(f"{what}: duplicate id(s) {', '.join(dupes)}")


def card_face(kind: str, threats: tuple[str, ...], trap: bool, knock: str | None, special: str | None) -> str:
    """The canonical face text of a card (also the argument of play/discard actions)."""
    if kind == "threat":
        return " ".join([*threats, "trap"] if trap else threats)
    if kind == "hard_knock":
        assert knock is not None
        return " ".join([knock, *threats])
    assert special is not None
    return special


def parse_content(raw: dict[str, dict[str, Any]]) -> Content:
    """Validate raw TOML tables (by file name) into ``Content``; raise ``ContentError`` if broken."""
    threats = tuple(_named(e, f"threats.toml threat {i + 1}", "threat") for i, e in enumerate(raw["threats"].get("threat", [])))
    if len(threats) != 6:
        raise ContentError(f"threats.toml: expected 6 threats, found {len(threats)}")
    _unique([t.id for t in threats], "threats.toml")
    threat_ids = {t.id for t in threats}

    knocks: dict[str, KnockType] = {}
    for i, e in enumerate(raw["knocks"].get("knock", [])):
        where = f"knocks.toml knock {i + 1}"
        named = _named(e, where, "hard knock")
        effect = _req(e, "effect", str, where)
        if effect not in KNOCK_EFFECTS:
            raise ContentError(f"{where}: unknown effect {effect!r}; known: {', '.join(sorted(KNOCK_EFFECTS))}")
        weight = _req(e, "weight", int, where)
        if weight < 1:
            raise ContentError(f"{where}: weight must be at least 1")
        amount = e.get("amount", 1)
        if not isinstance(amount, int) or amount < 0:
            raise ContentError(f"{where}: amount must be a whole number >= 0")
        if named.id in knocks:
            raise ContentError(f"knocks.toml: duplicate id {named.id}")
        knocks[named.id] = KnockType(named.id, named.name, named.aliases, effect, amount, weight)

    specials: dict[str, tuple[Named, str]] = {}
    for i, e in enumerate(raw["cards"].get("special", [])):
        where = f"cards.toml special {i + 1}"
        named = _named(e, where, "card")
        effect = _req(e, "effect", str, where)
        if effect not in SPECIAL_EFFECTS:
            raise ContentError(f"{where}: unknown effect {effect!r}")
        specials[named.id] = (named, effect)

    characters = []
    for i, e in enumerate(raw["characters"].get("character", [])):
        where = f"characters.toml character {i + 1}"
        ch = Character(_req(e, "id", str, where), _req(e, "name", str, where), _req(e, "charm", str, where))
        if ch.charm not in threat_ids:
            raise ContentError(f"{where}: charm {ch.charm!r} is not a threat")
        characters.append(ch)
    if len(characters) != 6:
        raise ContentError(f"characters.toml: expected 6 Grizzled, found {len(characters)}")
    _unique([c.id for c in characters], "characters.toml")

    tiles: dict[str, TileType] = {}
    for i, e in enumerate(raw["tiles"].get("tile", [])):
        where = f"tiles.toml tile {i + 1}"
        named = _named(e, where, "support tile")
        tile = TileType(
            named.id,
            named.name,
            named.aliases,
            _req(e, "offset", int, where),
            _req(e, "count", int, where),
            _req(e, "base", bool, where),
            _req(e, "double", bool, where),
        )
        if tile.offset == 0:
            raise ContentError(f"{where}: a tile cannot target its giver (offset 0)")
        tiles[tile.id] = tile
    if sum(t.count for t in tiles.values()) != 16:
        raise ContentError("tiles.toml: the tile counts must total 16")
    if any(t.base and t.count < 5 for t in tiles.values()):
        raise ContentError("tiles.toml: every base tile type needs at least 5 tiles (one per player)")

    cards: dict[str, Card] = {}
    faces: dict[str, Card] = {}
    for i, e in enumerate(raw["cards"].get("card", [])):
        where = f"cards.toml card {i + 1}"
        cid = _req(e, "id", str, where)
        kind = _req(e, "kind", str, where)
        if cid in cards:
            raise ContentError(f"{where}: duplicate id {cid}")
        knock: str | None = None
        special: str | None = None
        trap = False
        if kind == "threat":
            shown = tuple(_req(e, "threats", list, where))
            if not shown or len(set(shown)) != len(shown) or not set(shown) <= threat_ids:
                raise ContentError(f"{where}: threats must be one or more different known threats, got {shown}")
            shown = tuple(t for t in (x.id for x in threats) if t in shown)
            trap = _req(e, "trap", bool, where)
        elif kind == "hard_knock":
            knock = _req(e, "knock", str, where)
            if knock not in knocks:
                raise ContentError(f"{where}: unknown hard knock {knock!r}")
            counts = knocks[knock].effect == "counts_as_threat"
            threat = e.get("threat")
            if counts != (threat is not None):
                raise ContentError(f"{where}: {knock} needs exactly one threat" if counts else f"{where}: {knock} shows no threat")
            if threat is not None and threat not in threat_ids:
                raise ContentError(f"{where}: unknown threat {threat!r}")
            shown = (threat,) if threat is not None else ()
            if "trap" in e:
                raise ContentError(f"{where}: only threat cards carry a trap")
        elif kind == "special":
            special = _req(e, "special", str, where)
            if special not in specials:
                raise ContentError(f"{where}: unknown special {special!r}")
            shown = ()
        else:
            raise ContentError(f"{where}: kind must be threat, hard_knock or special, got {kind!r}")
        face = card_face(kind, shown, trap, knock, special)
        card = Card(cid, kind, shown, trap, knock, special, face)
        if kind != "threat" and face in faces:
            raise ContentError(f"{where}: a second {face!r} card; Hard Knocks and specials must be unique")
        cards[cid] = card
        faces.setdefault(face, card)
    if len(cards) != TRIALS_TOTAL:
        raise ContentError(f"cards.toml: expected {TRIALS_TOTAL} Trial cards, found {len(cards)}")
    n_threat = sum(1 for c in cards.values() if c.kind == "threat")
    if n_threat != THREAT_CARDS_TOTAL:
        raise ContentError(f"cards.toml: expected {THREAT_CARDS_TOTAL} Threat cards, found {n_threat}")
    return Content(threats, knocks, specials, tuple(characters), tiles, cards, faces)


@cache
def content() -> Content:
    """The validated game content, loaded once."""
    raw = {name: _load(f"{name}.toml") for name in ("threats", "knocks", "cards", "characters", "tiles")}
    return parse_content(raw)
