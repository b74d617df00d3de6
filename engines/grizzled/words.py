"""The Grizzled in words: what every Hard Knock, Trial card, Grizzled, Speech, Support tile and
game option does, in English and Vietnamese, built from the content data.

Why generated: a Hard Knock's behaviour is its ``effect`` (a fixed vocabulary that
``rules.py`` implements) with its ``amount`` and ``weight``; a threat card is its threats and
Trap flag; a Support tile is its ``offset``; a Grizzled is its lucky charm. Writing the sentence
from those fields means a designer who changes ``amount = 2`` to ``3`` in ``knocks.toml`` changes
the mail too, and a card never has a hand-written text to keep in step with its data.

Who "you" is (``Holder``): a Hard Knock in play speaks to its holder as "you" and about its
holder by name to everyone else ("An's Fragile: while An is in the mission …"); a card in a
hand speaks to the hand's owner, who is the one it will hit.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.contract import Text, tr
from engines.grizzled.content import Card, Character, Content, KnockType, TileType, content
from engines.grizzled.rules import FAILURE_COUNT, KNOCK_LIMIT


@dataclass(frozen=True)
class Holder:
    """Whom a sentence is about: ``name`` "" is the reader ("you")."""

    name: str = ""

    @property
    def you(self) -> bool:
        return not self.name


YOU = Holder()


def _pick(h: Holder, you: Text, other: Text) -> Text:
    """The sentence said to the holder ("you") or about them (by name) to everyone else."""
    return you if h.you else other


# ---------------------------------------------------------------------------
# Hard Knocks


def knock_effect(kt: KnockType, h: Holder = YOU, threat: str | None = None) -> Text:
    """What a Hard Knock of type ``kt`` does, said to (``YOU``) or about its holder.

    ``threat`` names the threat a Trauma or Phobia card shows; without it the sentence says
    "its threat" (the type in general)."""
    c = content()
    x, n = h.name, kt.amount
    e = kt.effect
    if e == "counts_as_threat":
        t = c.threat_name(threat) if threat else tr("its threat")
        return _pick(h, tr("counts as one {t} threat while you are in the mission", t=t), tr("counts as one {t} threat while {x} is in the mission", t=t, x=x))
    if e == "weight_only":
        return tr("weighs as {weight} Hard Knocks (Hard Knocks weighing {KNOCK_LIMIT} lose the game)", weight=kt.weight, KNOCK_LIMIT=KNOCK_LIMIT)
    if e == "no_speech":
        return _pick(h, tr("you cannot give a speech"), tr("{x} cannot give a speech", x=x))
    if e == "clumsy_draw":
        return _pick(h, tr("when you withdraw holding cards, you must play the top Trial card (its Trap does not trigger)"), tr("when {x} withdraws holding cards, {x} must play the top Trial card (its Trap does not trigger)", x=x))
    if e == "fragile":
        return _pick(h, tr("while you are in the mission, nobody else holding cards may withdraw"), tr("while {x} is in the mission, nobody else holding cards may withdraw", x=x))
    if e == "hard_headed":
        return _pick(h, tr("you cannot withdraw while holding {n} or more cards", n=n), tr("{x} cannot withdraw while holding {n} or more cards", x=x, n=n))
    if e == "prideful":
        return _pick(h, tr("you may withdraw only with an empty hand or as the last one in the mission"), tr("{x} may withdraw only with an empty hand or as the last one in the mission", x=x))
    if e == "fearful":
        return _pick(h, tr("while you hold cards, you must withdraw on your turn once any threat counts {n} or more", n=n), tr("while {x} holds cards, {x} must withdraw on their turn once any threat counts {n} or more", x=x, n=n))
    if e == "panicked":
        return _pick(h, tr("if you withdraw holding cards, your Support tile is picked at random"), tr("if {x} withdraws holding cards, {x}'s Support tile is picked at random", x=x))
    if e == "absent_minded":
        return _pick(h, tr("before you withdraw holding cards, you remove one of your Support tiles from the game"), tr("before {x} withdraws holding cards, {x} removes one of their Support tiles from the game", x=x))
    if e == "selfish":
        return _pick(h, tr("the Support tile you place while holding cards supports yourself"), tr("the Support tile {x} places while holding cards supports {x}", x=x))
    if e == "frenzied":
        return _pick(h, tr("you get {n} extra Trial cards after each deal", n=n), tr("{x} gets {n} extra Trial cards after each deal", x=x, n=n))
    if e == "demoralized":
        return tr("each Morale Drop moves {n} extra card(s) from the Morale Reserve to the Trials pile", n=n)
    if e == "tyrannical":
        return _pick(h, tr("you take the Mission Leader token and keep it"), tr("{x} takes the Mission Leader token and keeps it", x=x))
    raise KeyError(f"no words for the Hard Knock effect {e!r}")


def knock_title(kt: KnockType, h: Holder = YOU, threat: str | None = None) -> Text:
    """``Your Fragile`` / ``An's Fragile`` / ``Phobia (Gas Mask)``: the name the help line starts with."""
    name = kt.name
    if threat:
        t = content().threat_name(threat)
        name = tr("{name} ({t})", name=name, t=t)
    if h.you:
        return tr("Your {name}", name=name)
    return tr("{name}'s {name2}", name=h.name, name2=name)


