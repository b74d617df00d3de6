"""Card effects, icons, tokens and flips read in words, never in the content notation."""

from __future__ import annotations

import copy
import random
import re
import tomllib
from dataclasses import replace
from importlib import resources
from typing import Any

import pytest

from engines.tagteam import words
from engines.tagteam.content import Content, build_content, load_content
from engines.tagteam.engine import ENGINE

CONTENT = load_content()

# Words of the notation that must never reach a player (the content README's action language).
NOTATION = [
    re.compile(r"\b(?:actor|target)\."),
    re.compile(r"holder:"),
    re.compile(r"tokens:"),
    re.compile(r"=>"),
    re.compile(r"\bTHEN\b|SAU ĐÓ"),
    re.compile(r"\bspecial [+-]"),
    re.compile(r"\b(?:power|special) [+-]\d"),
    re.compile(r"\b(?:heal|damage) \d+ (?:you|partner|opponents?)\b"),
    re.compile(r"(?i)\btoken [a-z_]+ [+-]\d"),
    re.compile(r"\b(?:opponent_partner|by partner|side:[a-z])"),
    re.compile(r"[<>=]=\s*\d"),
    re.compile(r"\b[a-z][a-z_]*\.[a-z][a-z_]+\b"),  # a raw id such as cleopatra.decree
]
# English words of the notation or of the English texts that must not stand in a Vietnamese text.
ENGLISH = re.compile(r"\b(?:attack|block|heal|heals|gain|gains|lose|loses|damage|deal|take|give|remove|then|"
                     r"your|opponent|partner|if|special|Power|HP)\b")
TOKEN_IDS = sorted(CONTENT.tokens)
LANGS = ("en", "vi")


def _in(text: Any, lang: str) -> str:
    """A piece of ``words`` (a catalog Text, or a plain str) in ``lang``."""
    return text if isinstance(text, str) else text.get(lang)


def leaks(text: str) -> list[str]:
    found = [m.group(0) for rx in NOTATION for m in rx.finditer(text)]
    found += [f"token id {t}" for t in TOKEN_IDS if re.search(rf"\btoken {t}\b", text)]
    found += [f"card id {cid}" for cid in CONTENT.cards if cid in text]
    return found


def texts_of(content: Content) -> dict[str, dict[str, str]]:
    """Every card, icon, token, flip and special marker of every fighter, in both languages."""
    out: dict[str, dict[str, str]] = {}
    for f in content.fighters.values():
        for card in f.cards:
            out[f"card {card.id}"] = {lang: words.card_text(content, card, lang) for lang in LANGS}
        for side in f.sides:
            for space, icons in side.icons.items():
                for icon in icons:
                    out[f"icon {f.id}/{side.id}/{space}/{icon}"] = {
                        lang: _in(words.icon_text(content, f, icon), lang) for lang in LANGS}
            if side.flip_when is not None:
                out[f"flip {f.id}/{side.id}"] = {lang: words.flip_text(content, f, side, lang) for lang in LANGS}
        for t in f.tokens:
            out[f"token {t.id}"] = {lang: words.token_text(content, t, lang) for lang in LANGS}
        if f.special_max:
            out[f"special {f.id}"] = {lang: words.special_name(f).get(lang) for lang in LANGS}
    return out


