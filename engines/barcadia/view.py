"""What one seat may see (``view``) and its plain-text rendering for a mail body.

A view holds only public facts plus the viewer's own hand and own secret window choice.
Face-down rooms nobody has seen show no tile; deck orders and the RNG never appear.
The view carries a text map of the dungeon (``map``, drawn from public facts only) that
``render`` prints with the players, notes and the viewer's hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.barcadia.content import content
from engines.barcadia.hexes import START_POINT
from engines.barcadia.rules import limit_ranking
from engines.barcadia.state import (
    BEATEN,
    DROPS,
    KNOWN,
    PHASE_CHARACTERS,
    PHASE_WINDOW,
    TILE,
    TRAPS,
    UP,
    BarcadiaState,
)
from engines.contract import Seat, Text

PENDING_TEXT = {
    "teammate": ("choose a teammate for the Team Battle", "chọn đồng đội cho Đội Chiến"),
    "boss": ("choose who plays the Boss", "chọn người đóng vai Trùm"),
    "guardian": ("fight the Guardian now or wait", "đấu Người Giữ Cửa ngay hay chờ"),
    "overflow": ("give up one of 4 Power-Ups", "bỏ một trong 4 Thẻ Tăng Cường"),
    "stash": ("choose the room for the Power-Up", "chọn phòng đặt Thẻ Tăng Cường"),
    "death_drop": ("choose the Power-Up left behind", "chọn Thẻ Tăng Cường để lại"),
    "death_keep": ("choose the one Loot card to keep", "chọn một thẻ Chiến Lợi Phẩm để giữ"),
}
SECRET_STEPS = (PHASE_WINDOW, PHASE_CHARACTERS)  # the phases whose choices are secret until all have chosen
KIND_LETTER = {"monster": "M", "team": "T", "boss": "B", "reward": "R", "portal": "P", "hoard": "H"}


def card_entry(cid: str) -> dict[str, Any]:
    """One line of the view's ``cards`` legend: the name, text and timing of a card id."""
    c = content()
    for deck in (c.loot, c.powerups, c.characters, c.house_rules):
        card = deck.get(cid)
        if card is not None:
            return {"name": card.name.to_json(), "text": card.text.to_json(), "timing": card.timing}
    return {"name": {"en": cid, "vi": cid}, "text": {"en": "", "vi": ""}, "timing": ""}  # e.g. a planted marker


def _room(s: BarcadiaState, i: int, tiles: dict[str, Any]) -> dict[str, Any]:
    r = s.rooms[i]
    out: dict[str, Any] = {"n": i, "up": bool(r[UP])}
    if r[TRAPS]:
        out["traps"] = r[TRAPS]
    if r[DROPS]:
        out["drops"] = list(r[DROPS])
    if i == 0:
        out["kind"] = "start"
        return out
    tile = content().rooms.get(r[TILE]) if (r[UP] or r[KNOWN]) else None
    if tile is not None:
        out["kind"] = tile.kind
        out["tile"] = tile.id
        if r[BEATEN]:
            out["beaten"] = True
        if tile.id not in tiles:
            tiles[tile.id] = {"name": tile.name.to_json(), "level": tile.level, "damage": tile.damage}
    return out


def make_view(s: BarcadiaState, seat: Seat | None) -> dict[str, Any]:
    """The public part (shared by every seat) plus the viewer's hand and secret window choice."""
    view = dict(public_view(s))
    chosen = s.window.get("chosen", {}) if s.phase in SECRET_STEPS else {}
    view["you"] = seat
    view["window"] = dict(view["window"], my_choice=chosen.get(str(seat)) if seat is not None else None)
    if seat is None:
        view["hand"] = None
        return view
    view["hand"] = sorted(s.hands[seat])
    missing = [x for x in view["hand"] if x not in view["cards"]]
    if missing:
        view["cards"] = dict(view["cards"], **{x: card_entry(x) for x in missing})
    return view


_PUBLIC_CACHE: list[tuple[BarcadiaState, int, dict[str, Any]]] = []


