"""The one contract every game engine implements.

Modelled on OpenSpiel (static rules apart from one position, simultaneous nodes),
boardgame.io (pure moves, per-player views, RNG inside the state) and python-chess
(parse what a person writes against the position, typed errors, round-trip formatting).

An engine is pure: no I/O, no clock, no global ``random``. The service stores
``to_json(state)`` and the canonical command text of every applied action, so a game
can always be replayed from its seed and its move log.

Seats are ``0 .. n-1`` in the order the players were given to ``new_game``. Player
names (display names, never addresses) are given to ``new_game`` so that events and
views can speak of people by name.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import engines.i18n as i18n

Seat = int
JSON = Any  # a JSON-serialisable value: dict/list/str/int/float/bool/None

def __getattr__(name: str) -> Any:
    """``LANGS``: the languages served = the message catalogs present (see engines.i18n)."""
    if name == "LANGS":
        return i18n.languages()
    raise AttributeError(name)


class Text:
    """A player-facing sentence, translated lazily: an English msgid, its named arguments and
    an optional gettext context. ``get(lang)`` looks the msgid up in the ``lang`` catalog and
    fills the arguments (which may themselves be Texts) when a mail is written.

    ``literal`` holds fixed words per language instead: data stored before the catalogs
    existed (``{"en": .., "vi": ..}``), or words that are the same in every language (a planted
    marker, an id shown as written: :meth:`fixed`). Code never writes a second language inline:
    a sentence is an English msgid whose translations live in the catalogs.
    """

    __slots__ = ("args", "context", "literal", "msgid")

    msgid: str
    args: tuple[tuple[str, Any], ...]
    context: str | None
    literal: tuple[tuple[str, str], ...]

    def __init__(self, msgid: str, /, *, context: str | None = None,
                 args: Mapping[str, Any] | None = None, literal: Mapping[str, str] | None = None) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "args", tuple(sorted((args or {}).items())))
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "literal", tuple(sorted((literal or {}).items())))

    @staticmethod
    def fixed(words: str) -> Text:
        """The same words in every language (an id or a planted marker shown as written)."""
        return Text(words, literal={i18n.SOURCE_LANG: words})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Text is immutable")

    def _key(self) -> tuple[Any, ...]:
        return (self.msgid, repr(self.args), self.context, self.literal)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Text({self.msgid!r}, args={dict(self.args)!r})" if not self.literal else f"Text({dict(self.literal)!r})"

    def get(self, lang: str, default: Any = None) -> str:
        """The sentence in ``lang`` (English when the catalog lacks it). ``default`` is ignored:
        it keeps ``words.get(lang, words["en"])``, written for the old dicts, working."""
        if self.literal:
            words = dict(self.literal)
            return words.get(lang, words.get("en", self.msgid))
        return i18n.render(lang, self.msgid, dict(self.args), self.context)

    get_text = get

    def __getitem__(self, lang: str) -> str:
        """``text[lang]``, so code that indexed an ``{"en": .., "vi": ..}`` dict reads a Text too."""
        return self.get(lang)

    def __contains__(self, lang: object) -> bool:
        """``lang in text``: every language served has words (English at worst)."""
        return lang in i18n.languages()

    @property
    def en(self) -> str:
        return self.get("en")

    @property
    def vi(self) -> str:
        return self.get("vi")

    def to_json(self) -> dict[str, Any]:
        if self.literal:
            return dict(self.literal)
        out: dict[str, Any] = {"msgid": self.msgid}
        if self.args:
            out["args"] = {k: _arg_to_json(v) for k, v in self.args}
        if self.context is not None:
            out["ctx"] = self.context
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Text:
        if "msgid" not in data:  # stored before the catalogs: fixed words per language
            return Text(str(data.get("en", "")), literal={k: str(v) for k, v in data.items()})
        args = {k: _arg_from_json(v) for k, v in dict(data.get("args") or {}).items()}
        return Text(str(data["msgid"]), context=data.get("ctx"), args=args)


def text_of(data: Mapping[str, Any], lang: str) -> str:
    """A Text stored as JSON (in a view or a state) in ``lang``: the catalog form
    (``{"msgid": ..}``) or the fixed-words form (``{"en": .., "vi": ..}``)."""
    return Text.from_json(data).get(lang)


def _arg_to_json(value: Any) -> Any:
    if isinstance(value, Text):
        return {"$text": value.to_json()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _arg_to_json(v) for k, v in value.items()}
    return str(value)


def _arg_from_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        if set(value) == {"$text"}:
            return Text.from_json(value["$text"])
        return {k: _arg_from_json(v) for k, v in value.items()}
    return value


def tr(msgid: str, /, **args: Any) -> Text:
    """A translatable sentence: ``tr("{name} draws a card.", name=who)``. The English text is the
    msgid (Babel extracts it); its translations live in the catalogs (``tools/i18n_codemod.py``
    moves an older ``tr(en, vi)`` pair there)."""
    return Text(msgid, args=args)


def trc(context: str, msgid: str, /, **args: Any) -> Text:
    """Like :func:`tr`, with a gettext context for one English word that needs two translations."""
    return Text(msgid, context=context, args=args)


# ---------------------------------------------------------------------------
# Actions, menus, events, outcomes


@dataclass(frozen=True)
class Action:
    """One move, in canonical form: a kind and a tuple of JSON scalars.

    Equality is structural, so ``parse(format(a)) == a`` is checkable. Engines choose
    their own kinds and argument layouts.
    """

    kind: str
    args: tuple[str | int | bool | None, ...] = ()

    def to_json(self) -> list[Any]:
        return [self.kind, *self.args]

    @staticmethod
    def from_json(data: Sequence[Any]) -> Action:
        return Action(str(data[0]), tuple(data[1:]))


@dataclass(frozen=True)
class Choice:
    """A legal action with its canonical command text and a one-line human label.

    ``command`` is exactly what ``format`` returns and what a player may write back.
    ``words`` is the same command in each language's words (``đánh mưa còi`` for
    ``play rain whistle``): a Text (its command words are catalog messages, msgctxt
    ``command``, so a new language's ``.po`` brings its own), a ``{lang: words}`` mapping
    built per language with :func:`engines.i18n.each_lang`, or :class:`engines.i18n.LazyWords`
    that writes them when a menu is read. Every form parses back to
    ``action``, so a player may write any of them. None: the command is the same everywhere.
    """

    action: Action
    command: str
    label: Text
    words: Text | Mapping[str, str] | i18n.LazyWords | None = None

    def command_in(self, lang: str) -> str:
        """The command a reader of ``lang`` sees in a menu (the canonical one when there is no other)."""
        if self.words is None:
            return self.command
        said = i18n.resolve(self.words, lang)
        return said if isinstance(said, str) and said else self.command


@dataclass(frozen=True)
class Event:
    """Something that happened, as one human sentence.

    ``visible_to`` is ``None`` for a public event, else the seats that may see it.
    Secret details go in a restricted event; a public twin ("Bob chose a card") may
    accompany it.
    """

    text: Text
    visible_to: frozenset[Seat] | None = None

    def visible(self, seat: Seat | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text.to_json(),
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        vis = data.get("visible_to")
        return Event(Text.from_json(data["text"]), None if vis is None else frozenset(vis))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` holds the winning seats (both partners in a team game, every seat for a
    co-operative win, none for a co-operative loss or a draw).
    """

    winners: frozenset[Seat]
    draw: bool
    reason: Text

    def to_json(self) -> dict[str, Any]:
        return {"winners": sorted(self.winners), "draw": self.draw, "reason": self.reason.to_json()}


@dataclass(frozen=True)
class Option:
    """A game option with its default and, where it is a choice, the allowed values."""

    default: str | int | bool
    help: str
    choices: tuple[str | int | bool, ...] = ()


# ---------------------------------------------------------------------------
# Errors a player's command can raise. Each message says what to write instead.


class CommandError(ValueError):
    """Base of the three errors ``parse``/``apply`` raise; all are ``ValueError``s.

    ``message`` explains the problem in both languages; ``examples`` are valid commands
    for the current position that the answer mail may show.
    """

    kind = "error"

    def __init__(self, message: Text | str, examples: Sequence[str] = ()) -> None:
        self.message = message if isinstance(message, Text) else tr(message)
        self.examples = list(examples)
        super().__init__(self.message.get("en"))


class InvalidCommand(CommandError):
    """The text is not a command of this game at all (syntax)."""

    kind = "invalid"


class IllegalCommand(CommandError):
    """The command is understood but the rules forbid it now."""

    kind = "illegal"


class AmbiguousCommand(CommandError):
    """The command fits several legal actions; the message lists how to tell them apart."""

    kind = "ambiguous"


# ---------------------------------------------------------------------------
# The engine


S = TypeVar("S")


class Bot(ABC, Generic[S]):
    """A player program. Deterministic given the ``rng`` it is handed."""

    name: str = "bot"

    @abstractmethod
    def choose(self, engine: Engine[S], state: S, seat: Seat, rng: random.Random) -> Action:
        """Pick a legal action for ``seat`` (which is in ``engine.to_act(state)``)."""


class Engine(ABC, Generic[S]):
    """Rules of one game. Stateless: every method takes the position it works on.

    Subclasses set the class attributes and implement the abstract methods. The default
    implementations below are correct for every engine but may be overridden for speed.
    """

    id: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: Mapping[str, Option] = {}

    # -- creating and storing -------------------------------------------------

    @abstractmethod
    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> S:
        """A new game. ``players`` are display names, seat i = players[i].

        Raises ``ValueError`` for a bad player count or option.
        """

    @abstractmethod
    def to_json(self, state: S) -> str:
        """The whole state, RNG included, as JSON text."""

    @abstractmethod
    def from_json(self, text: str) -> S:
        """Inverse of ``to_json``: ``to_json(from_json(t)) == t``."""

    @abstractmethod
    def state_version(self, state: S) -> int:
        """A number that grows with every applied action."""

    def decision_key(self, state: S, seat: Seat) -> str:
        """Identifies the decision ``seat`` faces now, for telling outdated menus apart.

        Must NOT change when another seat makes its secret choice in the same simultaneous
        step, nor when ``seat`` replaces its own secret choice. Engines with simultaneous
        steps override this (e.g. with the version at which the step began).
        """
        return str(self.state_version(state))

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in; unknown names or values raise ``ValueError``."""
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            raise ValueError(f"{self.id}: unknown option(s) {', '.join(unknown)}; known: {', '.join(self.options)}")
        out: dict[str, Any] = {}
        for name, opt in self.options.items():
            value = given.get(name, opt.default)
            if opt.choices and value not in opt.choices:
                allowed = ", ".join(str(c) for c in opt.choices)
                raise ValueError(f"{self.id}: option {name}={value!r} is not one of {allowed}")
            out[name] = value
        return out

    # -- whose turn, what may they do ----------------------------------------

    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """Seats that must act now; several for a secret simultaneous step; empty when over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Choice]:
        """Every legal action of ``seat`` now (empty if it need not act).

        During a simultaneous step a seat that has already chosen still gets its options:
        it may replace its choice until the last seat has chosen.
        """

    def menu(self, state: S, seat: Seat) -> list[Choice]:
        """The numbered menu a mail shows. Defaults to ``legal_actions``.

        Engines whose legal actions run into the hundreds (a build choice, a 7 split)
        return a compact subset here and explain the short syntax in ``render_view``.
        """
        return self.legal_actions(state, seat)

    @abstractmethod
    def parse(self, state: S, seat: Seat, text: str) -> Action:
        """Understand what a person wrote (case, spacing, aliases, vi and en words).

        Raises ``InvalidCommand``, ``IllegalCommand`` or ``AmbiguousCommand``.
        A bare menu number is NOT handled here; the service maps numbers to ``menu``.
        """

    @abstractmethod
    def format(self, state: S, action: Action) -> str:
        """Canonical command text; ``parse(state, seat, format(state, a)) == a``."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: Action) -> tuple[S, list[Event]]:
        """Pure: the new state and what happened. Never mutates ``state``.

        Raises ``IllegalCommand`` (and changes nothing) for an action that is not legal.
        """

    # -- what people see ------------------------------------------------------

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """JSON-able: exactly what ``seat`` may know (``None`` = an observer)."""

    @abstractmethod
    def render_view(self, view: Mapping[str, Any], lang: str) -> str:
        """Plain text of a view for a mail body (board, hand, map). Sees only the view."""

    # -- time-outs and the end -------------------------------------------------

    @abstractmethod
    def default_action(self, state: S, seat: Seat) -> Action:
        """What is played for ``seat`` when it misses its deadline (a sensible bot move)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game runs."""

    def score(self, state: S) -> Mapping[Seat, float] | None:
        """How well each seat stands, 0..1, for adjudicating an unfinished game (a league round
        whose time is up); ``None`` when the game has no fair way to score a position."""
        return None

    def bots(self) -> Mapping[str, Bot[S]]:
        """Named bots; at least ``random`` and ``heuristic``."""
        return {}

    # -- conformance hooks ------------------------------------------------------

    @abstractmethod
    def plant_markers(self, state: S) -> tuple[S, dict[Seat | None, list[str]]]:
        """For the leak test: a copy of ``state`` whose secrets carry unique marker strings.

        Returns the planted state and, per owner, the markers only that owner may see
        (``None`` = nobody: deck order, face-down content, RNG state). The conformance suite
        asserts that no view shows a marker owned by someone else and that each seat's own
        view shows at least one of its own markers where it owns any. ``view`` and
        ``render_view`` must work on the planted state; nothing else needs to.
        """

    def sample_illegal_commands(self, state: S, seat: Seat) -> list[str]:
        """Command texts that must be refused now (for the conformance suite)."""
        return ["", "xyzzy", "!!!", "999 999 999"]

    # -- helpers ------------------------------------------------------------------

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def state_dict(self, state: S) -> Any:
        return json.loads(self.to_json(state))
