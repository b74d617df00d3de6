"""Secrets (GR-55): hands, the placed Support tile until the reveal, Speech answers."""

from __future__ import annotations

import json

from engines.grizzled.engine import ENGINE
from engines.grizzled.scenario import position
from engines.grizzled.state import INTENSITY, SPEECH
from tests.grizzled.helpers import do, filler, text


def seen(state: object, seat: int | None) -> str:
    view = ENGINE.view(state, seat)  # type: ignore[arg-type]
    return json.dumps(view, ensure_ascii=False) + ENGINE.render_view(view, "en") + ENGINE.render_view(view, "vi")


def test_GR_55_placed_tile_is_secret_until_everyone_has_withdrawn() -> None:
    """GR-55: "Private: each player's hand, and which tile a withdrawing player placed (until
    GR-42)." """
    s = position(3, hands=[["snow gas"], ["rain shell"], []], tiles=[["left2"], [], []], trials=filler(2))
    s.tiles[0] = ["right2"]  # a tile type no other seat holds, so any mention of it is a leak
    s, events = do(s, 0, "withdraw right2")
    assert "right2" in json.dumps(ENGINE.view(s, 0)) and "Double Right" in text(events, 0)
    for seat in (1, 2, None):
        assert "right2" not in json.dumps(ENGINE.view(s, seat)) and "Double Right" not in seen(s, seat)
        assert "Double Right" not in text(events, seat)
    assert ENGINE.view(s, 1)["placed"] == [True, False, False]
    s, _ = do(s, 1, "withdraw")
    s, events = do(s, 2, "withdraw")
    assert "Double Right" in text(events, 1)  # revealed at Support (GR-42)


def test_GR_55_hands_are_private() -> None:
    """GR-55/GR-57: another player's view shows only how many cards a hand holds."""
    s = position(3, hands=[["whistle gas shell"], ["snow night"], []], trials=filler(2))
    assert "whistle gas shell" in seen(s, 0)
    assert all("whistle gas shell" not in seen(s, p) for p in (1, 2, None))
    assert "Whistle + Gas Mask + Shell" not in seen(s, 1)
    assert ENGINE.view(s, 1)["hand_sizes"] == [1, 1, 0]


def test_GR_33_speech_answers_are_secret_replaceable_and_resolve_together() -> None:
    """GR-33: "responders choose privately, applied together." The step keeps one decision key and
    a seat may change its answer until the last one answers."""
    s = position(3, hands=[[], ["snow gas", "snow shell"], ["snow whistle"]], speech_held=[1, 0, 0],
                 trials=filler(2))
    s, _ = do(s, 0, "speech snow")
    assert s.phase == SPEECH and ENGINE.to_act(s) == {1, 2}
    key = ENGINE.decision_key(s, 1)
    s, events = do(s, 1, "discard snow gas")
    assert ENGINE.to_act(s) == {2} and ENGINE.decision_key(s, 1) == key == ENGINE.decision_key(s, 2)
    assert "snow gas" not in json.dumps(ENGINE.view(s, 2)) and "Gas" not in text(events, 2)
    assert ENGINE.legal_actions(s, 1), "a seat that answered may still change its answer"
    s, _ = do(s, 1, "discard snow shell")
    assert len(s.hands[1]) == 2 and ENGINE.decision_key(s, 1) == key
    s, events = do(s, 2, "keep")
    assert s.phase != SPEECH
    assert [len(h) for h in s.hands] == [0, 1, 1]
    assert "Bob discards a card showing Snow" in text(events, None)


def test_GR_22_dealt_cards_are_told_only_to_their_receiver() -> None:
    """GR-22/GR-55: each player learns the cards dealt to them; the table only learns how many."""
    s = position(2, phase=INTENSITY, trials=["snow night", "whistle gas shell"])
    s, events = do(s, 0, "intensity 1")
    assert "Whistle + Gas Mask + Shell" in text(events, 0) and "Snow + Night" not in text(events, 0)
    assert "Snow + Night" in text(events, 1) and "Whistle + Gas Mask + Shell" not in text(events, 1)
    public = text(events, None)
    assert "Snow + Night" not in public and "Alice 1, Bob 1" in public