def knock_line(kt: KnockType, h: Holder = YOU, threat: str | None = None) -> Text:
    """One help line for a Hard Knock in play: title, effect and what it weighs."""
    title, what = knock_title(kt, h, threat), knock_effect(kt, h, threat)
    return tr("{title}: {what}.", title=title, what=what)


# ---------------------------------------------------------------------------
# Trial cards


def special_effect(effect: str) -> Text:
    if effect == "remove_knock":
        return tr("when played, you remove one Hard Knock of any player (yourself included); with no Hard Knock in play it does nothing")
    raise KeyError(f"no words for the special effect {effect!r}")


def card_effect(card: Card) -> Text:
    """What playing ``card`` does, said to the player holding it."""
    c = content()
    if card.kind == "threat":
        threats = c.threat_name(card.threats[0])
        for t in card.threats[1:]:
            threats = tr("{threats} and {threat_name}", threats=threats, threat_name=c.threat_name(t))
        what = tr("goes to No Man's Land showing {threats}", threats=threats)
        if card.trap:
            return tr("{what}; a Trap: the top Trial card is then played too", what=what)
        return what
    if card.kind == "hard_knock":
        kt = c.knocks[card.knock or ""]
        threat = card.threats[0] if card.threats else None
        what = knock_effect(kt, YOU, threat)
        return tr("a Hard Knock for you when played (weight {weight}): {what}", weight=kt.weight, what=what)
    _named, effect = c.specials[card.special or ""]
    return special_effect(effect)


def card_line(card: Card) -> Text:
    face = content().face_text(card.face)
    what = card_effect(card)
    return tr("{face} — {what}.", face=face, what=what)


# ---------------------------------------------------------------------------
# Grizzled, Speech, Support tiles, options


def charm_effect(ch: Character) -> Text:
    t = content().threat_name(ch.charm)
    return tr("lucky charm {t}: once, instead of playing a card, remove one card showing {t} from No Man's Land; the group's help can turn the charm back", t=t)


CHARM_RULE = tr("Each Grizzled has a lucky charm, one of the six threats: once, instead of playing a card, its holder removes one card showing that threat from No Man's Land.")


def character_line(ch: Character) -> Text:
    what = charm_effect(ch)
    return tr("{name} — {what}.", name=ch.name, what=what)


SPEECH = tr("Speech: instead of playing a card, spend a Speech token and name a threat; everyone else still in the mission may discard one card showing it.")


#: "the first/second… player": the ordinals a Support tile's offset can take (2–5 players).
ORDINALS: dict[int, Text] = {1: tr("first"), 2: tr("second"), 3: tr("third"), 4: tr("fourth")}


def tile_effect(tile: TileType) -> Text:
    """From ``offset``: +1 the first player to the left, -2 the second to the right (GR-42)."""
    nth = ORDINALS[abs(tile.offset)]
    if tile.offset > 0:
        what = tr("supports the {nth} player to the left of whoever places it", nth=nth)
    else:
        what = tr("supports the {nth} player to the right of whoever places it", nth=nth)
    if tile.double:
        return tr("{what} (only with 4 or 5 players)", what=what)
    return what


def tile_line(tile: TileType) -> Text:
    what = tile_effect(tile)
    return tr("{name}: {what}.", name=tile.name, what=what)


OPTION_WORDS: dict[str, dict[str, Text]] = {
    "characters": {
        "choose": tr("Every player secretly chooses a Grizzled at the start; if two ask for the same one, the first in turn order from the Leader keeps it."),
        "random": tr("The Grizzled are dealt to the players at random."),
    },
}


def option_line(option: str, value: str) -> Text:
    """A game option's chosen value in words; ``KeyError`` for one without words (a test catches it)."""
    return OPTION_WORDS[option][value]


FAIL_RULE = tr("{FAILURE_COUNT} of one threat fail a mission", FAILURE_COUNT=FAILURE_COUNT)


def all_lines(c: Content | None = None) -> dict[str, Text]:
    """Every content entry's sentence by a key naming it: the tests check each one."""
    c = c or content()
    out: dict[str, Text] = {}
    for kid, kt in c.knocks.items():
        out[f"knock:{kid}"] = knock_line(kt)
        out[f"knock:{kid}:other"] = knock_line(kt, Holder("An"))
    for cid, card in c.cards.items():
        out[f"card:{cid}"] = card_line(card)
    for sid, (_named, effect) in c.specials.items():
        out[f"special:{sid}"] = special_effect(effect)
    for ch in c.characters:
        out[f"character:{ch.id}"] = character_line(ch)
    for tid, tile in c.tiles.items():
        out[f"tile:{tid}"] = tile_line(tile)
    out["speech"] = SPEECH
    out["charm"] = CHARM_RULE
    return out
