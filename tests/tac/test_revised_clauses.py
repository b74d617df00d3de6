"""Clauses revised or clarified in the second rules pass (tac.en.md TAC-38, 39, 59, 69, 70, 80),
one scenario each in the digest's notation (see test_scenarios.py), and the 7's full listing.
"""

from __future__ import annotations

import random

import pytest

from engines.contract import IllegalCommand
from engines.tac import flow, seven
from engines.tac.board import HOME, WAIT, Board, controlled_seat, start
from engines.tac.setup import position
from tests.tac.helpers import E, at, commands, play

# -- TAC-38: the 4 from the own start field ----------------------------------------------------


def test_TAC_38_four_from_the_own_start_field_may_go_into_the_home() -> None:
    """TAC-38: "a non-fresh ring marble moving backward may pass onto its own S and continue into its
    home (S → H1 → …), or stay on the ring" — also when it starts on S: a0 (not fresh) with a 4 →
    60 or AH4."""
    s = position("a0", {0: ["4"]})
    assert commands(s) == {"4 back a1 60", "4 back a1 h4"}
    assert at(play(s, "4 back a1 h4"), "a1") == "AH4"
    assert at(play(s, "4 back a1 60"), "a1") == "60"
    assert commands(position("a0*", {0: ["4"]})) == {"4 back a1"}  # fresh: TAC-33
    assert commands(position("a0 AH3", {0: ["4"]})) == {"4 back a1"}  # no passing in the home: TAC-34


# -- TAC-69 / TAC-80: skipped by the Devil's 8 ---------------------------------------------------


def test_TAC_69_skipped_by_an_8_the_devil_played_may_answer_with_tac() -> None:
    """TAC-80 (clarified): "a player skipped by an 8 that the Devil's player played on the victim's
    behalf may answer with a TAC as TAC-69 allows" — the skip is cancelled and they use the 8."""
    s = position("a10 b20 c40", {0: ["devil", "2"], 1: ["8", "9"], 2: ["tac", "5"], 3: ["3"]}, version="master")
    s = play(s, "devil")
    assert "8 skip" in commands(s)
    s = play(s, "8 skip")  # Alice plays Bob's 8: Chi is skipped
    assert s.turn == 2 and s.skipped
    assert commands(s) == {"discard 5", "discard tac", "tac"}
    t = play(s, "tac")
    assert commands(t) == {"8 c1", "8 skip"}
    assert at(play(t, "8 c1"), "c1") == "48"
    skipped_d = play(t, "8 skip")
    assert skipped_d.turn == 3 and skipped_d.skipped
    assert play(s, "discard 5").turn == 3


def test_TAC_80_other_plays_of_the_devil_still_admit_no_tac() -> None:
    """TAC-80: "A TAC follows a Devil only if the Devil's player picked the victim's TAC" — an 8 that the
    Devil's player moves (no skip) leaves the next player no TAC."""
    s = position("a10 b20 c40", {0: ["devil", "2"], 1: ["8", "9"], 2: ["tac", "5"], 3: ["3"]}, version="master")
    s = play(play(s, "devil"), "8 b1")
    assert s.turn == 2 and not s.skipped
    assert "tac" not in commands(s)


# -- TAC-70 / TAC-80: a TAC after a discarded Fool or Devil ------------------------------------


def test_TAC_70_tac_after_a_discarded_fool_plays_the_fool() -> None:
    """TAC-80 (clarified): "TAC-70 applies to every discarded card, a discarded Devil or Fool included:
    the TAC takes over its function." Bob, skipped, throws away his Fool; Chi's TAC plays it: every hand
    passes to the right and Chi plays again."""
    s = position("a5 b20 c40", {0: ["8"], 1: ["fool", "9"], 2: ["tac", "5"], 3: ["3", "4"]}, version="master")
    s = play(s, "8 skip")
    assert commands(s) == {"discard fool", "discard 9"}
    s = play(s, "discard fool")
    assert "tac" in commands(s)
    s = play(s, "tac")
    assert at(s, "c1") == "40"  # nothing is undone
    assert commands(s) == {"fool"}
    s = play(s, "fool")
    assert s.hands == [["9"], ["5"], ["3", "4"], []]
    assert s.turn == 2 and commands(s) == {"3 c1", "4 back c1"}


