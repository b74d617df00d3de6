"""service/ picks no language by hand: every player-facing sentence goes through the catalogs
(or is a bilingual pair the codemod moves there), so a third language's catalog covers it.

A hand-made branch (``X if lang == "vi" else Y``, a ``vi`` flag, a pair whose halves use
different expressions) would show English to a reader of any other language; these checks
fail on the first one added.
"""

from __future__ import annotations

import ast
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "service"
PO = ROOT / "engines" / "locale" / "vi" / "LC_MESSAGES" / "pbem.po"


def _load_codemod():
    spec = importlib.util.spec_from_file_location("i18n_codemod_for_service", ROOT / "tools" / "i18n_codemod.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_codemod_for_service"] = module
    spec.loader.exec_module(module)
    return module


codemod = _load_codemod()
FILES = sorted(SERVICE.rglob("*.py"))


def _language_branches(source: str) -> list[str]:
    """Comparisons with a language code other than the source language, and tests of a
    ``vi`` flag: the two shapes a per-language branch takes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            codes = [o.value for o in operands if isinstance(o, ast.Constant) and o.value == "vi"]
            codes += [e.value for o in operands if isinstance(o, ast.Tuple | ast.List | ast.Set)
                      for e in o.elts if isinstance(e, ast.Constant) and e.value == "vi"]
            if codes:
                found.append(f"line {node.lineno}: compares with 'vi'")
        if isinstance(node, ast.IfExp | ast.If) and isinstance(node.test, ast.Name) and node.test.id == "vi":
            found.append(f"line {node.lineno}: branches on a `vi` flag")
    return found


def test_the_scan_sees_the_shapes_it_forbids() -> None:
    assert _language_branches('x = "Vòng" if lang == "vi" else "Round"\n')
    assert _language_branches('vi = True\ny = "a" if vi else "b"\n')
    assert _language_branches('ok = lang in ("en", "vi")\n')
    assert not _language_branches('x = {"en": "Round", "vi": "Vòng"}[lang]\n')


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_language_is_picked_by_hand(path: Path) -> None:
    assert _language_branches(path.read_text("utf-8")) == []


def test_every_pair_in_service_converts_to_a_catalog_message(tmp_path: Path) -> None:
    """The codemod converts every bilingual pair of service/ and none clashes with a
    translation the catalog already has (same English, other Vietnamese)."""
    report = codemod.Report()
    for path in FILES:
        codemod.convert_source(path.read_text("utf-8"), str(path.relative_to(ROOT)), report)
    assert report.skipped == []
    po = tmp_path / "pbem.po"
    shutil.copy(PO, po)
    codemod.merge_into_po(po, report.messages, report)
    assert report.skipped == []
