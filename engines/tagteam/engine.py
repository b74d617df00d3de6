"""Tag Team on the engine contract: every player decision is a secret simultaneous step.

Draft picks, the Starting-card order and each Build! choice are collected from both seats
(each may replace its own choice until the second seat has chosen) and then resolved
together; the Fight! steps in between need no decisions and resolve at once.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.bots import RandomBot, bot_rng
from engines.contract import (
    Action,
    Bot,
    Choice,
    Engine,
    Event,
    IllegalCommand,
    Option,
    Outcome,
    Seat,
    Text,
    tr,
)
from engines.tagteam import commands, rules
from engines.tagteam import view as views
from engines.tagteam.bots import HeuristicBot
from engines.tagteam.content import Content, load_content
from engines.tagteam.setup import new_state
from engines.tagteam.state import TTState

RESOLVE = {
    "draft1": rules.resolve_draft1,
    "draft2": rules.resolve_draft2,
    "free": rules.resolve_free,
    "setup": rules.resolve_setup,
    "build": rules.resolve_builds,
}


class TagTeamEngine(Engine[TTState]):
    id = "tagteam"
    title = "Tag Team"
    min_players = 2
    max_players = 2
    options: Mapping[str, Option] = {
        "draft": Option("standard", "team building: standard/competitive draft, free choice, "
                        "random teams, or the first-game teams", rules.DRAFT_MODES),
    }

    def __init__(self, content: Content | None = None) -> None:
        self.content = content if content is not None else load_content()

    # -- creating and storing -------------------------------------------------

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> TTState:
        if len(players) != 2:
            raise ValueError("Tag Team is a 2-player game")
        opts = self.resolve_options(options)
        state, _ = new_state(self.content, list(players), str(opts["draft"]), seed)
        return state

    def to_json(self, state: TTState) -> str:
        return state.to_json()

    def from_json(self, text: str) -> TTState:
        return TTState.from_json(text)

    def state_version(self, state: TTState) -> int:
        return state.version

    def decision_key(self, state: TTState, seat: Seat) -> str:
        return f"{state.phase}:{state.step_version}"

    # -- whose turn -------------------------------------------------------------

    def to_act(self, state: TTState) -> frozenset[Seat]:
        if state.phase not in rules.SIMULTANEOUS:
            return frozenset()
        return frozenset(seat for seat in (0, 1) if state.pending[seat] is None)

    def legal_actions(self, state: TTState, seat: Seat) -> list[Choice]:
        return commands.choices(self.content, state, seat, commands.legal(self.content, state, seat))

    def menu(self, state: TTState, seat: Seat) -> list[Choice]:
        """Builds: the bot's suggestion first, then about a dozen common choices (short syntax in the view)."""
        if state.phase == "build":
            suggestion = self.default_action(state, seat)
            common = [a for a in commands.build_menu(self.content, state, seat) if a != suggestion]
            choices = commands.choices(self.content, state, seat, [suggestion, *common])
            first = choices[0]
            label = tr("{label} (suggested)", label=first.label)
            return [replace(first, label=label), *choices[1:]]
        return self.legal_actions(state, seat)

    def parse(self, state: TTState, seat: Seat, text: str) -> Action:
        if seat not in (0, 1):
            raise IllegalCommand(tr("There are only seats 0 and 1."))
        return commands.parse(self.content, state, seat, text)

    def format(self, state: TTState, action: Action) -> str:
        return commands.format_action(action)

    def apply(self, state: TTState, seat: Seat, action: Action) -> tuple[TTState, list[Event]]:
        if state.phase not in rules.SIMULTANEOUS or seat not in (0, 1):
            raise IllegalCommand(tr("You have nothing to do now."))
        if action not in set(commands.legal(self.content, state, seat)):
            raise IllegalCommand(tr("{kind} {list} is not legal now.", kind=action.kind, list=list(action.args)))
        s = state.clone()
        s.version += 1
        name = s.players[seat]
        events = []
        replaced = s.pending[seat] is not None
        s.pending[seat] = action.to_json()
        said = commands.label(self.content, state, seat, action)
        last = all(p is not None for p in s.pending)
        if not last:  # a step resolved at once says what each chose (picks, Turn log, "You added ...")
            events.append(Event(tr("Your choice: {said}.", said=said), frozenset({seat})))
        if last:  # the last choice: what resolves says what both chose
            events += RESOLVE[s.phase](self.content, s)
        elif not replaced:
            events.append(Event(tr("{name} has chosen.", name=name)))
        return s, events

    # -- views --------------------------------------------------------------------

    def view(self, state: TTState, seat: Seat | None) -> dict[str, Any]:
        return views.build_view(self.content, state, seat)

    def render_view(self, view: Mapping[str, Any], lang: str) -> str:
        return views.render(self.content, view, lang)

    # -- time-outs and the end ---------------------------------------------------

    def default_action(self, state: TTState, seat: Seat) -> Action:
        return self.heuristic.choose(self, state, seat, bot_rng(self, state, seat))

    @property
    def heuristic(self) -> HeuristicBot:
        return HeuristicBot(self.content)

    def outcome(self, state: TTState) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        return Outcome(frozenset(r["winners"]), bool(r["draw"]), Text.from_json(r["reason"]))

    def bots(self) -> Mapping[str, Bot[TTState]]:
        return {"random": RandomBot(), "heuristic": self.heuristic}

    # -- conformance ----------------------------------------------------------------

    def plant_markers(self, state: TTState) -> tuple[TTState, dict[Seat | None, list[str]]]:
        s = state.clone()
        markers: dict[Seat | None, list[str]] = {0: [], 1: [], None: []}
        for seat in (0, 1):
            s.hands[seat] = [f"MARK{seat}HAND{i}Z" for i in range(len(s.hands[seat]))]
            s.discards[seat] = [f"MARK{seat}DISC{i}Z" for i in range(len(s.discards[seat]))]
            s.fight[seat] = [f"MARK{seat}FIGHT{i}Z" for i in range(len(s.fight[seat]))]
            s.draw[seat] = [f"MARK{seat}DRAW{i}Z" for i in range(len(s.draw[seat]))]
            s.build[seat] = [f"MARKNOBODY{seat}BUILD{i}Z" for i in range(len(s.build[seat]))]
            if s.pending[seat] is not None:
                s.pending[seat] = ["choice", f"MARK{seat}CHOICEZ"]
                markers[seat].append(f"MARK{seat}CHOICEZ")
            markers[seat] += s.hands[seat] + s.discards[seat] + s.fight[seat] + s.draw[seat]
            markers[None] += s.build[seat]
        s.rng = 987_654_321_123_456_789
        markers[None].append(str(s.rng))
        return s, markers

    def sample_illegal_commands(self, state: TTState, seat: Seat) -> list[str]:
        out = ["", "xyzzy", "!!!", "999 999 999", "pick nobody", "order 3 3"]
        if state.phase == "build":
            n = len(state.fight[seat])
            out += ["add 4 top", f"add 1 after {n + 1}", "add 1 top, bottom 1 2", "bottom 9 9"]
        return out


ENGINE = TagTeamEngine()


def play_bots(engine: TagTeamEngine, bots: Sequence[Bot[TTState]], seed: int,
              options: Mapping[str, Any] | None = None) -> TTState:
    """One whole game between two bots (bench and tests); the bots' randomness comes from ``seed``."""
    rng = random.Random(seed)
    state = engine.new_game(["Alice", "Bob"], options, seed)
    while True:
        to_act = engine.to_act(state)
        if not to_act:
            return state
        seat = min(to_act)
        action = bots[seat].choose(engine, state, seat, rng)
        state, _ = engine.apply(state, seat, action)
