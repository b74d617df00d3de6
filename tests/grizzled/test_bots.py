"""The co-operative bot: it plays fair, deterministically and fast, and makes the plays its
docstring promises (safe cards first, coordinated Support, Speech answers that clear cards)."""

from __future__ import annotations

import random
import time

from engines.contract import Action
from engines.grizzled import rules
from engines.grizzled.bots import CoopBot, beneficiary, unseen_cards
from engines.grizzled.engine import ENGINE
from engines.grizzled.scenario import position
from engines.grizzled.state import INTENSITY, SPEECH, SUPPORT, GrizzledState

BOT = CoopBot()


def _choose(state: GrizzledState, seat: int) -> Action:
    return BOT.choose(ENGINE, state, seat, random.Random(0))


def _scramble_hidden(state: GrizzledState, seat: int, rng: random.Random) -> GrizzledState:
    """Redeal everything ``seat`` cannot see: other hands (same sizes), the Trials pile and the
    Morale Reserve (same sizes), other seats' unplaced tiles, the Grizzled they asked for and the RNG."""
    s = state.clone()
    others = [p for p in range(s.n) if p != seat]
    pool = [c for p in others for c in s.hands[p]] + s.trials + s.reserve
    rng.shuffle(pool)
    for p in others:
        k = len(s.hands[p])
        s.hands[p], pool = pool[:k], pool[k:]
    k = len(s.trials)
    s.trials, s.reserve = pool[:k], pool[k:]
    tiles = [t for p in others for t in s.tiles[p]]
    rng.shuffle(tiles)
    for p in others:
        k = len(s.tiles[p])
        s.tiles[p], tiles = tiles[:k], tiles[k:]
    for p in others:
        if str(p) in s.picks:
            s.picks[str(p)] = rng.choice(rules.free_characters(s))
    s.rng = rng.getrandbits(63)
    return s


def _positions(players: int, games: int) -> list[tuple[GrizzledState, int]]:
    """Positions from bot self-play, with the seat to decide."""
    out: list[tuple[GrizzledState, int]] = []
    for g in range(games):
        state = ENGINE.new_game(["A", "B", "C", "D", "E"][:players], None, 100 + g)
        rng = random.Random(g)
        while ENGINE.to_act(state):
            seat = min(ENGINE.to_act(state))
            out.append((state, seat))
            state, _ = ENGINE.apply(state, seat, BOT.choose(ENGINE, state, seat, rng))
    return out


def test_bot_choice_ignores_everything_its_seat_cannot_see() -> None:
    """Scrambling other hands, the piles, others' tiles and the RNG never changes the choice."""
    rng = random.Random(5)
    checked = 0
    for players in (3, 4):
        for state, seat in _positions(players, 4)[::3]:
            if state.phase == SPEECH and str(seat) in state.responses:
                continue
            assert _choose(_scramble_hidden(state, seat, rng), seat) == _choose(state, seat)
            checked += 1
    assert checked > 50


def test_scrambling_really_changes_hidden_cards() -> None:
    """Guard for the fairness test above: the scramble must move hidden cards around."""
    state, seat = _positions(4, 1)[10]
    scrambled = _scramble_hidden(state, seat, random.Random(1))
    assert scrambled.hands[seat] == state.hands[seat]
    assert scrambled.trials + scrambled.reserve != state.trials + state.reserve
    assert unseen_cards(scrambled, seat) == unseen_cards(state, seat)


def test_bots_choose_different_grizzled_without_talking() -> None:
    """GR-11: every bot seat asks for a different Grizzled, so no second round of choosing is needed,
    in whatever order the seats answer."""
    for players in (2, 3, 4, 5):
        for seed in range(6):
            state = ENGINE.new_game(["A", "B", "C", "D", "E"][:players], None, seed)
            order = sorted(range(players), key=lambda p: (p * 7 + seed) % players)
            for seat in order:
                state, _ = ENGINE.apply(state, seat, _choose(state, seat))
            assert state.phase == INTENSITY and len(set(state.characters)) == players


