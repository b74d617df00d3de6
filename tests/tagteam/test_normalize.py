"""``normalize`` reads every text as it did before its ASCII shortcut and single pattern."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines.tagteam.commands import normalize


def _reference(text: str) -> str:
    """The former ``normalize``, kept here to compare with."""
    text = text.lower().replace("đ", "d").replace("ð", "d")
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")
    text = re.sub(r"[_\-'’]", " ", text)
    text = re.sub(r"[^a-z0-9 ]", " ", text)
    return " ".join(text.split())


@settings(max_examples=3000, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
       | st.text(alphabet="aZ09 _-'’.,!\tđĐðẤấơƠ\u0301\u0303İK", max_size=40))
@example(text="Thứ tự 2 1")
@example(text="İstanbul")  # lower() of İ is i + a combining dot: NFD must still drop it
@example(text="\u212a")  # Kelvin sign: lower() is an ASCII k
def test_normalize_reads_as_before(text: str) -> None:
    assert normalize(text) == _reference(text)
