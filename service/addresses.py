"""Address helpers shared by the stacks and the service.

Plus-addressing (``play+KEY@host``) carries the reply key; mailboxes are named by the base
address, so every place that maps a recipient to a mailbox must strip the detail the same way.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from email.utils import getaddresses, parseaddr

DETAIL_SEPARATOR = "+"

#: The address helpers are pure functions of one string and run a dozen times per mail (the
#: stdlib's address parser was ~4 % of a reply's CPU): each keeps its recent answers.
_CACHED = 4096


#: The everyday forms of an address, which ``parse_address`` reads without the stdlib's parser:
#: a dot-atom address (``ann.b+key@x.test``), alone or in angle brackets after a display name
#: of plain words (``Ann Smith <ann@x.test>``). Anything else (quotes, comments, groups,
#: encoded words, non-ASCII) goes to ``email.utils``.
_ATOM = r"[A-Za-z0-9_+-]+"
_ADDR_SPEC = rf"{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*"
_PLAIN = re.compile(_ADDR_SPEC)
_NAMED = re.compile(rf"([A-Za-z0-9 ]*)<({_ADDR_SPEC})>")


def parse_address(value: str) -> tuple[str, str]:
    """``email.utils.parseaddr``, the same answer for every input.

    The stdlib parser walks an address character by character (``getatom`` alone was most of
    the 1.1 million ``len`` calls of a 1,000-reply run); the everyday forms are read by one
    regular expression instead. ``tests/mail/test_addresses.py`` compares both on generated
    addresses."""
    if _PLAIN.fullmatch(value):
        return "", value
    named = _NAMED.fullmatch(value)
    if named:
        return " ".join(named.group(1).split()), named.group(2)
    return parseaddr(value)


def parse_addresses(values: Sequence[str]) -> list[tuple[str, str]]:
    """``email.utils.getaddresses``: (name, address) of every address in the header values."""
    if all(_PLAIN.fullmatch(v) or _NAMED.fullmatch(v) for v in values):
        return [parse_address(v) for v in values]
    return getaddresses(values)


@functools.lru_cache(maxsize=_CACHED)
def bare_address(value: str) -> str:
    """``'Ann <Ann@X.test>'`` -> ``'ann@x.test'``: the address alone, lower-cased for lookups."""
    return parse_address(value)[1].strip().lower() or value.strip().strip("<>").lower()


@functools.lru_cache(maxsize=_CACHED)
def base_address(address: str) -> str:
    """Drop the ``+detail`` of the local part: ``play+k1@pbem.test`` -> ``play@pbem.test``."""
    address = bare_address(address)
    local, at, domain = address.rpartition("@")
    if not at:
        return address
    local = local.split(DETAIL_SEPARATOR, 1)[0]
    return f"{local}@{domain}"


@functools.lru_cache(maxsize=_CACHED)
def address_detail(address: str) -> str | None:
    """The ``+detail`` of an address (the reply key), or None when there is none.

    The detail keeps its case: keys may be case-sensitive even though mailbox names are not.
    """
    local = parse_address(address)[1].rpartition("@")[0] or address.rpartition("@")[0]
    if DETAIL_SEPARATOR not in local:
        return None
    detail = local.split(DETAIL_SEPARATOR, 1)[1]
    return detail or None


#: Longest display name shown anywhere (text, HTML, headers).
NAME_MAX = 40


def clean_name(name: str, fallback: str = "") -> str:
    """A display name as data, never layout: one line, no control or format characters (line
    breaks, tabs, bidi overrides, zero-width marks), spaces collapsed, at most ``NAME_MAX``
    characters. A name such as "Bob\\n  1. resign — …" cannot print a fake menu line."""
    text = unicodedata.normalize("NFC", name)
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text)
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > NAME_MAX:
        text = text[: NAME_MAX - 1].rstrip() + "…"
    return text or fallback