def missing_words(content: Content) -> list[str]:
    """What of ``content`` has no proper sentence in one language (empty on good content)."""
    problems = []
    for key, text in texts_of(content).items():
        en, vi = text["en"], text["vi"]
        if not en.strip() or not vi.strip():
            problems.append(f"{key}: empty")
        for lang, t in text.items():
            problems += [f"{key} ({lang}): notation {w!r} in {t!r}" for w in leaks(t)]
        if ENGLISH.search(vi):
            problems.append(f"{key}: English in the Vietnamese text {vi!r}")
        if key.startswith(("card", "flip", "token")) and en == vi:
            problems.append(f"{key}: the Vietnamese text is the English one")
    for f in content.fighters.values():
        if f.special_max and words.special_name(f).get("vi") == f.special_name:
            problems.append(f"special {f.id}: no Vietnamese name in the catalog (msgctxt track)")
        for t in f.tokens:
            if words.token_name(t).get("vi") == t.name:
                problems.append(f"token {t.id}: no Vietnamese name in the catalog (msgctxt token)")
        for card in f.cards:
            acts = [a for seg in card.segments for a in seg] + list(card.instant)
            acts += [b for a in acts for b in a.bonus]
            if any(a.verb == "special" or a.amount.name == "special" for a in acts):
                for lang in LANGS:  # a special marker says its fighter's own name
                    if words.special_name(f).get(lang) not in words.card_text(content, card, lang):
                        problems.append(f"card {card.id} ({lang}): does not name {words.special_name(f).get(lang)}")
            for kind in {a.token for a in acts if a.token}:
                t = content.tokens[kind]
                for lang in LANGS:
                    if words.token_name(t).get(lang) not in words.card_text(content, card, lang):
                        problems.append(f"card {card.id} ({lang}): does not name the token {words.token_name(t).get(lang)}")
    return problems


def test_every_card_icon_token_flip_and_special_marker_reads_in_both_languages() -> None:
    texts = texts_of(CONTENT)
    assert sum(k.startswith("card ") for k in texts) == sum(len(f.cards) for f in CONTENT.fighters.values())
    assert sum(k.startswith("token ") for k in texts) == len(CONTENT.tokens) == 6
    assert sum(k.startswith("special ") for k in texts) == 4
    assert any(k.startswith("flip bodvar") for k in texts)
    assert missing_words(CONTENT) == []


def _files() -> dict[str, dict[str, Any]]:
    folder = resources.files("engines.tagteam") / "data"
    return {e.name: tomllib.loads(e.read_text(encoding="utf-8")) for e in folder.iterdir() if e.name.endswith(".toml")}


def test_a_fighter_without_words_fails_the_check() -> None:
    """The check above is not vacuous: a special track whose name the catalog does not translate is reported."""
    files = copy.deepcopy(_files())
    files["joan.toml"]["special"]["name"] = "Hope"
    assert any("special joan" in p for p in missing_words(build_content(files)))
    # a new kind of Action the renderer does not know is an error, never a silent notation
    card = CONTENT.cards["joan.banner"]
    odd = replace(card, segments=((replace(card.segments[0][0], verb="teleport"),),))
    with pytest.raises(ValueError, match="teleport"):
        words.card_text(CONTENT, odd, "en")


EXACT = {
    "machiavelli.fortuna": (
        "Deal damage to your opponent equal to your Scheme tokens, then remove 2 Scheme tokens.",
        "Gây sát thương lên đối thủ bằng số token Mưu Đồ của bạn, rồi bỏ 2 token Mưu Đồ."),
    "ching_shih.terror": (
        "Attack your opponent (if the Attack hits: gain 1 Plunder), then gain 1 Power.",
        "Tấn công đối thủ (nếu đòn Tấn công trúng: nhận thêm 1 Cướp Bóc), rồi nhận thêm 1 Sức mạnh."),
    "reeves.hold_the_line": (
        "Block (if the Block stops an Attack: heal 2 and give your opponent the Sheriff token).",
        "Đỡ đòn (nếu đỡ được một đòn Tấn công: hồi 2 máu và đặt token Cảnh sát trưởng lên đối thủ)."),
    "reeves.quick_draw": (
        "Attack your opponent, then attack your opponent again if your opponent holds the Sheriff token.",
        "Tấn công đối thủ, rồi Tấn công đối thủ thêm lần nữa nếu đối thủ đang giữ token Cảnh sát trưởng."),
    "wong.shadowless_kick": (
        "Attack your opponent, then attack your opponent again (only if you hold a Concentration token) "
        "and remove 1 Concentration token.",
        "Tấn công đối thủ, rồi Tấn công đối thủ thêm lần nữa (chỉ khi bạn đang giữ token Tập Trung) "
        "và bỏ 1 token Tập Trung."),
    "reeves.bring_em_in": (
        "Deal 3 damage to the fighter holding the Sheriff token, then remove the Sheriff token from its holder.",
        "Gây 3 sát thương lên người đang giữ token Cảnh sát trưởng, rồi bỏ token Cảnh sát trưởng khỏi người đang giữ."),
    "ba_trieu.resistance": (
        "You heal 2 and your partner heals 2. Instant Bonus when you add this card: your partner gains 1 Power.",
        "Bạn hồi 2 máu và đồng đội hồi 2 máu. Thưởng tức thì khi thêm thẻ này: đồng đội nhận thêm 1 Sức mạnh."),
    "bodvar.maul": (
        "Attack your opponent, then deal 1 damage to your opponent if you are on your Berserker Bear side.",
        "Tấn công đối thủ, rồi gây 1 sát thương lên đối thủ nếu bạn đang ở mặt Gấu Cuồng Chiến."),
}


