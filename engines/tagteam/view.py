"""Per-seat views (TT-75) and their plain-text rendering for mail bodies.

A seat sees both boards, every card the Fights revealed and the announced Instant Bonuses;
of its own secrets it sees its draft hand, Fight-Deck order, drawn cards and pending choice.
Of the opponent it sees only sizes. ``render_view`` reads the view alone, so a mail can
never show more than the view holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.contract import Action
from engines.tagteam.commands import format_action
from engines.tagteam.content import Act, Card, Content, TokenKind
from engines.tagteam.state import TTState

VERB_VI = {"attack": "Tấn công", "block": "Đỡ đòn", "heal": "Hồi máu", "power": "Sức mạnh",
           "damage": "Sát thương trực tiếp", "token": "Token", "special": "Đặc biệt", "flip": "Lật bảng"}
WORD_VI = {"if": "nếu", "by": "bởi", "=>": "⇒ Thành công:"}
TARGET_VI = {"you": "bạn", "partner": "đồng đội", "opponent": "đối thủ",
             "opponent_partner": "đồng đội đối thủ", "opponents": "cả hai đối thủ"}


def describe_act(a: Act, lang: str) -> str:
    """``attack opponents => power +1`` reads as it is written; Vietnamese names the verb."""
    if lang != "vi":
        return a.source
    words = [VERB_VI.get(w, TARGET_VI.get(w, WORD_VI.get(w, w))) for w in a.source.split()]
    return " ".join(words).replace("bởi đồng đội", "(đồng đội làm)")


def describe_card(card: Card, lang: str) -> str:
    then = " THEN " if lang != "vi" else " SAU ĐÓ "
    text = then.join("; ".join(describe_act(a, lang) for a in seg) for seg in card.segments)
    if card.instant:
        text += (" | Instant Bonus: " if lang != "vi" else " | Thưởng tức thì: ") + \
            "; ".join(describe_act(a, lang) for a in card.instant)
    return text


def card_view(content: Content, cid: str) -> dict[str, Any]:
    card = content.cards.get(cid)
    if card is None:
        return {"id": cid, "name": cid, "fighter": "", "en": "", "vi": ""}
    return {"id": cid, "name": card.name, "fighter": content.fighters[card.fighter].name,
            "en": describe_card(card, "en"), "vi": describe_card(card, "vi")}


def fighter_summary(content: Content, fid: str) -> dict[str, Any]:
    """What a drafting player needs to know of a fighter: power, track and the 10 cards."""
    f = content.fighters.get(fid)
    if f is None:
        return {"id": fid, "name": fid, "power": 0, "hp": "", "cards": []}
    side = f.sides[0]
    return {
        "id": fid, "name": f.name, "power": f.base_power, "hp": f"{side.start}/{side.max_hp}",
        "cards": [{"name": c.name, "frequency": c.frequency, "starting": c.starting,
                   "en": describe_card(c, "en"), "vi": describe_card(c, "vi")} for c in f.cards],
        "tokens": [token_rule(t) for t in f.tokens],
    }


def token_rule(t: TokenKind) -> dict[str, str]:
    """A token's standing effect in one line per language (Sheriff: Attacks on its holder +1, ...)."""
    en, vi = [f"{t.count} in the box, {t.start} at setup"], [f"{t.count} trong hộp, {t.start} khi thiết lập"]
    if t.attack_taken:
        en.append(f"each Attack on its holder {t.attack_taken:+d}")
        vi.append(f"mỗi đòn Tấn công vào người giữ {t.attack_taken:+d}")
    if t.upkeep:
        en.append("end of every Turn, its holder: " + "; ".join(describe_act(a, "en") for a in t.upkeep))
        vi.append("cuối mỗi Lượt, người giữ: " + "; ".join(describe_act(a, "vi") for a in t.upkeep))
    return {"name": t.name, "name_vi": t.name_vi, "en": ", ".join(en), "vi": ", ".join(vi)}


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
                "token_names": {k: {"en": content.tokens[k].name, "vi": content.tokens[k].name_vi}
                                for k in sorted(f.tokens) if k in content.tokens},
                "track": {str(k): list(v) for k, v in sorted(side.icons.items(), reverse=True)},
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
        "result": s.result,
        "hand": [], "discards": [], "fight_deck": [], "draw": [], "my_choice": None,
    }
    if mine:
        assert seat is not None
        view["hand"] = [fighter_summary(content, h) for h in s.hands[seat]]
        if s.phase == "free":
            view["hand"] = [fighter_summary(content, fid) for fid in sorted(content.fighters)]
        view["discards"] = list(s.discards[seat])
        view["fight_deck"] = [card_view(content, c) for c in s.fight[seat]]
        view["draw"] = [card_view(content, c) for c in s.draw[seat]]
        pending = s.pending[seat]
        view["my_choice"] = None if pending is None else format_action(Action.from_json(pending))
    return view