def test_TAC_70_tac_after_a_discarded_devil_plays_the_devil() -> None:
    """TAC-80 (clarified), as TAC-70: Bob throws away his Devil; Chi's TAC plays it — Chi looks at Dung's
    hand and plays Dung's turn, and Dung loses it."""
    s = position("a5 b20 c40 d55", {0: ["8"], 1: ["devil", "9"], 2: ["tac", "5"], 3: ["3", "4"]},
                 version="master")
    s = play(play(s, "8 skip"), "discard devil")
    s = play(s, "tac")
    assert commands(s) == {"devil"}
    s = play(s, "devil")
    assert s.turn == 2 and s.pending == {"kind": "devil", "victim": 3}
    assert E.view(s, 2)["pending"]["victim_hand"] == ["3", "4"]
    assert commands(s) == {"3 d1", "4 back d1"}
    s = play(s, "3 d1")
    assert at(s, "d1") == "58" and s.hands[3] == ["4"]
    assert s.turn == 1  # Alice holds no card: Bob is next (TAC-25)


def test_TAC_70_a_played_fool_still_cannot_be_taken_over() -> None:
    """TAC-77: a TAC directly after a played Fool has nothing to undo (our resolution, rules.py)."""
    s = position("a10", {0: ["fool", "9"], 1: ["tac", "5"]}, version="master")
    s = play(s, "fool")
    assert s.hands[0] == ["tac", "5"] and "tac" not in commands(s)


# -- TAC-59: the Devil's player makes the Fool's choices ---------------------------------------


def test_TAC_59_the_devils_player_takes_the_fools_extra_turn() -> None:
    """TAC-59 (revised): "the Devil's player makes every choice (also when the picked card is the victim's
    Fool: the extra turn the Fool gives is taken by the Devil's player on the victim's behalf)"."""
    s = position("b20", {0: ["devil", "2"], 1: ["fool", "5"], 2: ["tac", "3"], 3: ["4"]}, version="master")
    s = play(s, "devil")
    assert commands(s) == {"fool", "5 b1"}
    s = play(s, "fool")
    assert s.hands == [["5"], ["tac", "3"], ["4"], ["2"]]
    assert s.turn == 0 and s.pending is not None and s.pending["victim"] == 1
    assert E.view(s, 0)["pending"]["victim_hand"] == ["3", "tac"]
    assert "victim_hand" not in E.view(s, 1)["pending"]
    # the victim's TAC has nothing to take over right after the Fool (TAC-77): it can only be discarded
    assert commands(s) == {"3 b1", "discard tac"}
    s = play(s, "3 b1")
    assert at(s, "b1") == "23" and s.hands[1] == ["tac"]
    assert s.turn == 2 and s.pending is None


# -- TAC-39 (amended): the seven_stuck option --------------------------------------------------


def test_TAC_39_stuck_after_each_step_by_default() -> None:
    """TAC-39: "within one 7, whether a home marble is stuck (TAC-35) is judged after every single step by
    default" — AH1 with AH3 and AH4 taken: one step to AH2 and the marble is stuck, so no 7."""
    assert E.new_game(["A", "B", "C", "D"], None, 1).options["seven_stuck"] == "each-step"
    s = position("AH1 AH3 AH4", {0: ["7"]})
    assert commands(s) == {"discard 7"}
    with pytest.raises(IllegalCommand):
        E.parse(position("AH1 AH3 AH4 a20", {0: ["7"]}), 0, "7 a1:1>h2 a1:1>h1 a4:5")


def test_TAC_39_after_the_seven_home_marble_steps_forward_and_back() -> None:
    """TAC-39 (amended): "recorded online play judges it only once the whole 7 is finished, so players step
    a home marble forward and back (H1→H2→H1…) to spend steps even when the fields beyond are taken" —
    option seven_stuck = "after-the-seven"."""
    s = position("AH1 AH3 AH4", {0: ["7"]}, seven_stuck="after-the-seven")
    assert commands(s) == {"7 a1:7>h2", "7 a2:7>h2"}
    written = E.parse(s, 0, "7 a1:1>h2 a1:1>h1 a1:1>h2 a1:1>h1 a1:1>h2 a1:1>h1 a1:1>h2")
    assert E.format(s, written) == "7 a1:7>h2"
    after = play(s, "7 a1:1>h2 a1:1>h1 a1:1>h2 a1:1>h1 a1:1>h2 a1:1>h1 a1:1>h2")
    assert (at(after, "a1"), at(after, "a2"), at(after, "a3")) == ("AH2", "AH3", "AH4")
    # a marble on H4 is judged stuck only at the end too; the other cards are unchanged (TAC-35)
    assert commands(position("AH4", {0: ["7"]}, seven_stuck="after-the-seven")) == {"7 a1:7>h1", "7 a1:7>h3"}
    assert commands(position("AH1 AH3", {0: ["2"]}, seven_stuck="after-the-seven")) == {"discard 2"}
    # the mail tells the players which reading the game plays
    assert "forward and back" in E.render_view(E.view(s, 0), "en")
    assert "tiến rồi lùi" in E.render_view(E.view(s, 0), "vi")
    assert "Variant" not in E.render_view(E.view(position("AH1", {0: ["7"]}), 0), "en")


