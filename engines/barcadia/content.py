"""Barcadia content (rooms, Loot, Power-Ups, characters, House Rules) loaded from TOML and validated.

Why data and not code: the published game keeps its card texts secret, so every number here is
our own design and will change; a designer edits ``data/*.toml`` and the loader tells them
precisely what is wrong instead of the engine misbehaving later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from engines.barcadia.words import effect_text, room_text
from engines.contract import Text, trc
from engines.datafile import check, load_toml, refuse_translations

DATA_DIR = Path(__file__).parent / "data"

ROOM_KINDS = ("monster", "team", "boss", "reward", "portal", "hoard")
SCOPES = frozenset({"Monster", "Team", "Boss", "Guardian", "Duel", "Trap", "All"})
TIMINGS = frozenset({"between", "turn"})
LOOT_EFFECTS = frozenset({
    "heal", "damage_player", "roll_bonus", "extra_action", "trap", "disarm_target", "swap_rooms",
    "steal_loot", "shield", "draw_loot", "clear_traps", "extra_duel", "damage_adjacent", "recall",
    "blink", "extra_teleport",
})
PERMANENT_EFFECTS = frozenset({
    "roll_bonus", "disarm_target", "damage_reduction", "start_heal", "extra_loot", "move_range",
})
HOUSE_EFFECTS = PERMANENT_EFFECTS | {"duel_damage", "trap_damage"}
DUNGEON_SIZE = 50  # HB-2
HOUSE_RULE_CARDS = 10  # HB-69: the Kickstarter box has 10 House Rule cards
LOOT_DECK_SIZE = 75  # HB-2
POWERUP_DECK_SIZE = 25  # HB-2
MIN_DISTINCT_LOOT_EFFECTS = 15
MIN_DISTINCT_POWERUP_EFFECTS = 8
# HB-6: the fewest rooms of each kind the validation demands (so HB-13's removal is possible).
MIN_ROOMS = {"monster": 10, "boss": 4, "reward": 4, "portal": 2, "hoard": 1}


class ContentError(ValueError):
    """A data file is malformed; the message names the file, the entry and the problem."""


@dataclass(frozen=True)
class Effect:
    kind: str
    scope: str = "All"
    amount: int = 0


@dataclass(frozen=True)
class Room:
    """A dungeon tile. ``level`` is 0 for rooms without a fight (Reward, Portal, Boss)."""

    id: str
    kind: str
    name: Text
    level: int = 0
    damage: int = 0
    reward: tuple[tuple[str, int], ...] = ()

    @property
    def text(self) -> Text:
        """What the room does, in words (``words.room_text``)."""
        return room_text(self.kind, self.level, self.damage, self.reward)


@dataclass(frozen=True)
class Card:
    """A Loot card, Power-Up, Signature Move or House Rule: a name, an effect and its text.

    ``text`` is generated from the effect (``words.effect_text``), never written by hand."""

    id: str
    name: Text
    effect: Effect
    text: Text
    timing: str = ""
    count: int = 1


@dataclass(frozen=True)
class Content:
    rooms: Mapping[str, Room]
    loot: Mapping[str, Card]
    powerups: Mapping[str, Card]
    characters: Mapping[str, Card]
    house_rules: Mapping[str, Card]

    def room_ids(self, kind: str) -> list[str]:
        return [r.id for r in self.rooms.values() if r.kind == kind]

    def loot_deck(self) -> list[str]:
        return [c.id for c in self.loot.values() for _ in range(c.count)]

    def powerup_deck(self) -> list[str]:
        return [c.id for c in self.powerups.values() for _ in range(c.count)]

    @cached_property
    def hoard(self) -> Room:
        return self.rooms[self.room_ids("hoard")[0]]


def _require(cond: bool, where: str, problem: str) -> None:
    check(cond, where, problem, ContentError)


def _int(entry: Mapping[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    value = entry.get(key)
    _require(isinstance(value, int) and not isinstance(value, bool), where, f"'{key}' must be an integer")
    assert isinstance(value, int)
    _require(lo <= value <= hi, where, f"'{key}' = {value} is outside {lo}..{hi}")
    return value


#: the gettext context of each deck's names (as babel.cfg extracts them from the data files)
CONTEXTS = {"room": "room", "loot": "loot", "powerup": "power-up", "character": "character",
            "house_rule": "house rule"}


def _text(entry: Mapping[str, Any], where: str, context: str) -> Text:
    """The entry's name: its English ``en`` as a catalog message; translations live in the
    ``.po`` files (msgctxt ``context``), never in the data file."""
    _require(isinstance(entry.get("en"), str) and bool(entry["en"].strip()), where, "'en' must be a non-empty string")
    refuse_translations(entry, where, ContentError)
    return trc(context, str(entry["en"]))


def _reward(entry: Mapping[str, Any], where: str) -> tuple[tuple[str, int], ...]:
    raw = entry.get("reward")
    _require(isinstance(raw, list) and bool(raw), where, "'reward' must be a non-empty list of [deck, count]")
    out = []
    assert isinstance(raw, list)
    for item in raw:
        _require(isinstance(item, list) and len(item) == 2, where, f"reward item {item!r} must be [deck, count]")
        deck, count = item
        _require(deck in ("loot", "powerup"), where, f"reward deck {deck!r} must be 'loot' or 'powerup'")
        _require(isinstance(count, int) and 1 <= count <= 5, where, f"reward count {count!r} must be 1..5")
        out.append((str(deck), int(count)))
    return tuple(out)


def _rooms(data: Mapping[str, Any], where: str) -> dict[str, Room]:
    rooms: dict[str, Room] = {}
    for kind in ROOM_KINDS:
        entries = data.get(kind, [])
        _require(isinstance(entries, list), where, f"'{kind}' must be a list")
        for i, entry in enumerate(entries):
            at = f"{where} {kind}[{i}]"
            rid = entry.get("id")
            _require(isinstance(rid, str) and rid.replace("-", "").isalnum(), at, "needs an 'id' of letters, digits, '-'")
            _require(rid not in rooms, at, f"duplicate id {rid!r}")
            name = _text(entry, at, CONTEXTS["room"])
            level = damage = 0
            reward: tuple[tuple[str, int], ...] = ()
            if kind == "monster":
                level, damage = _int(entry, "level", at, 1, 20), _int(entry, "damage", at, 0, 100)
            elif kind == "team":
                level, damage = _int(entry, "level", at, 2, 40), _int(entry, "damage", at, 0, 100)
            elif kind == "boss":
                damage = _int(entry, "damage", at, 0, 100)
            elif kind == "hoard":
                level, damage = _int(entry, "level", at, 1, 20), _int(entry, "damage", at, 0, 100)
            if kind in ("monster", "team", "boss", "reward"):
                reward = _reward(entry, at)
            rooms[rid] = Room(rid, kind, name, level, damage, reward)
    _require(len(rooms) == DUNGEON_SIZE, where, f"needs {DUNGEON_SIZE} rooms, has {len(rooms)}")
    _require(sum(1 for r in rooms.values() if r.kind == "hoard") == 1, where, "needs exactly one Drink Hoard (HB-4)")
    for kind, least in MIN_ROOMS.items():
        have = sum(1 for r in rooms.values() if r.kind == kind)
        _require(have >= least, where, f"needs at least {least} {kind} rooms, has {have}")
    return rooms


def _effect(entry: Mapping[str, Any], at: str, allowed: frozenset[str]) -> Effect:
    kind = entry.get("effect")
    _require(kind in allowed, at, f"unknown effect {kind!r}; known: {', '.join(sorted(allowed))}")
    scope = entry.get("scope", "All")
    _require(scope in SCOPES, at, f"unknown scope {scope!r}; known: {', '.join(sorted(SCOPES))}")
    amount = _int(entry, "amount", at, 1, 100) if "amount" in entry else 0
    needs_amount = {"heal", "damage_player", "roll_bonus", "extra_action", "disarm_target", "shield",
                    "draw_loot", "damage_adjacent", "damage_reduction", "start_heal", "extra_loot",
                    "move_range", "duel_damage", "trap_damage"}
    _require(kind not in needs_amount or amount > 0, at, f"effect {kind!r} needs an 'amount'")
    return Effect(str(kind), str(scope), amount)


def _cards(data: Mapping[str, Any], table: str, where: str, allowed: frozenset[str], timed: bool,
           deck: str) -> dict[str, Card]:
    entries = data.get(table)
    _require(isinstance(entries, list) and bool(entries), where, f"needs a non-empty '{table}' list")
    cards: dict[str, Card] = {}
    assert isinstance(entries, list)
    for i, entry in enumerate(entries):
        at = f"{where} {table}[{i}]"
        cid = entry.get("id")
        _require(isinstance(cid, str) and cid.replace("-", "").isalpha() and cid == cid.lower(), at,
                 "needs an 'id' of lower-case letters and '-'")
        _require(cid not in cards, at, f"duplicate id {cid!r}")
        timing = ""
        if timed:
            timing = str(entry.get("timing"))
            _require(timing in TIMINGS, at, f"'timing' must be one of {', '.join(sorted(TIMINGS))}")
        count = _int(entry, "count", at, 1, 30) if "count" in entry else 1
        _require("text_en" not in entry, at,
                 "card texts are generated from the effect (engines/barcadia/words.py); remove text_en")
        effect = _effect(entry, at, allowed)
        cards[cid] = Card(cid, _text(entry, at, CONTEXTS[deck]), effect, effect_text(deck, effect.kind, effect.scope, effect.amount),
                          timing, count)
    return cards


def _load(name: str) -> dict[str, Any]:
    return load_toml("engines.barcadia", "data", name, error=ContentError)


def parse_content(rooms: Mapping[str, Any], loot: Mapping[str, Any], powerups: Mapping[str, Any],
                  modules: Mapping[str, Any]) -> Content:
    """Validate raw TOML tables into ``Content``; raises ``ContentError`` naming the culprit."""
    loot_cards = _cards(loot, "loot", "loot.toml", LOOT_EFFECTS, timed=True, deck="loot")
    deck = sum(c.count for c in loot_cards.values())
    _require(deck == LOOT_DECK_SIZE, "loot.toml", f"counts must add up to {LOOT_DECK_SIZE} cards, they add up to {deck}")
    distinct = {(c.effect.kind, c.effect.scope) for c in loot_cards.values()}
    _require(len(distinct) >= MIN_DISTINCT_LOOT_EFFECTS, "loot.toml",
             f"needs at least {MIN_DISTINCT_LOOT_EFFECTS} distinct effects, has {len(distinct)}")
    pu_cards = _cards(powerups, "powerup", "powerups.toml", PERMANENT_EFFECTS, timed=False, deck="powerup")
    deck = sum(c.count for c in pu_cards.values())
    _require(deck == POWERUP_DECK_SIZE, "powerups.toml",
             f"counts must add up to {POWERUP_DECK_SIZE} cards, they add up to {deck}")
    distinct = {(c.effect.kind, c.effect.scope) for c in pu_cards.values()}
    _require(len(distinct) >= MIN_DISTINCT_POWERUP_EFFECTS, "powerups.toml",
             f"needs at least {MIN_DISTINCT_POWERUP_EFFECTS} distinct effects, has {len(distinct)}")
    characters = _cards(modules, "character", "modules.toml", PERMANENT_EFFECTS, timed=False, deck="character")
    _require(len(characters) == 6, "modules.toml", "needs the 6 characters (HB-68)")
    house = _cards(modules, "house_rule", "modules.toml", HOUSE_EFFECTS, timed=False, deck="house_rule")
    _require(len(house) == HOUSE_RULE_CARDS, "modules.toml",
             f"needs the {HOUSE_RULE_CARDS} House Rule cards of the Kickstarter box (HB-69), has {len(house)}")
    names = set(loot_cards) & set(pu_cards)
    _require(not names, "loot.toml/powerups.toml", f"ids used twice: {', '.join(sorted(names))}")
    return Content(_rooms(rooms, "rooms.toml"), loot_cards, pu_cards, characters, house)


@cache
def content() -> Content:
    """The game's content, loaded once per process."""
    return parse_content(_load("rooms.toml"), _load("loot.toml"), _load("powerups.toml"), _load("modules.toml"))
