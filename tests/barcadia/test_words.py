"""Barcadia in words: every content entry has a sentence in both languages, and no notation leaks.

Why: card texts are generated from the effect data (``engines/barcadia/words.py``); a new effect
kind or scope without words must fail here, not reach a mail as ``roll_bonus`` or ``L12 D20``.
The leak check reads what a player really gets: boards, hands, menus and the event digest of
seeded whole games, for every seat, in English and Vietnamese.
"""

from __future__ import annotations

import random
import re

import pytest

from engines.barcadia.commands import fold, verbs
from engines.barcadia.content import HOUSE_EFFECTS, LOOT_EFFECTS, PERMANENT_EFFECTS, SCOPES, content
from engines.barcadia.engine import ENGINE
from engines.barcadia.words import effect_text, room_text

NAMES = ["An", "Dũng", "Chi", "Bảo"]
ENGLISH = re.compile(r"\b(the|and|your|you|room|turn|of|with|card|cards|player|level|damage)\b", re.IGNORECASE)


def _notation() -> re.Pattern[str]:
    c = content()
    ids = {x for deck in (c.loot, c.powerups, c.characters, c.house_rules, c.rooms) for x, card in deck.items()
           if "-" in x and x != card.name.en.lower()}  # "bottle-axe" is also the name "Bottle-axe"
    kinds = LOOT_EFFECTS | HOUSE_EFFECTS
    words = sorted(ids | {k for k in kinds if "_" in k}, key=len, reverse=True)
    # ids and effect kinds, an "L12 D20" stat, "(s)" plurals, "#4" player refs, "CLP", a planted or None value
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b|\bL\d+ D\d+\b|\(s\)|#\d|\bCLP\b|\bNone\b|MARK|\bHB-\d")


def _every_card() -> list[tuple[str, str]]:
    c = content()
    decks = {"loot": c.loot, "powerup": c.powerups, "character": c.characters, "house_rule": c.house_rules}
    return [(deck, cid) for deck, cards in decks.items() for cid in cards]


@pytest.mark.parametrize(("deck", "card_id"), _every_card())
def test_every_card_has_a_sentence_in_both_languages(deck: str, card_id: str) -> None:
    c = content()
    card = {"loot": c.loot, "powerup": c.powerups, "character": c.characters, "house_rule": c.house_rules}[deck][card_id]
    text = card.text
    assert text.en.endswith(".") and text.vi.endswith(".") and text.en != text.vi
    assert text == effect_text(deck, card.effect.kind, card.effect.scope, card.effect.amount)
    assert not _notation().search(text.en + " " + text.vi)
    if card.effect.amount:
        assert str(card.effect.amount) in text.en and str(card.effect.amount) in text.vi  # the number is told


@pytest.mark.parametrize("room_id", sorted(content().rooms))
def test_every_room_has_a_sentence_in_both_languages(room_id: str) -> None:
    room = content().rooms[room_id]
    assert room.text.en != room.text.vi and not _notation().search(room.text.en + room.text.vi)
    if room.level:
        assert f"level {room.level}" in room.text.en and f"cấp {room.level}" in room.text.vi


def test_every_effect_kind_and_scope_the_loader_allows_has_words() -> None:
    for scope in SCOPES:
        for kind in LOOT_EFFECTS:
            effect_text("loot", kind, scope, 2)
        for kind in PERMANENT_EFFECTS:
            effect_text("powerup", kind, scope, 2)
            effect_text("character", kind, scope, 2)
        for kind in HOUSE_EFFECTS:
            effect_text("house_rule", kind, scope, 2)
    for kind in ("monster", "team", "boss", "reward", "portal", "hoard"):
        room_text(kind, 3, 10, (("loot", 1), ("powerup", 2)))
    with pytest.raises(KeyError):
        effect_text("loot", "move_range", "All", 2)  # not a Loot effect: the loader refuses it too


def test_a_card_with_handwritten_text_is_refused() -> None:
    from engines.barcadia.content import ContentError, _cards
    entry = {"id": "x", "en": "X", "timing": "turn", "effect": "heal", "amount": 5, "text_en": "Heal."}
    with pytest.raises(ContentError, match="generated"):
        _cards({"loot": [entry]}, "loot", "loot.toml", LOOT_EFFECTS, timed=True, deck="loot")


