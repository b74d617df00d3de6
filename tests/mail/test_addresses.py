"""``parse_address``/``parse_addresses`` answer exactly as ``email.utils`` does.

They read the everyday forms with a regular expression; these tests compare them with the
stdlib on generated addresses, most of them near the edge of the fast forms (dots, spaces,
brackets, quotes, commas), so a form the shortcut reads differently fails here."""

from __future__ import annotations

from email.utils import getaddresses, parseaddr

from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.addresses import address_detail, bare_address, parse_address, parse_addresses

_WORD = st.text(alphabet="abcXY09_+-.", min_size=0, max_size=8)
_TRICKY = st.sampled_from(["", " ", ".", "..", "@", "<", ">", '"', "(", ")", ",", ";", ":", "\t", "é", "[", "]",
                           "\\", "=?utf-8?q?A?="])
_LOCAL = st.lists(_WORD | _TRICKY, min_size=1, max_size=4).map("".join)
_ADDRESS = st.builds(lambda a, b: f"{a}@{b}", _LOCAL, _LOCAL)
_NAME = st.lists(st.text(alphabet="Ann Bo9 ", max_size=6) | _TRICKY, max_size=4).map("".join)
_VALUE = (_ADDRESS | st.builds(lambda n, a: f"{n}<{a}>", _NAME, _ADDRESS)
          | st.builds(lambda n, a: f"{n} <{a}>", _NAME, _ADDRESS) | st.text(max_size=30))


@settings(max_examples=4000, deadline=None)
@given(value=_VALUE)
@example(value="ann@x.test")
@example(value="Ann Smith <ann.b+key@x.test>")
@example(value="  Ann   Smith  <ann@x.test>")
@example(value="<ann@x.test>")
@example(value="a..b@x.test")
@example(value=".a@x.test")
@example(value="a@x..test")
@example(value="a@x.")
def test_one_address_reads_as_parseaddr_reads_it(value: str) -> None:
    assert parse_address(value) == parseaddr(value)


@settings(max_examples=2000, deadline=None)
@given(values=st.lists(_VALUE, max_size=4))
@example(values=["play+k@pbem.test", "Ann <ann@x.test>"])
@example(values=["a@x.test, b@x.test"])
def test_header_values_read_as_getaddresses_reads_them(values: list[str]) -> None:
    assert parse_addresses(values) == getaddresses(values)


def test_the_everyday_forms_take_the_fast_path() -> None:
    """The shortcut covers what players and our own mails write (else it saves nothing)."""
    assert parse_address("play+K3Y@pbem.test") == ("", "play+K3Y@pbem.test")
    assert parse_address("Ann  Smith <ann@x.test>") == ("Ann Smith", "ann@x.test")
    assert bare_address("Ann <Ann@X.test>") == "ann@x.test"
    assert address_detail("play+K3Y@pbem.test") == "K3Y"
