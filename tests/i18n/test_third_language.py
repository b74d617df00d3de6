"""Adding a language is adding one catalog: a French ``pbem.po`` beside en and vi, no code change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engines import i18n
from engines.contract import tr
from service.outbound.notify import Results
from service.outbound.render import Renderer
from service.play.player_commands import _set_lang
from service.store.models import Player
from tests.i18n.mails import game_mails
from tests.support.catalogs import added_language

ROOT = Path(__file__).resolve().parents[2]

FRENCH = '''msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "Your turn"
msgstr "À vous de jouer"

msgid "It is your turn, %(player)s."
msgstr "C'est votre tour, %(player)s."

msgid "{a} and {b} have all eight marbles home and win!"
msgstr "{a} et {b} ont leurs huit billes à la maison et gagnent !"

msgid "Received, %(player)s — waiting for %(count)s other. Until the last player has chosen you may replace your choice by replying again."
msgid_plural "Received, %(player)s — waiting for %(count)s others. Until the last player has chosen you may replace your choice by replying again."
msgstr[0] "Reçu, %(player)s — on attend %(count)s autre joueur."
msgstr[1] "Reçu, %(player)s — on attend %(count)s autres joueurs."
'''


@pytest.fixture
def with_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The packaged catalogs plus ``fr/LC_MESSAGES/pbem.po``, as the catalog folder."""
    with added_language(tmp_path, monkeypatch, "fr", FRENCH) as locale:
        yield locale


def test_french_is_served_once_its_catalog_is_there(with_french: Path) -> None:
    assert i18n.languages() == ("en", "fr", "vi")
    assert tr("{a} and {b} have all eight marbles home and win!", a="Ann", b="Chi").get("fr") \
        == "Ann et Chi ont leurs huit billes à la maison et gagnent !"
    mail = Renderer().render("turn", "fr", player="Ann", game={"id": 3, "title": "TAC"})
    assert mail.subject == "À vous de jouer"
    assert "C'est votre tour, Ann." in mail.text
    assert 'lang="fr"' in mail.html
    received = Renderer().render("received", "fr", player="Ann", waiting=2)
    assert "on attend 2 autres joueurs" in received.text  # the French plural rule


def test_a_player_may_choose_french(with_french: Path) -> None:
    player = Player(address="ann@example.org", name="Ann", lang="en", tz="UTC")
    _set_lang(player, ["fr"], Results())
    assert player.lang == "fr"


def test_a_whole_french_game_renders_with_english_where_untranslated(with_french: Path) -> None:
    mails = list(game_mails("tac", 4, 3, "fr", Renderer(), steps=40))
    assert mails and all(m.text for m in mails)
    assert any(m.subject == "À vous de jouer" for m in mails)


def test_without_the_catalog_french_is_not_offered() -> None:
    assert "fr" not in i18n.languages()
    assert Renderer().render("turn", "fr", player="Ann").subject == "Your turn"  # unknown: English
