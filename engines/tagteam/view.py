"""Per-seat views (TT-75) and their plain-text rendering for mail bodies.

A seat sees both boards, every card the Fights revealed and the announced Instant Bonuses;
of its own secrets it sees its draft hand, Fight-Deck order, drawn cards and pending choice.
Of the opponent it sees only sizes. ``render_view`` reads the view alone, so a mail can
never show more than the view holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.contract import Action, text_of, tr
from engines.tagteam import words
from engines.tagteam.commands import format_action, label
from engines.tagteam.content import Content, ContentError, Fighter, Side, TokenKind, parse_act
from engines.tagteam.state import TTState
from engines.tagteam.words import ICON_LEGEND, sentence


def card_view(content: Content, cid: str) -> dict[str, Any]:
    card = content.cards.get(cid)
    if card is None:
        return {"id": cid, "name": cid, "fighter": "", "en": "", "vi": ""}
    return {"id": cid, "name": card.name, "fighter": content.fighters[card.fighter].name,
            "en": words.card_text(content, card, "en"), "vi": words.card_text(content, card, "vi")}


def fighter_summary(content: Content, fid: str) -> dict[str, Any]:
    """What a drafting player needs to know of a fighter: power, track and the 10 cards."""
    f = content.fighters.get(fid)
    if f is None:
        return {"id": fid, "name": fid, "power": 0, "hp": "", "cards": []}
    side = f.sides[0]
    return {
        "id": fid, "name": f.name, "power": f.base_power, "hp": f"{side.start}/{side.max_hp}",
        "cards": [{"name": c.name, "frequency": c.frequency, "starting": c.starting,
                   "en": words.card_text(content, c, "en"), "vi": words.card_text(content, c, "vi")} for c in f.cards],
        "tokens": [token_rule(content, t) for t in f.tokens],
        "special": {lang: words.special_name(f, lang) for lang in words.LANGS} if f.special_max else None,
        "max": side.max_hp, "start": side.start, "icons": track_words(content, f, side),
        "flip": {lang: words.flip_text(content, f, side, lang) for lang in words.LANGS} if side.flip_when else None,
    }


def token_rule(content: Content, t: TokenKind) -> dict[str, str]:
    """A token's standing effect in words (Sheriff: each Attack on its holder deals 1 more damage)."""
    return {"id": t.id, "name": t.name, "name_vi": t.name_vi,
            "en": f"{words.token_text(content, t, 'en')} ({words.token_count_text(t, 'en')})",
            "vi": f"{words.token_text(content, t, 'vi')} ({words.token_count_text(t, 'vi')})"}


def track_words(content: Content, f: Fighter, side: Side) -> list[dict[str, Any]]:
    """The icon spaces of a side, top first, each with what it does in both languages."""
    return [{"space": space, **{lang: " + ".join(words.icon_text(content, f, i, lang) for i in icons)
                                for lang in words.LANGS}}
            for space, icons in sorted(side.icons.items(), reverse=True)]


def board_view(content: Content, s: TTState) -> list[list[dict[str, Any]]]:
    out = []
    for team in s.teams:
        rows = []
        for f in team:
            fighter = content.fighters[f.id]
            side = fighter.side(f.side)
            rows.append({
                "id": f.id, "name": fighter.name, "side": side.name, "hp": f.hp, "max": side.max_hp,
                "start": side.start, "power": f.power, "special": f.special, "special_name": fighter.special_name,
                "special_max": fighter.special_max, "tokens": dict(sorted(f.tokens.items())),
                "token_names": {k: {lang: words.token_name(content.tokens[k], lang) for lang in words.LANGS}
                                for k in sorted(f.tokens) if k in content.tokens},
                "track": {str(k): list(v) for k, v in sorted(side.icons.items(), reverse=True)},
                "special_name_vi": words.special_name(fighter, "vi") if fighter.special_max else "",
                "side_vi": words.side_name(side, "vi"),
                "icons": track_words(content, fighter, side),
                "flip": ({lang: words.flip_text(content, fighter, side, lang) for lang in words.LANGS}
                         if side.flip_when else None),
                "token_rules": [token_rule(content, content.tokens[k]) for k in sorted(f.tokens) if k in content.tokens],
            })
        out.append(rows)
    return out


