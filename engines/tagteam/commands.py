"""What players write: legal actions, the compact build menu, parse and format.

Canonical commands (``format``):
- ``pick joan`` (draft), ``pick joan discard wong`` (first pick of a competitive draft),
  ``pick joan wong`` (free choice);
- ``order 2 1`` (setup: the Starting card of fighter 2 first);
- ``add 2 after 1, bottom 3 1`` (build: drawn card 2 goes below Fight-Deck card 1; drawn
  cards 3 then 1 go under the Build Deck). Positions: ``top``, ``bottom``, ``after N``,
  ``before N``.
A reply may leave parts out when a choice is pending: ``discard wong`` or ``bottom 3 1`` alone
change only that part of the seat's current secret choice.

A line is a command only when the WHOLE line is one: polite fillers at either end go first
(``engines.wording.strip_fillers``: "add 2 top please", "chọn joan nhé"), then every word left
must be a keyword, a number in its place, a fighter or drawn-card name, or one of the few
connecting words of ``FILLERS`` ("add 2 at the top, then bottom 3 and 1"). Numbers are never
picked out of a sentence: "2 kids, 1 dog" is not ``order 2 1``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from engines import i18n
from engines.contract import Action, AmbiguousCommand, Choice, IllegalCommand, InvalidCommand, Text, tr, trc
from engines.i18n import each_lang
from engines.tagteam.content import Content
from engines.tagteam.state import TTState
from engines.wording import strip_fillers

#: The keywords and the words each language writes for them. The word a menu shows is the
#: catalog's translation of the English keyword (msgctxt ``command``), more words a player may
#: write are the translation of its ``command synonyms`` entry (space-separated; words that
#: differ only in diacritics need not be listed twice). Every language's words parse, whatever
#: the reader's language, so a third language adds its own command words in its ``.po`` alone.
COMMAND: dict[str, Text] = {
    "pick": trc("command", "pick"),
    "discard": trc("command", "discard"),
    "order": trc("command", "order"),
    "add": trc("command", "add"),
    "top": trc("command", "top"),
    "bottom": trc("command", "bottom"),
    "after": trc("command", "after"),
    "before": trc("command", "before"),
}
SYNONYMS: dict[str, Text] = {
    "pick": trc("command synonyms", "pick choose take team"),
    "discard": trc("command synonyms", "discard drop"),
    "order": trc("command synonyms", "order"),
    "add": trc("command synonyms", "add put insert"),
    "top": trc("command synonyms", "top first"),
    "bottom": trc("command synonyms", "bottom last end rest"),
    "after": trc("command synonyms", "after below under"),
    "before": trc("command synonyms", "before above over"),
}


#: Connecting words a command may hold ("add 2 at the top, then bottom 3 and 1"), per language.
FILLERS = trc("command fillers", "the card at then and fighter of deck")


@dataclass(frozen=True)
class Vocabulary:
    """The words ``parse`` reads, from every catalog: ``keywords`` (word -> keyword; a command
    word of several words, such as ``thứ tự``, joined into one), the ``phrases`` to join, and
    the connecting ``fillers`` it skips."""

    keywords: dict[str, str]
    phrases: tuple[tuple[str, ...], ...]
    fillers: frozenset[str]


def vocabulary() -> Vocabulary:
    return _vocabulary(str(i18n.locale_dir()), i18n.languages())


@functools.cache
def _vocabulary(folder: str, langs: tuple[str, ...]) -> Vocabulary:
    table: dict[str, str] = {}
    phrases: set[tuple[str, ...]] = set()
    for key in COMMAND:
        for lang in langs:
            shown = normalize(COMMAND[key].get(lang)).split()
            if len(shown) > 1:
                phrases.add(tuple(shown))
            table.setdefault("".join(shown), key)
            for w in normalize(SYNONYMS[key].get(lang)).split():
                table.setdefault(w, key)
    fillers = frozenset(w for lang in langs for w in normalize(FILLERS.get(lang)).split()) - set(table)
    return Vocabulary(table, tuple(sorted(phrases, key=len, reverse=True)), fillers)


def keywords() -> dict[str, str]:
    """Every word that names a keyword, in every language served (normalised as ``parse`` reads)."""
    return vocabulary().keywords


def fillers() -> frozenset[str]:
    return vocabulary().fillers


def read_words(text: str) -> list[str]:
    """A line as ``parse`` reads it: polite fillers off, normalised, command phrases joined
    (``thu tu`` -> ``thutu``), connecting words left out."""
    words = normalize(strip_fillers(text)).split()
    vocab = vocabulary()
    out: list[str] = []
    i = 0
    while i < len(words):
        for phrase in vocab.phrases:
            if tuple(words[i:i + len(phrase)]) == phrase:
                out.append("".join(phrase))
                i += len(phrase)
                break
        else:
            out.append(words[i])
            i += 1
    return [w for w in out if w not in vocab.fillers]


def normalize(text: str) -> str:
    """Lower case, diacritics removed (``thứ tự`` → ``thu tu``), punctuation to spaces.

    ASCII text has no diacritics to remove (NFD leaves it as it is), so it skips that walk
    over its characters; every other character but ``a-z0-9`` and the space (``_``, ``-``,
    apostrophes too) becomes a space."""
    text = text.lower().replace("đ", "d").replace("ð", "d")
    if not text.isascii():
        text = "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")
    return " ".join(_NOT_WORD.sub(" ", text).split())


_NOT_WORD = re.compile(r"[^a-z0-9 ]")


# ---------------------------------------------------------------------------
# legal actions


def legal(content: Content, s: TTState, seat: int) -> list[Action]:
    if s.phase in ("draft1", "draft2"):
        hand = s.hands[seat]
        if s.phase == "draft1" and s.draft == "competitive":
            return [Action("pick_discard", (a, b)) for a in hand for b in hand if a != b]
        return [Action("pick", (a,)) for a in hand]
    if s.phase == "free":
        ids = sorted(content.fighters)
        return [Action("team", (a, b)) for i, a in enumerate(ids) for b in ids[i + 1:]]
    if s.phase == "setup":
        return [Action("order", (1, 2)), Action("order", (2, 1))]
    if s.phase == "build":
        n = len(s.fight[seat])
        out = []
        for pick in (1, 2, 3):
            others = [i for i in (1, 2, 3) if i != pick]
            for pos in range(n + 1):
                for a, b in permutations(others):
                    out.append(Action("add", (pick, pos, a, b)))
        return out
    return []


def default_bottom(pick: int) -> tuple[int, int]:
    a, b = (i for i in (1, 2, 3) if i != pick)
    return a, b


def build_menu(content: Content, s: TTState, seat: int) -> list[Action]:
    """The common builds: each drawn card on top or at the bottom (the mail's help line says how
    to write any other place; ``more`` lists every build). Short, so the turn mail stays short."""
    n = len(s.fight[seat])
    positions = sorted({0, n})
    return [Action("add", (pick, pos, *default_bottom(pick))) for pick in (1, 2, 3) for pos in positions]


# ---------------------------------------------------------------------------
# format and labels




def format_action(action: Action, lang: str = "en") -> str:
    """Canonical text; positions are ``top`` or ``after N`` so the text never depends on a deck size.

    ``lang`` picks the command words from that language's catalog (``thêm 2 trên, dưới 3 1`` in
    Vietnamese); every language's words parse back."""
    w = {k: word.get(lang) for k, word in COMMAND.items()}
    a = action.args
    if action.kind == "pick":
        return f"{w['pick']} {a[0]}"
    if action.kind == "pick_discard":
        return f"{w['pick']} {a[0]} {w['discard']} {a[1]}"
    if action.kind == "team":
        return f"{w['pick']} {a[0]} {a[1]}"
    if action.kind == "order":
        return f"{w['order']} {a[0]} {a[1]}"
    if action.kind == "add":
        where = w["top"] if a[1] == 0 else f"{w['after']} {a[1]}"
        return f"{w['add']} {a[0]} {where}, {w['bottom']} {a[2]} {a[3]}"
    return " ".join(str(x) for x in action.to_json())


