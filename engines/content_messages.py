"""Babel extractor for the engines' content files: every card, room, threat… name in a data
TOML becomes a catalog message, so its translations live in the ``.po`` files like any sentence.

Why: content is data (one TOML per kind), and a name a player reads is a message like any
other. The TOML keeps only the English (the ``en`` key, the msgid); the Vietnamese — or any
third language — is that msgid's translation, under a gettext context naming the kind
(``msgctxt "room"``), because one English word may be a card in one game and a room in another.

``babel.cfg`` registers it (``[extractors] content = engines.content_messages:extract``) and maps
each data file with its contexts::

    [content: engines/barcadia/data/rooms.toml]
    context = room                   # the context of every ``en`` in the file
    contexts = house_rule:house rule # or per top-level table / array, overriding ``context``

Engines read the same names back with :func:`name` (``trc(context, en)``), so extraction and use
cannot drift apart: the check in ``tests/i18n`` fails when a content name lacks a translation.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from typing import IO, Any

#: the key whose string value is a content name's English text (the msgid)
KEY = "en"


def contexts(options: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """The default context and the per-table ones, from a ``babel.cfg`` section's options."""
    default = options.get("context", "").strip()
    per_table: dict[str, str] = {}
    for item in options.get("contexts", "").split(","):
        table, _, context = item.partition(":")
        if table.strip() and context.strip():
            per_table[table.strip()] = context.strip()
    return default, per_table


def names(data: Mapping[str, Any], default: str, per_table: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    """Every ``(context, English name)`` of a parsed content file, in file order."""

    def walk(value: Any, context: str) -> Iterator[tuple[str, str]]:
        if isinstance(value, Mapping):
            text = value.get(KEY)
            if isinstance(text, str) and text:
                yield context, text
            for key, inner in value.items():
                if key != KEY:
                    yield from walk(inner, context)
        elif isinstance(value, list):
            for inner in value:
                yield from walk(inner, context)

    for table, value in data.items():
        yield from walk(value, per_table.get(table, default))


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Mapping[str, str]) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction-method signature: ``(lineno, funcname, message, comments)`` per name.

    A message with a context is ``(context, msgid)`` under the ``pgettext`` keyword, as Babel
    expects for its ``Nc,M`` keyword spec."""
    data = tomllib.loads(fileobj.read().decode("utf-8"))
    default, per_table = contexts(options)
    for context, text in names(data, default, per_table):
        if context:
            yield 0, "pgettext", (context, text), []
        else:
            yield 0, "gettext", text, []
