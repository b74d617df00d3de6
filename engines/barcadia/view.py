"""What one seat may see (``view``) and its plain-text rendering for a mail body.

A view holds only public facts plus the viewer's own hand and own secret window choice.
Face-down rooms nobody has seen show no tile; deck orders and the RNG never appear.
The view carries a text map of the dungeon (``map``, drawn from public facts only) that
``render`` prints with the players, notes and the viewer's hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.barcadia.commands import player_refs, slug
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
    for p in view["players"]:  # seat numbers, never initials: "12MB" read as room 12, Monster, Boss
        who[p["room"]] = who.get(p["room"], "") + str(p["seat"] + 1)
    for room in view["rooms"]:
        n = room["n"]
        if n == 0:
            continue
        mark = KIND_LETTER.get(room.get("kind", ""), "?")
        if room.get("kind") and not room["up"]:
            mark = mark.lower()  # seen before, face down again
        occ = f"({who[n]})" if n in who else ""
        signs = ("^" if room.get("traps") else "") + ("+" if room.get("drops") else "")
        q, r = layout[n]
        cells[(q, 2 * r + q)] = f"{n:>2}{mark}{occ}{signs}"
    for i, (q, r) in enumerate(START_POINT):
        cells[(q, 2 * r + q)] = "SP" + (f"({who[0]})" if i == 0 and 0 in who else "")
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
    elif view["phase"] == PHASE_CHARACTERS:  # characters come first, then the dungeon is built
        lines.append("Chọn nhân vật: mỗi người chọn bí mật, cùng lúc; nếu hai người chọn trùng, người chọn "
                     "trước được nhận." if vi else
                     "Choosing characters: everyone chooses in secret, all at once; if two players want the "
                     "same character, the one who chose first gets it.")
        for cid in view["characters_left"]:
            lines.append(f"  {_t(cards[cid]['name'], lang)}: {_t(cards[cid]['text'], lang)}")
    elif view["placing"]:
        pl = view["placing"]
        lines.append(f"Xây hầm ngục: {names[pl['next']]} đặt phòng tiếp theo (còn {pl['left']} phòng úp); "
                      "viết xây q,r" if vi else
                      f"Building the dungeon: {names[pl['next']]} places the next room ({pl['left']} face-down "
                      "rooms left); write place q,r")
    elif view["phase"] == "over" and view.get("ranking"):
        players = view["players"]
        ranked = ranking_text([(names[p], len(players[p]["powerups"]), players[p]["hp"]) for p in view["ranking"]])
        lines.append(f"Hết giới hạn {view['turn_limit']} lượt. Xếp hạng theo Thẻ Tăng Cường, rồi HP: {ranked.vi}"
                      if vi else f"The turn limit ({view['turn_limit']}) ended the game. Ranking by Power-Ups, then HP: "
                      f"{ranked.en}")
    elif view["phase"] == "over":
        lines.append("Trò chơi kết thúc, không ai thắng." if vi else "The game is over; nobody won.")
    else:
        between = view["phase"] == PHASE_WINDOW
        lines.append((f"Vòng {view['round']} — " if vi else f"Round {view['round']} — ")
                     + ((f"giữa lượt, sau lượt của {names[view['turn_seat']]}" if vi else
                         f"between turns, after {names[view['turn_seat']]}'s turn") if between else
                        (f"lượt của {names[view['turn_seat']]}" if vi else f"turn of {names[view['turn_seat']]}")))
    lines.append("")
    lines.append("Bản đồ hầm ngục:" if vi else "Dungeon map:")
    lines += ["  " + x for x in view["map"]]
    lines.append("Chú thích: 12M = phòng 12, loại M (? úp chưa biết, M Quái Vật, T Đội Chiến, B Trùm, R Phần Thưởng, "
                 "P Cổng, H Kho Báu; chữ thường = đã thấy, nay úp lại); (1) = người chơi số 1 ở đó; ^ có bẫy; "
                 "+ có Thẻ Tăng Cường bị bỏ lại; SP = Điểm Xuất Phát"
                 if vi else
                 "Key: 12M = room 12, kind M (? face down, M Monster, T Team Battle, B Boss, R Reward, P Portal, "
                 "H Drink Hoard; lower case = seen, face down again); (1) = player 1 is there; ^ traps; "
                 "+ a dropped Power-Up; SP = the Starting Point")
    lines.append("")
    for p in view["players"]:
        pus = ", ".join(_t(cards[x]["name"], lang) for x in p["powerups"]) or "-"
        room = ("Điểm Xuất Phát" if vi else "the Starting Point") if p["room"] == 0 else \
            (f"phòng {p['room']}" if vi else f"room {p['room']}")
        char = f" [{_t(cards[p['character']]['name'], lang)}]" if p.get("character") else ""
        loot = p["loot"]
        lines.append(f"  ({p['seat'] + 1}) {p['name']}{char}: {p['hp']} HP, {room}, "
                     + (f"{loot} thẻ Chiến Lợi Phẩm, Thẻ Tăng Cường: {pus}" if vi else
                        f"{loot} Loot card{'' if loot == 1 else 's'}, Power-Ups: {pus}"))
    notes = []
    for room in view["rooms"]:
        at = f"phòng {room['n']}" if vi else f"room {room['n']}"
        if room.get("traps"):
            k = room["traps"]
            notes.append(f"{at}: {k} bẫy" if vi else f"{at}: {k} trap{'' if k == 1 else 's'}")
        if room.get("drops"):
            notes.append(f"{at}: " + ", ".join(_t(cards[d]["name"], lang) for d in room["drops"]))
        if room.get("kind") in ("monster", "team", "boss") and not room.get("beaten") and room["n"]:
            tile = view["tiles"][room["tile"]]
            level = tile["level"]
            stats = (f"cấp {level}, " if level else "") + f"sát thương {tile['damage']}" if vi else \
                (f"level {level}, " if level else "") + f"{tile['damage']} damage"
            notes.append(f"{at} {_t(tile['name'], lang)} ({stats})")
    if notes:
        lines.append(("Ghi chú: " if vi else "Notes: ") + "; ".join(notes))
    if view.get("house_rule"):
        hr = cards[view["house_rule"]]
        lines.append(("Luật Nhà: " if vi else "House Rule: ") + f"{_t(hr['name'], lang)} — {_t(hr['text'], lang)}")
    g = view["guardian"]
    d = view["decks"]
    lines.append(f"Người Giữ Cửa: cấp {g['level']}, sát thương {g['damage']}. Còn {d['loot']} thẻ Chiến Lợi Phẩm, "
                 f"{d['powerups']} Thẻ Tăng Cường, {d['traps_left']} cạm bẫy." if vi else
                 f"Guardian: level {g['level']}, {g['damage']} damage. Left: {d['loot']} Loot cards, "
                 f"{d['powerups']} Power-Ups, {d['traps_left']} trap tokens.")
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
        for cid in sorted(set(view["hand"]), key=view["hand"].index):  # a card held twice is told once, "×2"
            card = cards[cid]
            many = view["hand"].count(cid)
            when = {"between": "giữa lượt" if vi else "between turns", "turn": "trong lượt" if vi else "your turn"}.get(
                card["timing"], "")
            lines.append(f"  {_t(card['name'], lang)}{f' ×{many}' if many > 1 else ''} ({when}): {_t(card['text'], lang)}")
        if not view["hand"]:
            lines.append("  -")
        me = view["players"][view["you"]]
        mine = [*me["powerups"], *([me["character"]] if me.get("character") else [])]
        if mine:
            title = ("Thẻ Tăng Cường và chiêu của bạn:" if vi else "Your Power-Ups and Signature Move:") \
                if me.get("character") else ("Thẻ Tăng Cường của bạn:" if vi else "Your Power-Ups:")
            lines.append(title)
            lines += [f"  {_t(cards[x]['name'], lang)}: {_t(cards[x]['text'], lang)}" for x in mine]
    if view["pending"]:
        p = view["pending"][0]
        what = PENDING_TEXT.get(p["kind"], ("decide", "quyết định"))
        if p["seat"] == view["you"]:
            lines.append(("Bạn cần " if vi else "You must ") + (what[1] if vi else what[0]) + ".")
        else:
            lines.append(("Đang chờ " if vi else "Waiting for ") + f"{names[p['seat']]}: " + (what[1] if vi else what[0]))
    elif view["phase"] == "turn":
        lines.append(turn_left(view["turn"], lang))
    w = view["window"]
    if w["asked"]:
        waiting = (("Đang chờ chọn nhân vật: ", "Waiting for a character choice from: ")
                   if view["phase"] == PHASE_CHARACTERS else ("Giữa lượt, đang chờ: ", "Between turns, waiting for: "))
        lines.append(waiting[0 if vi else 1] + ", ".join(names[x] for x in w["asked"] if x not in w["chosen_by"]))
        if w.get("my_choice"):
            lines.append(("Lựa chọn của bạn: " if vi else "Your choice: ") + choice_text(view, w["my_choice"], lang))
    lines.append("")
    if view["phase"] == PHASE_CHARACTERS:
        lines.append("Lệnh: chọn hiệp sĩ (hoặc chỉ tên nhân vật), hoặc một số trong danh sách" if vi else
                     "Commands: character knight (or just the name: knight), or a number from the menu")
        return "\n".join(lines)
    lines.append(command_help(view, lang))
    return "\n".join(lines)


def turn_left(t: Mapping[str, Any], lang: str) -> str:
    """What the player may still do this turn, as a sentence (duels only before the action, HB-56)."""
    vi = lang == "vi"
    parts = []
    a = t["actions"]
    if a:
        parts.append(f"{a} hành động" if vi else f"{a} action{'' if a == 1 else 's'}")
    if t["duels"] and not t["acted"]:
        k = t["duels"]
        parts.append(f"{k} lần đấu tay đôi (trước hành động)" if vi else
                     f"{k} duel{'' if k == 1 else 's'} (before your action)")
    if t["teleports"]:
        k = t["teleports"]
        parts.append(f"{k} lần dịch chuyển" if vi else f"{k} teleport{'' if k == 1 else 's'}")
    if not parts:
        return "Lượt này bạn đã hết hành động." if vi else "No action left this turn."
    spent = "" if a else (" (đã hết hành động)" if vi else " (no action left)")
    return ("Lượt này bạn còn: " if vi else "Left this turn: ") + ", ".join(parts) + spent + "."


def command_help(view: Mapping[str, Any], lang: str) -> str:
    """The command line of the mail, with this game's players and the viewer's own cards as examples."""
    names = tuple(p["name"] for p in view["players"])
    refs = player_refs(names)
    me = view.get("you")
    k = next((i for i in range(len(names)) if i != me), 0)
    other = names[k].strip() if " " not in names[k].strip() and slug(names[k]) == refs[k] else refs[k]
    hand = view.get("hand") or []
    vi = lang == "vi"
    card = hand[0] if hand else "dash"
    card_word = _t(view["cards"][card]["name"], lang).lower() if card in view["cards"] else card  # a name parses too
    if vi:
        return (f"Lệnh (hoặc trả lời bằng một số trong danh sách): lật 12 | vào 3 7 (hoặc theo hướng: vào bắc tây-bắc) | "
                f"cổng 7 | kho | đấu {other} | dùng {card_word} | bẫy 12 | bỏ qua | tự bỏ qua; khi được hỏi: "
                f"đồng đội {other} | trùm {other} | kho / chờ | đặt 12. Lệnh tiếng Anh cũng được.")
    return (f"Commands (or reply with a menu number): reveal 12 | enter 3 7 (or by direction: enter n nw) | portal 7 | "
            f"hoard | duel {other} | play {card_word} | trap 12 | pass | autopass; when asked: team {other} | "
            f"boss {other} | hoard / wait | put 12")


def choice_text(view: Mapping[str, Any], choice: list[Any], lang: str) -> str:
    """A recorded secret choice (an action as JSON) in words: "Thirst Aid", "Sloppy on Chi", "pass"."""
    vi = lang == "vi"
    kind, args = choice[0], choice[1:]
    if kind == "pass":
        return "bỏ qua" if vi else "pass"
    if kind == "autopass":
        return "bỏ qua, bật tự bỏ qua" if vi else "pass, and auto-pass from now on"
    cards = view["cards"]
    if kind in ("play", "character") and args and args[0] in cards:
        text = _t(cards[args[0]]["name"], lang)
        if kind == "play" and len(args) > 1:
            kinds = content().loot[args[0]].effect.kind if args[0] in content().loot else ""
            names = [p["name"] for p in view["players"]]
            targets = [names[int(x)] if kinds in ("damage_player", "steal_loot") else
                       (f"phòng {x}" if vi else f"room {x}") for x in args[1:]]
            text += (" lên " if vi else " on ") + ", ".join(targets)
        return text
    return " ".join(str(x) for x in choice)