def test_default_action_is_deterministic_legal_and_fast() -> None:
    """Same state, same action; always a legal one; no runaway search (speed itself is
    measured by ``pbem bench engines``: this bound only catches an exponential blow-up,
    not a loaded machine)."""
    worst = 0.0
    for state, seat in _positions(5, 2) + _positions(2, 2):
        start = time.perf_counter()
        action = ENGINE.default_action(state, seat)
        worst = max(worst, time.perf_counter() - start)
        assert action == ENGINE.default_action(state, seat)
        assert action in [c.action for c in ENGINE.legal_actions(state, seat)]
    assert worst < 2.0


def test_bot_plays_a_safe_card_rather_than_one_that_fails() -> None:
    state = position(3, hands=[["rain shell", "snow gas"], ["whistle gas"], ["night gas"]],
                     nml=["rain night", "rain whistle"], trials=["snow night"])
    assert _choose(state, 0) == Action("play", ("snow gas",))


def test_bot_does_not_play_the_card_that_blocks_the_rest_of_its_hand() -> None:
    """With Snow and Night at 1, Rain+Snow+Night would block both other cards; either other card
    leaves one more card playable."""
    state = position(3, hands=[["rain snow night", "snow gas", "night whistle"], ["whistle shell"], ["rain gas"]],
                     nml=["snow night"], trials=["rain shell"], charm_ready=[False] * 3)
    assert _choose(state, 0) in (Action("play", ("snow gas",)), Action("play", ("night whistle",)))


def test_bot_withdraws_rather_than_fail_the_mission() -> None:
    state = position(3, hands=[["rain shell"], ["whistle gas"], ["night gas"]],
                     nml=["rain night", "rain whistle"], trials=["snow night"], tiles=[["left", "right"]] * 3,
                     charm_ready=[False] * 3)
    assert _choose(state, 0).kind == "withdraw"


def test_support_tiles_converge_on_the_heaviest_carrier() -> None:
    """GR-44 needs a strict winner: seats 0 and 2 aim at seat 1; seat 1 aims away from seat 2's target."""
    knocks = [[], ["wounded", "mute"], []]
    base = dict(hands=[[], [], []], knocks=knocks, tiles=[["left", "right"]] * 3)
    assert beneficiary(position(3, **base)) == 1  # type: ignore[arg-type]
    targets = []
    for seat in range(3):
        state = position(3, turn=seat, **base)  # type: ignore[arg-type]
        action = _choose(state, seat)
        assert action.kind == "withdraw"
        targets.append(rules.tile_target(state, seat, str(action.args[0])))
    assert targets[0] == targets[2] == 1
    assert targets[1] != 1


def test_support_in_four_players_gives_the_beneficiary_a_strict_majority() -> None:
    knocks = [[], [], ["wounded"], []]
    base = dict(hands=[[]] * 4, knocks=knocks, tiles=[["left", "right"]] * 4)
    received = [0] * 4
    for seat in range(4):
        state = position(4, turn=seat, **base)  # type: ignore[arg-type]
        action = _choose(state, seat)
        received[rules.tile_target(state, seat, str(action.args[0]))] += 1
    assert received[2] == 2 and max(r for p, r in enumerate(received) if p != 2) == 1


def test_speech_answer_discards_a_hard_knock_before_a_threat_card() -> None:
    state = position(3, hands=[[], ["phobia shell", "rain shell"], []], phase=SPEECH)
    state.speaker, state.speech_threat, state.responders = 0, "shell", [1]
    assert _choose(state, 1) == Action("discard", ("phobia shell",))


def test_helped_seat_removes_its_two_worst_hard_knocks() -> None:
    state = position(3, knocks=[["mute", "wounded", "demoralized"], [], []], phase=SUPPORT, charm_ready=[False, True, True])
    assert set(_choose(state, 0).args) == {"wounded", "demoralized"}


def test_intensity_deals_the_whole_pile_when_it_can_end_the_game() -> None:
    state = position(3, hands=[[], [], []], trials=["rain shell", "snow gas", "night whistle", "rain night"],
                     phase=INTENSITY)
    action = _choose(state, 0)
    assert action == Action("intensity", (rules.max_intensity(state),))
