"""The Grizzled in words: every content entry reads in both languages, help lines speak to the
right person, withdrawals and failures say why, losing choices warn, and no identifier leaks."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from engines.contract import Event
from engines.grizzled import commands, words
from engines.grizzled.content import KNOCK_EFFECTS, content
from engines.grizzled.engine import ENGINE
from engines.grizzled.scenario import position
from engines.grizzled.state import CHRISTMAS, GrizzledState
from tests.grizzled.helpers import do

# identifiers of the data and the code that must never reach a player's eyes
FIELDS = ("help_en", "help_vi", "charm_ready", "threat_counts", "hand_sizes", "tile_counts", "speech_held",
          "speech_supply", "placed_tile", "step_version", "remove_knock", "hard_knock")
NOTATION = [
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # snake_case: effects, fields, kinds
    re.compile(r"\bc\d\d\b"),  # card ids
    re.compile(r"\b(?:left2|right2|hardheaded|absentminded)\b"),  # ids that are not words
    re.compile(r"\b(?:" + "|".join(sorted(KNOCK_EFFECTS | set(FIELDS))) + r")\b"),
    re.compile(r"[{}]|\['"),  # a dict or list printed as is
]
# English words that must not stand in a Vietnamese sentence (game terms kept in English, such
# as "Hard Knock" and "No Man's Land", are taken out first)
ENGLISH = re.compile(r"\b(?:the|you|your|and|with|from|cards?|withdraws?|plays?|is|are|must|tile|turn|"
                     r"mission|threat|speech|charm|support|hand|help)\b", re.IGNORECASE)
KEPT_TERMS = re.compile(r"Hard Knocks?|No Man's Land|Grizzled|`[^`]*`")


def leaks(text: str) -> list[str]:
    return [m.group(0) for rx in NOTATION for m in rx.finditer(text)]


def english_in_vi(text: str) -> list[str]:
    return ENGLISH.findall(KEPT_TERMS.sub(" ", text))


# ---------------------------------------------------------------------------
# every content entry has a sentence


def test_every_content_entry_reads_in_both_languages() -> None:
    c = content()
    lines = words.all_lines()
    expected = ({f"knock:{k}" for k in c.knocks} | {f"card:{k}" for k in c.cards} | {f"special:{k}" for k in c.specials}
                | {f"character:{ch.id}" for ch in c.characters} | {f"tile:{t}" for t in c.tiles})
    assert expected <= set(lines)
    assert sum(1 for k in lines if k.startswith("card:") and c.cards[k[5:]].kind == "hard_knock") == 19
    for key, text in lines.items():
        assert text.en and text.vi and text.en != text.vi, key
        assert leaks(text.en) == [] and leaks(text.vi) == [], (key, text)
        assert english_in_vi(text.vi) == [], (key, text.vi)
    for option, spec in ENGINE.options.items():
        for value in spec.choices or ():
            line = words.option_line(option, str(value))
            assert line.en and line.vi and leaks(line.en) == [] == leaks(line.vi)


def test_a_knock_effect_without_words_fails_the_check() -> None:
    kt = replace(content().knocks["mute"], effect="sings_loudly")
    with pytest.raises(KeyError):
        words.knock_effect(kt)


def test_the_sentence_follows_the_data() -> None:
    """Change an amount in the data and the mail changes with it: nothing is written per card."""
    kt = content().knocks["hardheaded"]
    assert "2 or more cards" in words.knock_effect(kt).en
    assert "3 or more cards" in words.knock_effect(replace(kt, amount=3)).en
    assert "từ 3 lá" in words.knock_effect(replace(kt, amount=3)).vi
    left2 = content().tiles["left2"]
    assert words.tile_effect(left2).en.startswith("supports the second player to the left")
    assert "third player to the right" in words.tile_effect(replace(left2, offset=-3)).en


@pytest.mark.parametrize(("key", "en"), [
    ("knock:fragile", "Your Fragile: while you are in the mission, nobody else holding cards may withdraw."),
    ("knock:fragile:other", "An's Fragile: while An is in the mission, nobody else holding cards may withdraw."),
    ("knock:wounded", "Your Wounded: weighs as 2 Hard Knocks (Hard Knocks weighing 4 lose the game)."),
    ("tile:right", "Right: supports the first player to the right of whoever places it."),
    ("card:c01", "Rain + Whistle (trap) — goes to No Man's Land showing Rain and Whistle; a Trap: the top Trial "
                 "card is then played too."),
])
def test_known_sentences_read_exactly(key: str, en: str) -> None:
    assert words.all_lines()[key].en == en


# ---------------------------------------------------------------------------
# help lines speak to the right person


def _render(s: GrizzledState, seat: int | None, lang: str = "en") -> str:
    return ENGINE.render_view(ENGINE.view(s, seat), lang)


def test_help_lines_say_you_only_to_the_holder() -> None:
    s = position(3, hands=[["snow gas"], ["night gas"], ["rain gas"]], knocks=[[], ["fragile"], []])
    holder, other = _render(s, 1), _render(s, 0)
    assert "* Your Fragile: while you are in the mission" in holder
    assert "* Bob's Fragile: while Bob is in the mission" in other and "Your Fragile" not in other
    assert "* Yếu đuối của Bob: khi Bob còn trong nhiệm vụ" in _render(s, 0, "vi")
    assert "Yếu đuối của bạn: khi bạn còn trong nhiệm vụ" in _render(s, 1, "vi")


def test_a_forbidden_withdrawal_says_why() -> None:
    s = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[[], ["fragile"], []])
    assert not [c for c in commands.legal(s, 0) if c.kind == "withdraw"]
    assert "You may not withdraw now — Bob's Fragile: while Bob is in the mission" in _render(s, 0)
    assert "Alice may not withdraw now — Your Fragile" in _render(s, 1)
    assert "Bạn chưa được rút lui lúc này — Yếu đuối của Bob" in _render(s, 0, "vi")
    own = position(3, hands=[["snow gas", "rain gas"], [], []], knocks=[["hardheaded"], [], []])
    assert "You may not withdraw now — Your Hard-headed: you cannot withdraw while holding 2 or more cards." \
        in _render(own, 0)


def test_a_forced_withdrawal_says_why() -> None:
    s = position(3, hands=[["snow gas"], ["night gas"], []], knocks=[["fearful"], [], []], nml=["rain shell", "rain gas"])
    assert {c.kind for c in commands.legal(s, 0)} == {"withdraw"}
    assert "You must withdraw this turn — Your Fearful: while you hold cards, you must withdraw on your turn once " \
           "any threat counts 2 or more." in _render(s, 0)
    assert "Alice must withdraw this turn — Alice's Fearful" in _render(s, 2)


def test_a_failed_mission_names_the_threat() -> None:
    s = position(3, hands=[["rain shell"], ["night gas"], []], nml=["rain whistle", "rain gas"], trials=["snow night"])
    _, events = do(s, 0, "play rain shell")
    said = "\n".join(e.text.en for e in events)
    assert "Rain shows 3 times (3 of one threat fail a mission): the mission fails." in said
    assert "Mưa xuất hiện 3 lần" in "\n".join(e.text.vi for e in events)


def test_merry_christmas_has_a_help_line() -> None:
    s = position(3, hands=[["christmas"], ["night gas"], []], knocks=[[], ["mute"], []])
    assert "* Merry Christmas — when played, you remove one Hard Knock of any player" in _render(s, 0)
    s, _ = do(s, 0, "play christmas")
    assert s.phase == CHRISTMAS
    assert "* Merry Christmas — when played" in _render(s, 0)
    assert "* Giáng sinh an lành — khi chơi, bạn loại bỏ một Hard Knock" in _render(s, 0, "vi")


# ---------------------------------------------------------------------------
# warnings on choices that lose at once


def _label(s: GrizzledState, seat: int, command: str) -> str:
    return next(c.label.en for c in ENGINE.legal_actions(s, seat) if c.command == command)


def test_a_choice_that_loses_at_once_carries_a_warning() -> None:
    s = position(3, hands=[["rain shell", "snow night"], ["night gas"], []], nml=["rain whistle", "rain gas"],
                 knocks=[[], ["wounded", "mute", "clumsy"], []], trials=["snow gas"], reserve=10)
    assert _label(s, 0, "play rain shell") == "play Rain + Shell — WARNING: loses the game at once — Bob carries " \
        "Hard Knocks weighing 4"
    assert "WARNING" not in _label(s, 0, "play snow night")
    vi = next(c.label.vi for c in ENGINE.legal_actions(s, 0) if c.command == "play rain shell")
    assert vi == "đánh Mưa + Đạn pháo — CẢNH BÁO: thua cả ván ngay — Bob mang Hard Knock nặng 4"


def test_the_warning_never_reads_a_secret() -> None:
    """Another player's face-down tile may bring the group's help: the warning says "unless"."""
    s = position(3, hands=[["rain shell"], ["night gas"], []], nml=["rain whistle", "rain gas"],
                 knocks=[[], ["wounded", "mute", "clumsy"], []], withdrawn=[False, False, True],
                 placed=[None, None, "left"], trials=["snow gas"], tiles=[["left", "right"], ["left", "right"], ["right"]])
    assert "WARNING: loses the game unless the group's help saves it" in _label(s, 0, "play rain shell")
    trap = position(3, hands=[["rain whistle trap"], ["night gas"], []], nml=["snow night"],
                    knocks=[[], ["wounded", "mute", "clumsy"], []], trials=["rain gas", "rain shell"])
    assert "WARNING" not in _label(trap, 0, "play rain whistle trap")  # the draw is a hidden card


def test_withdrawing_last_when_the_morale_drop_empties_the_reserve_warns() -> None:
    s = position(3, hands=[["rain shell"], ["night gas"], ["snow gas"]], withdrawn=[False, True, True],
                 trials=["snow night"], reserve=2, tiles=[[], ["left"], ["right"]])
    assert _label(s, 0, "withdraw").endswith("WARNING: loses the game at once — the Morale Reserve runs out")


# ---------------------------------------------------------------------------
# Vietnamese commands, and whole games without identifiers


def _playthrough(seed: int, players: int) -> list[tuple[GrizzledState, int, list[Event]]]:
    """(position, seat to act, events just before) along a random game."""
    rng = random.Random(seed)
    names = ["An", "Bình", "Chi", "Dũng", "Hà"][:players]
    s = ENGINE.new_game(names, None, seed)
    out: list[tuple[GrizzledState, int, list[Event]]] = []
    events: list[Event] = []
    while ENGINE.outcome(s) is None and len(out) < 300:
        seat = min(ENGINE.to_act(s))
        out.append((s, seat, events))
        s, events = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)).action)
    out.append((s, 0, events))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_vietnamese_menu_command_parses_back(seed: int) -> None:
    for s, seat, _ in _playthrough(seed, 2 + seed % 4):
        if ENGINE.outcome(s) is not None:
            continue
        for choice in ENGINE.legal_actions(s, seat):
            assert (choice.command_in("vi") and choice.command_in("vi") != choice.command) or choice.action.kind == "choose"
            assert ENGINE.parse(s, seat, choice.command_in("vi")) == choice.action, choice.command_in("vi")
            assert commands.read(choice.command_in("vi")) == commands.read(choice.command)


def test_vietnamese_words_with_and_without_diacritics() -> None:
    s = position(3, hands=[["phobia gas", "rain shell"], [], []], tiles=[["left", "right"], [], []])
    assert ENGINE.parse(s, 0, "đánh nỗi ám ảnh mặt nạ khí").args == ("phobia gas",)
    assert ENGINE.parse(s, 0, "danh mua dan phao").args == ("rain shell",)
    assert ENGINE.parse(s, 0, "rút lui phải").args == ("right", None)


@pytest.mark.parametrize("seed", [4, 5])
def test_no_identifier_leaks_into_a_whole_game_for_any_seat(seed: int) -> None:
    for s, _seat, events in _playthrough(seed, 4):
        for viewer in range(s.n):
            for lang in ("en", "vi"):
                parts = [ENGINE.render_view(ENGINE.view(s, viewer), lang)]
                parts += [e.text.get(lang) for e in events if e.visible(viewer)]
                parts += [c.label.get(lang) for c in ENGINE.legal_actions(s, viewer)]
                text = "\n".join(parts)
                assert leaks(text) == [], (lang, leaks(text))
                if lang == "vi":
                    assert english_in_vi(text) == [], (english_in_vi(text), text)


@pytest.mark.parametrize("old", ["effect = hard_headed", "Fragile: counts_as_threat", "play c17", "tiles: left2",
                                 "{'rain': 2}"])
def test_the_leak_check_catches_identifiers(old: str) -> None:
    assert leaks(old)


@pytest.mark.parametrize("old", ["Bạn có thể withdraw", "Lệnh: play N (đánh)", "thẻ Hỗ trợ: you placed a tile"])
def test_the_english_check_catches_english_in_vietnamese(old: str) -> None:
    assert english_in_vi(old)


def test_the_commands_line_of_every_step_reads_as_commands() -> None:
    """The examples a mail gives must be commands the parser knows, in both languages."""
    from engines.grizzled.view import COMMANDS

    for text in COMMANDS.values():
        for lang in ("en", "vi"):
            body = re.sub(r"\([^)]*\)", "", text.get(lang).split(":", 1)[1])
            for example in body.split("|"):
                example = example.strip().replace(" N", " 1")
                verb, _ = commands.read(example)
                assert verb, example


def test_a_vietnamese_word_that_fits_several_moves_asks_instead_of_guessing() -> None:
    from engines.contract import AmbiguousCommand, IllegalCommand

    s = position(3, hands=[["rain shell", "rain gas"], [], []])
    with pytest.raises(AmbiguousCommand) as err:
        ENGINE.parse(s, 0, "đánh mưa")
    assert set(err.value.examples) == {"play rain shell", "play rain gas"}
    with pytest.raises(IllegalCommand) as refused:
        ENGINE.parse(s, 0, "bỏ mưa đạn pháo")  # discarding is for answering a Speech
    assert "đánh mưa đạn pháo" in refused.value.message.vi and "play rain shell" in refused.value.message.en


def test_the_speech_is_explained_when_the_reader_may_give_one() -> None:
    s = position(3, hands=[["rain shell"], ["night gas"], []], speech_held=[1, 1, 0])
    assert "Speech: instead of playing a card, spend a Speech token" in _render(s, 0)
    assert "Speech: instead" not in _render(s, 1)  # not Bob's turn
    mute = position(3, hands=[["rain shell"], [], []], speech_held=[1, 0, 0], knocks=[["mute"], [], []])
    assert "Speech: instead" not in _render(mute, 0)
    assert "Phát biểu: thay vì đánh bài" in _render(s, 0, "vi")
