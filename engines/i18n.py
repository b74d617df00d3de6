"""Message catalogs: every player-facing sentence is an English msgid translated per language.

The catalogs are gettext ``.po`` files managed with Babel, one per language, in the package
data folder ``engines/locale/<lang>/LC_MESSAGES/pbem.po`` (domain ``pbem``). The set of
languages IS the set of catalogs present: adding French is adding ``fr/LC_MESSAGES/pbem.po``,
with no code change.

Why ``.po`` read by Babel at first use rather than compiled ``.mo``: the ``.po`` is the only
source of truth (no binary that can go stale beside it, no build step an editable install or a
test run could forget), and reading the few thousand entries once per process is cheap. Reading
packaged data is how engines already load their TOML content, so engines stay pure.

A :class:`~engines.contract.Text` made by :func:`tr` keeps the msgid and its named arguments and
is only turned into words, per language, when a mail is written (``text.get(lang)``).
"""

from __future__ import annotations

import gettext as stdlib_gettext
import os
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

DOMAIN = "pbem"
SOURCE_LANG = "en"

#: Overrides the catalog folder (tests put a temporary language there); normally unset.
LOCALE_ENV = "PBEM_LOCALE_DIR"


def locale_dir() -> Path:
    """Where the ``<lang>/LC_MESSAGES/pbem.po`` catalogs live."""
    override = os.environ.get(LOCALE_ENV)
    return Path(override) if override else _packaged()


def locale_key() -> str:
    """The catalog folder as a string, cheaply: the key of caches built from the catalogs
    (vocabularies, menu words), so a switched catalog folder gets its own. Read from the
    environment once (every translated text asks for it: an environment look-up each time was
    ~6 % of a TAC game); ``reload`` reads it again."""
    return _locale_key()


@cache
def _locale_key() -> str:
    return os.environ.get(LOCALE_ENV) or _packaged_key()


@cache
def _packaged() -> Path:
    return Path(str(resources.files("engines") / "locale"))


@cache
def _packaged_key() -> str:
    return str(_packaged())


def languages() -> tuple[str, ...]:
    """Every language a player may choose: English first, then each catalog present, sorted."""
    return _languages(locale_key())


@cache
def _languages(folder: str) -> tuple[str, ...]:
    root = Path(folder)
    found = sorted(p.name for p in root.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()) \
        if root.is_dir() else []
    return (SOURCE_LANG, *[lang for lang in found if lang != SOURCE_LANG])


@dataclass(frozen=True)
class _Catalog:
    """One language's translations: singular messages, plural ones, and its plural rule."""

    singular: dict[tuple[str | None, str], str]
    plural: dict[tuple[str | None, str], tuple[str, ...]]
    plural_index: Callable[[int], int]


@cache
def _catalog(folder: str, lang: str) -> _Catalog:
    """Read ``lang``'s catalog; untranslated and fuzzy entries are left out, so they fall back
    to the English msgid."""
    path = Path(folder) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return _Catalog({}, {}, lambda n: 0 if n == 1 else 1)
    with path.open("rb") as handle:
        catalog: Catalog = read_po(handle, locale=None, domain=DOMAIN)
    singular: dict[tuple[str | None, str], str] = {}
    plural: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            singular[(message.context, message.id)] = message.string
        elif isinstance(message.id, tuple | list) and isinstance(message.string, tuple | list) \
                and all(message.string):
            plural[(message.context, message.id[0])] = tuple(message.string)
    rule = stdlib_gettext.c2py(_plural_expr(catalog))
    return _Catalog(singular, plural, rule)


def _plural_expr(catalog: Catalog) -> str:
    """The C expression of the catalog's ``Plural-Forms`` header (``n != 1`` when absent)."""
    header = catalog.plural_forms or ""
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key.strip() == "plural" and value.strip():
            return value.strip()
    return "n != 1"


def reload() -> None:
    """Forget the catalogs read so far (after a test switched ``PBEM_LOCALE_DIR``)."""
    _locale_key.cache_clear()
    _languages.cache_clear()
    _catalog.cache_clear()
    _translations.cache_clear()


