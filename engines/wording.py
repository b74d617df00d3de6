"""What may surround a command on a line without changing it: a closed list of polite fillers.

Why a closed list: a reply line becomes a command only when the *whole* line is a command
(see the service's reading rules). People still write "3 please", "chọn 2 nhé", "ok, play rain
thanks!" — those words are stripped before parsing, and nothing else is. A parser never picks a
number or a keyword out of a sentence, so a line like "bỏ cuộc thì không bao giờ nhé, cường độ 3"
is not a command: after the fillers go, words remain that are not part of any command.

``fold`` is the one diacritics-insensitive, lower-case form used to compare words.
"""

from __future__ import annotations

import re
import unicodedata

# Whole words (lower case, as typed; Vietnamese with and without diacritics) that may stand
# before a command (LEADING) or after it (TRAILING). Short Vietnamese particles such as "ạ" or
# "đi" are only trailing: at the start of a line they could be part of a command.
LEADING: tuple[str, ...] = (
    "please", "pls", "plz", "ok", "okay", "hi", "hello", "my move", "my move is", "ok so",
    "xin chào", "chào", "mình", "tôi", "em", "vâng", "dạ", "vang",
)
TRAILING: tuple[str, ...] = (
    "please", "pls", "plz", "thanks", "thank you", "thx", "ty", "cheers", "ok", "thanks a lot",
    "nhé", "nhe", "nha", "nhá", "ạ", "đi", "nhé bạn", "cảm ơn", "cảm ơn bạn", "xin cảm ơn", "cám ơn",
    "cam on", "nhe ban", "nha ban", "đi nhé", "di nhe", "luôn", "luon",
)

_PUNCT = re.compile(r"[!?.,;:…~\"'“”‘’()\[\]]+")
_SPACES = re.compile(r"\s+")
_LEADING = sorted(set(LEADING), key=len, reverse=True)
_TRAILING = sorted(set(TRAILING), key=len, reverse=True)


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
    words = [w for w in _SPACES.sub(" ", _PUNCT.sub(" ", line)).strip().split(" ") if w]
    lower = [w.lower() for w in words]
    changed = True
    while changed:
        changed = False
        for filler in _LEADING:
            size = filler.count(" ") + 1
            if len(words) > size and " ".join(lower[:size]) == filler:
                words, lower, changed = words[size:], lower[size:], True
                break
        for filler in _TRAILING:
            size = filler.count(" ") + 1
            if len(words) > size and " ".join(lower[-size:]) == filler:
                words, lower, changed = words[:-size], lower[:-size], True
                break
    return " ".join(words)