# ---------------------------------------------------------------------------
# rendering

L = {
    "round": ("Round", "Vòng"), "phase": ("Step", "Giai đoạn"), "power": ("Power", "Sức mạnh"),
    "hp": ("HP", "Máu"), "deck": ("Your Fight Deck (top first)", "Bộ bài Chiến đấu của bạn (trên cùng trước)"),
    "draw": ("You drew", "Bạn rút được"), "sizes": ("Fight Decks", "Bộ bài Chiến đấu"),
    "build": ("Build Decks", "Bộ bài Xây dựng"), "last": ("Last Fight", "Trận đấu vừa rồi"),
    "hand": ("Fighters you may choose", "Võ sĩ bạn có thể chọn"), "choice": ("Your choice so far", "Lựa chọn hiện tại"),
    "waiting": ("waiting for", "đang chờ"), "over": ("Game over", "Hết trận"),
    "bonus": ("Instant Bonuses announced", "Thưởng tức thì đã công bố"),
}
PHASES = {
    "draft1": ("Draft: first pick", "Draft: lượt chọn đầu"), "draft2": ("Draft: second pick", "Draft: lượt chọn hai"),
    "free": ("Free choice of 2 fighters", "Tự chọn 2 võ sĩ"), "setup": ("Setup: order your Starting cards",
                                                                      "Thiết lập: xếp thẻ Khởi đầu"),
    "build": ("Build!", "Xây dựng!"), "over": ("Game over", "Hết trận"),
}
HELP = {
    "draft1": ("Write `pick NAME` (competitive draft: `pick NAME discard NAME`).",
               "Viết `chọn TÊN` (draft cạnh tranh: `chọn TÊN bỏ TÊN`)."),
    "draft2": ("Write `pick NAME`.", "Viết `chọn TÊN`."),
    "free": ("Write `pick NAME NAME`.", "Viết `chọn TÊN TÊN`."),
    "setup": ("Write `order 1 2` or `order 2 1`: which Starting card your Fight Deck plays first.",
              "Viết `thứ tự 1 2` hoặc `thứ tự 2 1`: thẻ Khởi đầu nào đánh trước."),
    "build": ("Write `add CARD WHERE, bottom X Y`: CARD is 1-3 (or its name); WHERE is `top`, `bottom`, "
              "`after N` or `before N` (N = a card of your Fight Deck); X Y = the other two drawn cards, "
              "in the order they go under your Build Deck (optional). `bottom X Y` alone changes only that order.",
              "Viết `thêm THẺ VỊ-TRÍ, dưới X Y`: THẺ là 1-3 (hoặc tên); VỊ-TRÍ là `trên`, `dưới`, `sau N` "
              "hoặc `trước N` (N = thẻ trong Bộ bài Chiến đấu); X Y = hai thẻ còn lại theo thứ tự xuống đáy "
              "Bộ bài Xây dựng (tùy chọn). Chỉ viết `dưới X Y` để đổi riêng thứ tự đó."),
}


