"""The rules in short, for players: each engine's ``data/summary/rules.toml`` (``en`` and ``vi`` lists).

Why data and not code: the summary is content, written per language next to the engine's other
content and checked on load like it (5–15 lines a language, no empty line), so the ``rules``
command and the first mail of a game quote the same text. An engine without the file (a plugin,
the test toy) has no summary: callers say so instead of failing.
"""

from __future__ import annotations

import functools

from engines.datafile import check, load_toml

MIN_LINES, MAX_LINES = 5, 15
LANGS = ("en", "vi")


class SummaryError(ValueError):
    """A rules summary file that breaks the shape above."""


@functools.cache
def _summary(engine_id: str) -> dict[str, tuple[str, ...]] | None:
    try:
        data = load_toml(f"engines.{engine_id}", "data", "summary", "rules.toml", error=SummaryError)
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    out: dict[str, tuple[str, ...]] = {}
    for lang in LANGS:
        lines = data.get(lang)
        where = f"engines/{engine_id}/data/summary/rules.toml [{lang}]"
        if not isinstance(lines, list) or not all(isinstance(x, str) and x.strip() for x in lines):
            raise SummaryError(f"{where}: must be a list of non-empty lines")
        check(MIN_LINES <= len(lines) <= MAX_LINES, where, f"has {len(lines)} lines, not {MIN_LINES}-{MAX_LINES}",
              SummaryError)
        out[lang] = tuple(lines)
    return out


def rules_summary(engine_id: str, lang: str) -> list[str]:
    """The summary in ``lang`` (English for a language without one); [] when there is none."""
    summary = _summary(engine_id)
    if summary is None:
        return []
    return list(summary.get(lang, summary["en"]))
