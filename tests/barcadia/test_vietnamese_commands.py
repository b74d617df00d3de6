"""Vietnamese command words: every legal action written the Vietnamese way parses back to it.

Why: menus shown to Vietnamese players show ``lật 12``, ``đấu Dũng``, ``dùng lao nhanh``; a
command we print that reads back as another move (or as nothing) would cost a player a turn.
"""

from __future__ import annotations

import random

import pytest

from engines.barcadia.commands import COMMAND_VERBS, fold, player_refs, verbs
from engines.barcadia.engine import ENGINE
from engines.barcadia.state import TRAPS, BarcadiaState
from engines.contract import AmbiguousCommand, CommandError
from tests.barcadia.support import face_up, position

NAMES = ["An", "Dũng", "Chi", "Bảo"]


def _walk(players: list[str], seed: int, steps: int, options: dict[str, object] | None = None) -> list[BarcadiaState]:
    rng = random.Random(seed)
    state = ENGINE.new_game(players, options, seed)
    seen = [state]
    for _ in range(steps):
        acting = sorted(ENGINE.to_act(state))
        if not acting:
            break
        seat = acting[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)).action)
        seen.append(state)
    return seen


@pytest.mark.parametrize(("seed", "options"), [(1, None), (2, {"characters": "choose", "layout": "players"}), (3, None)])
def test_every_legal_action_in_vietnamese_parses_back(seed: int, options: dict[str, object] | None) -> None:
    checked = 0
    for state in _walk(NAMES, seed, 150, options):
        for seat in sorted(ENGINE.to_act(state)):
            for choice in ENGINE.legal_actions(state, seat):
                vi = choice.command_in("vi")
                assert ENGINE.parse(state, seat, vi) == choice.action, vi
                assert ENGINE.parse(state, seat, choice.command_in("en")) == choice.action
                checked += 1
    assert checked > 300


def test_vietnamese_menu_shows_vietnamese_verbs() -> None:
    state = ENGINE.new_game(NAMES, None, 5)
    seat = min(ENGINE.to_act(state))
    shown = [c.command_in("vi") for c in ENGINE.menu(state, seat)]
    assert shown and all(fold(c.split()[0]) in verbs() and c.split()[0] not in COMMAND_VERBS for c in shown)
    assert any(c.startswith("lật ") for c in shown)


def test_every_vietnamese_verb_is_a_command_word() -> None:
    for kind, verb in COMMAND_VERBS.items():
        assert verb.get("vi") != verb.msgid, f"{kind}: no Vietnamese command word in the catalog"
        assert verbs()[fold(verb.get("vi"))] == kind


def test_a_name_that_is_also_a_verb_keeps_its_name() -> None:
    # "Dũng" folds to "dung", the Vietnamese verb "dùng" (play): still named, never "#2".
    assert player_refs(("An", "Dũng")) == ("an", "dung")
    s = position(players=["An", "Dũng"], pos=[1, 2])
    face_up(s, 1, beaten=True)
    face_up(s, 2, beaten=True)
    duel = next(c for c in ENGINE.legal_actions(s, 0) if c.action.kind == "duel")
    assert duel.command_in("vi") == "đấu Dũng"
    assert ENGINE.parse(s, 0, "đấu dũng") == duel.action
    assert ENGINE.parse(s, 0, "duel dung") == duel.action


def test_ambiguous_reply_is_a_question_not_a_move() -> None:
    s = position(players=NAMES, hands=[["disarm-kit"], [], [], []])
    s.rooms[1][TRAPS] = s.rooms[2][TRAPS] = 1
    with pytest.raises(AmbiguousCommand):
        ENGINE.parse(s, 0, "dùng bộ gỡ bẫy")  # which of the two trapped rooms?
    assert ENGINE.parse(s, 0, "dùng bộ gỡ bẫy 2").args == ("disarm-kit", 2)
    with pytest.raises(CommandError):
        ENGINE.parse(s, 0, "dùng")  # a verb without its card