def _letter(index: int) -> str:
    """``a``, ``b``, … ``z``, ``aa``, ``ab``: list positions on the board that cannot be taken
    for menu lines (``  1. …``), since a bare number always means the menu."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def _t(key: str, lang: str) -> str:
    en, vi = L[key]
    return vi if lang == "vi" else en


ICON_VI = {"stop": "dừng", "cancel": "hủy"}


def render_track(f: Mapping[str, Any], lang: str) -> str:
    """The Health Track in one line: Max, Start and the spaces that carry icons."""
    vi = lang == "vi"
    marks = [f"{sp}:{'/'.join(ICON_VI.get(i, i) if vi else i for i in icons)}" for sp, icons in f["track"].items()]
    head = f"tối đa {f['max']}, bắt đầu {f['start']}" if vi else f"{f['max']} max, start {f['start']}"
    return f"[{head}; {', '.join(marks)}]"


def render(view: Mapping[str, Any], lang: str) -> str:
    vi = lang == "vi"
    names = view["players"]
    lines = [f"Tag Team — {_t('round', lang)} {view['round']} — "
             f"{PHASES.get(view['phase'], (view['phase'], view['phase']))[1 if vi else 0]}"]
    if view["result"]:
        reason = view["result"]["reason"]["vi" if vi else "en"]
        winners = ", ".join(names[w] for w in view["result"]["winners"]) or ("hòa" if vi else "draw")
        lines.append(f"{_t('over', lang)}: {reason} — {winners}")
    for seat, team in enumerate(view["teams"]):
        if not team:
            continue
        lines.append(f"{names[seat]}:")
        for f in team:
            extra = ""
            if f["special_max"]:
                extra += f", {f['special_name']} {f['special']}/{f['special_max']}"
            if f["tokens"]:
                token_names = f.get("token_names", {})
                extra += ", " + ", ".join(f"{token_names.get(k, {}).get(lang, k)}×{n}" for k, n in f["tokens"].items())
            lines.append(f"  {f['name']} ({f['side']}): {_t('hp', lang)} {f['hp']}/{f['max']}, "
                         f"{_t('power', lang)} {f['power']}{extra} {render_track(f, lang)}")
    if any(view["fight_sizes"]):
        lines.append(f"{_t('sizes', lang)}: " + ", ".join(f"{n} {k}" for n, k in zip(names, view["fight_sizes"], strict=True))
                     + f"; {_t('build', lang)}: " + ", ".join(f"{n} {k}" for n, k in zip(names, view["build_sizes"], strict=True)))
    if view["hand"]:
        lines.append(f"{_t('hand', lang)}:")
        for h in view["hand"]:
            lines.append(f"  {h['name']} ({h['id']}): {_t('power', lang)} {h['power']}, {_t('hp', lang)} {h['hp']}")
            for c in h["cards"]:
                star = "★ " if c["starting"] else ""
                lines.append(f"    {star}{c['name']} ×{c['frequency']}: {c['vi' if vi else 'en']}")
            for t in h.get("tokens", []):
                lines.append(f"    Token {t['name_vi' if vi else 'name']}: {t['vi' if vi else 'en']}")
    if view["fight_deck"]:
        lines.append(f"{_t('deck', lang)}:")
        for i, c in enumerate(view["fight_deck"]):
            lines.append(f"  {_letter(i)}) {c['fighter']} «{c['name']}» [{c['id']}] — {c['vi' if vi else 'en']}")
    if view["draw"]:
        lines.append(f"{_t('draw', lang)}:")
        for i, c in enumerate(view["draw"]):
            lines.append(f"  {_letter(i)}) {c['fighter']} «{c['name']}» [{c['id']}] — {c['vi' if vi else 'en']}")
    if view["my_choice"]:
        lines.append(f"{_t('choice', lang)}: {view['my_choice']}")
    if view["last_fight"]:
        lines.append(f"{_t('last', lang)}:")
        for k, turn in enumerate(view["last_fight"]):
            shown = " | ".join(
                f"{names[t]}: " + (f"{c['fighter']} «{c['name']}»" if c else "—")
                + (" ✗" if turn["cancelled"][t] else "")
                for t, c in enumerate(turn["cards"])
            )
            lines.append(f"  {_letter(k)}) {shown}")
    if any(view["bonuses"]):
        lines.append(f"{_t('bonus', lang)}: " + "; ".join(
            f"{names[t]}: {' '.join(b)}" for t, b in enumerate(view["bonuses"]) if b))
    waiting = [names[i] for i, c in enumerate(view["chosen"]) if not c]
    if view["phase"] in HELP:
        lines.append(HELP[view["phase"]][1 if vi else 0])
        if waiting:
            lines.append(f"({_t('waiting', lang)}: {', '.join(waiting)})")
    return "\n".join(lines)
