"""Codemod: move bilingual text pairs out of the code into the gettext catalogs.

Re-runnable on any tree (run it again after merging branches that still add pairs):

    .venv/bin/python tools/i18n_codemod.py engines service

It rewrites, keeping the rest of each file as it is (libcst):

* ``tr(EN, VI)`` and ``Text(EN, VI)``                → ``tr("msgid {name}", name=expr)``
  (a pair it cannot convert is written ``Text(EN, VI)``: fixed words, not extracted by Babel)
* ``{"en": EN, "vi": VI}`` (a dict of exactly those)  → ``tr(...)`` (``[lang]`` still works on a Text)
* pair helpers ``say(ev, EN, VI, ...)`` etc. (``PAIR_FUNCS``) → ``say(ev, tr(...), ...)``

where EN and VI are string literals, f-strings, or ``+`` chains of them (``"Enter " + x``
reads as ``f"Enter {x}"``). The English text becomes the msgid, each
``{expression}`` a named field, and the Vietnamese text is written into
``engines/locale/vi/LC_MESSAGES/pbem.po`` as that msgid's translation. A field that is
``x.en`` in English and ``x.vi`` in Vietnamese (or ``x["en"]`` / ``x["vi"]``) becomes one
argument ``x`` resolved per language when the mail is written.

What it cannot convert (the two halves use different expressions, a half is neither a literal
nor an f-string, the same English has two translations) is left unchanged and listed, with the
reason, on standard output; such a pair still works (a literal Text) until it is reshaped.
"""

from __future__ import annotations

import argparse
import ast
import keyword
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

#: helper name -> index of its English argument (the Vietnamese one follows it)
PAIR_FUNCS: dict[str, int] = {"say": 1, "_invalid": 3, "_t": 1, "T": 0}

#: names that build a Text from a pair
PAIR_CONSTRUCTORS = ("tr", "Text")

DOMAIN = "pbem"
DEFAULT_PO = Path("engines/locale/vi/LC_MESSAGES/pbem.po")


class Unconvertible(Exception):
    """A pair the codemod leaves as it is; the message says why."""


@dataclass
class Field:
    name: str
    source: str  # the argument expression, as code


@dataclass
class Message:
    msgid: str
    msgstr: str
    fields: list[Field] = field(default_factory=list)


def _parts(code: str) -> list[str | ast.FormattedValue]:
    """A string literal / f-string / implicit concatenation as literal text and fields."""
    try:
        node = ast.parse("(" + code.strip() + ")", mode="eval").body
    except SyntaxError as exc:
        raise Unconvertible(f"cannot parse {code!r}") from exc
    return _node_parts(node)