def _mail_texts(seed: int, players: list[str], options: dict[str, object] | None) -> list[tuple[str, str]]:
    """(lang, text) of every board, menu label and event a seat reads in one seeded game."""
    rng = random.Random(seed)
    bot = ENGINE.bots()["heuristic"]
    state = ENGINE.new_game(players, options, seed)
    out: list[tuple[str, str]] = []
    for step in range(400):
        acting = sorted(ENGINE.to_act(state))
        if not acting:
            out += [(lang, ENGINE.render_view(ENGINE.view(state, who), lang))
                    for who in range(len(players)) for lang in ("en", "vi")]
            break
        seat = acting[0]
        if step % 7 == 0:
            for who in range(len(players)):
                view = ENGINE.view(state, who)
                for lang in ("en", "vi"):
                    out.append((lang, ENGINE.render_view(view, lang)))
            for choice in ENGINE.menu(state, seat):
                out += [("en", choice.label.en), ("vi", choice.label.vi), ("vi", choice.command_in("vi"))]
        action = bot.choose(ENGINE, state, seat, rng) if rng.random() < 0.7 else rng.choice(
            ENGINE.legal_actions(state, seat)).action
        state, events = ENGINE.apply(state, seat, action)
        out += [(lang, e.text.get(lang)) for e in events for lang in ("en", "vi")]
    return out


@pytest.mark.parametrize(("seed", "players", "options"), [
    (1, NAMES, None),
    (2, NAMES[:2], {"signature_moves": True, "characters": "choose", "layout": "players"}),
    (3, NAMES[:3], {"house_rules": True}),
    (4, NAMES, {"turn_limit": 40}),  # ends by the limit: the final ranking is read too
])
def test_no_notation_and_no_english_in_vietnamese_mails(seed: int, players: list[str],
                                                         options: dict[str, object] | None) -> None:
    notation = _notation()
    texts = _mail_texts(seed, players, options)
    assert len(texts) > 200
    for lang, text in texts:
        leak = notation.search(text)
        assert leak is None, f"{leak.group(0)!r} in {lang} text: {text[max(0, leak.start() - 100):leak.end() + 100]}"
        if lang == "vi":
            english = ENGLISH.search(text.replace("Heroes of Barcadia", ""))
            assert english is None, f"English {english.group(0)!r} in: {text[max(0, english.start() - 120):english.end() + 80]}"


def test_vietnamese_help_line_verbs_are_commands() -> None:
    view = ENGINE.view(ENGINE.new_game(NAMES, None, 1), 0)
    text = ENGINE.render_view(view, "vi")
    help_line = next(line for line in text.splitlines() if line.startswith("Lệnh"))
    for part in help_line.split(":", 1)[1].split("|")[:4]:
        assert fold(part.split()[0]) in verbs()


@pytest.mark.parametrize("seed", [1, 2])
def test_public_events_never_say_you(seed: int) -> None:
    """A public line is read by every seat: "An plays Sloppy: an opponent of your choice takes 10
    damage" would speak to the wrong person. Cards' "you" texts go to their holder only."""
    rng = random.Random(seed)
    state = ENGINE.new_game(NAMES, {"signature_moves": True, "house_rules": True}, seed)
    told = 0
    for _ in range(600):
        acting = sorted(ENGINE.to_act(state))
        if not acting:
            break
        seat = acting[0]
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)).action)
        for e in events:
            if e.visible_to is None:
                told += 1
                assert not re.search(r"\byour?\b", e.text.en, re.IGNORECASE), e.text.en
                assert "bạn" not in e.text.vi, e.text.vi
    assert told > 100


def test_menus_name_a_card_by_its_name_in_english_too_never_by_its_id() -> None:
    """"drop boss-crown" told an English reader nothing; the menu says "drop crown of courage",
    which reads back to the same card, and the canonical command keeps the id."""
    from engines.barcadia.commands import _card_word, card_slugs, slug

    for deck, card_id, en in (("powerup", "boss-crown", "crown of courage"),
                              ("powerup", "guardian-charm", "guardian's bane")):
        assert _card_word(deck, card_id, "en") == en
        assert card_slugs(deck)[slug(en)] == card_id
        assert _card_word(deck, card_id, None) == card_id
        assert _card_word(deck, card_id, "vi") != card_id  # the Vietnamese name
