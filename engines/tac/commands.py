"""Commands as people write them in a mail, and their canonical text (python-chess style).

Canonical forms (what ``format`` writes and the menu shows):

- ``give 12`` / ``discard 9``            exchange / throw away a card
- ``13 start``                            open: a waiting marble onto its start field
- ``5 b1``, ``4 back a2``                 move marble b1 five forward / a2 four back;
  ``5 a1 h2`` or ``5 a1 2`` name the destination when the marble could enter its home or stay out
- ``8 skip``                              the 8 as a skip
- ``7 a1:4 c2:3>h1``                      a 7 split: ordered parts ``marble:steps``, ``>hN`` when a
  part ends in the home
- ``trick a1 d2``, ``warrior a1``         Trickser swap, Warrior
- ``angel start``, ``angel 13 b1``, ``angel``   the Angel's three outcomes
- ``tac``, ``devil``, ``fool``

``format_in`` writes the same commands in a language's words (Vietnamese: ``cho 12``, ``13 mở``,
``4 lùi a2``, ``8 bỏ lượt``, ``đổi chỗ a1 d2``), which menus show to that language's players. The
command words are catalog messages (msgctxt ``tac command``): a new language's ``.po`` brings its own,
and the parser accepts the command words of every catalog.

Parsing is forgiving: case, punctuation and spacing do not matter, English and Vietnamese words
(with or without diacritics) are accepted, a colour letter alone (``5 b``) names a marble when only
one of that colour fits, and ``7 a1 4 c2 3`` works like ``7 a1:4 c2:3``.

Forgiving is not guessing: a line is a command only when the WHOLE line is one. Polite fillers
at either end go first (``strip_polite``: "5 a1 please", "13 mở nhé"); every word left must be a
card, a verb, a marble, a destination, a number in its place or one of the few connecting words
in ``FILLER`` ("play the 5 with a1"). "2 kids, 1 dog" or "I think 3 is better than 4" are refused.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import permutations

from engines import i18n
from engines.contract import Action, AmbiguousCommand, IllegalCommand, InvalidCommand, Text, tr, trc
from engines.tac.board import HOME
from engines.tac.content import card_words, fold
from engines.tac.plays import MARBLE_BY_NAME, Uses
from engines.wording import strip_fillers

GIVE_WORDS = {"give", "gift", "pass", "cho", "dua", "tang", "trao", "doi bai"}
DISCARD_WORDS = {"discard", "drop", "throw", "bo", "bo bai", "vut", "loai"}
SKIP_WORDS = {"skip", "bo luot", "mat luot", "luot", "pass turn"}
START_WORDS = {"start", "open", "out", "enter", "mo", "ra", "xuat phat", "vao ban", "mo bi"}
BACK_WORDS = {"back", "backward", "backwards", "lui", "nguoc", "di lui"}
HOME_WORDS = {"home", "house", "nha", "vao nha", "ve nha"}
RING_WORDS = {"ring", "stay", "vong", "ngoai"}
FILLER = {"play", "plays", "card", "danh", "la", "with", "my", "marble", "bi", "vien", "qua", "to", "on",
          "and", "va", "then", "roi", "move", "di", "steps", "step", "buoc", "o", "the", "an", "use", "dung"}

#: The words of the canonical commands, each a catalog message (msgctxt "tac command") that menus
#: show in the reader's language. The first five are verbs, the others name a card.
COMMAND_WORDS: dict[str, Text] = {
    "give": trc("tac command", "give"), "discard": trc("tac command", "discard"), "start": trc("tac command", "start"),
    "back": trc("tac command", "back"), "skip": trc("tac command", "skip"), "trick": trc("tac command", "trick"),
    "warrior": trc("tac command", "warrior"), "angel": trc("tac command", "angel"), "devil": trc("tac command", "devil"),
    "fool": trc("tac command", "fool"), "tac": trc("tac command", "tac"),
}
_VERB_SETS = {"give": GIVE_WORDS, "discard": DISCARD_WORDS, "start": START_WORDS, "back": BACK_WORDS,
              "skip": SKIP_WORDS}


@dataclass(frozen=True)
class Vocabulary:
    """Every word ``read`` knows, folded: the built-in aliases plus the command words and card
    names of every catalog present."""

    verbs: dict[str, frozenset[str]]
    cards: dict[str, str]
    phrases: tuple[str, ...]  # multi-word phrases, longest first, joined into one token


def vocabulary() -> Vocabulary:
    return _vocabulary(i18n.locale_key(), i18n.languages())


@cache
def _vocabulary(folder: str, langs: tuple[str, ...]) -> Vocabulary:
    def said(word: str) -> set[str]:
        return {fold(t) for t in i18n.translations(word, "tac command")}

    verbs = {verb: frozenset(base | said(verb)) for verb, base in _VERB_SETS.items()}
    cards = dict(card_words())
    for word in COMMAND_WORDS:
        if word not in _VERB_SETS:
            cards.update(dict.fromkeys(said(word) - set(cards), word))
    everything = [*cards, *HOME_WORDS, *(w for ws in verbs.values() for w in ws)]
    phrases = tuple(sorted({w for w in everything if " " in w}, key=len, reverse=True))
    return Vocabulary(verbs, cards, phrases)


def tokens(text: str) -> list[str]:
    """Fold case and diacritics, join known phrases with ``_``, split on anything else."""
    s = " " + re.sub(r"[^a-z0-9]+", " ", fold(text)) + " "
    for phrase in vocabulary().phrases:
        s = s.replace(f" {phrase} ", f" {phrase.replace(' ', '_')} ")
    return [t.replace("_", " ") for t in s.split()]


def strip_polite(text: str) -> str:
    """``engines.wording.strip_fillers``, except that a last word meaning *home* stays: "nha"
    (``nhà`` typed without diacritics) is a polite particle elsewhere but a destination here."""
    return _strip_polite(i18n.locale_key(), i18n.languages(), text)


@lru_cache(maxsize=4096)
def _strip_polite(folder: str, langs: tuple[str, ...], text: str) -> str:
    """:func:`strip_polite` of one line under one set of catalogs (the key): the same short
    commands come back again and again (every replay of a game reads its whole log)."""
    del folder, langs  # the cache key: the fillers are the current catalogs' own
    kept = strip_fillers(text)
    words, left = _plain(text), _plain(kept)
    for start in range(len(words) - len(left) + 1):
        if words[start:start + len(left)] == left:
            tail = words[start + len(left):]  # the trailing words taken as fillers
            if tail and tail[0] in HOME_WORDS:
                kept = f"{kept} {tail[0]}"
            break
    return kept


def _plain(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9]+", " ", fold(text)).split()


def _dest_text(dest: int) -> str:
    return f"h{dest - HOME + 1}" if dest >= HOME else str(dest)


def format_action(action: Action, legal: Uses) -> str:
    """Canonical command text. ``legal`` tells whether a destination must be spelled out."""
    kind, args = action.kind, action.args
    if kind in ("give", "discard"):
        return f"{kind} {args[0]}"
    if kind == "open":
        return f"{args[0]} start"
    if kind == "skip":
        return "8 skip"
    if kind == "seven":
        return "7 " + " ".join(str(a) for a in args)
    if kind == "trick":
        return f"trick {args[0]} {args[1]}"
    if kind == "warrior":
        return f"warrior {args[0]}"
    if kind in ("tac", "devil", "fool"):
        return kind
    if kind == "angel":
        if not args:
            return "angel"
        if args[0] == "start":
            return "angel start"
        text = f"angel {args[0]} {args[1]}"
        return text + f" {_dest_text(int(str(args[2])))}" if _needs_dest(action, legal) else text
    if kind == "move":
        card, marble, dest = str(args[0]), str(args[1]), int(str(args[2]))
        text = f"4 back {marble}" if card == "4" else f"{card} {marble}"
        return text + f" {_dest_text(dest)}" if _needs_dest(action, legal) else text
    return " ".join([kind, *(str(a) for a in args)])


def format_in(action: Action, legal: Uses, lang: str) -> str:
    """The canonical command in ``lang``'s command words (Vietnamese: ``cho 12``, ``13 mở``,
    ``4 lùi a2``, ``8 bỏ lượt``).

    Word for word the canonical command: marbles, numbers, home fields and 7 splits stay as
    they are, and ``read`` takes its words in any order, so every language's form parses to
    the same action."""
    shown = _shown_words(lang, i18n.locale_key())
    return " ".join(shown.get(word, word) for word in format_action(action, legal).split())


@cache
def _shown_words(lang: str, folder: str) -> dict[str, str]:
    """The command words in ``lang``, once per language and set of catalogs (menus are written
    for every choice of every step)."""
    return {word: text.get(lang) for word, text in COMMAND_WORDS.items()}


def _needs_dest(action: Action, legal: Uses) -> bool:
    if action not in legal:
        return True
    same = [a for a in legal if a.kind == action.kind and a.args[:-1] == action.args[:-1]]
    return len(same) > 1


@dataclass
class Reading:
    """What a command says, before it is matched against the legal actions."""

    verb: str | None = None  # give | discard
    card: str | None = None
    skip: bool = False
    start: bool = False
    home: bool = False
    ring: bool = False
    marbles: list[str] = field(default_factory=list)  # "a1" or a bare colour "a"
    dests: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)  # numbers after the card (7 steps)
    parts: list[tuple[str, int, int | None]] = field(default_factory=list)  # 7 split


def read(text: str) -> Reading:
    """Turn text into a ``Reading``; raises ``InvalidCommand`` for words it cannot place."""
    r = _read(i18n.locale_key(), i18n.languages(), text)
    return dataclasses.replace(r, marbles=r.marbles.copy(), dests=r.dests.copy(), numbers=r.numbers.copy(),
                               parts=r.parts.copy())  # a copy: the cached reading stays as read


@lru_cache(maxsize=4096)
def _read(folder: str, langs: tuple[str, ...], text: str) -> Reading:
    """:func:`read` under one set of catalogs (the cache key: the vocabulary is theirs)."""
    del folder, langs
    r = Reading()
    unknown: list[str] = []
    vocab = vocabulary()
    for tok in tokens(text):
        if tok in vocab.verbs["give"]:
            r.verb = "give"
        elif tok in vocab.verbs["discard"]:
            r.verb = "discard"
        elif tok in vocab.verbs["skip"]:
            r.skip = True
        elif tok in vocab.verbs["start"]:
            r.start = True
        elif tok in HOME_WORDS:
            r.home = True
        elif tok in RING_WORDS:
            r.ring = True
        elif tok in vocab.verbs["back"] or tok in FILLER:
            continue
        elif r.card is None and tok in vocab.cards and not (tok.isdigit() and r.marbles):
            r.card = vocab.cards[tok]
        elif re.fullmatch(r"[abcd][5-7]", tok):  # only a 7 part: colour and steps (``7 a5 c2``)
            r.marbles.append(tok[0])
            r.parts.append((tok[0], int(tok[1]), None))
        elif re.fullmatch(r"[abcd][1-4]?", tok):
            r.marbles.append(tok)
            r.parts.append((tok, 0, None))
        elif re.fullmatch(r"h[1-4]", tok):
            dest = HOME + int(tok[1]) - 1
            r.dests.append(dest)
            if r.parts:
                m, k, _ = r.parts[-1]
                r.parts[-1] = (m, k, dest)
        elif tok.isdigit() and r.card is None and not r.marbles:
            raise InvalidCommand(tr("There is no card {tok} in TAC (cards: 1-10, 12, 13, Trickser, TAC).", tok=tok))
        elif tok.isdigit():
            n = int(tok)
            if r.parts and r.parts[-1][1] == 0:
                m, _, d = r.parts[-1]
                r.parts[-1] = (m, n, d)
            r.numbers.append(n)
            r.dests.append(n)
        else:
            unknown.append(tok)
    if unknown:
        bad, whole = " ".join(unknown), text.strip()
        if fold(whole) == bad:
            raise InvalidCommand(tr("Cannot read {bad!r}: a line counts only when the whole line is a command, so write just the move.", bad=bad))
        raise InvalidCommand(tr("Cannot read {bad!r} in {whole!r}: a line counts only when the whole line is a command, so write just the move.", bad=bad, whole=whole))
    return r


def _marble_fits(written: str, name: str) -> bool:
    return written == name or (len(written) == 1 and name.startswith(written))


def _fits(r: Reading, action: Action, card: str) -> bool:
    """Does the legal ``action`` (playing ``card``) fit what was written?"""
    kind, args = action.kind, action.args
    if r.verb is not None:
        return kind == r.verb and (r.card is None or r.card == card)
    if kind in ("give", "discard"):
        return False
    if r.card is not None and r.card != card:
        return False
    if r.skip != (kind == "skip"):
        return False
    is_start = kind == "open" or (kind == "angel" and args[:1] == ("start",))
    if r.start and not is_start:
        return False
    names = [str(a) for a in args if isinstance(a, str) and a in MARBLE_BY_NAME]
    if r.marbles:
        if len(r.marbles) != len(names):
            return False
        if not any(all(_marble_fits(w, n) for w, n in zip(r.marbles, order, strict=True))
                   for order in permutations(names)):
            return False
    elif names and kind != "angel":
        return False
    dest = int(str(args[-1])) if kind in ("move", "angel") and len(args) == 3 else None
    if (r.home or r.ring) and dest is None:
        return False
    if dest is not None and ((r.home and dest < HOME) or (r.ring and dest >= HOME)):
        return False
    rest = list(r.dests)
    if kind == "angel" and dest is not None:
        value = int(str(args[0]))
        if r.numbers and value not in r.numbers:
            return False
        if value in rest:
            rest.remove(value)
    if dest is None:
        return not rest
    return not rest or dest in rest


def match(r: Reading, legal: Uses, card_of: dict[Action, str]) -> list[Action]:
    return [a for a in legal if _fits(r, a, card_of[a])]


def examples(commands: list[str], limit: int = 6) -> list[str]:
    return commands[:limit]


def refuse_none(text: str, r: Reading, hand_words: list[str], cmds: list[str],
                shown: Mapping[str, list[str]] | None = None) -> IllegalCommand:
    """Nothing legal fits; the examples are in the reader's words (``shown``: per language)."""
    what = text.strip()
    tried = in_words(shown or {i18n.SOURCE_LANG: cmds}, 6)
    if r.card is not None and r.verb is None and r.card not in hand_words:
        return IllegalCommand(tr("You read as playing {card!r}, but you have no such card to play now. Try: {tried}.", card=r.card, tried=tried), examples(cmds))
    return IllegalCommand(tr("{what!r} is not a legal move now. Legal moves include: {tried}.", what=what, tried=tried),
                          examples(cmds))


def refuse_many(text: str, options: list[str], shown: Mapping[str, list[str]] | None = None) -> AmbiguousCommand:
    fits = in_words(shown or {i18n.SOURCE_LANG: options}, 8)
    return AmbiguousCommand(tr("{strip!r} fits several moves; write one of: {fits}.", strip=text.strip(), fits=fits),
                            options[:8])


def per_lang(actions: list[Action], legal: Uses) -> dict[str, list[str]]:
    """The commands of ``actions`` in every language's words (for ``in_words``)."""
    return i18n.each_lang(lambda lang: [format_in(a, legal, lang) for a in actions])


def in_words(commands: Mapping[str, list[str]], limit: int) -> dict[str, str]:
    """Example commands as each language's players write them, comma-separated: a message
    argument picks its reader's language (English when it has none)."""
    return {lang: ", ".join(words[:limit]) for lang, words in commands.items()}
