"""``strip_fillers`` removes what it removed when it tried each filler longest first."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines import i18n
from engines.wording import _PUNCT, _SPACES, _longest_first, strip_fillers


def _reference(line: str) -> str:
    """The former loop over every filler, longest first, kept here to compare with."""
    leading, trailing = _longest_first(i18n.locale_key())
    words = [w for w in _SPACES.sub(" ", _PUNCT.sub(" ", line)).strip().split(" ") if w]
    lower = [w.lower() for w in words]
    changed = True
    while changed:
        changed = False
        for filler in leading:
            size = filler.count(" ") + 1
            if len(words) > size and " ".join(lower[:size]) == filler:
                words, lower, changed = words[size:], lower[size:], True
                break
        for filler in trailing:
            size = filler.count(" ") + 1
            if len(words) > size and " ".join(lower[-size:]) == filler:
                words, lower, changed = words[:-size], lower[:-size], True
                break
    return " ".join(words)


def _words() -> st.SearchStrategy[str]:
    leading, trailing = _longest_first(i18n.locale_key())
    fillers = sorted({*leading, *trailing})
    parts = [w for f in fillers for w in f.split()]
    return st.lists(st.sampled_from([*fillers, *parts, "3", "play", "rain", "7 a4 c3", "OK", "Cảm ơn", ",", "!"]),
                    max_size=8).map(" ".join)


@settings(max_examples=3000, deadline=None)
@given(line=_words())
@example(line="ok so my move is play 3 thanks a lot")
@example(line="please")
@example(line="my move is ok")
def test_fillers_are_stripped_as_before(line: str) -> None:
    assert strip_fillers(line) == _reference(line)
