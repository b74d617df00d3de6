"""Barcadia's cards, rooms and House Rules in words, generated from their content data.

Why: a card's text used to be written by hand beside its effect in the TOML files, twice (English
and Vietnamese), and nothing checked that "+3 to your next Boss roll" matched ``roll_bonus Boss
3``. Here one small renderer reads the effect (kind, scope, amount), the timing and who holds
it, so a new card reads in both languages as soon as it loads, and a changed number changes
its text too.

Who "you" is: a Loot card, Power-Up or Signature Move speaks to its holder ("you"); a House
Rule applies to everyone ("Everyone ..."). Scopes follow ``resolutions.ROLL_SCOPES``: a
Monster effect also counts in Team Battles, an "All" bonus counts for every roll.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.contract import Text, tr
from engines.i18n import each_lang

#: The decks a card can belong to; the House Rule deck speaks to everyone.
DECKS = ("loot", "powerup", "character", "house_rule")

#: "... your rolls <scope>": where a roll bonus or a damage cut counts (ROLL_SCOPES); "All" has none.
SCOPE = {
    "Monster": tr("against Monsters and in Team Battles"),
    "Team": tr("in Team Battles"),
    "Boss": tr("in Boss battles, as challenger or as the Boss"),
    "Guardian": tr("against the Grand Drink Guardian"),
    "Duel": tr("in duels"),
    "Trap": tr("when disarming traps"),
}
#: "your next roll <scope>": a Loot bonus counts in its owner's own turn only.
NEXT_SCOPE = {
    "Monster": tr("against a Monster or in a Team Battle"),
    "Team": tr("in a Team Battle"),
    "Boss": tr("in a Boss battle"),
    "Guardian": tr("against the Grand Drink Guardian"),
    "Duel": tr("in a duel"),
    "Trap": tr("to disarm a trap"),
}
#: What deals the damage a ``damage_reduction`` cuts (it starts the sentence).
DAMAGE_FROM = {
    "Monster": tr("Monsters and Team Battles"),
    "Team": tr("Team Battles"),
    "Boss": tr("Bosses"),
    "Guardian": tr("The Grand Drink Guardian"),
    "Duel": tr("Lost duels"),
    "Trap": tr("Traps"),
    "All": tr("Every source"),
}


def _loot_text(kind: str, scope: str, n: int) -> Text:
    """A one-shot Loot card, played by its holder."""
    if kind == "roll_bonus":
        if scope == "All":
            return tr("+{n} to your next roll this turn.", n=n)
        where = NEXT_SCOPE[scope]
        return tr("+{n} to your next roll {where} this turn.", n=n, where=where)
    if kind == "extra_action" and n == 1:
        return tr("1 more action this turn.")
    if kind == "draw_loot" and n == 1:
        return tr("Draw 1 Loot card.")
    texts: dict[str, Text] = {
        "heal": tr("Heal {n} HP.", n=n),
        "damage_player": tr("An opponent of your choice takes {n} damage.", n=n),
        "extra_action": tr("{n} more actions this turn.", n=n),
        "trap": tr("Put a trap on an empty room (not the Starting Point; at most 3 a room)."),
        "disarm_target": tr("For the rest of this turn you disarm traps on a roll of {n} or more.", n=n),
        "swap_rooms": tr("Swap two empty rooms next to yours (never the Starting Point)."),
        "steal_loot": tr("Take a random Loot card from an opponent in a room next to yours."),
        "shield": tr("The next damage you take is {n} less.", n=n),
        "draw_loot": tr("Draw {n} Loot cards.", n=n),
        "clear_traps": tr("Remove every trap from a room next to yours."),
        "extra_duel": tr("Duel once more this turn (still before your action)."),
        "damage_adjacent": tr("Every opponent in a room next to yours takes {n} damage.", n=n),
        "recall": tr("Go back to the Starting Point."),
        "blink": tr("Step into a face-up room next to yours without using your action."),
        "extra_teleport": tr("Use a portal once more this turn."),
    }
    return texts[kind]


def _lasting_text(kind: str, scope: str, n: int, everyone: bool) -> Text:
    """A lasting effect: a Power-Up or Signature Move ("you") or a House Rule ("everyone")."""
    src = DAMAGE_FROM[scope]
    if kind == "roll_bonus":
        if scope == "All":
            return tr("Everyone adds {n} to every roll.", n=n) if everyone \
                else tr("+{n} to every roll you make.", n=n)
        where = SCOPE[scope]
        return tr("Everyone adds {n} to their rolls {where}.", n=n, where=where) \
            if everyone else tr("+{n} to your rolls {where}.", n=n, where=where)
    if everyone:
        texts = {
            "disarm_target": tr("Everyone disarms traps on a roll of {n} or more.", n=n),
            "damage_reduction": tr("{src} deal everyone {n} less damage.", src=src, n=n),
            "start_heal": tr("Everyone heals {n} HP at the start of their turn.", n=n),
            "extra_loot": tr("Whenever anyone gains Loot, they draw {n} more.", n=n),
            "move_range": tr("Everyone may enter up to {n} face-up rooms with one action.", n=n),
            "duel_damage": tr("The loser of a duel takes {n} damage.", n=n),
            "trap_damage": tr("A trap that is not disarmed deals {n} damage.", n=n),
        }
    else:
        texts = {
            "disarm_target": tr("You disarm traps on a roll of {n} or more.", n=n),
            "damage_reduction": tr("{src} deal you {n} less damage.", src=src, n=n),
            "start_heal": tr("Heal {n} HP at the start of each of your turns.", n=n),
            "extra_loot": tr("Whenever you gain Loot, draw {n} more.", n=n),
            "move_range": tr("Enter up to {n} face-up rooms with one action.", n=n),
        }
    return texts[kind]


def _lower_first(text: Text, lang: str) -> str:
    """A sentence in ``lang`` that continues another one ("Signature Move: +3 to ...")."""
    said = text.get(lang)
    return said[:1].lower() + said[1:]


def effect_text(deck: str, kind: str, scope: str, amount: int) -> Text:
    """The sentence for one card of ``deck`` whose effect is ``kind``/``scope``/``amount``.

    >>> effect_text("loot", "heal", "All", 10).en
    'Heal 10 HP.'
    >>> effect_text("house_rule", "duel_damage", "Duel", 20).get("vi")
    'Người thua đấu tay đôi chịu 20 sát thương.'

    Raises ``KeyError`` for an effect this deck cannot have (the loader reports it).
    """
    if deck not in DECKS:
        raise KeyError(deck)
    if deck == "loot":
        return _loot_text(kind, scope, amount)
    text = _lasting_text(kind, scope, amount, everyone=deck == "house_rule")
    if deck == "character":
        return tr("Signature Move: {effect}", effect=each_lang(_lower_first, text))
    return text


def played_text(kind: str, scope: str, n: int) -> Text | None:
    """What a played Loot card does, told to everyone (no "you"); ``None`` when the lines that
    follow already say it ("An heals 10 HP", "A trap is set in room 4")."""
    if kind == "roll_bonus":
        if scope == "All":
            return tr("+{n} to the next roll this turn", n=n)
        where = NEXT_SCOPE[scope]
        return tr("+{n} to the next roll {where} this turn", n=n, where=where)
    if kind == "extra_action" and n == 1:
        return tr("1 more action this turn")
    texts: dict[str, Text] = {
        "extra_action": tr("{n} more actions this turn", n=n),
        "disarm_target": tr("disarms traps on a roll of {n} or more for the rest of this turn", n=n),
        "shield": tr("the next damage taken is {n} less", n=n),
        "extra_duel": tr("may duel once more this turn"),
        "extra_teleport": tr("may use a portal once more this turn"),
    }
    return texts.get(kind)


#: When a Loot card may be played (HB-51), said next to its name.
TIMING = {"between": tr("between turns"), "turn": tr("in your turn")}


def timing_text(timing: str) -> Text:
    return TIMING[timing]


def _deck_count(deck: str, n: int) -> Text:
    if deck == "loot":
        return tr("1 Loot card") if n == 1 else tr("{n} Loot cards", n=n)
    return tr("1 Power-Up") if n == 1 else tr("{n} Power-Ups", n=n)


def reward_text(reward: tuple[tuple[str, int], ...]) -> Text:
    """``(("loot", 2), ("powerup", 1))`` -> "2 Loot cards and 1 Power-Up"."""
    said = [_deck_count(deck, n) for deck, n in reward]
    if not said:  # a room that gives nothing (a portal, the hoard): its sentence never says it
        return Text.fixed("")
    out = said[0]
    for more in said[1:]:
        out = tr("{out} and {more}", out=out, more=more)
    return out


def room_text(kind: str, level: int, damage: int, reward: tuple[tuple[str, int], ...]) -> Text:
    """What a room of ``kind`` does to whoever enters it, with its numbers (HB-29..47)."""
    gain = reward_text(reward)
    lines: dict[str, Callable[[], Text]] = {
        "monster": lambda: tr("Monster, level {level}: roll {level} or more on a d20 to beat it and gain {gain}; otherwise you take {damage} damage and the room turns face down again.", level=level, gain=gain, damage=damage),
        "team": lambda: tr("Team Battle, level {level}: you and a teammate you choose each roll a d20; a total of {level} or more beats it and each of you gains {gain}; otherwise each of you takes {damage} damage.", level=level, gain=gain, damage=damage),
        "boss": lambda: tr("Boss: an opponent you name rolls for the Boss against your roll; if you win you gain {gain} and they take {damage} damage, otherwise you take {damage} damage.", gain=gain, damage=damage),
        "reward": lambda: tr("Reward: enter and gain {gain}.", gain=gain),
        "portal": lambda: tr("Magic Portal: once a turn, step to another face-up portal without using an action."),
        "hoard": lambda: tr("Drink Hoard: with 3 Power-Ups, fight the Grand Drink Guardian (level {level}): roll {level} or more on a d20 to win the game; otherwise you take {damage} damage.", level=level, damage=damage),
    }
    return lines[kind]()
