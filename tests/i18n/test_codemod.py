"""The codemod that moves bilingual pairs into the catalog: what it rewrites, what it leaves."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


def _load_tool():
    spec = importlib.util.spec_from_file_location("i18n_codemod", ROOT / "tools" / "i18n_codemod.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_codemod"] = module
    spec.loader.exec_module(module)
    return module


codemod = _load_tool()


def convert(source: str):
    report = codemod.Report()
    return codemod.convert_source(source, "x.py", report), report


def test_fstring_pair_becomes_named_fields_and_translation() -> None:
    out, report = convert('from engines.contract import tr\n'
                          'e = tr(f"{who} draws {n:>2} cards.", f"{who} rút {n:>2} lá.")\n')
    assert 'tr("{who} draws {n:>2} cards.", who=who, n=n)' in out
    assert report.converted == 1
    assert (report.messages[0].msgid, report.messages[0].msgstr) == ("{who} draws {n:>2} cards.", "{who} rút {n:>2} lá.")


def test_per_language_fields_become_one_argument() -> None:
    out, report = convert('x = Text(f"plays {card.name.en}: {d[\'en\']}", f"dùng {card.name.vi}: {d[\'vi\']}")\n')
    assert "name=card.name" in out and "d=d" in out
    assert report.messages[0].msgstr == "dùng {name}: {d}"
    assert "from engines.contract import tr" in out


def test_call_with_language_argument_becomes_each_lang() -> None:
    out, _ = convert('x = tr(f"picks {cardlib.name(card)}", f"chọn {cardlib.name(card, \'vi\')}")\n')
    assert "name=each_lang(cardlib.name, card)" in out
    assert "from engines.i18n import each_lang" in out


def test_lang_dict_and_pair_helper() -> None:
    out, report = convert('a = {"en": f"Deadline {t}", "vi": f"Hạn chót {t}"}[lang]\n'
                          'say(ev, "A natural 20!", "Được 20!", to)\n')
    assert 'tr("Deadline {t}", t=t)[lang]' in out
    assert 'say(ev, tr("A natural 20!"), to)' in out
    assert report.converted == 2


def test_braces_in_text_are_escaped_only_when_fields_exist() -> None:
    _, report = convert('a = tr(f"{{x}} {y}", f"{{x}} {y} vi")\nb = tr("and {n} more", "và {n} nữa")\n')
    assert report.messages[0].msgid == "{{x}} {y}"
    assert report.messages[1].msgid == "and {n} more"


def test_concatenation_reads_as_an_fstring() -> None:
    out, report = convert('x = tr("Empty. Write e.g. " + ", ".join(c) + ".", "Trống. Viết " + ", ".join(c) + ".")\n')
    assert """tr("Empty. Write e.g. {join}.", join=', '.join(c))""" in out
    assert report.messages[0].msgstr == "Trống. Viết {join}."


@pytest.mark.parametrize("source, reason", [
    ('x = tr(f"{a} wins", f"{b} thắng")\n', "no English twin"),
    ('x = tr(en, vi)\n', "computed texts"),
    ('x = tr("Enter " + ", then ".join(e), "Vào " + ", rồi ".join(v))\n', "no English twin"),
])
def test_unconvertible_tr_pairs_become_fixed_word_texts(source: str, reason: str) -> None:
    out, report = convert(source)
    assert "Text(" in out and "from engines.contract import Text" in out
    assert report.converted == 0
    assert reason in report.skipped[0]


def test_unconvertible_dicts_are_left_and_listed() -> None:
    source = 'x = {"en": names_en, "vi": names_vi}\n'
    out, report = convert(source)
    assert out == source
    assert "not texts" in report.skipped[0]


def test_rerun_is_a_no_op_and_po_merge_keeps_existing(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text('from engines.contract import tr\nx = tr("Hello.", "Xin chào.")\ny = tr("Hello.", "Chào.")\n')
    po = tmp_path / "vi.po"
    report = codemod.run([str(src)], po)
    converted = src.read_text()
    assert converted.count('tr("Hello.")') == 2
    assert any("two translations" in s for s in report.skipped)
    again = codemod.run([str(src)], po)
    assert again.converted == 0 and src.read_text() == converted
    with po.open("rb") as handle:
        catalog = read_po(handle)
    assert catalog.get("Hello.").string == "Xin chào."
