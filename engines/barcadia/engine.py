"""Heroes of Barcadia on the pbem engine contract (``ENGINE``).

The rules live in small modules: ``rules`` (dice, damage, fights), ``flow`` (turns, pending
decisions, the between-turns window), ``moves`` (legal actions), ``commands`` (text),
``view`` (what a seat sees), ``setup`` (new games and test positions), ``bots``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.barcadia import moves
from engines.barcadia import resolutions as R
from engines.barcadia.bots import HeuristicBot
from engines.barcadia.choices import LazyChoice
from engines.barcadia.commands import format_action, parse_command
from engines.barcadia.flow import execute
from engines.barcadia.rules import Events, limit_key, limit_ranking
from engines.barcadia.setup import new_game
from engines.barcadia.state import KNOWN, PHASE_CHARACTERS, PHASE_OVER, PHASE_WINDOW, TILE, UP, BarcadiaState
from engines.barcadia.view import make_view, ranking_text, render
from engines.bots import RandomBot, bot_rng
from engines.contract import (
    Action,
    Bot,
    Choice,
    Engine,
    IllegalCommand,
    Option,
    Outcome,
    Seat,
    tr,
)

MENU_GROUP = 12


class BarcadiaEngine(Engine[BarcadiaState]):
    id = "barcadia"
    title = "Heroes of Barcadia"
    min_players = 2
    max_players = 6
    options: Mapping[str, Option] = {
        "layout": Option("random", "random: the engine lays a connected dungeon from the seed; "
                                   "players: players place the face-down rooms in turn (HB-15)", ("random", "players")),
        "small_game_removal": Option(True, "remove 20 rooms with 2-3 players (HB-13)", (True, False)),
        "signature_moves": Option(False, "Kickstarter Signature Moves (HB-68)", (True, False)),
        "characters": Option("choose", "with Signature Moves: choose: every player chooses a character, secretly and "
                                       "all at once (HB-68); random: the characters are dealt", R.CHARACTER_MODES),
        "house_rules": Option(False, "Kickstarter House Rules (HB-69)", (True, False)),
        "turn_limit": Option(R.DEFAULT_TURN_LIMIT, "turns (all seats together) after which the game ends, ranked by "
                                                   "Power-Ups, then HP (HB-71; 0 = no limit, the default)"),
    }

    def __init__(self) -> None:
        self._cache: tuple[BarcadiaState, int, Seat, list[Action]] | None = None
        self._choices: tuple[BarcadiaState, int, Seat, list[Choice]] | None = None

    # -- creating and storing -------------------------------------------------

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> BarcadiaState:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError("Heroes of Barcadia takes 2-6 players")
        opts = self.resolve_options(options)
        if not isinstance(opts["turn_limit"], int) or opts["turn_limit"] < 0:
            raise ValueError("barcadia: option turn_limit must be a whole number >= 0")
        return new_game(players, opts, seed)

    def to_json(self, state: BarcadiaState) -> str:
        return state.to_json()

    def from_json(self, text: str) -> BarcadiaState:
        return BarcadiaState.from_json(text)

    def state_version(self, state: BarcadiaState) -> int:
        return state.version

    def decision_key(self, state: BarcadiaState, seat: Seat) -> str:
        if state.phase in (PHASE_WINDOW, PHASE_CHARACTERS) and not state.pending and state.window.get("open"):
            return f"w{state.step_version}"
        return str(state.version)

    # -- whose turn, what may they do ----------------------------------------

    def to_act(self, state: BarcadiaState) -> frozenset[Seat]:
        return moves.to_act(state)

    def _legal(self, state: BarcadiaState, seat: Seat) -> list[Action]:
        """Legal actions, cached for the last (state object, seat): states are never mutated."""
        c = self._cache
        if c is not None and c[0] is state and c[1] == state.version and c[2] == seat:
            return c[3]
        acts = moves.legal(state, seat)
        self._cache = (state, state.version, seat, acts)
        return acts

    def legal_actions(self, state: BarcadiaState, seat: Seat) -> list[Choice]:
        c = self._choices
        if c is not None and c[0] is state and c[1] == state.version and c[2] == seat:
            return list(c[3])
        choices: list[Choice] = [LazyChoice(state, seat, a) for a in self._legal(state, seat)]
        self._choices = (state, state.version, seat, choices)
        return list(choices)

    def menu(self, state: BarcadiaState, seat: Seat) -> list[Choice]:
        """The mail menu: every kind of move, but at most ``MENU_GROUP`` rooms per kind.

        Why: a Trap card alone can target ~50 rooms and a 3-step move ~100 paths; the menu keeps
        single steps and the first rooms of each group, and the view's command line explains
        that ``trap 12`` / ``enter 3 7`` / ``put 12`` work for any room.
        """
        seen: dict[tuple[str, str], int] = {}
        choices = self.legal_actions(state, seat)
        ordered = sorted(choices, key=lambda c: (c.action.kind != "enter" or len(c.action.args) > 1))
        keep = set()
        for c in ordered:
            group = (c.action.kind, str(c.action.args[0]) if c.action.kind == "play" else "")
            seen[group] = seen.get(group, 0) + 1
            if seen[group] <= MENU_GROUP:
                keep.add(c.action)
        return [c for c in choices if c.action in keep]

    def parse(self, state: BarcadiaState, seat: Seat, text: str) -> Action:
        return parse_command(state, seat, text, self._legal(state, seat))

    def format(self, state: BarcadiaState, action: Action) -> str:
        return format_action(state, action)

    def apply(self, state: BarcadiaState, seat: Seat, action: Action) -> tuple[BarcadiaState, Events]:
        legal = self._legal(state, seat)
        # Identity first: the action usually is one of the very objects legal_actions offered,
        # and comparing dataclasses one by one costs more than the rest of the check.
        if not any(a is action for a in legal) and action not in legal:
            raise IllegalCommand(tr("{kind} {join} is not legal now", kind=action.kind, join=' '.join(str(a) for a in action.args)))
        s = state.clone()
        s.version += 1
        ev: Events = []
        execute(s, seat, action, ev)
        return s, ev

    # -- what people see ------------------------------------------------------

    def view(self, state: BarcadiaState, seat: Seat | None) -> dict[str, Any]:
        return make_view(state, seat)

    def render_view(self, view: Mapping[str, Any], lang: str) -> str:
        return render(view, lang)

    # -- time-outs and the end -------------------------------------------------

    def default_action(self, state: BarcadiaState, seat: Seat) -> Action:
        return HeuristicBot().choose(self, state, seat, bot_rng(self, state, seat))

    def outcome(self, state: BarcadiaState) -> Outcome | None:
        if state.phase != PHASE_OVER:
            return None
        if state.winner >= 0:
            who = state.players[state.winner]
            return Outcome(frozenset({state.winner}), False,
                           tr("{who} beat the Grand Drink Guardian and took the Drink Hoard", who=who))
        # HB-71: a turn limit ended the game; the players are ranked by Power-Ups, then HP.
        ranking = limit_ranking(state)
        ranked = ranking_text([(state.players[p], *limit_key(state, p)) for p in ranking])
        limit = state.options.get("turn_limit")
        first, second = ranking[0], ranking[1]
        if limit_key(state, first) == limit_key(state, second):
            return Outcome(frozenset(), True, tr("the turn limit ({limit}) was reached with a tie at the top: {ranked}", limit=limit, ranked=ranked))
        who = state.players[first]
        return Outcome(frozenset({first}), False,
                       tr("the turn limit ({limit}) was reached and {who} leads on Power-Ups, then HP: {ranked}", limit=limit, who=who, ranked=ranked))

    def score(self, state: BarcadiaState) -> dict[Seat, float]:
        """HB-71 for leagues: each seat's standing by Power-Ups, then HP, as a number in 0..1 (the
        league orders those who did not win by it, and adjudicates an unfinished game with it)."""
        top = R.MAX_POWERUPS * (R.FULL_HP + 1) + R.FULL_HP
        return {p: round(min(1.0, (pus * (R.FULL_HP + 1) + hp) / top), 4)
                for p in range(state.n) for pus, hp in [limit_key(state, p)]}

    def bots(self) -> Mapping[str, Bot[BarcadiaState]]:
        return {"random": RandomBot(), "heuristic": HeuristicBot()}

    # -- conformance hooks ------------------------------------------------------

    def plant_markers(self, state: BarcadiaState) -> tuple[BarcadiaState, dict[Seat | None, list[str]]]:
        s = state.clone()
        markers: dict[Seat | None, list[str]] = {None: []}
        for seat in range(s.n):
            s.hands[seat] = [f"MARK{seat}H{i}Z" for i in range(len(s.hands[seat]))]
            markers[seat] = list(s.hands[seat])
        if s.window.get("chosen"):
            s.window = dict(s.window, chosen=dict(s.window["chosen"]))  # shared with ``state`` until now
            for key in list(s.window["chosen"]):
                mark = f"MARK{key}CHOICEZ"
                s.window["chosen"][key] = ["play", mark]
                markers[int(key)].append(mark)
        hidden: list[str] = markers[None]
        for i, room in enumerate(s.rooms):
            if i and not room[UP] and not room[KNOWN]:
                room[TILE] = f"MARKROOM{i}Z"
                hidden.append(room[TILE])
        for name in ("loot_deck", "powerup_deck", "house_deck"):
            planted = [f"MARK{name.upper()}{i}Z" for i in range(len(getattr(s, name)))]
            setattr(s, name, planted)
            hidden += planted
        if s.placing:
            s.placing = dict(s.placing, tiles=[f"MARKPLACE{i}Z" for i in range(len(s.placing["tiles"]))])
            hidden += s.placing["tiles"]
        s.rng = 987_654_321_123_456_789
        hidden.append(str(s.rng))
        return replace(s), markers

    def sample_illegal_commands(self, state: BarcadiaState, seat: Seat) -> list[str]:
        return ["", "xyzzy", "!!!", "999 999 999", "reveal 999", "duel nobody-here", "pass pass pass"]


def play_bots(engine: BarcadiaEngine, state: BarcadiaState, bots: Sequence[Bot[BarcadiaState]], rng: random.Random,
              max_steps: int = 20_000) -> tuple[BarcadiaState, int]:
    """Play to the end with one bot per seat; returns the final state and the number of steps."""
    steps = 0
    while steps < max_steps:
        acting = sorted(engine.to_act(state))
        if not acting:
            break
        seat = acting[0]
        action = bots[seat].choose(engine, state, seat, rng)
        state, _ = engine.apply(state, seat, action)
        steps += 1
    return state, steps


ENGINE = BarcadiaEngine()
