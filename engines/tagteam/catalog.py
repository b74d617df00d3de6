"""The fighter files' names for the message catalog: a Babel extractor for ``data/*.toml``.

Why: token, special-track and board-side names are content, written once in English in the
fighter files, and every language's words for them live in its ``.po`` like any other text
(``msgctxt`` names the kind: ``token``, ``track``, ``side``). ``babel.cfg`` maps the data files
to :func:`extract`, so ``pybabel extract`` (and ``tools/i18n_codemod.py --refresh-only``) puts a
new fighter's names into ``pbem.pot`` and the catalog check then asks for their translations.
Card names stay as printed (shown in «»), so they are not extracted.

Pure: Babel hands in the open file; nothing here reads or writes anything else.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from typing import IO, Any

#: the msgctxt of each kind of content name (``words.py`` looks them up with the same)
TOKEN, TRACK, SIDE = "token", "track", "side"


def content_names(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(msgctxt, msgid)`` of every name one fighter file shows players, in file order."""
    out: list[tuple[str, str]] = []
    special = data.get("special") or {}
    if isinstance(special, Mapping) and special.get("name"):
        out.append((TRACK, str(special["name"])))
    for side in data.get("sides") or []:
        if isinstance(side, Mapping) and side.get("name"):
            out.append((SIDE, str(side["name"])))
    for token in data.get("tokens") or []:
        if isinstance(token, Mapping) and token.get("name"):
            out.append((TOKEN, str(token["name"])))
    return out


def _line_of(lines: list[str], name: str) -> int:
    """The line of ``name = "<name>"`` (for the ``.pot`` reference), 1 when not found."""
    wanted = f'"{name}"'
    return next((i for i, line in enumerate(lines, 1) if line.strip().startswith("name") and wanted in line), 1)


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Mapping[str, Any]) -> Iterator[tuple[int, str | None, tuple[str, str], list[str]]]:
    """Babel's extractor interface: yields ``(lineno, funcname, (context, msgid), comments)``;
    the ``pgettext`` function name tells Babel the first item is the context."""
    text = fileobj.read().decode("utf-8")
    lines = text.splitlines()
    for context, name in content_names(tomllib.loads(text)):
        yield _line_of(lines, name), "pgettext", (context, name), [f"Tag Team content: {context} name"]
