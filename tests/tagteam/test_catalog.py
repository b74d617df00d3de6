"""Tag Team reads every word from the message catalogs (issue 15): no language is picked in
code, content names are catalog entries, a third language needs only its ``.po``, and the turn
mail of the demo game fits two phone screens."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engines.tagteam import catalog, commands, words
from engines.tagteam.engine import ENGINE
from tests.support.catalogs import added_language

ROOT = Path(__file__).resolve().parents[2]
TAGTEAM = ROOT / "engines" / "tagteam"
LOCALE = ROOT / "engines" / "locale"


def _language_branches(source: str) -> list[str]:
    """A comparison with the code of a language, or a test of a ``vi`` flag: the shapes a
    per-language branch takes (as in tests/i18n/test_service_language_branches.py)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            values = [o.value for o in operands if isinstance(o, ast.Constant)]
            values += [e.value for o in operands if isinstance(o, ast.Tuple | ast.List | ast.Set)
                       for e in o.elts if isinstance(e, ast.Constant)]
            if any(v in ("vi", "en") for v in values):
                found.append(f"line {node.lineno}: compares with a language code")
        if isinstance(node, ast.IfExp | ast.If) and isinstance(node.test, ast.Name | ast.Attribute):
            name = node.test.id if isinstance(node.test, ast.Name) else node.test.attr
            if name == "vi":
                found.append(f"line {node.lineno}: branches on a `vi` flag")
        if isinstance(node, ast.Dict) and {getattr(k, "value", None) for k in node.keys} >= {"en", "vi"}:
            found.append(f"line {node.lineno}: an {{en, vi}} dict of words")
    return found


def test_the_scan_sees_the_shapes_it_forbids() -> None:
    assert _language_branches('x = "Vòng" if lang == "vi" else "Round"\n')
    assert _language_branches('vi = True\ny = "a" if vi else "b"\n')
    assert _language_branches('y = "a" if v.vi else "b"\n')
    assert _language_branches('d = {"en": "Round", "vi": "Vòng"}\n')


@pytest.mark.parametrize("path", sorted(TAGTEAM.rglob("*.py")), ids=lambda p: p.name)
def test_no_language_is_picked_by_hand_in_tagteam(path: Path) -> None:
    assert _language_branches(path.read_text("utf-8")) == []


def test_fighter_files_hold_no_translations() -> None:
    for path in sorted((TAGTEAM / "data").glob("*.toml")):
        text = path.read_text("utf-8")
        assert "_vi" not in text, f"{path.name}: translations belong in the .po files"


# ---------------------------------------------------------------------------
# content names are catalog entries