def test_TAC_39_after_the_seven_needs_both_ways() -> None:
    """With seven_in_home = "forward-only" no marble steps backward, so when stuck is judged changes nothing."""
    for stuck in ("each-step", "after-the-seven"):
        s = position("AH1 AH3 AH4", {0: ["7"]}, seven_in_home="forward-only", seven_stuck=stuck)
        assert commands(s) == {"discard 7"}


@pytest.mark.parametrize("stuck", ["each-step", "after-the-seven"])
def test_TAC_47_a_written_step_by_step_split_is_accepted(stuck: str) -> None:
    """TAC-47: "the player gives an ordered list of part-moves (marble, steps)" — single steps included, in
    both options; the written split is the listed move with the same end position."""
    s = position("AH1", {0: ["7"]}, seven_stuck=stuck)
    text = "7 a1:1>h2 a1:1>h3 a1:1>h2 a1:1>h3 a1:1>h2 a1:1>h3 a1:1>h4"
    assert E.format(s, E.parse(s, 0, text)) == "7 a1:7>h4"
    assert at(play(s, text), "a1") == "AH4"


# -- every legal 7 is listed --------------------------------------------------------------------


def _reference_sevens(board: Board, seat: int, home: seven.HomeSteps) -> set[tuple[tuple[int, ...], tuple[bool, ...]]]:
    """End positions of every sequence of seven single steps of controlled marbles (TAC-44, TAC-48)."""
    layer = {board.key(): board}
    for _ in range(7):
        following: dict[tuple[tuple[int, ...], tuple[bool, ...]], Board] = {}
        for b in layer.values():
            ctrl = controlled_seat(b, seat)
            for m in range(4 * ctrl, 4 * ctrl + 4):
                if b.pos[m] != WAIT:
                    for nb in seven.part_results(b, m, 1, home)[1]:
                        following.setdefault(nb.key(), nb)
        layer = following
    return set(layer)


def _random_board(rng: random.Random) -> Board:
    """Marbles crowded around seat a's and c's start fields and homes, so that 7s interact."""
    pos, fresh_ = [WAIT] * 16, [False] * 16
    taken: set[int] = set()
    for m in range(16):
        seat, roll = m // 4, rng.random()
        if roll < 0.25:
            continue
        if roll < 0.6 and seat in (0, 2):
            field = HOME + rng.randrange(4)
            if field not in pos[4 * seat:4 * seat + 4]:
                pos[m] = field
            continue
        near = seat in (0, 2) and rng.random() < 0.7
        field = (start(seat) - rng.randrange(9)) % 64 if near else rng.randrange(64)
        if field not in taken:
            taken.add(field)
            pos[m] = field
            fresh_[m] = field == start(seat) and rng.random() < 0.3
    return Board(pos, fresh_)


@pytest.mark.parametrize(("in_home", "stuck"), [("both-ways", "each-step"), ("both-ways", "after-the-seven"),
                                                ("forward-only", "each-step")])
def test_TAC_44_every_legal_seven_is_listed_once(in_home: str, stuck: str) -> None:
    """TAC-44/TAC-47: every split of seven single steps is a legal 7, so ``legal_actions`` lists every end
    position such a split reaches (in whatever order the marbles take their steps), each once, and every
    listed 7 applies to the position it promises."""
    rng = random.Random(44)
    for _ in range(150):
        board = _random_board(rng)
        s = position("", {0: ["7"]}, seven_in_home=in_home, seven_stuck=stuck)
        s.set_board(board)
        sevens = {a: after for a, after in flow.legal(s, 0).items() if a.kind == "seven"}
        ends = {after.key() for after in sevens.values() if after is not None}
        assert ends == _reference_sevens(board, 0, flow.home_steps(s)), board
        assert len(ends) == len(sevens)
        for action in rng.sample(sorted(sevens, key=str), min(3, len(sevens))):
            assert E.apply(s, 0, action)[0].board.key() == sevens[action].key()  # type: ignore[union-attr]