def gettext(lang: str, msgid: str, context: str | None = None) -> str:
    """The translation of ``msgid`` in ``lang``; the msgid itself (English) when there is none."""
    if lang == SOURCE_LANG:
        return msgid
    return _catalog(locale_key(), lang).singular.get((context, msgid), msgid)


def translations(msgid: str, context: str | None = None) -> tuple[str, ...]:
    """``msgid`` in every language served (English first, no repeats): what a parser accepts
    for a word a menu shows, so a third language's command words and names parse once its
    catalog has them."""
    return _translations(locale_key(), msgid, context)


@cache
def _translations(folder: str, msgid: str, context: str | None) -> tuple[str, ...]:
    found = [msgid, *(_catalog(folder, lang).singular.get((context, msgid), msgid) for lang in _languages(folder))]
    return tuple(dict.fromkeys(found))


def ngettext(lang: str, singular: str, plural: str, n: int, context: str | None = None) -> str:
    """The form of a counted message that fits ``n`` in ``lang`` (English rules as fallback)."""
    if lang != SOURCE_LANG:
        catalog = _catalog(locale_key(), lang)
        forms = catalog.plural.get((context, singular))
        if forms:
            return forms[min(catalog.plural_index(n), len(forms) - 1)]
    return singular if n == 1 else plural


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields of a message, for checking a translation keeps the same ones."""
    try:
        return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template)
                if field is not None}
    except ValueError:
        return {"<malformed>"}


def resolve(value: Any, lang: str) -> Any:
    """A message argument in ``lang``: a Text (or its stored JSON) is translated, a
    ``{"en": .., "vi": ..}`` mapping picked per language; anything else (names, numbers) is used
    as it is."""
    getter = getattr(value, "get_text", None)
    if getter is not None:
        return getter(lang)
    if isinstance(value, Mapping):
        if "$text" in value:  # a Text argument as stored JSON
            return resolve(value["$text"], lang)
        if "msgid" in value:  # a Text stored as JSON in a state (an outcome's reason)
            return render(lang, str(value["msgid"]), dict(value.get("args") or {}), value.get("ctx"))
        if SOURCE_LANG in value:
            return value.get(lang, value[SOURCE_LANG])
    return value


def render(lang: str, msgid: str, args: Mapping[str, Any], context: str | None = None) -> str:
    """Translate, then fill the named fields. A translation whose fields do not fit the
    arguments (a mistake in a ``.po``) falls back to the English sentence instead of failing."""
    text = gettext(lang, msgid, context)
    if not args:
        return text
    values = {k: resolve(v, lang) for k, v in args.items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return msgid.format(**values)


class LazyWords:
    """Words per language written on first read (``make(*args, lang)``), for a menu entry's
    command: most menus are never read, and one read needs one language. ``resolve`` reads it
    like a Text (``get_text``); not stored, so never JSON."""

    __slots__ = ("_args", "_done", "_make")

    def __init__(self, make: Callable[..., str], *args: Any) -> None:
        self._make, self._args = make, args
        self._done: dict[str, str] = {}

    def get_text(self, lang: str) -> str:
        if lang not in self._done:
            self._done[lang] = self._make(*self._args, lang)
        return self._done[lang]

    def __eq__(self, other: object) -> bool:
        """Equal when they write the same (canonical) words: two menus built for one position
        compare equal."""
        return isinstance(other, LazyWords) and self.get_text(SOURCE_LANG) == other.get_text(SOURCE_LANG)

    def __hash__(self) -> int:
        return hash(self.get_text(SOURCE_LANG))

    def __repr__(self) -> str:
        return f"LazyWords({self.get_text(SOURCE_LANG)!r})"


def each_lang(make: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """A message argument worded by code per language (a card name): ``make(*args, lang)`` for
    every language served, so the Text stays plain JSON data."""
    return {lang: make(*args, lang) for lang in languages()}