def _int(x: object) -> int:
    return int(str(x))


def label(content: Content, s: TTState, seat: int, action: Action) -> Text:
    """The one-line menu label, in both languages."""
    a = [str(x) for x in action.args]

    def name(fid: str) -> str:
        f = content.fighters.get(fid)
        return f.name if f is not None else fid

    if action.kind == "pick":
        return tr("pick {name}", name=name(a[0]))
    if action.kind == "pick_discard":
        return tr("pick {name}, discard {name2}", name=name(a[0]), name2=name(a[1]))
    if action.kind == "team":
        return tr("team {name} + {name2}", name=name(a[0]), name2=name(a[1]))
    if action.kind == "order":
        first, second = (s.teams[seat][_int(i) - 1].id for i in a)
        one, two = (content.fighters[fid].starting_card.name for fid in (first, second))
        return tr("play {one} ({name}) first, then {two}", one=one, name=name(first), two=two)
    drawn = s.draw[seat]
    card = content.cards[drawn[_int(a[0]) - 1]]
    n = len(s.fight[seat])
    pos = _int(a[1])
    rest = ", ".join(content.cards[drawn[_int(i) - 1]].name for i in a[2:4])
    if pos == 0:
        return tr("add {name} on top of your Fight Deck; bottom: {rest}", name=card.name, rest=rest)
    if pos == n:
        return tr("add {name} at the bottom of your Fight Deck; bottom: {rest}", name=card.name, rest=rest)
    return tr("add {name} after card {pos} of your Fight Deck; bottom: {rest}", name=card.name, pos=pos, rest=rest)


