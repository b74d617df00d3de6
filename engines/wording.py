"""What may surround a command on a line without changing it: a closed list of polite fillers.

Why a closed list: a reply line becomes a command only when the *whole* line is a command
(see the service's reading rules). People still write "3 please", "chọn 2 nhé", "ok, play rain
thanks!" — those words are stripped before parsing, and nothing else is. A parser never picks a
number or a keyword out of a sentence, so a line like "bỏ cuộc thì không bao giờ nhé, cường độ 3"
is not a command: after the fillers go, words remain that are not part of any command.

``fold`` is the one diacritics-insensitive, lower-case form used to compare words.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from engines import i18n
from engines.contract import Text, trc

# Whole words (lower case, as typed) that may stand before a command (LEADING) or after it
# (TRAILING), "|"-separated. Each language's own fillers are the translation of these messages
# in its catalog (Vietnamese: "nhé", "cảm ơn", with and without diacritics), and every
# language's are accepted: a player's reply may mix them. Short particles such as "ạ" or "đi"
# are only trailing: at the start of a line they could be part of a command.
_LEADING_MSG = trc("leading fillers", "please | pls | plz | ok | okay | hi | hello | my move | my move is | ok so")
_TRAILING_MSG = trc("trailing fillers",
                    "please | pls | plz | thanks | thank you | thx | ty | cheers | ok | thanks a lot")


def _fillers(message: Text) -> tuple[str, ...]:
    words = (w.strip().lower() for text in i18n.translations(message.msgid, message.context) for w in text.split("|"))
    return tuple(dict.fromkeys(w for w in words if w))


LEADING: tuple[str, ...] = _fillers(_LEADING_MSG)
TRAILING: tuple[str, ...] = _fillers(_TRAILING_MSG)

_PUNCT = re.compile(r"[!?.,;:…~\"'“”‘’()\[\]]+")
_SPACES = re.compile(r"\s+")


@functools.cache
def _longest_first(catalogs: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Leading and trailing fillers of every catalog in the folder ``catalogs`` (a language
    added there counts at once), longest first so "cảm ơn bạn" goes before "cảm ơn"."""
    del catalogs  # the cache key: i18n.translations reads the current folder itself
    return (tuple(sorted(_fillers(_LEADING_MSG), key=len, reverse=True)),
            tuple(sorted(_fillers(_TRAILING_MSG), key=len, reverse=True)))


def fold(text: str) -> str:
    """Lower-case without diacritics, so ``Chọn Hai`` compares equal to ``chon hai``."""
    text = text.lower().replace("đ", "d")
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def strip_fillers(line: str) -> str:
    """``line`` without leading/trailing polite fillers and sentence punctuation.

    Only fillers at the start or the end are removed (repeatedly), and never the last word:
    "ok 3 please" -> "3", "chọn 2 nhé" -> "chọn 2", "play rain, thanks!" -> "play rain".
    Words in the middle stay, so a sentence stays a sentence and never parses as a command.
    """
    leading, trailing = _by_words(i18n.locale_key())
    words = [w for w in _SPACES.sub(" ", _PUNCT.sub(" ", line)).strip().split(" ") if w]
    lower = [w.lower() for w in words]
    changed = True
    while changed:
        changed = False
        for size, fillers in leading:
            if len(words) > size and " ".join(lower[:size]) in fillers:
                words, lower, changed = words[size:], lower[size:], True
                break
        for size, fillers in trailing:
            if len(words) > size and " ".join(lower[-size:]) in fillers:
                words, lower, changed = words[:-size], lower[:-size], True
                break
    return " ".join(words)


@functools.cache
def _by_words(catalogs: str) -> tuple[tuple[tuple[int, frozenset[str]], ...], ...]:
    """The leading and the trailing fillers grouped by their number of words, most words first.

    Trying the groups in that order removes what trying each filler longest first removed:
    two fillers that both match the start (or the end) of a line are one the other's first
    (last) words, so the longer one has more words. One set look-up per word count replaced
    a join and a compare per filler."""
    out = []
    for fillers in _longest_first(catalogs):
        sizes: dict[int, set[str]] = {}
        for filler in fillers:
            sizes.setdefault(filler.count(" ") + 1, set()).add(filler)
        out.append(tuple((size, frozenset(sizes[size])) for size in sorted(sizes, reverse=True)))
    return tuple(out)
