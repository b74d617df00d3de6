"""Recorded TAC games: each deal's dealer, hands and draw pile, and the canonical commands played.

``record`` plays a seeded bot game and writes down what a table would: per deal the dealer, the
hands as dealt, the draw pile at the start of every shuffle, and every command as its canonical
text; at the end the outcome and what an observer sees. ``replay`` drives a game from such a
record through the prepared-deal API (``engines.tac.scenario``) and ``parse``/``apply`` only.

Re-record the fixture (after a rule change that alters the game):

    python -m tests.tac.replay 2 master > tests/tac/fixtures/tac_master_seed2.json
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from engines.tac.engine import ENGINE as E
from engines.tac.scenario import deal_hands, prepared_game
from engines.tac.state import TacState

PLAYERS = ["Alice", "Bob", "Chi", "Dung"]


def record(seed: int, version: str = "base", lineup: Sequence[str] = ("heuristic", "random")) -> dict[str, Any]:
    """Play one bot game (``lineup`` repeated over the seats) and return its record."""
    bots = [E.bots()[lineup[p % len(lineup)]] for p in range(4)]
    rng = random.Random(seed)
    state = E.new_game(PLAYERS, {"version": version}, seed)
    deals: list[dict[str, Any]] = []
    while E.to_act(state):
        if state.phase == "exchange" and not state.gifts and (not deals or deals[-1]["deal"] != state.deals):
            deal: dict[str, Any] = {"deal": state.deals, "dealer": state.dealer, "hands": [list(h) for h in state.hands]}
            if state.shuffle_deal == 1:
                deal["pile"] = state.deck[::-1]  # next card first
            deal["moves"] = []
            deals.append(deal)
        seat = min(E.to_act(state))
        action = bots[seat].choose(E, state, seat, rng)
        deals[-1]["moves"].append([seat, E.format(state, action)])
        state, _ = E.apply(state, seat, action)
    outcome = E.outcome(state)
    assert outcome is not None
    return {"players": PLAYERS, "options": dict(state.options), "recorded_from": {"seed": seed, "bots": list(lineup)},
            "deals": deals, "winners": sorted(outcome.winners), "final_view": E.view(state, None)}


def replay(rec: dict[str, Any]) -> TacState:
    """Play a record's deals and commands; every deal that starts a shuffle is prepared from the
    record, the others must come out of the prepared draw pile as recorded."""
    state: TacState | None = None
    for deal in rec["deals"]:
        if state is None:
            state = prepared_game(rec["players"], rec["options"], dealer=deal["dealer"], hands=deal["hands"],
                                  pile=deal["pile"])
        elif "pile" in deal:
            state = deal_hands(state, deal["hands"], pile=deal["pile"])
        assert (state.deals, state.dealer) == (deal["deal"], deal["dealer"]), f"deal {deal['deal']}: out of step"
        assert state.hands == deal["hands"], f"deal {deal['deal']}: the draw pile gave other hands"
        for seat, command in deal["moves"]:
            state, _ = E.apply(state, seat, E.parse(state, seat, command))
    assert state is not None
    return state


def dump(rec: dict[str, Any]) -> str:
    """JSON text with one line per deal field and per move, so a re-recording diffs readably."""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    out = ["{"]
    for key in ("players", "options", "recorded_from"):
        out.append(f'  "{key}": {line(rec[key])},')
    out.append('  "deals": [')
    for i, deal in enumerate(rec["deals"]):
        out.append("    {")
        out += [f'      "{key}": {line(deal[key])},' for key in deal if key != "moves"]
        out.append('      "moves": [')
        out += [f"        {line(move)}," for move in deal["moves"]]
        out[-1] = out[-1].rstrip(",")
        out.append("      ]")
        out.append("    }" + ("," if i < len(rec["deals"]) - 1 else ""))
    out.append("  ],")
    out.append(f'  "winners": {line(rec["winners"])},')
    out.append(f'  "final_view": {line(rec["final_view"])}')
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    version = sys.argv[2] if len(sys.argv) > 2 else "master"
    sys.stdout.write(dump(record(seed, version)))