def public_view(s: BarcadiaState) -> dict[str, Any]:
    """Everything every seat may see, built once per position object (views are per seat).

    Cards and tiles are named once, in the ``cards`` and ``tiles`` legends; players, rooms and
    hands refer to them by id.
    """
    for state, version, cached in _PUBLIC_CACHE:
        if state is s and version == s.version:
            return cached
    c = content()
    players: list[dict[str, Any]] = []
    for p in range(s.n):
        players.append({
            "seat": p, "name": s.players[p], "hp": s.hp[p], "room": s.pos[p], "powerups": list(s.powerups[p]),
            "loot": len(s.hands[p]), "character": (s.characters[p] or None) if s.characters else None,
            "autopass": s.autopass[p], "shield": s.shield[p],
        })
    tiles: dict[str, Any] = {}
    rooms = [_room(s, i, tiles) for i in range(len(s.rooms))]
    shown = {x for pus in s.powerups for x in pus} | {x for r in rooms for x in r.get("drops", [])}
    shown |= {x for x in (s.house_rule, *s.characters) if x}
    if s.phase == PHASE_CHARACTERS:
        shown |= set(c.characters)  # what there is to choose from (HB-68)
    window = s.window if s.phase in SECRET_STEPS else {}
    view: dict[str, Any] = {
        "game": "barcadia", "phase": s.phase, "players": players,
        "turn_seat": s.turn_seat, "turns": s.turns, "round": s.turns // max(1, s.n) + 1,
        "turn_limit": s.options.get("turn_limit"),
        "turn": {k: s.turn[k] for k in ("duels", "teleports", "actions", "acted", "bonus", "disarm")},
        "rooms": rooms, "tiles": tiles, "cards": {x: card_entry(x) for x in sorted(shown)},
        "placing": {"left": len(s.placing.get("tiles", [])), "next": s.placing["order"][0]} if s.placing else None,
        "pending": [{"kind": p["kind"], "seat": p["seat"]} for p in s.pending[:1]],
        "window": {"asked": window.get("asked", []), "chosen_by": sorted(int(k) for k in window.get("chosen", {}))},
        "decks": {"loot": len(s.loot_deck), "discard": len(s.loot_discard), "powerups": len(s.powerup_deck),
                  "traps_left": s.traps_left},
        "house_rule": s.house_rule or None,
        "guardian": {"level": c.hoard.level, "damage": c.hoard.damage},
        "start_rolls": s.start_rolls,
        "winner": s.winner, "end_reason": s.end_reason,
        "ranking": limit_ranking(s) if s.end_reason == "limit" else None,
        "characters_left": [x for x in c.characters if x not in s.characters] if s.phase == PHASE_CHARACTERS else None,
    }
    view["map"] = text_map(view, s.layout)
    view["hexes"] = [list(h) for h in s.layout]  # axial (q, r) of room n: public, the picture draws from it
    _PUBLIC_CACHE[:] = [*_PUBLIC_CACHE[-3:], (s, s.version, view)]
    return view


def ranking_text(ranked: list[tuple[str, int, int]]) -> Text:
    """HB-71: "1. Chi (2 Power-Ups, 70 HP); 2. ..." from (name, Power-Ups, HP), best first."""
    en = "; ".join(f"{k + 1}. {who} ({pus} Power-Up{'' if pus == 1 else 's'}, {hp} HP)"
                   for k, (who, pus, hp) in enumerate(ranked))
    vi = "; ".join(f"{k + 1}. {who} ({pus} Thẻ Tăng Cường, {hp} HP)" for k, (who, pus, hp) in enumerate(ranked))
    return Text(en, vi)


# ---------------------------------------------------------------------------


def _t(obj: Mapping[str, str], lang: str) -> str:
    return obj.get(lang) or obj.get("en", "")


def text_map(view: Mapping[str, Any], layout: list[list[int]]) -> list[str]:
    """Flat-top hexes in doubled-row coordinates: column q, row 2r+q; 5 characters a cell."""
    cells: dict[tuple[int, int], str] = {}
    who: dict[int, str] = {}
    for p in view["players"]:
        who[p["room"]] = who.get(p["room"], "") + p["name"][:1].upper()
    for room in view["rooms"]:
        n = room["n"]
        if n == 0:
            continue
        mark = KIND_LETTER.get(room.get("kind", ""), "?")
        if room.get("kind") and not room["up"]:
            mark = mark.lower()  # seen before, face down again
        if room.get("beaten"):
            mark = mark.lower() if not room["up"] else mark + ""
        occ = who.get(n, "")[:1] or ("^" if room.get("traps") else ("+" if room.get("drops") else " "))
        q, r = layout[n]
        cells[(q, 2 * r + q)] = f"{n:>2}{mark}{occ}"
    sp_occ = who.get(0, "")
    for i, (q, r) in enumerate(START_POINT):
        token = "SP" + (sp_occ[i * 2:i * 2 + 2] if sp_occ else "")
        cells[(q, 2 * r + q)] = f"{token:<4}"[:4]
    if not cells:
        return []
    x0 = min(x for x, _ in cells)
    rows: dict[int, list[tuple[int, str]]] = {}
    for (x, y), token in cells.items():
        rows.setdefault(y, []).append((x, token))
    lines = []
    for y in range(min(rows), max(rows) + 1):
        row = ""
        for x, token in sorted(rows.get(y, [])):
            row = row.ljust((x - x0) * 5) + token
        lines.append(row.rstrip())
    return lines


