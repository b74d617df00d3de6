"""A menu entry's command words are written per language when read, once (engines.i18n.LazyWords)."""

from __future__ import annotations

from engines.contract import Action, Choice, tr
from engines.i18n import LazyWords


def test_words_are_written_once_per_language_and_only_when_read() -> None:
    calls: list[str] = []

    def make(card: str, lang: str) -> str:
        calls.append(lang)
        return {"vi": f"đánh {card}"}.get(lang, f"play {card}")

    choice = Choice(Action("play", ("7",)), "play 7", tr("play {name}", name="7"), LazyWords(make, "7"))
    assert calls == []
    assert (choice.command_in("vi"), choice.command_in("vi"), choice.command_in("fr")) == ("đánh 7", "đánh 7", "play 7")
    assert calls == ["vi", "fr"]
    assert choice == Choice(Action("play", ("7",)), "play 7", tr("play {name}", name="7"), LazyWords(make, "7"))
    assert LazyWords(make, "7") != LazyWords(make, "8")