def _node_parts(node: ast.expr) -> list[str | ast.FormattedValue]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _has_text(node):
        # "Enter " + who + "." reads as f"Enter {who}."
        return _node_parts(node.left) + _node_parts(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out: list[str | ast.FormattedValue] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                out.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                out.append(value)
        return out
    if isinstance(node, ast.Constant | ast.BinOp):
        raise Unconvertible("a half is not a string literal or f-string")
    return [ast.FormattedValue(node, -1, None)]  # an operand of a concatenation: a field


def _has_text(node: ast.expr) -> bool:
    """A ``+`` chain with a string literal in it (so every operand is a string)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _has_text(node.left) or _has_text(node.right)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


_LANG_SUFFIX = {"en": (".en", "['en']", '["en"]'), "vi": (".vi", "['vi']", '["vi"]')}


def _base(expr: str, lang: str) -> str:
    """``card.name.en`` -> ``card.name``: the language-neutral value behind a per-language field."""
    for suffix in _LANG_SUFFIX[lang]:
        if expr.endswith(suffix) and len(expr) > len(suffix):
            return expr[: -len(suffix)]
    return expr


class _LangArg(ast.NodeTransformer):
    """Replaces the string constant of one language code by the name ``lang``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.found = False

    def visit_Constant(self, node: ast.Constant) -> ast.expr:
        if node.value == self.lang:
            self.found = True
            return ast.Name("lang", ast.Load())
        return node


def _lang_neutral(expr: ast.expr, lang: str) -> str:
    """The code of a field's value that serves every language: ``x.en`` -> ``x``;
    ``name(card, "en")`` -> ``each_lang(name, card)`` (called once per language)."""
    base = _base(ast.unparse(expr), lang)
    if base != ast.unparse(expr):
        return base
    if isinstance(expr, ast.Call) and expr.args and not expr.keywords and isinstance(expr.args[-1], ast.Constant) \
            and expr.args[-1].value == lang:
        return f"each_lang({', '.join(ast.unparse(a) for a in [expr.func, *expr.args[:-1]])})"
    swapper = _LangArg(lang)
    swapper.visit(ast.parse(ast.unparse(expr), mode="eval").body)
    if swapper.found:
        raise Unconvertible(f"the language is not the last argument of {ast.unparse(expr)}")
    return base


def _without_lang_arg(expr: ast.expr, lang: str) -> str | None:
    """``name(card, "vi")`` -> ``name(card)``: the call as written with its default language."""
    if isinstance(expr, ast.Call) and expr.args and isinstance(expr.args[-1], ast.Constant) \
            and expr.args[-1].value == lang:
        return ast.unparse(ast.Call(expr.func, expr.args[:-1], expr.keywords))
    return None


def _name_for(expr: ast.expr) -> str:
    if isinstance(expr, ast.Name):
        name = expr.id
    elif isinstance(expr, ast.Attribute):
        name = expr.attr
    elif isinstance(expr, ast.Subscript):
        name = _name_for(expr.value)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "each_lang":
        name = _name_for(expr.args[0])
    elif isinstance(expr, ast.Call):
        func = _name_for(expr.func)
        name = "n" if func == "len" else func
    else:
        name = "value"
    name = name.strip("_") or "value"
    if keyword.iskeyword(name) or name in ("en", "vi", "lang"):
        name = f"{name}_"
    return name


def _spec(value: ast.FormattedValue) -> str:
    conv = "" if value.conversion == -1 else "!" + chr(value.conversion)
    spec = ""
    if value.format_spec is not None:
        spec_parts = _parts_of_joined(value.format_spec)
        if spec_parts is None:
            raise Unconvertible("a nested field inside a format spec")
        spec = ":" + spec_parts
    return conv + spec


def _parts_of_joined(node: ast.expr) -> str | None:
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values)  # type: ignore[attr-defined]
    return None


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def build_message(en_code: str, vi_code: str) -> Message:
    """The msgid, its Vietnamese translation and the named fields of one pair."""
    en_parts, vi_parts = _parts(en_code), _parts(vi_code)
    has_fields = any(not isinstance(p, str) for p in en_parts + vi_parts)
    fields: dict[str, Field] = {}  # base source -> field
    names: set[str] = set()

    def template(parts: list[str | ast.FormattedValue], lang: str) -> str:
        out: list[str] = []
        for part in parts:
            if isinstance(part, str):
                out.append(_escape(part) if has_fields else part)
                continue
            base = _lang_neutral(part.value, lang)
            bare = _without_lang_arg(part.value, lang)
            if base not in fields and bare in fields:  # name(card) in English, name(card, "vi") in Vietnamese
                fields[base] = fields.pop(bare)
                fields[base].source = base
            if base not in fields:
                if lang != "en":
                    raise Unconvertible(f"the Vietnamese field {{{ast.unparse(part.value)}}} has no English twin")
                name = _name_for(ast.parse(base, mode="eval").body)
                candidate, i = name, 2
                while candidate in names:
                    candidate, i = f"{name}{i}", i + 1
                names.add(candidate)
                fields[base] = Field(candidate, base)
            out.append("{" + fields[base].name + _spec(part) + "}")
        return "".join(out)

    msgid = template(en_parts, "en")
    msgstr = template(vi_parts, "vi")
    if not msgid.strip():
        raise Unconvertible("an empty English text")
    return Message(msgid, msgstr, list(fields.values()))