_BOARD_CACHE: list[tuple[object, str, list[str]]] = []


def board_lines(view: Mapping[str, Any], lang: str) -> list[str]:
    """The public part of the mail body (map, players, notes): the same for every seat, so it is
    drawn once per position and language (keyed by the view's shared ``players`` list)."""
    for players, language, cached in _BOARD_CACHE:
        if players is view["players"] and language == lang:
            return cached
    vi = lang == "vi"
    cards = view["cards"]
    names = [p["name"] for p in view["players"]]
    lines: list[str] = []
    if view["winner"] >= 0:
        lines.append(("Người thắng: " if vi else "Winner: ") + names[view["winner"]])
    elif view["placing"]:
        pl = view["placing"]
        lines.append(f"Xây hầm ngục: {names[pl['next']]} đặt phòng tiếp theo (còn {pl['left']} phòng úp); "
                      "viết xây q,r (hoặc place q,r)" if vi else
                      f"Building the dungeon: {names[pl['next']]} places the next room ({pl['left']} face-down "
                      "rooms left); write place q,r")
    elif view["phase"] == PHASE_CHARACTERS:
        lines.append("Chọn nhân vật (HB-68): mỗi người chọn bí mật, cùng lúc; nếu hai người chọn trùng, người chọn "
                     "trước được nhận." if vi else
                     "Choosing characters (HB-68): everyone chooses in secret, all at once; if two players want the "
                     "same character, the one who chose first gets it.")
        for cid in view["characters_left"]:
            lines.append(f"  {cid} — {_t(cards[cid]['name'], lang)}: {_t(cards[cid]['text'], lang)}")
    elif view["phase"] == "over" and view.get("ranking"):
        players = view["players"]
        ranked = ranking_text([(names[p], len(players[p]["powerups"]), players[p]["hp"]) for p in view["ranking"]])
        lines.append(f"Hết giới hạn {view['turn_limit']} lượt. Xếp hạng theo Thẻ Tăng Cường, rồi HP: {ranked.vi}"
                      if vi else f"The turn limit ({view['turn_limit']}) ended the game. Ranking by Power-Ups, then HP: "
                      f"{ranked.en}")
    elif view["phase"] == "over":
        lines.append("Trò chơi kết thúc, không ai thắng." if vi else "The game is over; nobody won.")
    else:
        lines.append((f"Vòng {view['round']} — lượt của " if vi else f"Round {view['round']} — turn of ")
                     + names[view["turn_seat"]])
    lines.append("")
    lines.append("Bản đồ hầm ngục:" if vi else "Dungeon map:")
    lines += ["  " + x for x in view["map"]]
    lines.append("Chú thích: ? úp chưa biết, M Quái Vật, T Đội Chiến, B Trùm, R Phần Thưởng, P Cổng, H Kho Báu; "
                 "chữ thường = úp lại/đã đánh bại; chữ cái cuối = người chơi, ^ bẫy, + Thẻ Tăng Cường rơi"
                 if vi else
                 "Key: ? face down, M Monster, T Team Battle, B Boss, R Reward, P Portal, H Drink Hoard; "
                 "lower case = face down again; last letter = player, ^ traps, + dropped Power-Up")
    lines.append("")
    for p in view["players"]:
        pus = ", ".join(_t(cards[x]["name"], lang) for x in p["powerups"]) or "-"
        room = "SP" if p["room"] == 0 else str(p["room"])
        char = f" [{_t(cards[p['character']]['name'], lang)}]" if p.get("character") else ""
        lines.append(f"  {p['name']}{char}: {p['hp']} HP, " + (f"phòng {room}, {p['loot']} thẻ CLP, tăng cường: {pus}"
                                                             if vi else f"room {room}, {p['loot']} loot, power-ups: {pus}"))
    notes = []
    for room in view["rooms"]:
        if room.get("traps"):
            notes.append(f"phòng {room['n']}: {room['traps']} bẫy" if vi else f"room {room['n']}: {room['traps']} trap(s)")
        if room.get("drops"):
            notes.append(f"{'phòng' if vi else 'room'} {room['n']}: " + ", ".join(_t(cards[d]["name"], lang)
                                                                                 for d in room["drops"]))
        if room.get("kind") in ("monster", "team", "boss") and not room.get("beaten") and room["n"]:
            tile = view["tiles"][room["tile"]]
            notes.append(f"{room['n']}: {_t(tile['name'], lang)}" + (f" L{tile['level']}" if tile["level"] else "")
                         + f" D{tile['damage']}")
    if notes:
        lines.append(("Ghi chú: " if vi else "Notes: ") + "; ".join(notes))
    if view.get("house_rule"):
        hr = cards[view["house_rule"]]
        lines.append(("Luật Nhà: " if vi else "House Rule: ") + f"{_t(hr['name'], lang)} — {_t(hr['text'], lang)}")
    g = view["guardian"]
    lines.append((f"Người Giữ Cửa: cấp {g['level']}, sát thương {g['damage']}. " if vi else
                  f"Guardian: level {g['level']}, damage {g['damage']}. ")
                 + (f"Chồng CLP {view['decks']['loot']}, Tăng Cường {view['decks']['powerups']}, bẫy còn {view['decks']['traps_left']}."
                    if vi else f"Loot deck {view['decks']['loot']}, Power-Ups {view['decks']['powerups']}, "
                    f"trap tokens {view['decks']['traps_left']}."))
    _BOARD_CACHE[:] = [*_BOARD_CACHE[-5:], (view["players"], lang, lines)]
    return lines


