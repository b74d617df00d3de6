"""One way to read and check the engines' TOML content files.

Why one helper: every engine keeps its cards, fighters or rooms as data validated on load, and
each loader had grown its own near-identical "field present and of this type" check with its own
wording. A content error must name the file, the entry and the field the same way in every
engine, so the checks live here and each engine only names its own error class.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engines import i18n


def load_toml(package: str, *path: str, error: type[Exception] = ValueError) -> dict[str, Any]:
    """Read ``path`` inside ``package`` (e.g. ``"engines.tac", "data", "cards.toml"``) as TOML."""
    name = "/".join(path)
    text = resources.files(package).joinpath(*path).read_text(encoding="utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{name}: not valid TOML: {exc}") from exc


def require(entry: Mapping[str, Any], key: str, kind: type, where: str,
            error: type[Exception] = ValueError) -> Any:
    """``entry[key]``, which must exist and be a ``kind`` (a bool is never an int here)."""
    if key not in entry:
        raise error(f"{where}: missing {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise error(f"{where}: {key!r} must be {kind.__name__}, not {type(value).__name__} ({value!r})")
    return value


def check(condition: bool, where: str, problem: str, error: type[Exception] = ValueError) -> None:
    """Raise ``error("where: problem")`` unless ``condition`` holds."""
    if not condition:
        raise error(f"{where}: {problem}")


def refuse_translations(entry: Mapping[str, Any], where: str, error: type[Exception] = ValueError) -> None:
    """A content entry holds its English name only: a field named after a language served
    (``vi``, ``name_vi``) is refused, because translations live in the catalogs
    (``engines/locale/<lang>/LC_MESSAGES/pbem.po``, msgctxt naming the kind of entry)."""
    langs = set(i18n.languages()) - {i18n.SOURCE_LANG}
    stray = sorted(k for k in entry if k in langs or k.rpartition("_")[2] in langs)
    if stray:
        raise error(f"{where}: {', '.join(stray)}: translations belong in engines/locale/*/LC_MESSAGES/pbem.po, "
                    "not in the data file")