def _is_text_literal(node: cst.BaseExpression) -> bool:
    """A string literal, an f-string, or a ``+`` chain holding one."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _is_text_literal(node.left) or _is_text_literal(node.right)
    return isinstance(node, cst.SimpleString | cst.FormattedString | cst.ConcatenatedString)


def _tr_call(message: Message) -> cst.Call:
    args = [cst.Arg(cst.SimpleString(_py_string(message.msgid)))]
    for f in message.fields:
        args.append(cst.Arg(cst.parse_expression(f.source), keyword=cst.Name(f.name),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
    return cst.Call(cst.Name("tr"), args)


def _py_string(text: str) -> str:
    """A double-quoted Python literal of ``text`` (repr picks quotes on its own)."""
    body = repr(text)
    if body.startswith("'") and '"' not in text:
        body = '"' + body[1:-1].replace("\\'", "'") + '"'
    return body


@dataclass
class Report:
    converted: int = 0
    skipped: list[str] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    changed_files: list[Path] = field(default_factory=list)


class PairTransformer(cst.CSTTransformer):
    """Rewrites the pair patterns of one module."""

    METADATA_DEPENDENCIES = (cst.metadata.PositionProvider,)

    def __init__(self, path: str, report: Report) -> None:
        super().__init__()
        self.path = path
        self.report = report
        self.changed = False
        self.needs_text = False

    def _where(self, node: cst.CSTNode) -> str:
        pos = self.get_metadata(cst.metadata.PositionProvider, node)
        return f"{self.path}:{pos.start.line}"

    def _convert(self, node: cst.CSTNode, en: cst.BaseExpression, vi: cst.BaseExpression) -> cst.Call | None:
        code = cst.Module([]).code_for_node
        try:
            message = build_message(code(en), code(vi))
        except Unconvertible as exc:
            self.report.skipped.append(f"{self._where(node)}: {exc}")
            return None
        self.report.converted += 1
        self.report.messages.append(message)
        self.changed = True
        return _tr_call(message)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        fname = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""
        positional = [a for a in updated.args if a.keyword is None and not a.star]
        if fname in PAIR_CONSTRUCTORS and len(updated.args) == 2 and len(positional) == 2:
            en, vi = positional[0].value, positional[1].value
            call = self._convert(original, en, vi) if _is_text_literal(en) and _is_text_literal(vi) else None
            if call is not None:
                return call
            if fname == "tr":
                # a pair left as it is stays a fixed-words Text, under a name Babel does not extract
                if not (_is_text_literal(en) and _is_text_literal(vi)):
                    self.report.skipped.append(f"{self._where(original)}: a pair of computed texts")
                self.needs_text = True
                return updated.with_changes(func=cst.Name("Text"))
            return updated
        if fname in PAIR_FUNCS:
            i = PAIR_FUNCS[fname]
            args = list(updated.args)
            if len(args) > i + 1 and args[i].keyword is None and args[i + 1].keyword is None \
                    and _is_text_literal(args[i].value) and _is_text_literal(args[i + 1].value):
                call = self._convert(original, args[i].value, args[i + 1].value)
                if call is not None:
                    merged = args[i].with_changes(value=call, comma=args[i + 1].comma)
                    return updated.with_changes(args=[*args[:i], merged, *args[i + 2:]])
        return updated

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict) -> cst.BaseExpression:
        elements = updated.elements
        if len(elements) != 2 or not all(isinstance(e, cst.DictElement) for e in elements):
            return updated
        keys = [e.key for e in elements]  # type: ignore[union-attr]
        if not all(isinstance(k, cst.SimpleString) for k in keys):
            return updated
        names = [ast.literal_eval(k.value) for k in keys]  # type: ignore[union-attr]
        if names != ["en", "vi"]:
            return updated
        en, vi = elements[0].value, elements[1].value
        if not (_is_text_literal(en) and _is_text_literal(vi)):
            self.report.skipped.append(f"{self._where(original)}: an {{'en', 'vi'}} dict whose values are not texts")
            return updated
        call = self._convert(original, en, vi)
        return call if call is not None else updated


def convert_source(source: str, path: str, report: Report) -> str:
    """The rewritten module (``source`` itself when nothing changed)."""
    module = cst.parse_module(source)
    wrapper = cst.metadata.MetadataWrapper(module)
    transformer = PairTransformer(path, report)
    new = wrapper.visit(transformer)
    if not transformer.changed and not transformer.needs_text:
        return source
    context = CodemodContext()
    if transformer.changed:
        AddImportsVisitor.add_needed_import(context, "engines.contract", "tr")
    if transformer.needs_text:
        AddImportsVisitor.add_needed_import(context, "engines.contract", "Text")
    if "each_lang(" in new.code:
        AddImportsVisitor.add_needed_import(context, "engines.i18n", "each_lang")
    return AddImportsVisitor(context).transform_module(new).code


def merge_into_po(po_path: Path, messages: Iterable[Message], report: Report) -> None:
    """Add each message's Vietnamese text to the catalog; an existing different translation
    wins (and is reported: the same English needing two translations wants a msgctxt)."""
    if po_path.is_file():
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale="vi", domain="pbem")
    else:
        po_path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale="vi", domain="pbem", project="pbem", fuzzy=False)
    for message in messages:
        existing = catalog.get(message.msgid)
        if existing is not None and existing.string and existing.string != message.msgstr:
            report.skipped.append(f"two translations of {message.msgid!r}: kept {existing.string!r}, "
                                  f"not {message.msgstr!r}")
            continue
        if existing is not None:
            existing.string = message.msgstr
            existing.flags.discard("fuzzy")
        else:
            catalog.add(message.msgid, message.msgstr)
    with po_path.open("wb") as handle:
        write_po(handle, catalog, width=0, sort_output=True, omit_header=False)


def python_files(roots: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for root in roots:
        path = Path(root)
        out.extend([path] if path.is_file() else sorted(p for p in path.rglob("*.py") if "migrations" not in p.parts))
    return out


def run(roots: Sequence[str], po_path: Path = DEFAULT_PO, write: bool = True) -> Report:
    report = Report()
    for path in python_files(roots):
        source = path.read_text(encoding="utf-8")
        new = convert_source(source, str(path), report)
        if new != source and write:
            path.write_text(new, encoding="utf-8")
            report.changed_files.append(path)
    if write:
        merge_into_po(po_path, report.messages, report)
    return report


POT = Path("engines/locale/pbem.pot")
KEYWORDS = ["-k", "tr", "-k", "trc:1c,2"]


def refresh_catalogs(root: Path = Path(".")) -> None:
    """Extract a fresh ``pbem.pot`` from the code and templates, then bring every language's
    ``.po`` up to date with it (new msgids empty, vanished ones dropped): ``pybabel extract``
    and ``pybabel update`` with the project's settings."""
    from babel.messages.frontend import CommandLineInterface

    locale = root / POT.parent
    pot = root / POT
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(root / "babel.cfg"), *KEYWORDS,
                                "--no-default-keywords", "-k", "_", "-k", "gettext", "-k", "ngettext:1,2",
                                "-k", "pgettext:1c,2", "-k", "npgettext:1c,2,3",
                                "--no-location", "--sort-output", "--width=0", "--project=pbem",
                                "-o", str(pot), str(root)])
    for po in sorted(locale.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        CommandLineInterface().run(["pybabel", "-q", "update", "-i", str(pot), "-d", str(locale), "-D", DOMAIN,
                                    "-l", po.parts[-3], "--no-fuzzy-matching", "--ignore-obsolete", "--width=0"])


def sort_imports(paths: Sequence[Path]) -> None:
    """The added ``from engines.contract import tr`` sorted in place (ruff's isort), an import
    the conversion left unused dropped and redundant parentheses removed, so a converted file
    stays lint-clean without a hand edit."""
    if paths:
        ruff = Path(sys.executable).with_name("ruff")
        subprocess.run([str(ruff), "check", "-q", "--select", "I,F401,UP034", "--fix", *map(str, paths)], check=False)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", help="files or folders to convert")
    parser.add_argument("--refresh-only", action="store_true",
                        help="convert nothing: only extract pbem.pot and update every .po")
    parser.add_argument("--po", type=Path, default=DEFAULT_PO, help="the Vietnamese catalog to fill")
    parser.add_argument("--dry-run", action="store_true", help="only list what would change")
    ns = parser.parse_args(argv)
    if ns.refresh_only:
        refresh_catalogs()
        return 0
    if not ns.roots:
        parser.error("name the files or folders to convert (or --refresh-only)")
    report = run(ns.roots, ns.po, write=not ns.dry_run)
    if not ns.dry_run:
        sort_imports(report.changed_files)
        refresh_catalogs()
    print(f"converted {report.converted} pairs; {len(report.skipped)} left as they are")
    for line in report.skipped:
        print(f"  skipped {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
