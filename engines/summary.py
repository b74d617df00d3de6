"""The rules in short, for players: each engine's ``data/summary/rules.toml``.

Why data and not code: the summary is content, kept next to the engine's other content and
checked on load like it (5–15 lines, no empty line), so the ``rules`` command and the first mail
of a game quote the same text. The file holds the English lines only (``lines = [{ en = … }]``);
each line is a catalog message under the context ``rules summary`` (extracted by
``engines.content_messages``, see ``babel.cfg``), so a language is added with its ``.po`` file
alone. An engine without the file (a plugin, the test toy) has no summary: callers say so
instead of failing.
"""

from __future__ import annotations

import functools

from engines import i18n
from engines.datafile import check, load_toml, refuse_translations

MIN_LINES, MAX_LINES = 5, 15
CONTEXT = "rules summary"


class SummaryError(ValueError):
    """A rules summary file that breaks the shape above."""


@functools.cache
def _summary(engine_id: str) -> tuple[str, ...] | None:
    try:
        data = load_toml(f"engines.{engine_id}", "data", "summary", "rules.toml", error=SummaryError)
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    where = f"engines/{engine_id}/data/summary/rules.toml"
    refuse_translations(data, where, SummaryError)
    lines = data.get("lines")
    if not isinstance(lines, list) or not all(isinstance(x, dict) for x in lines):
        raise SummaryError(f"{where}: `lines` must be a list of {{ en = \"…\" }} entries")
    for n, line in enumerate(lines, 1):
        refuse_translations(line, f"{where} line {n}", SummaryError)
        text = line.get("en")
        check(isinstance(text, str) and bool(text.strip()), f"{where} line {n}", "needs a non-empty `en`",
              SummaryError)
    check(MIN_LINES <= len(lines) <= MAX_LINES, where, f"has {len(lines)} lines, not {MIN_LINES}-{MAX_LINES}",
          SummaryError)
    return tuple(str(line["en"]) for line in lines)


def rules_summary(engine_id: str, lang: str) -> list[str]:
    """The summary in ``lang`` (each line English where its catalog has no translation); []
    when there is none."""
    lines = _summary(engine_id)
    if lines is None:
        return []
    return [i18n.gettext(lang, line, CONTEXT) for line in lines]
