"""A third language reaches TAC, Barcadia and The Grizzled with one ``.po`` file and no code
change (issue 15): its command words show in menus and parse back, its content names and
sentences show in views and events, and an old saved TAC state still reads."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines.barcadia.content import content as barcadia_content
from engines.barcadia.engine import ENGINE as BARCADIA
from engines.contract import Choice, Engine
from engines.grizzled.engine import ENGINE as GRIZZLED
from engines.tac.engine import ENGINE as TAC
from engines.tac.setup import position
from tests.support.catalogs import added_language

ROOT = Path(__file__).resolve().parents[2]

FRENCH = '''msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgctxt "tac command"
msgid "start"
msgstr "sortir"

msgctxt "tac command"
msgid "back"
msgstr "recule"

msgctxt "card"
msgid "Angel"
msgstr "Ange"

msgid "{who} plays {card}: {moves}."
msgstr "{who} joue {card} : {moves}."

msgctxt "grizzled command"
msgid "play"
msgstr "jouer"

msgctxt "threat"
msgid "Rain"
msgstr "Pluie"

msgctxt "barcadia command"
msgid "reveal"
msgstr "retourner"

msgctxt "barcadia command"
msgid "sp"
msgstr "dp"

msgctxt "room"
msgid "Goblin"
msgstr "Gobelin"
'''


@pytest.fixture
def with_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The packaged catalogs plus ``fr/LC_MESSAGES/pbem.po``, as the catalog folder."""
    with added_language(tmp_path, monkeypatch, "fr", FRENCH) as locale:
        yield locale


def _parses_back(engine: Engine, state: object, seat: int, choice: Choice, lang: str) -> str:
    shown = choice.command_in(lang)
    assert engine.parse(state, seat, shown) == choice.action, shown  # type: ignore[arg-type]
    return shown


def test_tac_menus_show_and_read_french_command_words(with_french: Path) -> None:
    s = position("a10", {0: ["13", "4", "angel"]})
    shown = {_parses_back(TAC, s, 0, c, "fr") for c in TAC.menu(s, 0)}
    assert {"13 sortir", "4 recule a1"} <= shown, shown
    assert TAC.parse(s, 0, "ange sortir") == TAC.parse(s, 0, "angel start")  # a French card name parses
    assert "Ange" in TAC.render_view(TAC.view(s, 0), "fr")


def test_tac_last_play_is_told_in_french_and_old_saved_plays_still_read(with_french: Path) -> None:
    s = position("a10", {0: ["5"], 1: ["2"]})
    s, events = TAC.apply(s, 0, TAC.parse(s, 0, "5 a1"))
    assert any(e.text.get("fr").startswith("Alice joue 5 : a1 10→15") for e in events), [e.text.get("fr") for e in events]
    view = TAC.view(s, 1)
    assert "Alice joue 5 : a1 10→15." in TAC.render_view(view, "fr")
    saved = {k: v for k, v in view["last_play"].items() if k != "text"}  # a state saved before the catalogs
    old = dict(view, last_play={**saved, "en": "Alice plays 5: a1 10→15.", "vi": "Alice đánh lá 5: a1 10→15."})
    assert "Alice đánh lá 5: a1 10→15." in TAC.render_view(old, "vi")
    assert "Alice plays 5: a1 10→15." in TAC.render_view(old, "fr")  # English for a language added since


def test_grizzled_menus_show_and_read_french_command_words(with_french: Path) -> None:
    rng = random.Random(4)
    s = GRIZZLED.new_game(["An", "Bao", "Chi"], None, 4)
    seen: list[str] = []
    for _ in range(200):
        acting = sorted(GRIZZLED.to_act(s))
        if not acting or len(seen) > 5:
            break
        seat = acting[0]
        choices = GRIZZLED.legal_actions(s, seat)
        seen += [_parses_back(GRIZZLED, s, seat, c, "fr") for c in choices
                 if c.action.kind == "play" and "rain" in str(c.action.args[0])]
        s, _ = GRIZZLED.apply(s, seat, rng.choice(choices).action)
    assert seen and all(x.startswith("jouer ") and "pluie" in x for x in seen), seen


def test_barcadia_menus_and_names_in_french(with_french: Path) -> None:
    s = BARCADIA.new_game(["Ann", "Bob"], None, 5)
    seat = min(BARCADIA.to_act(s))
    shown = [_parses_back(BARCADIA, s, seat, c, "fr") for c in BARCADIA.menu(s, seat)]
    assert any(x.startswith("retourner ") for x in shown), shown
    assert barcadia_content().rooms["goblin"].name.get("fr") == "Gobelin"
    assert BARCADIA.parse(s, seat, "retourner 1") == BARCADIA.parse(s, seat, "reveal 1")


def test_a_third_languages_polite_words_around_a_command_are_fillers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"3 merci" reads as "3" once the French catalog says "merci" is a trailing filler; the
    packaged languages' fillers still count (a reply may mix them)."""
    from engines.wording import strip_fillers

    assert strip_fillers("3 merci") == "3 merci"
    fillers = FRENCH.split("msgctxt")[0] + '''
msgctxt "trailing fillers"
msgid "please | pls | plz | thanks | thank you | thx | ty | cheers | ok | thanks a lot"
msgstr "merci | merci beaucoup | svp | s'il vous plaît"

msgctxt "leading fillers"
msgid "please | pls | plz | ok | okay | hi | hello | my move | my move is | ok so"
msgstr "bonjour | salut"
'''
    with added_language(tmp_path, monkeypatch, "fr", fillers):
        assert strip_fillers("bonjour 3 merci beaucoup") == "3"
        assert strip_fillers("chọn 2 nhé, merci") == "chọn 2"
    assert strip_fillers("3 merci") == "3 merci"
