"""The Turn log says each step, to the right fighter (issue 15): hits, Blocks, icons, tracks, tokens,
flips, heals, upkeep, Cancels, tags and KOs, one short line each, in English and Vietnamese."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from engines.tagteam import rules
from engines.tagteam.content import Card, Content, load_content
from engines.tagteam.engine import ENGINE
from engines.tagteam.fight import Resolver, Step, TurnReport
from engines.tagteam.scenario import card, position, rt_content
from tests.tagteam.test_words import ENGLISH, leaks

ARROW = re.compile(r"\((?:HP |Máu )?(\d+)→(\d+)\)")


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def step_lines(text: str) -> list[str]:
    """The steps of a turn event: the sentences after the reveal."""
    return [part for part in re.split(r"(?<=\.) ", text.strip()) if part][1:]


def test_TT_29_TT_56_TT_60_hit_rage_flip_and_heal_show_each_step_in_order(content: Content) -> None:
    """TT-29 (the steps of a Turn), TT-56/TT-60 (icons act once the markers stop, as a new wave),
    TT-62 (Cancel), Bödvar's flip rule (TT-12/TT-87): the log says what happened at each step, where
    the old log said only "Bödvar 10→10". Joan hits Bödvar past his Rage icon (9) onto his Cancel
    space (7); the Rage icon brings Rage to 3, he flips, gains 1 Power, heals 3, then hits back."""
    c, s = position(content, [[card("J", "attack"), card("J", "attack")],
                              [card("B", "power +0"), card("B", "special +1", "then", "attack")]],
                    hp={"B": 13}, power={"J": 3})
    s.teams[1][0].special = 1
    first, second = rules.run_fight(c, s)
    assert step_lines(first.text.en) == ["Joan hits Bödvar for 3 (13→10)."]
    assert second.text.en.startswith("Round 1, Turn 2: P1 reveals Joan «attack» (cancelled), P2 reveals Bödvar «")
    assert step_lines(second.text.en) == [
        "Bödvar gains 1 Rage (Rage 2).",
        "Joan hits Bödvar for 3 (10→7).",
        "Bödvar's marker enters space 9: Bödvar gains 1 Rage.",
        "Bödvar's Cancel ignores P1's card: nothing to revert or skip.",
        "Bödvar gains 1 Rage (Rage 3).",
        "Bödvar flips to the Berserker Bear side.",
        "Bödvar gains 1 Power (Power 4).",
        "Bödvar heals 3 (7→10).",
        "Bödvar hits Joan for 3 (14→11).",
        "Joan's marker enters space 12: Joan gains 1 Faith.",
        "Joan gains 1 Faith (Faith 1).",
    ]
    assert step_lines(second.text.vi) == [
        "Bödvar nhận thêm 1 Cuồng Nộ (Cuồng Nộ 2).",
        "Joan đánh trúng Bödvar, 3 sát thương (10→7).",
        "Dấu máu của Bödvar vào ô 9: Bödvar nhận thêm 1 Cuồng Nộ.",
        "Ô Hủy của Bödvar vô hiệu thẻ của P1: không có gì để hoàn tác hay bỏ qua.",
        "Bödvar nhận thêm 1 Cuồng Nộ (Cuồng Nộ 3).",
        "Bödvar lật sang mặt Gấu Cuồng Chiến.",
        "Bödvar nhận thêm 1 Sức mạnh (Sức mạnh 4).",
        "Bödvar hồi 3 máu (7→10).",
        "Bödvar đánh trúng Joan, 3 sát thương (14→11).",
        "Dấu máu của Joan vào ô 12: Joan nhận thêm 1 Đức Tin.",
        "Joan nhận thêm 1 Đức Tin (Đức Tin 1).",
    ]


def test_TT_51_TT_47_TT_62_block_stop_and_cancel_revert_are_told(content: Content) -> None:
    """TT-51: a Block says whose Attack it stopped. TT-47/TT-64: a marker halted by a Stop space says
    so. TT-62: the Cancel line says what it handed back, and its revert is not told twice."""
    rt = rt_content(content)
    c, s = position(rt, [[card("J", "block")], [card("B", "attack")]])
    (event,) = rules.run_fight(c, s)
    assert step_lines(event.text.en) == ["Joan blocks Bödvar's attack."]
    assert step_lines(event.text.vi) == ["Joan đỡ được đòn Tấn công của Bödvar."]
    c, s = position(rt, [[card("J", "power +0")], [card("B", "attack")]], hp={"J": 13}, power={"B": 5})
    (event,) = rules.run_fight(c, s)
    assert step_lines(event.text.en) == ["Bödvar hits Joan for 5 (13→10).",
                                         "Joan's marker is halted by the Stop space on 10."]
    assert step_lines(event.text.vi)[1] == "Dấu máu của Joan dừng ở ô Dừng 10."
    c, s = position(rt, [[card("C", "attack", "damage 1 opponent_partner")], [card("W", "power +0")]], hp={"W": 9})
    (event,) = rules.run_fight(c, s)
    assert step_lines(event.text.en) == [
        "Ching Shih hits Wong Fei-Hung for 2 (9→7).",
        "Ching Shih deals 1 damage to Bödvar (14→13).",
        "Wong Fei-Hung's Cancel ignores P1's card: reverted Bödvar HP -1 (to 14).",
    ]
    assert step_lines(event.text.vi)[1:] == [
        "Ching Shih gây 1 sát thương lên Bödvar (14→13).",
        "Ô Hủy của Wong Fei-Hung vô hiệu thẻ của P1: hoàn tác Máu Bödvar -1 (thành 14).",
    ]


def test_TT_12_a_flip_to_a_lower_max_logs_the_hp_it_costs(content: Content) -> None:
    """TT-12 flip rule on a made-up Berserker Bear side of Max 8: the flip itself lowers the marker,
    and that move is logged, so the log still adds up (TT-30)."""
    bodvar = content.fighters["bodvar"]
    bear = replace(bodvar.sides[1], max_hp=8, icons={})
    small = replace(content, fighters={**content.fighters, "bodvar": replace(bodvar, sides=(bodvar.sides[0], bear))})
    c, s = position(small, [[card("J", "power +0")], [card("B", "special +1")]], hp={"B": 12})
    s.teams[1][0].special = 2
    (event,) = rules.run_fight(c, s)
    assert step_lines(event.text.en) == ["Bödvar gains 1 Rage (Rage 3).",
                                         "Bödvar flips to the Berserker Bear side (HP 12→8).",
                                         "Bödvar gains 1 Power (Power 4).", "Bödvar heals 3 (8→8)."]
    assert step_lines(event.text.vi)[1] == "Bödvar lật sang mặt Gấu Cuồng Chiến (Máu 12→8)."


class Recording(Resolver):
    """The rules' Resolver, keeping each Turn's board before, report and board after for the checks."""

    turns: list[tuple[list[list[int]], TurnReport, list[list[int]]]] = []

    def run_turn(self) -> TurnReport:
        before = [[f.hp for f in team] for team in self.teams]
        report = super().run_turn()
        Recording.turns.append((before, report, [[f.hp for f in team] for team in self.teams]))
        return report


def hp_moves(step: Step) -> bool:
    return step.kind == "hp" or (step.kind == "flip" and step.before != step.after)


def test_TT_30_logged_hp_changes_add_up_to_every_turns_net_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """TT-30/TT-47/TT-62, as a property over many seeded games: for every fighter in every Turn, the
    HP moves of the log chain (each starts where the last one ended) and end on the Turn's result, so
    their sum is the net change; and each move the mail shows carries exactly that logged arrow.
    Cancel reverts count too: the tally says each kind of step occurred (a flip to a lower Max, which
    no shipped fighter has, is checked on its own below)."""
    Recording.turns = []
    monkeypatch.setattr(rules, "Resolver", Recording)
    events: list[Any] = []
    for seed in range(16):
        rng = random.Random(seed)
        bot = ENGINE.bots()["heuristic" if seed % 2 else "random"]
        s = ENGINE.new_game(["An", "Dũng"], {"draft": ("random", "first_game")[seed % 2]}, 500 + seed)
        while ENGINE.to_act(s):
            seat = min(ENGINE.to_act(s))
            s, out = ENGINE.apply(s, seat, bot.choose(ENGINE, s, seat, rng))
            events += [e for e in out if re.match(r"Round \d+, Turn \d+:", e.text.en)]
    assert len(events) == len(Recording.turns) > 200
    seen = {"several moves": 0, "flip": 0, "revert": 0, "stop": 0, "icon": 0, "block": 0, "ko": 0}
    for event, (before, report, after) in zip(events, Recording.turns, strict=True):
        hp = [list(team) for team in before]
        shown = []
        for step in report.steps:
            if hp_moves(step):
                t, i = step.ref
                assert step.before == hp[t][i], (step, event.text.en)
                hp[t][i] = step.after
                if not rules.is_revert(step):
                    shown.append((str(step.before), str(step.after)))
            seen["flip"] += step.kind == "flip"
            seen["revert"] += rules.is_revert(step)
            seen["stop"] += step.kind == "stop"
            seen["icon"] += step.kind == "icon"
            seen["block"] += step.kind == "block"
            seen["ko"] += step.kind == "ko"
        assert hp == after, event.text.en
        seen["several moves"] += any(sum(hp_moves(x) and x.ref == (t, i) for x in report.steps) > 1
                                     for t in (0, 1) for i in (0, 1))
        for lang in ("en", "vi"):
            lines = step_lines(event.text.get(lang))
            assert [m for line in lines for m in ARROW.findall(line)] == shown, event.text.get(lang)
    assert all(seen.values()), seen


def test_the_turn_log_names_no_card_before_it_is_revealed(content: Content) -> None:
    """Secrets (DESIGN: mail from a seat's view): a card still in a Fight Deck is never named by the
    log, even one the look-ahead of a Cancel or the next Turn would touch. Planted marker names
    stand in the decks; the positive control shows the marker does reach the log once revealed."""
    def planted(c: Card, mark: str) -> Card:
        return replace(c, name=mark)

    later = planted(card("B", "attack"), "MARKSECRETLATERZ")
    unseen = planted(card("W", "heal 1"), "MARKSECRETUNSEENZ")
    c, s = position(content, [[card("J", "attack"), card("J", "attack")], [card("B", "power +0"), later]],
                    hp={"B": 13})
    first, second = rules.run_fight(c, s)
    assert "MARKSECRET" not in first.text.en + first.text.vi
    assert "MARKSECRETLATERZ" in second.text.en and "MARKSECRETLATERZ" in second.text.vi
    c, s = position(content, [[card("J", "attack")], [card("B", "power +0"), unseen]], hp={"B": 2},
                    power={"J": 5})
    events = rules.run_fight(c, s)
    assert "Bödvar is knocked out." in events[0].text.en and "Bödvar bị hạ gục." in events[0].text.vi
    assert all("MARKSECRET" not in e.text.en + e.text.vi for e in events)


def test_turn_log_lines_have_no_notation_and_no_english_in_vietnamese() -> None:
    """The leak check of test_words, on every step line of seeded games, and the Vietnamese lines
    (card names aside, which are proper names) carry no English verb of the notation."""
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        bot = ENGINE.bots()["heuristic"]
        s = ENGINE.new_game(["An", "Dũng"], {"draft": "random"}, 900 + seed)
        while ENGINE.to_act(s):
            seat = min(ENGINE.to_act(s))
            s, out = ENGINE.apply(s, seat, bot.choose(ENGINE, s, seat, rng))
            for e in out:
                if not re.match(r"Round \d+, Turn \d+:", e.text.en):
                    continue
                for lang in ("en", "vi"):
                    for line in step_lines(e.text.get(lang)):
                        assert leaks(line) == [], line
                        checked += 1
                for line in step_lines(e.text.vi):
                    assert not ENGLISH.search(re.sub(r"«[^»]*»", "", line)), line
    assert checked > 100


def test_TT_33_tags_tokens_and_upkeep_are_told(content: Content) -> None:
    """TT-33 (each revealed card sets the Active fighter: a change is a tag), tokens gained by their
    names, an Attack softened to 0 by Golem's Presence, and the Serpent's end-of-Turn upkeep with
    its damage, each on its own line in both languages."""
    teams = (("loew", "cleopatra"), ("musashi", "reeves"))
    c, s = position(content, [[card("loew", "token golem +1 you"), card("cleopatra", "token serpent +1 opponent")],
                              [card("musashi", "power +0"), card("musashi", "attack opponent_partner")]],
                    teams=teams)
    first, second = rules.run_fight(c, s)
    assert step_lines(first.text.en) == ["Rabbi Loew gains 1 Golem's Presence token (now 1)."]
    assert step_lines(second.text.en) == [
        "P1 tags in Cleopatra.",
        "Miyamoto Musashi gains 1 Serpent token (now 1).",
        "Miyamoto Musashi hits Rabbi Loew for 0 (16→16).",
        "End of Turn: Miyamoto Musashi's Serpent token acts.",
        "Miyamoto Musashi takes 1 damage (11→10).",
    ]
    assert step_lines(second.text.vi) == [
        "P1 đổi sang Cleopatra.",
        "Miyamoto Musashi nhận 1 token Rắn (còn 1).",
        "Miyamoto Musashi đánh trúng Rabbi Loew, 0 sát thương (16→16).",
        "Cuối Lượt, token Rắn của Miyamoto Musashi có hiệu lực.",
        "Miyamoto Musashi chịu 1 sát thương (11→10).",
    ]
