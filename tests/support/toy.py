"""A tiny complete engine for testing the conformance suite and the service.

"High or Low": each player holds 3 secret cards from a shuffled deck 1..20. Each round the
leader calls ``high`` or ``low`` (a sequential turn), then every player secretly plays one
card at once (a simultaneous step, replaceable until the last seat has chosen). The highest
(or lowest) card scores a point. After 3 rounds the most points win; a tie for the most is a
draw. Small, but it has every shape the service must handle: hidden hands, hidden deck
order, a sequential turn, a secret simultaneous choice and an outcome.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from engines.bots import RandomBot, bot_rng
from engines.contract import (
    Action,
    Bot,
    Choice,
    Engine,
    Event,
    IllegalCommand,
    InvalidCommand,
    Option,
    Outcome,
    Seat,
    Text,
    tr,
)
from engines.rng import Rng
from engines.wording import strip_fillers


def fixed_pair(en: str, vi: str) -> Text:
    """The toy's words in English and Vietnamese, fixed: a test engine keeps its few sentences
    out of the production catalogs (the real engines' sentences are catalog messages)."""
    return Text(en, literal={"en": en, "vi": vi})


@dataclass
class ToyState:
    players: list[str]
    rng: int
    deck: list[str]
    hands: list[list[str]]
    scores: list[int]
    round: int = 1
    rounds: int = 3
    leader: int = 0
    call: str | None = None
    chosen: dict[str, str] = field(default_factory=dict)  # seat (as str, for JSON) -> card
    version: int = 0
    step_version: int = 0


class HighCardBot(Bot[ToyState]):
    """Plays its highest card on ``high``, lowest on ``low``; calls by its hand."""

    name = "heuristic"

    def choose(self, engine: Engine[ToyState], state: ToyState, seat: Seat, rng: random.Random) -> Action:
        hand = sorted(state.hands[seat], key=int)
        if state.call is None:
            return Action("call", ("high" if int(hand[-1]) >= 11 else "low",))
        return Action("play", (hand[-1] if state.call == "high" else hand[0],))


class ToyEngine(Engine[ToyState]):
    id = "toy"
    title = "High or Low"
    min_players = 2
    max_players = 4
    options: Mapping[str, Option] = {"rounds": Option(3, "rounds to play", (1, 2, 3))}

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> ToyState:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError("High or Low takes 2-4 players")
        opts = self.resolve_options(options)
        rng = Rng(seed)
        deck = [str(n) for n in range(1, 21)]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(opts["rounds"])] for _ in players]
        return ToyState(list(players), rng.state, deck, hands, [0] * len(players), rounds=opts["rounds"])

    def to_json(self, state: ToyState) -> str:
        return json.dumps(asdict(state), sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> ToyState:
        return ToyState(**json.loads(text))

    def state_version(self, state: ToyState) -> int:
        return state.version

    def decision_key(self, state: ToyState, seat: Seat) -> str:
        return str(state.step_version)

    def to_act(self, state: ToyState) -> frozenset[Seat]:
        if state.round > state.rounds:
            return frozenset()
        if state.call is None:
            return frozenset({state.leader})
        return frozenset(s for s in range(len(state.players)) if str(s) not in state.chosen)

    def legal_actions(self, state: ToyState, seat: Seat) -> list[Choice]:
        if state.round > state.rounds:
            return []
        if state.call is None:
            if seat != state.leader:
                return []
            return [
                Choice(Action("call", ("high",)), "high", fixed_pair("call high: the highest card scores", "gọi cao")),
                Choice(Action("call", ("low",)), "low", fixed_pair("call low: the lowest card scores", "gọi thấp")),
            ]
        return [
            Choice(Action("play", (c,)), f"play {c}", fixed_pair(f"play your {c}", f"đánh lá {c}"))
            for c in sorted(state.hands[seat], key=int)
        ]

    def parse(self, state: ToyState, seat: Seat, text: str) -> Action:
        words = re.sub(r"[^\w ]", " ", strip_fillers(text).lower()).split()
        if not words:
            raise InvalidCommand(fixed_pair("Empty command: write e.g. `high` or `play 7`.", "Lệnh trống."))
        if len(words) == 1 and words[0] in ("high", "cao", "low", "thấp", "thap"):
            action = Action("call", ("high" if words[0] in ("high", "cao") else "low",))
        elif words[0] in ("play", "đánh", "danh") and len(words) == 2 and words[1].isdigit():
            action = Action("play", (str(int(words[1])),))
        else:
            raise InvalidCommand(fixed_pair(f"Cannot read {text!r}: write `high`, `low` or `play N`.", f"Không hiểu {text!r}."),
                                 [c.command for c in self.legal_actions(state, seat)])
        legal = {c.action for c in self.legal_actions(state, seat)}
        if action not in legal:
            raise IllegalCommand(fixed_pair(f"{self.format(state, action)!r} is not possible now.", "Không được lúc này."),
                                 [c.command for c in self.legal_actions(state, seat)])
        return action

    def format(self, state: ToyState, action: Action) -> str:
        return str(action.args[0]) if action.kind == "call" else f"play {action.args[0]}"

    def apply(self, state: ToyState, seat: Seat, action: Action) -> tuple[ToyState, list[Event]]:
        if action not in {c.action for c in self.legal_actions(state, seat)}:
            raise IllegalCommand(tr(f"{action} is not legal for seat {seat} now"))
        name = state.players[seat]
        s = replace(state, hands=[list(h) for h in state.hands], scores=list(state.scores),
                    chosen=dict(state.chosen), version=state.version + 1)
        if action.kind == "call":
            s.call = str(action.args[0])
            s.step_version = s.version
            return s, [Event(fixed_pair(f"{name} calls {s.call}.", f"{name} gọi {s.call}."))]
        card = str(action.args[0])
        events = []
        if str(seat) not in s.chosen:
            events.append(Event(fixed_pair(f"{name} has chosen a card.", f"{name} đã chọn bài.")))
        s.chosen[str(seat)] = card
        events.append(Event(fixed_pair(f"You chose your {card}.", f"Bạn chọn lá {card}."), frozenset({seat})))
        if len(s.chosen) < len(s.players):
            return s, events
        played = {int(k): v for k, v in s.chosen.items()}
        for p, c in played.items():
            s.hands[p].remove(c)
        pick = max if s.call == "high" else min
        winner = pick(played, key=lambda p: int(played[p]))
        s.scores[winner] += 1
        shown = ", ".join(f"{s.players[p]} {c}" for p, c in sorted(played.items()))
        events.append(Event(fixed_pair(f"Cards: {shown}. {s.players[winner]} scores.",
                               f"Bài: {shown}. {s.players[winner]} ghi điểm.")))
        s.chosen = {}
        s.call = None
        s.round += 1
        s.leader = (s.leader + 1) % len(s.players)
        s.step_version = s.version
        return s, events

    def view(self, state: ToyState, seat: Seat | None) -> dict[str, Any]:
        return {
            "players": state.players,
            "scores": state.scores,
            "round": state.round,
            "rounds": state.rounds,
            "leader": state.leader,
            "call": state.call,
            "you": seat,
            "hand": sorted(state.hands[seat], key=lambda c: (len(c), c)) if seat is not None else None,
            "chosen_by": sorted(int(k) for k in state.chosen),
            "my_choice": state.chosen.get(str(seat)) if seat is not None else None,
            "deck_size": len(state.deck),
        }

    def render_view(self, view: Mapping[str, Any], lang: str) -> str:
        scores = ", ".join(f"{n}: {s}" for n, s in zip(view["players"], view["scores"], strict=True))
        lines = [f"Round {view['round']}/{view['rounds']}. Scores: {scores}."]
        if view["call"]:
            lines.append(f"Call: {view['call']}.")
        if view["hand"] is not None:
            lines.append("Your hand: " + " ".join(view["hand"]))
        return "\n".join(lines)

    def default_action(self, state: ToyState, seat: Seat) -> Action:
        return HighCardBot().choose(self, state, seat, bot_rng(self, state, seat))

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.round <= state.rounds:
            return None
        best = max(state.scores)
        winners = frozenset(i for i, s in enumerate(state.scores) if s == best)
        if len(winners) > 1:
            return Outcome(frozenset(), True, fixed_pair("tied on points", "hòa điểm"))
        return Outcome(winners, False, fixed_pair(f"most points ({best})", f"nhiều điểm nhất ({best})"))

    def bots(self) -> Mapping[str, Bot[ToyState]]:
        return {"random": RandomBot(), "heuristic": HighCardBot()}

    def plant_markers(self, state: ToyState) -> tuple[ToyState, dict[Seat | None, list[str]]]:
        markers: dict[Seat | None, list[str]] = {}
        hands = []
        for seat, hand in enumerate(state.hands):
            planted = [f"MARK{seat}H{i}Z" for i in range(len(hand))]
            hands.append(planted)
            markers[seat] = list(planted)
        chosen = {k: f"MARK{k}C{v}Z" for k, v in state.chosen.items()}
        for k, v in chosen.items():
            markers[int(k)].append(v)
        deck = [f"MARKDECK{i}Z" for i in range(len(state.deck))]
        rng = 987_654_321_123_456_789
        markers[None] = [*deck, str(rng)]
        return replace(state, hands=hands, chosen=chosen, deck=deck, rng=rng), markers


ENGINE = ToyEngine()