@pytest.mark.parametrize("cid", sorted(EXACT))
def test_known_cards_read_exactly(cid: str) -> None:
    en, vi = EXACT[cid]
    card = CONTENT.cards[cid]
    assert words.card_text(CONTENT, card, "en") == en
    assert words.card_text(CONTENT, card, "vi") == vi


def test_icons_flips_and_tokens_read_exactly() -> None:
    joan, bodvar = CONTENT.fighters["joan"], CONTENT.fighters["bodvar"]
    assert _in(words.icon_text(CONTENT, joan, "faith"), "en") == "Joan gains 1 Faith"
    assert _in(words.icon_text(CONTENT, joan, "faith"), "vi") == "Joan nhận thêm 1 Đức Tin"
    assert _in(words.icon_text(CONTENT, joan, "cancel"), "vi") == "Hủy"
    assert words.flip_text(CONTENT, bodvar, bodvar.sides[0], "en") == (
        "When Bödvar's Rage is 3 or more, Bödvar flips to the Berserker Bear side: Bödvar gains 1 Power and heals 3.")
    assert words.flip_text(CONTENT, bodvar, bodvar.sides[0], "vi") == (
        "Khi Cuồng Nộ của Bödvar từ 3 trở lên, Bödvar lật sang mặt Gấu Cuồng Chiến: "
        "Bödvar nhận thêm 1 Sức mạnh và hồi 3 máu.")
    aflame, sheriff = CONTENT.tokens["aflame"], CONTENT.tokens["sheriff"]
    assert words.token_text(CONTENT, aflame, "en") == (
        "At the end of every Turn, its holder takes damage equal to its Aflame! tokens and removes 1 Aflame! token.")
    assert words.token_text(CONTENT, aflame, "vi") == (
        "Cuối mỗi Lượt, người giữ chịu sát thương bằng số token Bốc Cháy! của người giữ và bỏ 1 token Bốc Cháy!")
    assert words.token_text(CONTENT, sheriff, "en") == "Each Attack on its holder deals 1 more damage."
    assert words.token_text(CONTENT, sheriff, "vi") == "Mỗi đòn Tấn công vào người giữ token gây thêm 1 sát thương."


# ---------------------------------------------------------------------------
# what players see, over many positions of seeded games


def _positions() -> list[tuple[Any, list[str]]]:
    """(state, event texts of the step that led there) along seeded random and heuristic games."""
    out = []
    modes = ["random", "standard", "competitive", "free", "first_game"]
    for seed in range(10):
        mode = modes[seed % len(modes)]
        bot = ENGINE.bots()["random" if seed % 2 else "heuristic"]
        rng = random.Random(seed)
        s = ENGINE.new_game(["Alice", "Bob"], {"draft": mode}, 100 + seed)
        out.append((s, []))
        steps = 0
        while ENGINE.to_act(s) and steps < 40:
            seat = min(ENGINE.to_act(s))
            s, events = ENGINE.apply(s, seat, bot.choose(ENGINE, s, seat, rng))
            out.append((s, [t for e in events for t in (e.text.en, e.text.vi)]))
            steps += 1
    return out


POSITIONS = _positions()


