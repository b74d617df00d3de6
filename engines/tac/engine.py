"""The TAC engine: the contract's methods on top of the rules modules.

Layout: ``cards`` (+ ``cards.toml``, the deck as data), ``board`` (geometry, ordinary moves),
``seven`` (the 7), ``plays`` (what each card can do), ``dealing`` (deals, announcement, partner
exchange), ``flow`` (turns, TAC, Devil, winning), ``commands`` (reading and writing commands), ``labels`` and
``view`` (what people read), ``bots``, ``setup`` (positions for tests), ``scenario`` (prepared
deals: replaying recorded games); every OPEN resolution lives in ``rules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engines import i18n
from engines.bots import RandomBot, bot_rng
from engines.contract import (
    Action,
    AmbiguousCommand,
    Bot,
    Choice,
    Engine,
    Event,
    IllegalCommand,
    InvalidCommand,
    Option,
    Outcome,
    Seat,
    tr,
)
from engines.rng import Rng
from engines.tac import commands as notation
from engines.tac import content as cardlib
from engines.tac import dealing, flow, seven
from engines.tac.board import HOME, LETTERS, WAIT, Board, controlled_seat, marble_name
from engines.tac.bots import HeuristicBot
from engines.tac.labels import lazy_label
from engines.tac.plays import MARBLE_BY_NAME, action_card, part_text
from engines.tac.rules import (
    RANDOM_FIRST_DEALER,
    SEVEN_IN_HOME_CHOICES,
    SEVEN_IN_HOME_DEFAULT,
    SEVEN_STUCK_CHOICES,
    SEVEN_STUCK_DEFAULT,
)
from engines.tac.state import TacState
from engines.tac.view import render, view

MENU_SPLITS = 4  # extra 7 splits shown in the menu besides "all seven on one marble"
MENU_LIMIT = 12  # more 7 splits or Trickser swaps than this are shortened in the menu


class TacEngine(Engine[TacState]):
    id = "tac"
    title = "TAC"
    min_players = 4
    max_players = 4
    options: Mapping[str, Option] = {
        "version": Option("base", "base: 100 cards; master: 104 with Angel, Devil, Warrior, Fool (TAC-3, TAC-87)",
                          ("base", "master")),
        "seven_in_home": Option(SEVEN_IN_HOME_DEFAULT, "may the 7 step backward inside a home (TAC-39)",
                                SEVEN_IN_HOME_CHOICES),
        "seven_stuck": Option(SEVEN_STUCK_DEFAULT, "inside a home, is a marble stuck after every step of a 7 "
                              "or only once the 7 is finished (TAC-39)", SEVEN_STUCK_CHOICES),
    }

    # -- creating and storing -------------------------------------------------

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> TacState:
        if len(players) != 4:
            raise ValueError("TAC takes exactly four players (two teams, partners opposite)")
        opts = {k: str(v) for k, v in self.resolve_options(options).items()}
        rng = Rng(seed)
        deck = cardlib.deck(opts["version"])
        rng.shuffle(deck)
        dealer = rng.below(4) if RANDOM_FIRST_DEALER else 3  # seat 3 deals: seat 0 plays first
        state = TacState(players=list(players), options=opts, rng=rng.state, deck=deck, pile=[],
                         hands=[[], [], [], []], pos=[WAIT] * 16, fresh=[False] * 16, dealer=dealer)
        dealing.deal(state)
        return state

    def to_json(self, state: TacState) -> str:
        return state.to_json()

    def from_json(self, text: str) -> TacState:
        return TacState.from_json(text)

    def state_version(self, state: TacState) -> int:
        return state.version

    def decision_key(self, state: TacState, seat: Seat) -> str:
        if state.phase == "exchange":
            return f"x{state.step_version}"
        return str(state.version)

    # -- whose turn, what may they do ----------------------------------------

    def to_act(self, state: TacState) -> frozenset[Seat]:
        if state.phase == "exchange":
            return frozenset(p for p in range(4) if str(p) not in state.gifts)
        if state.phase == "play":
            return frozenset({state.turn})
        return frozenset()

    def legal_actions(self, state: TacState, seat: Seat) -> list[Choice]:
        key = ("choices", seat)
        if key not in state.cache:
            legal = flow.legal(state, seat)
            before = state.board
            state.cache[key] = [
                Choice(a, notation.format_action(a, legal), lazy_label(state, seat, a, before, after),
                       i18n.LazyWords(notation.format_in, a, legal))
                for a, after in legal.items()
            ]
        choices: list[Choice] = state.cache[key]
        return choices

    def menu(self, state: TacState, seat: Seat) -> list[Choice]:
        """The numbered menu: every action, except that the two card kinds with very many ways
        stay short — a 7 shows whole-7 moves and a few splits, a Trickser the swaps of your own
        marbles first. Everything else is written as text (the syntax is explained in the view).
        """
        choices = self.legal_actions(state, seat)
        out = [c for c in choices if c.action.kind not in ("seven", "trick")]
        sevens = [c for c in choices if c.action.kind == "seven"]
        if len(sevens) <= MENU_LIMIT:
            out += sevens
        else:
            out += [c for c in sevens if len(c.action.args) == 1]
            out += [c for c in sevens if len(c.action.args) > 1][:MENU_SPLITS]
        tricks = [c for c in choices if c.action.kind == "trick"]
        if len(tricks) > MENU_LIMIT:
            own = LETTERS[controlled_seat(state.board, seat)]
            tricks = sorted(tricks, key=lambda c: not any(str(a).startswith(own) for a in c.action.args))
        return out + tricks[:MENU_LIMIT]

    def _acting_legal(self, state: TacState) -> dict[Action, Board | None]:
        return flow.legal(state, state.turn) if state.phase == "play" else {}

    def format(self, state: TacState, action: Action) -> str:
        return notation.format_action(action, self._acting_legal(state))

    def parse(self, state: TacState, seat: Seat, text: str) -> Action:
        text = notation.strip_polite(text)  # "5 a1 please", "13 mở nhé": then the whole line is read
        legal = flow.legal(state, seat)
        ex = _Examples(self, state, seat, legal)
        if not text.strip():
            if not ex.menu:
                raise InvalidCommand(tr("Empty command. Write e.g. give 12."),
                                     ex.commands[:6])
            raise InvalidCommand(tr("Empty command. Write e.g. {shown}.", shown=ex.shown),
                                 ex.commands[:6])
        try:
            reading = notation.read(text)
        except InvalidCommand as err:
            raise InvalidCommand(tr("{message} Write e.g. {shown}.", message=err.message, shown=ex.shown),
                                 ex.commands[:6]) from None
        if not legal:
            raise IllegalCommand(tr("It is not your turn to act."))
        if not (reading.card or reading.verb or reading.marbles or reading.skip or reading.start):
            raise InvalidCommand(tr("Cannot find a card or a move in {strip!r}. Write e.g. {shown}.", strip=text.strip(), shown=ex.shown), ex.commands[:6])
        if reading.card == "7" and reading.verb is None and reading.parts and any(
            a.kind == "seven" for a in legal
        ):
            return self._parse_seven(state, seat, text, reading, legal, ex)
        card_of = {a: action_card(a) for a in legal}
        found = notation.match(reading, legal, card_of)
        if len(found) == 1:
            return found[0]
        if not found:
            hand_cards = sorted({card_of[a] for a in legal})
            raise notation.refuse_none(text, reading, hand_cards, ex.commands, ex.in_lang)
        raise notation.refuse_many(text, [notation.format_action(a, legal) for a in found],
                                   notation.per_lang(found, legal))

    def _parse_seven(self, state: TacState, seat: Seat, text: str, reading: notation.Reading,
                     legal: dict[Action, Board | None], ex: _Examples) -> Action:
        who = int(state.pending["victim"]) if state.pending and state.pending["kind"] == "devil" else seat
        board = state.board
        raw = reading.parts
        if len(raw) == 1 and raw[0][1] == 0:
            raw = [(raw[0][0], 7, raw[0][2])]  # "7 a2": all seven steps for one marble
        elif len(raw) > 1:
            # "7 a4 c3" without step numbers: colour letter + steps, as people write it
            raw = [(m[0], int(m[1]), e) if k == 0 and len(m) == 2 else (m, k, e) for m, k, e in raw]
        home = flow.home_steps(state)
        after = board
        done: list[tuple[int, int, int]] = []
        try:
            if sum(k for _, k, _ in raw) != 7:
                raise seven.SplitError("the parts must add up to 7 steps")
            for written, steps, end in raw:
                # resolved part by part: after the fourth marble is home, letters mean the partner's
                marble = self._seven_marble(after, who, written, steps, home, ex)
                part, after = seven.simulate(after, who, [(marble, steps, end)], home, total=steps)
                done.extend(part)
        except seven.SplitError as err:
            examples = ex.sevens
            raise IllegalCommand(tr("Cannot carry out {strip!r}: {err}. Examples: {join}.", strip=text.strip(), err=err, join=', '.join(examples)),
                                 examples) from None
        key = after.key()
        for action, res in legal.items():
            if action.kind == "seven" and res is not None and res.key() == key:
                return action
        return Action("seven", tuple(part_text(m, k, e) for m, k, e in done))

    @staticmethod
    def _seven_marble(board: Board, seat: int, written: str, steps: int, home: seven.HomeSteps,
                     ex: _Examples) -> int:
        """A written marble: a full name, or a colour letter when one marble of it can take the steps."""
        if written in MARBLE_BY_NAME:
            return MARBLE_BY_NAME[written]
        ctrl = controlled_seat(board, seat)
        fits = [m for m in range(4 * ctrl, 4 * ctrl + 4) if marble_name(m).startswith(written)
                and board.pos[m] != WAIT and seven.part_results(board, m, steps, home)[steps]]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            raise seven.SplitError(f"no marble of colour {written} can take {steps} steps now")
        examples = ex.sevens
        raise AmbiguousCommand(tr("{written!r} may mean several marbles; write the full name, e.g. {join}.", written=written, join=', '.join(examples)), examples)

    def apply(self, state: TacState, seat: Seat, action: Action) -> tuple[TacState, list[Event]]:
        legal = flow.legal(state, seat)
        if action in legal:
            after = legal[action]
        elif action.kind == "seven" and any(a.kind == "seven" for a in legal):
            after = self._written_seven(state, seat, action)
        else:
            raise IllegalCommand(tr("{kind} {join} is not legal now.", kind=action.kind, join=' '.join(map(str, action.args))),
                                 [c.command for c in self.menu(state, seat)][:6] if legal else [])
        s = state.clone()
        s.version += 1
        if s.phase == "exchange":
            return s, dealing.choose_gift(s, seat, str(action.args[0]))
        events = flow.play(s, seat, action, after)
        if s.last_play is not state.last_play and s.last_play is not None and not s.last_play.get("discard"):
            # which marbles the play moved, from where to where (public: the board shows both),
            # so a mail can draw the last move as arrows
            moved = [[marble_name(m), old, new] for m, (old, new) in enumerate(zip(state.pos, s.pos, strict=True))
                     if old != new]
            s.last_play = {**s.last_play, "moves": moved}
        return s, events

    def _written_seven(self, state: TacState, seat: Seat, action: Action) -> Board:
        who = int(state.pending["victim"]) if state.pending and state.pending["kind"] == "devil" else seat
        parts: list[tuple[int, int, int | None]] = []
        for part in action.args:
            text = str(part)
            try:
                marble, rest = text.split(":")
                steps, _, end = rest.partition(">h")
                parts.append((MARBLE_BY_NAME[marble], int(steps), HOME + int(end) - 1 if end else None))
            except (ValueError, KeyError):
                raise IllegalCommand(tr("Bad 7 part {text!r}.", text=text)) from None
        try:
            return seven.simulate(state.board, who, parts, flow.home_steps(state))[1]
        except seven.SplitError as err:
            raise IllegalCommand(tr("That 7 split is not legal: {err}.", err=err)) from None

    # -- what people see ------------------------------------------------------

    def view(self, state: TacState, seat: Seat | None) -> dict[str, Any]:
        return view(state, seat)

    def render_view(self, view: Mapping[str, Any], lang: str) -> str:
        return render(view, lang)

    # -- time-outs and the end -------------------------------------------------

    def default_action(self, state: TacState, seat: Seat) -> Action:
        return HeuristicBot().choose(self, state, seat, bot_rng(self, state, seat))

    def outcome(self, state: TacState) -> Outcome | None:
        if state.winners is None:
            return None
        w = state.winners
        a, b = state.players[w], state.players[w + 2]
        return Outcome(frozenset({w, w + 2}), False,
                       tr("{a} and {b} brought all eight marbles home", a=a, b=b))

    def bots(self) -> Mapping[str, Bot[TacState]]:
        return {"random": RandomBot(), "heuristic": HeuristicBot()}

    # -- conformance hooks ------------------------------------------------------

    def plant_markers(self, state: TacState) -> tuple[TacState, dict[Seat | None, list[str]]]:
        s = state.clone()
        markers: dict[Seat | None, list[str]] = {}
        revealed = int(state.pending["victim"]) if state.pending and state.pending["kind"] == "devil" else None
        for seat in range(4):
            s.hands[seat] = [f"MARK{seat}H{i}Z" for i in range(len(state.hands[seat]))]
            markers[seat] = [] if seat == revealed else list(s.hands[seat])
        s.gifts = {k: f"MARK{k}GIFTZ" for k in state.gifts}
        for k, v in s.gifts.items():
            markers[int(k)].append(v)
        s.deck = [f"MARKDECK{i}Z" for i in range(len(state.deck))]
        s.rng = 987_654_321_123_456_789
        markers[None] = [*s.deck, str(s.rng)]
        return s, markers

    def sample_illegal_commands(self, state: TacState, seat: Seat) -> list[str]:
        out = ["", "xyzzy", "!!!", "999 999 999", "11 a1", "7 a1:9"]
        if state.phase == "play":
            out.append("give 5")
        return out


class _Examples:
    """The menu's commands a refused command is answered with, worked out only when one is
    refused: a good command (every move of a replayed log) needs no menu, its labels or its
    words in each language."""

    def __init__(self, engine: TacEngine, state: TacState, seat: Seat, legal: dict[Action, Board | None]) -> None:
        self._engine, self._state, self._seat, self._legal = engine, state, seat, legal

    @cached_property
    def menu(self) -> list[Choice]:
        return self._engine.menu(self._state, self._seat) if self._legal else []

    @cached_property
    def commands(self) -> list[str]:
        return [c.command for c in self.menu]

    @cached_property
    def in_lang(self) -> dict[str, list[str]]:
        """The examples in the reader's words."""
        return i18n.each_lang(lambda lang: [c.command_in(lang) for c in self.menu])

    @cached_property
    def shown(self) -> dict[str, str]:
        return notation.in_words(self.in_lang, 4)

    @cached_property
    def sevens(self) -> list[str]:
        """Examples for a refused 7: the menu's 7s, else any six commands."""
        return [c for c in self.commands if c.startswith("7")][:6] or self.commands[:6]


ENGINE = TacEngine()
