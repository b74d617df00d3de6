"""What one seat may see, and its plain-text rendering for a mail body.

A view never holds another seat's hand, the partner's exchange card before it is handed over,
the deck order or the RNG state. The one sanctioned peek: while a Devil is being played, its
player sees the victim's hand (TAC-58).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.tac import content as cardlib
from engines.tac.board import HOME, LETTERS, WAIT, marble_name, start
from engines.tac.state import TacState


def _hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=cardlib.sort_key)


def view(state: TacState, seat: int | None) -> dict[str, Any]:
    ring: dict[str, str] = {}
    homes: dict[str, list[str | None]] = {c: [None] * 4 for c in LETTERS}
    waiting: dict[str, list[str]] = {c: [] for c in LETTERS}
    fresh: list[str] = []
    for m, p in enumerate(state.pos):
        colour = LETTERS[m // 4]
        if p == WAIT:
            waiting[colour].append(marble_name(m))
        elif p >= HOME:
            homes[colour][p - HOME] = marble_name(m)
        else:
            ring[str(p)] = marble_name(m)
        if state.fresh[m]:
            fresh.append(marble_name(m))
    pending: dict[str, Any] | None = None
    if state.pending is not None:
        pending = {"kind": state.pending["kind"]}
        if state.pending["kind"] == "use":
            pending["card"] = state.pending["card"]
        else:
            victim = int(state.pending["victim"])
            pending["victim"] = victim
            if seat == state.turn:
                pending["victim_hand"] = _hand(state.hands[victim])
    to_act: list[int] = []
    if state.phase == "exchange":
        to_act = [p for p in range(4) if str(p) not in state.gifts]
    elif state.phase == "play":
        to_act = [state.turn]
    last = state.last_play
    return {
        "game": "tac",
        "players": list(state.players),
        "you": seat,
        "your_colour": LETTERS[seat] if seat is not None else None,
        "options": dict(state.options),
        "phase": state.phase,
        "deal": state.deals,
        "dealer": state.dealer,
        "turn": state.turn if state.phase == "play" else None,
        "to_act": to_act,
        "starts": {LETTERS[p]: start(p) for p in range(4)},
        "ring": ring,
        "homes": homes,
        "waiting": waiting,
        "fresh": fresh,
        "hand": _hand(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "deck_size": len(state.deck),
        "pile_top": state.pile[-1] if state.pile else None,
        "pile_size": len(state.pile),
        "last_play": None if last is None else {k: last[k] for k in ("seat", "card", "discard", "en", "vi", "moves")
                                                if k in last},
        "announcements": list(state.can),
        "exchange": {
            "open": state.phase == "exchange",
            "chosen": sorted(int(k) for k in state.gifts),
            "your_gift": state.gifts.get(str(seat)) if seat is not None else None,
        },
        "skipped": state.skipped,
        "threat": state.threat,
        "pending": pending,
        "winners": None if state.winners is None else [state.winners, state.winners + 2],
    }


def _t(lang: str, en: str, vi: str) -> str:
    return vi if lang == "vi" else en


def _cards(cards: list[str], lang: str) -> str:
    return ", ".join(cardlib.name(c, lang) for c in cards) or _t(lang, "(none)", "(không có)")


HELP_EN = """How to write a move (reply with a menu number, or write it):
  13 start     open: a waiting marble onto your start field
  5 b1         move marble b1 five fields;  4 back a2: four back
  5 a1 h2      name the end field when a marble may enter its home
               or stay on the ring (5 a1 2)
  7 a1:4 c2:3  split a 7 as marble:steps, in order; add >h1 when a
               part ends in the home (also: 7 a4 c3 = colour + steps)
  8 skip       the next player skips;  trick a1 d2: swap two marbles
  tac | discard 9 | give 12 | angel start | devil | fool | warrior a1
Marbles: colour letter + number. a1..a4 belong to the first seat (a),
b.. to the second, c.. to the third, d.. to the fourth. Ring fields
are 0-63 clockwise; AH1..AH4 is a's home, H1 at the entrance."""

HELP_VI = """Cách viết nước đi (trả lời bằng số trong danh sách, hoặc viết lệnh):
  13 mở        mở: đưa một bi từ vùng chờ lên ô xuất phát
  5 b1         đi bi b1 năm ô;  4 lùi a2: lùi bốn ô
  5 a1 h2      ghi ô đến khi bi có thể vào nhà hoặc ở lại vòng
               (5 a1 2)
  7 a1:4 c2:3  chia lá 7 thành bi:số bước, theo thứ tự; thêm >h1 khi
               phần đó kết thúc trong nhà (hoặc 7 a4 c3 = màu + bước)
  8 bỏ lượt    người kế tiếp mất lượt;  đổi chỗ a1 d2: đổi chỗ hai bi
  tac | bỏ 9 | cho 12 | thiên thần mở | ác quỷ | gã khờ | chiến binh a1
  (lệnh tiếng Anh như 13 start, give 12 cũng được)
Bi: chữ màu + số. a1..a4 của người ngồi thứ nhất (a), b.. người thứ
hai, c.. người thứ ba, d.. người thứ tư. Ô trên vòng đánh số 0-63
theo chiều kim đồng hồ; AH1..AH4 là nhà của a, H1 ở lối vào."""