def test_no_notation_in_views_menus_or_events() -> None:
    seen = {"bonus": 0, "revealed": 0, "setup": 0, "cancel": 0, "token": 0, "turn steps": 0}
    for s, events in POSITIONS:
        shown = list(events)
        for seat in (0, 1, None):
            view = ENGINE.view(s, seat)
            for lang in ("en", "vi"):
                shown.append(ENGINE.render_view(view, lang))
            if seat is not None and ENGINE.to_act(s) and seat in ENGINE.to_act(s):
                shown += [t for c in ENGINE.menu(s, seat) for t in (c.label.en, c.label.vi)]
            seen["bonus"] += any(view["bonuses"])
            seen["revealed"] += bool(view["last_fight"])
            seen["setup"] += bool(view["starting"])
            seen["token"] += any(f["tokens"] for team in view["teams"] for f in team)
        seen["cancel"] += any("Cancel ignores" in t for t in events)
        seen["turn steps"] += any(" hits " in t and ", Turn " in t for t in events)  # the Turn log's steps
        for text in shown:
            assert leaks(text) == [], (leaks(text), text)
    # the positions did show what this test is about
    assert all(seen.values()), seen


def test_views_tell_what_the_cards_do() -> None:
    """Setup shows each Starting card's text; the opponent's revealed cards have name and text;
    announced Instant Bonuses and track icons read in words; the Vietnamese mail has no English verbs."""
    setup = next(s for s, _ in POSITIONS if s.phase == "setup")
    for lang in ("en", "vi"):
        text = ENGINE.render_view(ENGINE.view(setup, 0), lang)
        for f in setup.teams[0]:
            card = CONTENT.cards[CONTENT.fighters[f.id].starting_card.id]
            assert f"«{card.name}» — {words.card_text(CONTENT, card, lang)}" in text
    fought = next(s for s, _ in POSITIONS if s.last_fight and s.phase == "build")
    for lang in ("en", "vi"):
        text = ENGINE.render_view(ENGINE.view(fought, 0), lang)
        for turn in fought.last_fight:
            cid = turn[1]
            if cid:
                card = CONTENT.cards[cid]
                assert f"«{card.name}»" in text and words.card_text(CONTENT, card, lang) in text
    bonus = next(s for s, _ in POSITIONS if any(s.bonuses))
    seat = next(t for t in (0, 1) if bonus.bonuses[t])
    fighter = next(f for f in CONTENT.fighters.values() if f.name == bonus.bonuses[seat][0])
    en = ENGINE.render_view(ENGINE.view(bonus, 1 - seat), "en")
    assert f"{bonus.players[seat]}: {fighter.name} " in en.split("Instant Bonuses announced: ")[1]
    first = ENGINE.new_game(["Alice", "Bob"], {"draft": "first_game"}, 1)
    en, vi = (ENGINE.render_view(ENGINE.view(first, 0), lang) for lang in ("en", "vi"))
    assert "12: Joan gains 1 Faith" in en and "12: Joan nhận thêm 1 Đức Tin" in vi
    assert "Bödvar flips to the Berserker Bear side" in en and "Bödvar lật sang mặt Gấu Cuồng Chiến" in vi
    assert "Token Concentration:" in en and "Token Tập Trung:" in vi
    for _, events in POSITIONS[:60]:
        for t in events:
            if "Instant Bonus" in t or "Thưởng tức thì" in t:
                assert leaks(t) == []


@pytest.mark.parametrize("old", [
    "Fortuna ×3: damage actor.tokens:scheme opponent THEN token scheme -2 you",
    "attack => special +1 THEN power +1",
    "damage 3 holder:sheriff",
    "  1. Cleopatra «Royal Decree» [cleopatra.decree] — attack; power -1 opponent if target.power>=3",
    "Token scheme +2 you",
    "Thưởng tức thì: heal 2 partner",
    "Đỡ đòn ⇒ Thành công: token sheriff +1 đối thủ SAU ĐÓ Tấn công",
])
def test_the_leak_check_catches_the_old_notation(old: str) -> None:
    """The texts players used to get are caught, so the view test above can fail."""
    assert leaks(old)