def render(view: Mapping[str, Any], lang: str) -> str:
    vi = lang == "vi"
    cards = view["cards"]
    names = [p["name"] for p in view["players"]]
    lines = list(board_lines(view, lang))
    if view["hand"] is not None:
        lines.append("")
        lines.append("Thẻ trên tay bạn:" if vi else "Your hand:")
        for cid in view["hand"]:
            card = cards[cid]
            when = {"between": "giữa lượt" if vi else "between turns", "turn": "trong lượt" if vi else "your turn"}.get(
                card["timing"], "")
            lines.append(f"  {cid} — {_t(card['name'], lang)} ({when}): {_t(card['text'], lang)}")
        if not view["hand"]:
            lines.append("  -")
    if view["pending"]:
        p = view["pending"][0]
        what = PENDING_TEXT.get(p["kind"], ("decide", "quyết định"))
        lines.append(("Đang chờ " if vi else "Waiting for ") + f"{names[p['seat']]}: " + (what[1] if vi else what[0]))
    elif view["phase"] == "turn":
        t = view["turn"]
        lines.append((f"Lượt này còn: {t['actions']} hành động, {t['duels']} đấu tay đôi, {t['teleports']} dịch chuyển"
                       if vi else f"Left this turn: {t['actions']} action(s), {t['duels']} duel(s), "
                       f"{t['teleports']} teleport(s)") + ("" if not t["acted"] or t["duels"] == 0 else
                                                            (" (hết lúc đấu)" if vi else " (too late to duel)")))
    w = view["window"]
    if w["asked"]:
        waiting = (("Đang chờ chọn nhân vật: ", "Waiting for a character choice from: ")
                   if view["phase"] == PHASE_CHARACTERS else ("Giữa lượt, đang chờ: ", "Between turns, waiting for: "))
        lines.append(waiting[0 if vi else 1] + ", ".join(names[x] for x in w["asked"] if x not in w["chosen_by"]))
        if w.get("my_choice"):
            lines.append(("Lựa chọn của bạn: " if vi else "Your choice: ") + " ".join(str(x) for x in w["my_choice"]))
    lines.append("")
    if view["phase"] == PHASE_CHARACTERS:
        lines.append("Lệnh: chọn knight (hoặc tên nhân vật: hiệp sĩ)" if vi else
                     "Commands: character knight (or just the name: knight)")
        return "\n".join(lines)
    # examples name a real opponent of this game (never a made-up player)
    you = view.get("you")
    other = next((n for i, n in enumerate(names) if i != you), names[0] if names else "")
    lines.append(f"Commands: reveal 12 | enter 3 7 (or directions: enter n nw) | portal 7 | hoard | duel {other} | "
                 f"play dash | trap 12 | pass | autopass; when asked: team {other} | boss {other} | hoard / wait | "
                 "drop lucky-coin | put 12 | keep dash"
                 if not vi else
                 f"Lệnh: lật 12 | vào 3 7 (hoặc hướng: vào n nw) | cổng 7 | kho | đấu {other} | dùng dash | bẫy 12 | "
                 f"bỏ qua | tự bỏ qua; khi được hỏi: đồng đội {other} | trùm {other} | kho / chờ | bỏ lucky-coin | "
                 "đặt 12 | giữ dash")
    return "\n".join(lines)
