"""A language added for a test: the packaged catalogs copied, plus one ``.po`` file, served as
the catalog folder — what an operator adding a language does, with no code change."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engines import i18n

LOCALE = Path(__file__).resolve().parents[2] / "engines" / "locale"


@contextmanager
def added_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, po: str) -> Iterator[Path]:
    """Serve the packaged catalogs plus ``<lang>/LC_MESSAGES/pbem.po`` (text ``po``) meanwhile."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    (locale / lang / "LC_MESSAGES").mkdir(parents=True)
    (locale / lang / "LC_MESSAGES" / "pbem.po").write_text(po, encoding="utf-8")
    monkeypatch.setenv(i18n.LOCALE_ENV, str(locale))
    i18n.reload()
    try:
        yield locale
    finally:
        monkeypatch.delenv(i18n.LOCALE_ENV)
        i18n.reload()