def build_view(content: Content, s: TTState, seat: int | None) -> dict[str, Any]:
    mine = seat is not None
    view: dict[str, Any] = {
        "game": "tagteam", "you": seat, "players": list(s.players), "phase": s.phase, "round": s.round,
        "draft": s.draft, "fallback": s.fallback, "picks": [list(p) for p in s.picks],
        "teams": board_view(content, s),
        "fight_sizes": [len(d) for d in s.fight], "build_sizes": [len(d) for d in s.build],
        "chosen": [p is not None for p in s.pending],
        "last_fight": [
            {"cards": [card_view(content, c) if c else None for c in turn[0:2]], "hp": turn[3],
             "cancelled": turn[4]}
            for turn in s.last_fight
        ],
        "bonuses": [list(b) for b in s.bonuses],
        "bonus_words": [bonus_words(content, b) for b in s.bonuses],
        "result": s.result,
        "hand": [], "discards": [], "fight_deck": [], "draw": [], "my_choice": None, "starting": [],
    }
    if mine:
        assert seat is not None
        view["hand"] = [fighter_summary(content, h) for h in s.hands[seat]]
        if s.phase == "free":
            view["hand"] = [fighter_summary(content, fid) for fid in sorted(content.fighters)]
        view["discards"] = list(s.discards[seat])
        view["fight_deck"] = [card_view(content, c) for c in s.fight[seat]]
        view["draw"] = [card_view(content, c) for c in s.draw[seat]]
        if s.phase == "setup":  # the order is chosen knowing what each Starting card does
            view["starting"] = [card_view(content, content.fighters[f.id].starting_card.id) for f in s.teams[seat]]
        pending = s.pending[seat]
        view["my_choice"] = None if pending is None else choice_words(content, s, seat, Action.from_json(pending))
    return view


def choice_words(content: Content, s: TTState, seat: int, action: Action) -> dict[str, Any]:
    """The seat's recorded secret choice in words (the menu label), else as a command in each language.

    Why the fallback: a stored choice is data; one that no longer fits the position (or the
    conformance suite's planted markers) must still show, never crash the mail."""
    try:
        return label(content, s, seat, action).to_json()
    except (ValueError, IndexError, KeyError):
        return {lang: format_action(action, lang) for lang in words.LANGS}


def bonus_words(content: Content, bonus: list[str]) -> dict[str, str] | None:
    """An announced Instant Bonus (``[fighter name, action, ...]`` in the state) in words."""
    if not bonus:
        return None
    name, sources = bonus[0], bonus[1:]
    fid = next((f.id for f in content.fighters.values() if f.name == name), "")
    try:
        acts = tuple(parse_act(src, "bonus") for src in sources)
        return {lang: words.instant_text(content, fid, acts, lang) for lang in words.LANGS}
    except (ContentError, KeyError, ValueError):
        return dict.fromkeys(words.LANGS, name)


# ---------------------------------------------------------------------------
# rendering

L = {
    "phase": tr("Step"),
    "power": tr("Power"),
    "hp": tr("HP"),
    "deck": tr("Your Fight Deck (top first)"),
    "draw": tr("You drew"),
    "sizes": tr("Fight Decks"),
    "build": tr("Build Decks"),
    "last": tr("Last Fight"),
    "hand": tr("Fighters you may choose"),
    "choice": tr("Your choice so far"),
    "waiting": tr("waiting for"),
    "bonus": tr("Instant Bonuses announced"),
    "starting": tr("Your Starting cards (`order 1 2` plays card 1 first)"),
    "turn": tr("Turn"),
    "cancelled": tr("cancelled"),
    "nocard": tr("no card left"),
}
PHASES = {
    "draft1": tr("Draft: first pick"),
    "draft2": tr("Draft: second pick"),
    "free": tr("Free choice of 2 fighters"),
    "setup": tr("Setup: order your Starting cards"),
    "build": tr("Build!"),
}
HELP = {
    "draft1": tr("Write `pick NAME` (competitive draft: `pick NAME discard NAME`)."),
    "draft2": tr("Write `pick NAME`."),
    "free": tr("Write `pick NAME NAME`."),
    "setup": tr("Write `order 1 2` or `order 2 1`: which Starting card your Fight Deck plays first."),
    "build": tr("Write `add CARD WHERE, bottom X Y`: CARD is 1-3 (or its name); WHERE is `top`, `bottom`, `after N` or `before N` (N = a card of your Fight Deck); X Y = the other two drawn cards, in the order they go under your Build Deck (optional). `bottom X Y` alone changes only that order."),
}


def _t(key: str, lang: str) -> str:
    return L[key][lang]


def _in(words_by_lang: Mapping[str, str], lang: str) -> str:
    """A text the view carries per language, in ``lang`` (English when it has none)."""
    return words_by_lang.get(lang, words_by_lang.get("en", ""))


def render_track(f: Mapping[str, Any], lang: str) -> str:
    """The Health Track in one line: Max, Start and what each icon space does."""
    marks = [f"{i['space']}: {_in(i, lang)}" for i in f.get("icons", [])]
    max_hp, start = f["max"], f["start"]
    head = tr("track {max_hp} max, start {start}", max_hp=max_hp, start=start)[lang]
    return f"[{head}; {'; '.join(marks)}]" if marks else f"[{head}]"


def _heading(round_no: int, phase: str, lang: str) -> str:
    """``Tag Team — Round 3 — Build!`` (no "Round 0" while drafting). "Game over" is worded in
    whole headings: alone it is another sentence of the catalog, translated otherwise."""
    if phase == "over":
        if round_no:
            return tr("Tag Team — Round {round_no} — Game over", round_no=round_no)[lang]
        return tr("Tag Team — Game over")[lang]
    step = PHASES[phase][lang] if phase in PHASES else phase
    if round_no:
        return tr("Tag Team — Round {round_no} — {step}", round_no=round_no, step=step)[lang]
    return f"Tag Team — {step}"


