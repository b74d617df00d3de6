"""The conformance suite every engine passes (OpenSpiel's basic_tests, boardgame.io's secrecy).

``playout(engine, n_players, seed, checks)`` plays one seeded random game to its end and
checks, along the way:

- every seat in ``to_act`` has legal actions; nobody outside it must act;
- ``parse(format(a)) == a`` and ``Choice.command == format(a)`` for legal actions;
- a sample of legal actions applies; ``apply`` never mutates its input;
- illegal commands raise a ``CommandError`` and change nothing;
- a line is a command only when the WHOLE line is one: at sampled positions, prose built from an
  English/Vietnamese word list with words and numbers of the legal commands embedded never parses,
  while the canonical commands still do, polite fillers around them included ("ok …, thanks!");
- JSON round-trips at every step; ``state_version`` grows with every action;
- views are JSON-able for every seat and an observer, render to text, and leak no marker
  planted in another seat's secrets (or in the deck / RNG);
- ``default_action`` is legal; the game ends within a step budget with a valid outcome;
- replaying the canonical commands from the same seed gives the identical final state.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from engines import i18n
from engines.contract import Action, CommandError, Engine, Event, Outcome, Seat


@dataclass(frozen=True)
class Checks:
    """How thorough one playout is. ``every`` = do the expensive checks on every n-th step."""

    every: int = 1
    max_parse_checks: int = 10_000  # legal actions round-tripped per checked step
    max_apply_checks: int = 8  # legal actions applied (on the side) per checked step
    max_steps: int = 20_000
    leak_every: int = 1
    replay: bool = True


FAST = Checks()
LIGHT = Checks(every=50, max_parse_checks=12, max_apply_checks=2, leak_every=100)

# Words of ordinary sentences in replies (English and Vietnamese) that are no command word, no
# argument word and no polite filler in any engine: a line holding one of them is a sentence.
PROSE_EN: tuple[str, ...] = (
    "kids", "dog", "think", "better", "anyway", "maybe", "would", "nice", "cool", "tomorrow", "honestly",
    "coffee", "weather", "because", "sorry", "lovely", "yesterday", "really", "idea", "guess", "wonder",
)
PROSE_VI: tuple[str, ...] = (
    "cuộc", "thì", "bao", "giờ", "nghĩ", "mai", "trời", "đẹp", "hôm", "nay", "vui", "quên", "nhưng",
    "chắc", "tuần", "thích", "vậy", "việc", "hay", "nhớ",
)
PROSE: tuple[str, ...] = PROSE_EN + PROSE_VI
POLITE: tuple[tuple[str, str], ...] = (("", " please"), ("ok ", ", thanks!"), ("", " nhé"), ("", " ạ"), ("please ", ""))
PROSE_EVERY = 3  # about one checked step in PROSE_EVERY gets the prose check


def player_names(n: int) -> list[str]:
    return ["Alice", "Bob", "Chi", "Dung", "Eve", "Phong"][:n]


def check_views(engine: Engine[Any], state: Any, n: int) -> None:
    for seat in [*range(n), None]:
        view = engine.view(state, seat)
        json.dumps(view)
        for lang in ("en", "vi"):
            text = engine.render_view(view, lang)
            assert isinstance(text, str) and text.strip(), "render_view returned no text"


def check_leaks(engine: Engine[Any], state: Any, n: int) -> None:
    planted, markers = engine.plant_markers(state)
    all_markers = {m for ms in markers.values() for m in ms}
    assert all(len(m) >= 6 for m in all_markers), "markers must be long enough to be unique"
    for viewer in [*range(n), None]:
        view = engine.view(planted, viewer)
        blob = json.dumps(view, ensure_ascii=False) + "\n"
        blob += "\n".join(engine.render_view(view, lang) for lang in ("en", "vi"))
        for owner, ms in markers.items():
            if owner == viewer and owner is not None:
                continue
            for m in ms:
                assert m not in blob, f"view of seat {viewer} leaks {m!r} owned by {owner}"
        own = markers.get(viewer, []) if viewer is not None else []
        if own:
            assert any(m in blob for m in own), f"seat {viewer} cannot see any of its own secrets {own[:3]}"


def check_step(engine: Engine[Any], state: Any, seat: int, checks: Checks, rng: random.Random) -> None:
    choices = engine.legal_actions(state, seat)
    assert choices, f"seat {seat} is to act but has no legal action"
    before = engine.to_json(state)
    actions = [c.action for c in choices]
    assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
    sample = choices if len(choices) <= checks.max_parse_checks else rng.sample(choices, checks.max_parse_checks)
    for i, c in enumerate(sample):
        text = engine.format(state, c.action)
        assert c.command == text, f"Choice.command {c.command!r} != format {text!r}"
        assert c.label.en and c.label.vi, "every choice needs a label in en and vi"
        parsed = engine.parse(state, seat, text)
        assert parsed == c.action, f"parse(format(a)) != a for {text!r}: {parsed} vs {c.action}"
        for lang in i18n.languages() if i < 3 else ():  # each language's words a menu shows mean the same action
            shown = c.command_in(lang)  # (a few choices only: parse is slow)
            if shown != c.command:
                parsed = engine.parse(state, seat, shown)
                assert parsed == c.action, f"parse(command_in({lang!r})) != a for {shown!r}: {parsed} vs {c.action}"
    for c in rng.sample(choices, min(len(choices), checks.max_apply_checks)):
        engine.apply(state, seat, c.action)
    menu = engine.menu(state, seat)
    assert menu, "menu is empty while the seat must act"
    assert {m.action for m in menu} <= set(actions), "menu offers an illegal action"
    default = engine.default_action(state, seat)
    assert default in set(actions), f"default_action {default} is not legal"
    for text in engine.sample_illegal_commands(state, seat):
        try:
            action = engine.parse(state, seat, text)
        except CommandError as err:
            assert err.message.en and err.message.vi
        else:
            raise AssertionError(f"illegal command {text!r} parsed as {action}")
    try:
        engine.apply(state, seat, Action("no-such-action", ("x",)))
    except CommandError:
        pass
    else:
        raise AssertionError("apply accepted an action that is not legal")
    assert engine.to_json(state) == before, "checking the position changed it"


def prose_lines(commands: list[str], rng: random.Random, count: int) -> list[str]:
    """Lines that are sentences, not commands: at least one ``PROSE`` word, mixed with words and
    numbers taken from ``commands`` (a whole command followed or preceded by prose included)."""
    words = [w for c in commands for w in c.replace(",", " ").split()]
    lines = []
    for i in range(count):
        prose = rng.sample(PROSE, rng.randint(1, 4))
        if i % 3 == 0 and commands:  # "order 2 1 would be nice", "honestly, play 7"
            command = rng.choice(commands)
            lines.append(f"{command} {' '.join(prose)}" if rng.random() < 0.5 else f"{' '.join(prose)}, {command}")
            continue
        mixed = prose + rng.sample(words, min(len(words), rng.randint(1, 4)))
        mixed += [str(rng.randint(0, 13)) for _ in range(rng.randint(0, 2))]
        rng.shuffle(mixed)
        lines.append(" ".join(mixed))
    return lines


def check_whole_line(engine: Engine[Any], state: Any, seat: Seat, rng: random.Random, count: int = 6) -> None:
    """A sentence never parses; the canonical commands, with polite fillers around, still do."""
    choices = engine.legal_actions(state, seat)
    sample = rng.sample(choices, min(len(choices), 3))
    for line in prose_lines([c.command for c in sample], rng, count):
        try:
            action = engine.parse(state, seat, line)
        except CommandError as err:
            assert err.message.en and err.message.vi
        else:
            raise AssertionError(f"prose line {line!r} parsed as {action}: only a whole line may be a command")
    for c in sample:
        before, after = rng.choice(POLITE)
        line = f"{before}{c.command}{after}"
        parsed = engine.parse(state, seat, line)
        assert parsed == c.action, f"{line!r} (a command with polite fillers) parsed as {parsed}, not {c.action}"


def playout(engine: Engine[Any], n: int, seed: int, checks: Checks = FAST) -> tuple[Any, list[tuple[int, str]]]:
    """Play one random game; return the final state and the (seat, command) log."""
    rng = random.Random(seed)
    prose_rng = random.Random(f"prose {engine.id} {n} {seed}")  # its own: the games played stay the same
    names = player_names(n)
    state = engine.new_game(names, None, seed)
    again = engine.new_game(names, None, seed)
    assert engine.to_json(state) == engine.to_json(again), "new_game is not deterministic"
    log: list[tuple[int, str]] = []
    version = engine.state_version(state)
    for step in range(checks.max_steps):
        to_act = engine.to_act(state)
        heavy = step % checks.every == 0
        # Serialising dominates a light playout, so the JSON checks follow the heavy steps
        # (every step in FAST) — plus the final position, which is always checked.
        text = engine.to_json(state) if heavy or not to_act else ""
        if text:
            assert engine.to_json(engine.from_json(text)) == text, "JSON round-trip changed the state"
        if not to_act:
            break
        if heavy:
            check_views(engine, state, n)
        if step % checks.leak_every == 0:
            check_leaks(engine, state, n)
        seat = rng.choice(sorted(to_act))
        if heavy:
            check_step(engine, state, seat, checks, rng)
            if prose_rng.randrange(PROSE_EVERY) == 0:
                check_whole_line(engine, state, seat, prose_rng)
        choice = rng.choice(engine.legal_actions(state, seat))
        command = engine.format(state, choice.action)
        new_state, events = engine.apply(state, seat, choice.action)
        if heavy:
            assert engine.to_json(state) == text, "apply mutated its input state"
        assert all(isinstance(e, Event) for e in events)
        for e in events:
            assert e.text.en and e.text.vi
            if e.visible_to is not None:
                assert e.visible_to <= set(range(n))
        new_version = engine.state_version(new_state)
        assert new_version > version, "state_version did not grow"
        version = new_version
        log.append((seat, command))
        state = new_state
    else:
        raise AssertionError(f"{engine.id}: no end after {checks.max_steps} steps (seed {seed})")
    outcome = engine.outcome(state)
    assert isinstance(outcome, Outcome), "finished game without an outcome"
    assert outcome.winners <= set(range(n))
    assert not (outcome.draw and outcome.winners), "a draw with winners"
    assert outcome.reason.en and outcome.reason.vi
    check_views(engine, state, n)
    check_leaks(engine, state, n)
    if checks.replay:
        replayed = replay(engine, n, seed, log)
        assert engine.to_json(replayed) == engine.to_json(state), "replaying the log gave another game"
    return state, log


def replay(engine: Engine[Any], n: int, seed: int, log: list[tuple[int, str]]) -> Any:
    """Rebuild a game from its seed and canonical commands, as the service does."""
    state = engine.new_game(player_names(n), None, seed)
    for seat, command in log:
        action: Action = engine.parse(state, seat, command)
        state, _ = engine.apply(state, seat, action)
    return state
