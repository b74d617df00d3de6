"""The Grizzled engine: wires setup, rules, commands, views and bots to the engine contract.

Sequential steps (Intensity, turns, Merry Christmas, Support help) have one seat to act. There
are two secret simultaneous steps, where every seat asked chooses privately and may change the
choice until the last one has chosen: choosing the Grizzled at the start (GR-11; a round of
choosing again follows a clash) and the answers to a Speech (GR-33). The Support tile placed on
withdrawal is part of the withdrawing player's turn and stays secret until the Mission ends
(GR-34, GR-42).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    tr,
)
from engines.grizzled import commands, rules
from engines.grizzled.bots import CoopBot
from engines.grizzled.setup import CHARACTER_MODES, TRIALS_PILE_SIZE, new_state
from engines.grizzled.state import CHOOSE, CHRISTMAS, INTENSITY, OVER, SPEECH, SUPPORT, TURN, GrizzledState
from engines.grizzled.view import build_view, render, seat_must_act


class GrizzledEngine(Engine[GrizzledState]):
    id = "grizzled"
    title = "The Grizzled"
    min_players = 2
    max_players = 5
    options: Mapping[str, Option] = {
        "characters": Option(CHARACTER_MODES[0], "choose: every player secretly chooses a Grizzled at the start "
                             "(GR-11); random: they are dealt", CHARACTER_MODES),
    }

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> GrizzledState:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"The Grizzled takes {self.min_players}-{self.max_players} players, not {len(players)}")
        opts = self.resolve_options(options)
        return new_state(list(players), seed, str(opts["characters"]))

    def to_json(self, state: GrizzledState) -> str:
        return state.to_json()

    def from_json(self, text: str) -> GrizzledState:
        return GrizzledState.from_json(text)

    def state_version(self, state: GrizzledState) -> int:
        return state.version

    def decision_key(self, state: GrizzledState, seat: Seat) -> str:
        return str(state.step_version)

    def to_act(self, state: GrizzledState) -> frozenset[Seat]:
        return frozenset(p for p in range(state.n) if seat_must_act(state, p))

    def legal_actions(self, state: GrizzledState, seat: Seat) -> list[Choice]:
        return commands.choices(state, seat)

    def parse(self, state: GrizzledState, seat: Seat, text: str) -> Action:
        return commands.parse(state, seat, text)

    def format(self, state: GrizzledState, action: Action) -> str:
        return commands.format_action(action)

    def apply(self, state: GrizzledState, seat: Seat, action: Action) -> tuple[GrizzledState, list[Event]]:
        if action not in commands.legal(state, seat):
            raise IllegalCommand(tr("`{format_action}` is not possible for you now.", format_action=commands.format_action(action)))
        s = state.clone()
        s.version += 1
        events: list[Event] = []
        a = action.args
        if action.kind == "choose":
            rules.choose_character(s, seat, str(a[0]), events)
        elif action.kind == "intensity":
            rules.choose_intensity(s, seat, int(str(a[0])), events)
        elif action.kind == "play":
            rules.play(s, seat, str(a[0]), events)
        elif action.kind == "charm":
            rules.use_charm(s, seat, str(a[0]), events)
        elif action.kind == "speech":
            rules.speech(s, seat, str(a[0]), events)
        elif action.kind == "withdraw":
            rules.withdraw(s, seat, _opt(a[0]), _opt(a[1]), events)
        elif action.kind == "discard":
            rules.answer_speech(s, seat, str(a[0]), events)
        elif action.kind == "keep":
            rules.answer_speech(s, seat, "", events)
        elif action.kind == "heal":
            rules.christmas(s, seat, str(a[0]), events)
        else:  # remove / recover / decline: the group's help (GR-45 .. GR-47)
            rules.take_help(s, seat, action.kind, tuple(str(x) for x in a), events)
        if not _collecting(state, s):
            s.step_version = s.version  # a new decision began
        return s, events

    def view(self, state: GrizzledState, seat: Seat | None) -> dict[str, Any]:
        return build_view(state, seat)

    def render_view(self, view: Mapping[str, Any], lang: str) -> str:
        return render(view, lang)

    def default_action(self, state: GrizzledState, seat: Seat) -> Action:
        return CoopBot().choose(self, state, seat, bot_rng(self, state, seat))

    def outcome(self, state: GrizzledState) -> Outcome | None:
        if state.phase != OVER:
            return None
        reason = rules.REASONS[state.reason]
        winners = frozenset(range(state.n)) if state.result == "won" else frozenset()
        return Outcome(winners, False, reason)

    def score(self, state: GrizzledState) -> Mapping[Seat, float] | None:
        """The team's progress, the same for every seat (co-operative): 1 for a win, else how
        much of the Trials pile is gone (the Trials are what the team must get through)."""
        progress = 1.0 if state.result == "won" else 1.0 - len(state.trials) / TRIALS_PILE_SIZE
        return {seat: round(min(max(progress, 0.0), 1.0), 3) for seat in range(state.n)}

    def bots(self) -> Mapping[str, Bot[GrizzledState]]:
        return {"random": RandomBot(), "heuristic": CoopBot(), "coop": CoopBot()}

    def plant_markers(self, state: GrizzledState) -> tuple[GrizzledState, dict[Seat | None, list[str]]]:
        s = state.clone()
        markers: dict[Seat | None, list[str]] = {p: [] for p in range(s.n)}
        for p in range(s.n):
            s.hands[p] = [f"MARK{p}HAND{i}Z" for i in range(len(s.hands[p]))]
            s.tiles[p] = [f"MARK{p}TILE{i}Z" for i in range(len(s.tiles[p]))]
            markers[p] += s.hands[p] + s.tiles[p]
            if s.placed_tile[p] is not None:
                s.placed_tile[p] = f"MARK{p}PLACEDZ"
                markers[p].append(f"MARK{p}PLACEDZ")
        for key, face in s.responses.items():
            s.responses[key] = f"MARK{key}ANSWER{face}Z"
            markers[int(key)].append(s.responses[key])
        for key, cid in s.picks.items():
            s.picks[key] = f"MARK{key}PICK{cid}Z"
            markers[int(key)].append(s.picks[key])
        s.trials = [f"MARKTRIALS{i}Z" for i in range(len(s.trials))]
        s.reserve = [f"MARKRESERVE{i}Z" for i in range(len(s.reserve))]
        s.rng = 987_654_321_123_456_789
        markers[None] = [*s.trials, *s.reserve, str(s.rng)]
        return s, markers

    def sample_illegal_commands(self, state: GrizzledState, seat: Seat) -> list[str]:
        out = ["", "xyzzy", "!!!", "999 999 999", "play 99", "intensity 0", "intensity 99"]
        if state.phase != INTENSITY:
            out.append("intensity 3")
        if state.phase != CHOOSE or seat not in state.choosers:
            out.append("choose felix")
        else:
            out += [f"choose {cid}" for cid in state.characters if cid]  # already taken
        if state.phase not in (TURN,) or seat != state.turn:
            out += ["speech rain", "play 1"]
        if state.phase in (CHRISTMAS, SUPPORT):
            out.append("keep")
        return out


def _collecting(before: GrizzledState, after: GrizzledState) -> bool:
    """Whether an action only added or replaced a secret choice in a simultaneous step that is still
    gathering them: the decision key stays (a Speech answer, a Grizzled asked for in this round)."""
    if before.phase != after.phase:
        return False
    return after.phase == SPEECH or (after.phase == CHOOSE and bool(after.picks))


def _opt(value: str | int | bool | None) -> str | None:
    return None if value is None else str(value)


ENGINE = GrizzledEngine()