def render(view_: Mapping[str, Any], lang: str) -> str:
    """A readable board and hand from the view only."""
    players: list[str] = list(view_["players"])
    lines: list[str] = []
    you = view_["you"]
    who = [f"{LETTERS[p]} = {players[p]}" for p in range(4)]
    lines.append(_t(lang, "TAC — teams a+c and b+d. ", "TAC — đội a+c và b+d. ") + "; ".join(who))
    if you is not None:
        lines.append(_t(lang, f"You are {players[you]} (colour {LETTERS[you]}).",
                        f"Bạn là {players[you]} (màu {LETTERS[you]})."))
    lines.append(_t(lang, f"Deal {view_['deal']}, dealer {players[view_['dealer']]}.",
                    f"Ván chia {view_['deal']}, người chia {players[view_['dealer']]}."))
    options = view_["options"]
    if options.get("seven_in_home") == "forward-only":
        lines.append(_t(lang, "Variant: a 7 moves marbles inside a home forward only.",
                        "Biến thể: lá 7 chỉ cho bi trong nhà đi tiến."))
    elif options.get("seven_stuck") == "after-the-seven":
        lines.append(_t(lang, "Variant: inside a home a 7 may step a marble forward and back; it counts as stuck "
                              "only once the 7 is finished.",
                        "Biến thể: trong nhà, lá 7 có thể cho bi tiến rồi lùi; bi chỉ bị coi là kẹt khi đã "
                        "đi hết lá 7."))
    said = ", ".join(f"{players[p]}: " + (_t(lang, "I can", "Tôi có thể") if c else _t(lang, "I can't", "Tôi không thể"))
                     for p, c in enumerate(view_["announcements"]))
    lines.append(_t(lang, "Announcements: ", "Thông báo: ") + said)
    lines.append("")
    lines.append(_t(lang, "Ring (field: marble; * = fresh on its start field):",
                    "Vòng (ô: bi; * = bi mới ra ở ô xuất phát):"))
    fresh = set(view_["fresh"])
    ring = view_["ring"]
    cells = [f"{f}:{m}{'*' if m in fresh else ''}" for f, m in sorted(ring.items(), key=lambda kv: int(kv[0]))]
    if not cells:
        lines.append("  " + _t(lang, "(empty)", "(trống)"))
    for i in range(0, len(cells), 8):  # short lines: mail clients wrap long ones
        lines.append("  " + " ".join(cells[i:i + 8]))
    for c in LETTERS:
        home = " ".join(m or "." for m in view_["homes"][c])
        wait = " ".join(view_["waiting"][c]) or "-"
        start_field = view_["starts"][c]
        lines.append(_t(lang, f"  {c}: start {start_field}, home [{home}], waiting {wait}",
                        f"  {c}: xuất phát {start_field}, nhà [{home}], chờ {wait}"))
    lines.append("")
    counts = ", ".join(f"{players[p]} {n}" for p, n in enumerate(view_["hand_counts"]))
    lines.append(_t(lang, f"Cards in hand: {counts}. Draw pile {view_['deck_size']}.",
                    f"Số lá trên tay: {counts}. Chồng rút {view_['deck_size']}."))
    if view_["hand"] is not None:
        lines.append(_t(lang, "Your hand: ", "Bài của bạn: ") + _cards(view_["hand"], lang))
    if view_["pile_top"] is not None:
        lines.append(_t(lang, "Top of the discard pile: ", "Lá trên cùng chồng bỏ: ") + cardlib.name(view_["pile_top"], lang))
    last = view_["last_play"]
    if last and last.get(lang):
        lines.append(_t(lang, "Last play: ", "Nước vừa đi: ") + str(last[lang]))
    ex = view_["exchange"]
    if ex["open"]:
        chosen = ", ".join(players[p] for p in ex["chosen"]) or "-"
        lines.append(_t(lang, f"Partner exchange: chosen so far: {chosen}.", f"Trao đổi với đồng đội: đã chọn: {chosen}."))
        if ex["your_gift"]:
            lines.append(_t(lang, f"You give: {cardlib.name(ex['your_gift'])} (you may still change it).",
                            f"Bạn đưa: {cardlib.name(ex['your_gift'], 'vi')} (vẫn có thể đổi)."))
    pending = view_["pending"]
    if pending and pending["kind"] == "use":
        lines.append(_t(lang, f"TAC played: now use the {cardlib.name(pending['card'])}.",
                        f"Đã đánh TAC: giờ dùng lá {cardlib.name(pending['card'], 'vi')}."))
    if pending and pending["kind"] == "devil":
        victim = players[pending["victim"]]
        lines.append(_t(lang, f"Devil: play {victim}'s turn with one of their cards.",
                        f"Ác quỷ: đi thay {victim} bằng một lá của họ."))
        if "victim_hand" in pending:
            lines.append(_t(lang, f"{victim}'s hand: ", f"Bài của {victim}: ") + _cards(pending["victim_hand"], lang))
    if view_["skipped"]:
        lines.append(_t(lang, "The player to act was skipped by an 8: discard a card or answer with a TAC.",
                        "Người đến lượt bị lá 8 cho mất lượt: bỏ một lá hoặc đáp bằng lá TAC."))
    if view_["threat"] is not None:
        lines.append(_t(lang, "A winning move was made: it must be answered with a TAC now.",
                        "Vừa có nước thắng: phải đáp lại bằng lá TAC."))
    if view_["winners"]:
        w = " + ".join(players[p] for p in view_["winners"])
        lines.append(_t(lang, f"Game over: {w} win.", f"Ván đã kết thúc: {w} thắng."))
    elif view_["to_act"]:
        acting = ", ".join(players[p] for p in view_["to_act"])
        lines.append(_t(lang, f"To act: {acting}.", f"Đến lượt: {acting}."))
    lines.append("")
    lines.append(HELP_VI if lang == "vi" else HELP_EN)
    return "\n".join(lines)