def render(view: Mapping[str, Any], lang: str) -> str:
    vi = lang == "vi"  # only for the content's own Vietnamese names (name_vi), which are data, not catalog text
    names = view["players"]
    lines = [_heading(view["round"], view["phase"], lang)]
    if view["result"]:
        reason = text_of(view["result"]["reason"], lang)
        winners = ", ".join(names[w] for w in view["result"]["winners"]) or tr("draw")[lang]
        lines.append(tr("Game over: {reason} — {winners}", reason=reason, winners=winners)[lang])
    in_play: dict[str, Mapping[str, str]] = {}
    for seat, team in enumerate(view["teams"]):
        if not team:
            continue
        lines.append(f"{names[seat]}:")
        for f in team:
            extra = ""
            if f["special_max"]:
                special = f.get("special_name_vi") or f["special_name"] if vi else f["special_name"]
                extra += f", {special} {f['special']}/{f['special_max']}"
            if f["tokens"]:
                token_names = f.get("token_names", {})
                held = [(n, token_names.get(k, {}).get(lang, k)) for k, n in f["tokens"].items()]
                extra += ", " + ", ".join(tr("{n}× {token}", n=n, token=token)[lang] for n, token in held)
            side = f.get("side_vi") or f["side"] if vi else f["side"]
            lines.append(f"  {f['name']} ({side}): {_t('hp', lang)} {f['hp']}/{f['max']}, "
                         f"{_t('power', lang)} {f['power']}{extra} {render_track(f, lang)}")
            if f.get("flip"):
                lines.append(f"    {_in(f['flip'], lang)}")
            for t in f.get("token_rules", []):
                in_play[t["id"]] = t
    if any(view["teams"]):
        lines.append(ICON_LEGEND[lang])
    for t in in_play.values():
        token, rule = t["name_vi"] if vi else t["name"], _in(t, lang)
        lines.append(tr("Token {token}: {rule}", token=token, rule=rule)[lang])
    if any(view["fight_sizes"]):
        lines.append(f"{_t('sizes', lang)}: " + ", ".join(f"{n} {k}" for n, k in zip(names, view["fight_sizes"], strict=True))
                     + f"; {_t('build', lang)}: " + ", ".join(f"{n} {k}" for n, k in zip(names, view["build_sizes"], strict=True)))
    if view["hand"]:
        lines.append(f"{_t('hand', lang)}:")
        for h in view["hand"]:
            track = f" {render_track(h, lang)}" if "max" in h else ""
            lines.append(f"  {h['name']} ({h['id']}): {_t('power', lang)} {h['power']}, {_t('hp', lang)} {h['hp']}{track}")
            if h.get("flip"):
                lines.append(f"    {_in(h['flip'], lang)}")
            for c in h["cards"]:
                star = "★ " if c["starting"] else ""
                lines.append(f"    {star}{c['name']} ×{c['frequency']}: {_in(c, lang)}")
            for t in h.get("tokens", []):
                token, rule = t["name_vi"] if vi else t["name"], _in(t, lang)
                lines.append("    " + tr("Token {token}: {rule}", token=token, rule=rule)[lang])
    if view["fight_deck"]:
        lines.append(f"{_t('deck', lang)}:")
        for i, c in enumerate(view["fight_deck"], 1):
            lines.append(f"  #{i} {c['fighter']} «{c['name']}» — {_in(c, lang)}")
    if view.get("starting"):
        lines.append(_t("starting", lang) + ":")
        for i, c in enumerate(view["starting"], 1):
            lines.append(f"  #{i} {c['fighter']} «{c['name']}» — {_in(c, lang)}")
    if view["draw"]:
        lines.append(f"{_t('draw', lang)}:")
        for i, c in enumerate(view["draw"], 1):
            lines.append(f"  #{i} {c['fighter']} «{c['name']}» — {_in(c, lang)}")
    if view["my_choice"]:
        lines.append(f"{_t('choice', lang)}: {text_of(view['my_choice'], lang)}")
    if view["last_fight"]:
        lines.append(f"{_t('last', lang)}:")
        for k, turn in enumerate(view["last_fight"], 1):
            lines.append(f"  {_t('turn', lang)} {k}:")
            for t, c in enumerate(turn["cards"]):
                cancelled = f" ({_t('cancelled', lang)})" if turn["cancelled"][t] else ""
                shown = f"{c['fighter']} «{c['name']}»{cancelled} — {_in(c, lang)}" if c else _t("nocard", lang)
                lines.append(f"    {names[t]}: {shown}")
    said = view.get("bonus_words") or []
    if any(said):
        lines.append(f"{_t('bonus', lang)}: " + "; ".join(
            f"{names[t]}: {sentence(_in(b, lang))}" for t, b in enumerate(said) if b))
    waiting = [names[i] for i, c in enumerate(view["chosen"]) if not c]
    if view["phase"] in HELP:
        lines.append(HELP[view["phase"]][lang])
        if waiting:
            lines.append(f"({_t('waiting', lang)}: {', '.join(waiting)})")
    return "\n".join(lines)
