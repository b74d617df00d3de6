"""TAC, Barcadia and The Grizzled pick no language by hand (issue 15): every sentence, content
name and command word they show comes from the catalogs, so a third language's ``.po`` covers them.

The shapes forbidden here are those of ``test_service_language_branches`` (a comparison with
``"vi"``, a ``vi`` flag) plus the engines' own older ones: a bilingual pair ``Text(en, vi)`` /
``tr(en, vi)``, a ``{"en": .., "vi": ..}`` dict, a ``vi`` field in a content file.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from tests.i18n.test_service_language_branches import _language_branches

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("tac", "barcadia", "grizzled")
FILES = [*sorted(p for name in ENGINES for p in (ROOT / "engines" / name).rglob("*.py")),
         ROOT / "engines" / "contract.py", ROOT / "engines" / "i18n.py"]
DATA = sorted(p for name in ENGINES for p in (ROOT / "engines" / name / "data").glob("*.toml"))


def _pairs_and_dicts(source: str) -> list[str]:
    """Bilingual pairs and per-language dicts: words in a second language written in code."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Text", "tr") \
                and len(node.args) >= 2:
            found.append(f"line {node.lineno}: a {node.func.id}(en, vi) pair")
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if "vi" in keys:
                found.append(f"line {node.lineno}: a dict with a 'vi' key")
        if isinstance(node, ast.Call) and any(k.arg == "vi" for k in node.keywords):
            found.append(f"line {node.lineno}: a vi= argument")
    return found


def test_the_scan_sees_the_pair_shapes_it_forbids() -> None:
    assert _pairs_and_dicts('x = Text("Rain", "Mưa")\n')
    assert _pairs_and_dicts('x = tr(f"{n} cards", f"{n} lá")\n')
    assert _pairs_and_dicts('x = {"en": "Rain", "vi": "Mưa"}\n')
    assert _pairs_and_dicts('x = dict(en="a", vi="b")\n')
    assert not _pairs_and_dicts('x = tr("{n} cards", n=3)\ny = trc("card", "Angel")\n')


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_language_is_picked_by_hand_in_the_engines(path: Path) -> None:
    assert _language_branches(path.read_text("utf-8")) == []


@pytest.mark.parametrize("path", [p for p in FILES if p.name != "contract.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_second_language_is_written_in_engine_code(path: Path) -> None:
    """contract.py alone keeps the pair constructor, for stored data and the callers outside
    these engines (the league report, the test toy engine)."""
    assert _pairs_and_dicts(path.read_text("utf-8")) == []


@pytest.mark.parametrize("path", DATA, ids=lambda p: str(p.relative_to(ROOT)))
def test_content_files_hold_no_translation(path: Path) -> None:
    """A name's translations live in the catalogs (msgctxt = its kind), not beside it."""
    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    found = keys(tomllib.loads(path.read_text("utf-8")))
    assert not {k for k in found if k == "vi" or k.endswith("_vi")}, path.name