def choices(content: Content, s: TTState, seat: int, actions: list[Action]) -> list[Choice]:
    """Menu entries; each command is written in the reader's command words (any language with a
    catalog) when a menu is read."""
    return [Choice(a, format_action(a), label(content, s, seat, a), i18n.LazyWords(format_action, a)) for a in actions]


# ---------------------------------------------------------------------------
# parse


def _examples(content: Content, s: TTState, seat: int) -> list[str]:
    acts = build_menu(content, s, seat) if s.phase == "build" else legal(content, s, seat)
    return [format_action(a) for a in acts[:4]]


def _invalid(content: Content, s: TTState, seat: int, text: Text) -> InvalidCommand:
    return InvalidCommand(text, _examples(content, s, seat))


def fighter_refs(content: Content, words: list[str]) -> list[str]:
    """Fighter ids named in ``words`` (aliases of one or more words, longest first)."""
    table = _alias_table(tuple((f.id, f.name, f.aliases) for f in content.fighters.values()))
    found: list[str] = []
    i = 0
    while i < len(words):
        for alias, fid in table:
            if tuple(words[i:i + len(alias)]) == alias:
                found.append(fid)
                i += len(alias)
                break
        else:
            raise KeyError(words[i])
    return found


@functools.lru_cache(maxsize=8)
def _alias_table(fighters: tuple[tuple[str, str, tuple[str, ...]], ...]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(normalised alias words, fighter id) of every (id, name, aliases), longest alias first.

    Kept per fighter list (the key is the fighters' own names, so changed content is a new
    entry): normalising every alias of every fighter for each command read was ~3 % of a reply."""
    table: list[tuple[tuple[str, ...], str]] = []
    for fid, name, aliases in fighters:
        for alias in {*aliases, fid, name}:
            table.append((tuple(normalize(alias).split()), fid))
    table.sort(key=lambda x: -len(x[0]))
    return tuple(table)


def parse(content: Content, s: TTState, seat: int, text: str) -> Action:
    words = read_words(text)
    if not words:
        raise _invalid(content, s, seat, tr("Empty command. Write one of the examples, or a menu number."))
    if s.phase == "over":
        raise IllegalCommand(tr("The game is over."))
    if s.phase in ("draft1", "draft2", "free"):
        action = parse_draft(content, s, seat, words)
    elif s.phase == "setup":
        action = parse_order(content, s, seat, words)
    else:
        action = parse_build(content, s, seat, words)
    if action not in set(legal(content, s, seat)):
        raise IllegalCommand(tr("`{format_action}` is not possible now.", format_action=each_lang(format_action, action)),
                             _examples(content, s, seat))
    return action


def _split(words: list[str], keys: tuple[str, ...]) -> dict[str, list[str]]:
    """Group words under the keyword that precedes them (``pick a discard b``)."""
    parts: dict[str, list[str]] = {}
    current = ""
    for w in words:
        k = keywords().get(w)
        if k in keys:
            current = k
            parts.setdefault(current, [])
        else:
            parts.setdefault(current, []).append(w)
    return parts


def parse_draft(content: Content, s: TTState, seat: int, words: list[str]) -> Action:
    parts = _split(words, ("pick", "discard"))
    try:
        picks = fighter_refs(content, parts.get("pick", []) + parts.get("", []))
        drops = fighter_refs(content, parts.get("discard", []))
    except KeyError as exc:
        raise _invalid(content, s, seat, tr("No fighter called {args!r}. Write only the command on the line, e.g. `pick joan`.", args=exc.args[0])) from None
    pending = s.pending[seat]
    if s.phase == "free":
        if len(picks) != 2 or drops:
            raise _invalid(content, s, seat, tr("Name exactly 2 fighters: `pick joan wong`."))
        a, b = sorted(picks)
        return Action("team", (a, b))
    if s.phase == "draft1" and s.draft == "competitive":
        if not picks and pending is not None:
            picks = [str(pending[1])]
        if not drops and pending is not None:
            drops = [str(pending[2])]
        if len(picks) != 1 or len(drops) != 1:
            raise _invalid(content, s, seat, tr("Pick one fighter and discard one: `pick joan discard wong`."))
        return Action("pick_discard", (picks[0], drops[0]))
    if len(picks) != 1 or drops:
        raise _invalid(content, s, seat, tr("Pick exactly one fighter: `pick joan`."))
    return Action("pick", (picks[0],))


def parse_order(content: Content, s: TTState, seat: int, words: list[str]) -> Action:
    """``order 2 1``, ``2 1``, ``order 21``, ``order 2`` (the other follows) or ``order wong bodvar``.

    Every word must be part of that: only numbers, or only fighter names of the own team."""
    if words and keywords().get(words[0]) == "order":
        words = words[1:]
    team = [f.id for f in s.teams[seat]]
    nums: list[int] = []
    if len(words) == 1 and len(words[0]) == 2 and words[0].isdigit():
        words = list(words[0])  # "order 21"
    if words and all(w.isdigit() for w in words):
        nums = [int(w) for w in words]
    elif words:
        try:
            fighters = fighter_refs(content, words)
        except KeyError:
            fighters = []
        if fighters and all(fid in team for fid in fighters):
            nums = [team.index(fid) + 1 for fid in fighters]
    if len(nums) == 1 and nums[0] in (1, 2):
        nums.append(3 - nums[0])
    if len(nums) != 2 or sorted(nums) != [1, 2]:
        raise _invalid(content, s, seat, tr("Write only `order 1 2` or `order 2 1` (which Starting card is played first) on the line, nothing else."))
    return Action("order", (nums[0], nums[1]))


def _has_words(name: str, words: list[str]) -> bool:
    """Are ``words`` whole consecutive words of the card name (its connecting words left out)?
    ``terror seas`` names "Terror of the Seas"; ``err`` names nothing."""
    have = [w for w in name.split() if w not in fillers()]
    return any(have[i:i + len(words)] == words for i in range(len(have) - len(words) + 1))


def _card_ref(content: Content, s: TTState, seat: int, words: list[str]) -> int:
    if len(words) == 1 and words[0].isdigit():
        return int(words[0])
    phrase = " ".join(words)
    drawn = s.draw[seat]
    hits = []
    for i, cid in enumerate(drawn, 1):
        card = content.cards.get(cid)
        names = [normalize(card.name), normalize(cid)] if card is not None else [normalize(cid)]
        if words and any(_has_words(n, words) for n in names):
            hits.append((i, cid))
    if not hits:
        raise _invalid(content, s, seat, tr("None of your 3 drawn cards is called {phrase!r}. Write only the command on the line, with the card as 1, 2 or 3: e.g. `add 2 top`.", phrase=phrase))
    if len({cid for _, cid in hits}) > 1:
        raise AmbiguousCommand(tr("{phrase!r} fits several drawn cards; write its number 1, 2 or 3.", phrase=phrase), _examples(content, s, seat))
    return hits[0][0]


def parse_build(content: Content, s: TTState, seat: int, words: list[str]) -> Action:
    n = len(s.fight[seat])
    pending: list[Any] | None = s.pending[seat]
    pick: int | None = None
    pos: int | None = None
    order: list[int] | None = None
    i = 0
    if keywords().get(words[0]) == "add" or words[0].isdigit() or keywords().get(words[0]) is None:
        if keywords().get(words[0]) == "add":
            i = 1
        j = i
        while j < len(words) and keywords().get(words[j]) not in ("top", "bottom", "after", "before"):
            j += 1
        if j > i:
            pick = _card_ref(content, s, seat, words[i:j])
        i = j
        if i < len(words):
            k = keywords().get(words[i])
            if k == "top":
                pos, i = 0, i + 1
            elif k == "bottom":
                pos, i = n, i + 1
                tail = words[i:]
                if 1 <= len(tail) <= 2 and all(w.isdigit() for w in tail):
                    words = [*words[:i], "bottom", *tail]  # `add 2 bottom 3 1`
            elif k in ("after", "before"):
                if i + 1 >= len(words) or not words[i + 1].isdigit():
                    raise _invalid(content, s, seat, tr("Write a card number after `{words}`, e.g. `after 1`.", words=words[i]))
                ref = int(words[i + 1])
                if not 1 <= ref <= n:
                    raise IllegalCommand(tr("Your Fight Deck has cards 1 to {n}.", n=n), _examples(content, s, seat))
                pos = ref if k == "after" else ref - 1
                i += 2
    if i < len(words) and keywords().get(words[i]) in ("bottom", "discard"):  # `bottom 3 1`, `bỏ 3 1`
        rest = [w for w in words[i + 1:] if keywords().get(w) not in ("bottom", "discard")]
        order = [int(w) for w in rest if w.isdigit()]
        if len(order) != len(rest) or not 1 <= len(order) <= 2:
            raise _invalid(content, s, seat, tr("After `bottom` write the numbers of the other 2 drawn cards, e.g. `bottom 3 1`."))
        i = len(words)
    if i < len(words):
        raise _invalid(content, s, seat, tr("Cannot read {join!r}. Write e.g. `add 2 top, bottom 3 1`.", join=' '.join(words[i:])))
    if pick is None and pending is not None:
        pick = int(pending[1])
        if pos is None:
            pos = int(pending[2])
    if pick is None:
        raise _invalid(content, s, seat, tr("Say which drawn card to add and where: `add 2 top` or `add 2 after 1`."))
    if pos is None:
        raise _invalid(content, s, seat, tr("Say where the card goes: `top`, `bottom`, `after N` or `before N`."))
    if not 1 <= pick <= 3:
        raise IllegalCommand(tr("You drew cards 1, 2 and 3."), _examples(content, s, seat))
    others = [x for x in (1, 2, 3) if x != pick]
    if order is None:
        if pending is not None and int(pending[1]) == pick:
            order = [int(pending[3]), int(pending[4])]
        else:
            order = others
    if len(order) == 1 and order[0] in others:
        order.append(next(x for x in others if x != order[0]))
    if sorted(order) != others:
        raise IllegalCommand(tr("The cards that go to the bottom are {others} and {others2}.", others=others[0], others2=others[1]), _examples(content, s, seat))
    return Action("add", (pick, pos, order[0], order[1]))