def _content_names() -> list[tuple[str, str]]:
    folder = resources.files("engines.tagteam") / "data"
    out: list[tuple[str, str]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            out += catalog.content_names(tomllib.loads(entry.read_text(encoding="utf-8")))
    return out


def untranslated(po: Path, names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The content names ``po`` has no translation for (a missing or empty entry)."""
    with po.open("rb") as handle:
        have = {(m.context, m.id): m.string for m in read_po(handle) if m.id}
    return [key for key in names if not have.get(key)]


def test_every_content_name_is_extracted_and_translated() -> None:
    names = _content_names()
    assert ("token", "Sheriff") in names and ("track", "Rage") in names and ("side", "Berserker Bear") in names
    with (LOCALE / "pbem.pot").open("rb") as handle:
        extracted = {(m.context, m.id) for m in read_po(handle) if m.id}
    assert set(names) <= extracted, sorted(set(names) - extracted)
    assert untranslated(LOCALE / "vi" / "LC_MESSAGES" / "pbem.po", names) == []
    assert words.token_name(ENGINE.content.tokens["sheriff"]).get("vi") == "Cảnh sát trưởng"


def test_a_content_name_without_a_translation_fails(tmp_path: Path) -> None:
    po = tmp_path / "pbem.po"
    text = (LOCALE / "vi" / "LC_MESSAGES" / "pbem.po").read_text("utf-8")
    po.write_text(text.replace('msgid "Sheriff"\nmsgstr "Cảnh sát trưởng"', 'msgid "Sheriff"\nmsgstr ""'), "utf-8")
    assert untranslated(po, _content_names()) == [("token", "Sheriff")]


# ---------------------------------------------------------------------------
# a third language is one catalog

FRENCH = '''msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgctxt "command"
msgid "add"
msgstr "ajouter"

msgctxt "command"
msgid "top"
msgstr "en haut"

msgctxt "command fillers"
msgid "the card at then and fighter of deck"
msgstr "la carte puis et"

msgctxt "command"
msgid "bottom"
msgstr "dessous"

msgctxt "command"
msgid "after"
msgstr "après"

msgctxt "token"
msgid "Sheriff"
msgstr "Shérif"

msgctxt "tagteam"
msgid "give {target} {many}"
msgstr "donnez {many} à {target}"

msgctxt "tagteam"
msgid "your opponent"
msgstr "votre adversaire"

msgctxt "tagteam"
msgid "the {token} token"
msgstr "le jeton {token}"
'''


@pytest.fixture
def with_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The packaged catalogs plus ``fr/LC_MESSAGES/pbem.po``, as the catalog folder."""
    with added_language(tmp_path, monkeypatch, "fr", FRENCH) as locale:
        yield locale


def _to_build() -> object:
    state = ENGINE.new_game(["Ann", "Bao"], {"draft": "first_game"}, 3)
    while state.phase != "build":
        for seat in sorted(ENGINE.to_act(state)):
            state, _ = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
    return state


def test_a_third_language_gets_tag_team_words_and_commands(with_french: Path) -> None:
    state = _to_build()
    menu = ENGINE.menu(state, 0)  # type: ignore[arg-type]
    shown = [c.command_in("fr") for c in menu]
    assert all(c.startswith("ajouter ") and " dessous " in c for c in shown), shown
    for choice in menu:  # the French words parse back, in any player's reply
        assert ENGINE.parse(state, 0, choice.command_in("fr")) == choice.action  # type: ignore[arg-type]
    badge = ENGINE.content.cards["reeves.badge"]
    assert words.card_text(ENGINE.content, badge, "fr").startswith("Donnez le jeton Shérif à votre adversaire, then ")
    assert commands.keywords()["ajouter"] == "add"  # every language's words parse
    assert any(" en haut," in c for c in shown)  # a command word of two words reads as one
    assert ENGINE.parse(state, 0, "ajouter la carte 2 en haut puis dessous 3 1").kind == "add"  # type: ignore[arg-type]
    assert commands.keywords()["them"] == "add"


# ---------------------------------------------------------------------------
# the demo game's turn mails fit two phone screens


def test_every_turn_mail_of_the_demo_game_fits_two_phone_screens(tmp_path: Path) -> None:
    """bench.mails plays the demo's Tag Team game through the service (replies handled as mail
    would be); every turn mail's text is at most 60 lines, in English and in Vietnamese."""
    from bench.mails import measure

    result = measure("tagteam", folder=tmp_path)
    assert set(result.turn_lines) == {"en", "vi"}
    for lang, lines in result.turn_lines.items():
        assert max(lines) <= 60, (lang, lines)


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_first_and_turn_mails_of_seeded_games_fit_two_phone_screens(lang: str) -> None:
    """The first mail (the draft: up to 6 fighters and their cards) and every turn mail of a few
    seeded bot games, rendered by the service's templates: at most 60 lines."""
    from service.outbound.render import Renderer
    from tests.i18n.mails import game_mails

    renderer = Renderer()
    sizes = [len(m.text.splitlines()) for seed in (1, 2, 7) for m in game_mails("tagteam", 2, seed, lang, renderer)
             if m.purpose in ("started", "turn")]
    assert len(sizes) > 20 and max(sizes) <= 60, max(sizes)
