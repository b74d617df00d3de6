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
from engines.contract import Seat, Text, text_of, tr
from engines.i18n import each_lang

PENDING_TEXT = {  # one catalog message per decision (indexed ``[lang]``)
    "teammate": tr("choose a teammate for the Team Battle"),
    "boss": tr("choose who plays the Boss"),
    "guardian": tr("fight the Guardian now or wait"),
    "overflow": tr("give up one of 4 Power-Ups"),
    "stash": tr("choose the room for the Power-Up"),
    "death_drop": tr("choose the Power-Up left behind"),
    "death_keep": tr("choose the one Loot card to keep"),
}
PENDING_OTHER = tr("decide")
SECRET_STEPS = (PHASE_WINDOW, PHASE_CHARACTERS)  # the phases whose choices are secret until all have chosen
KIND_LETTER = {"monster": "M", "team": "T", "boss": "B", "reward": "R", "portal": "P", "hoard": "H"}


def card_entry(cid: str) -> dict[str, Any]:
    """One line of the view's ``cards`` legend: the name, text and timing of a card id."""
    c = content()
    for deck in (c.loot, c.powerups, c.characters, c.house_rules):
        card = deck.get(cid)
        if card is not None:
            return {"name": card.name.to_json(), "text": card.text.to_json(), "timing": card.timing}
    return {"name": Text.fixed(cid).to_json(),  # e.g. a planted marker, as written
            "text": Text.fixed("").to_json(), "timing": ""}


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
    return Text("{ranking}", args={"ranking": each_lang(_ranking_words, ranked)})


def _ranking_words(ranked: list[tuple[str, int, int]], lang: str) -> str:
    """The ranking in one language: one catalog message per place, joined."""
    places = []
    for k, (who, pus, hp) in enumerate(ranked):
        place = k + 1
        if pus == 1:
            places.append(tr("{place}. {who} ({pus} Power-Up, {hp} HP)", place=place, who=who, pus=pus, hp=hp)[lang])
        else:
            places.append(tr("{place}. {who} ({pus} Power-Ups, {hp} HP)", place=place, who=who, pus=pus, hp=hp)[lang])
    return "; ".join(places)


# ---------------------------------------------------------------------------


def _t(obj: Mapping[str, Any], lang: str) -> str:
    """A view's stored Text (a catalog msgid, or fixed words of an older state) in ``lang``."""
    return text_of(obj, lang)


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
    cards = view["cards"]
    names = [p["name"] for p in view["players"]]
    lines: list[str] = []
    if view["winner"] >= 0:
        winner = names[view["winner"]]
        lines.append(tr("Winner: {winner}", winner=winner)[lang])
    elif view["phase"] == PHASE_CHARACTERS:  # characters come first, then the dungeon is built
        lines.append(tr("Choosing characters: everyone chooses in secret, all at once; if two players want the same character, the one who chose first gets it.")[lang])
        for cid in view["characters_left"]:
            lines.append(f"  {_t(cards[cid]['name'], lang)}: {_t(cards[cid]['text'], lang)}")
    elif view["placing"]:
        pl = view["placing"]
        placer, left = names[pl["next"]], pl["left"]
        lines.append(tr("Building the dungeon: {placer} places the next room ({left} face-down rooms left); write place q,r", placer=placer, left=left)[lang])
    elif view["phase"] == "over" and view.get("ranking"):
        players = view["players"]
        ranked = ranking_text([(names[p], len(players[p]["powerups"]), players[p]["hp"]) for p in view["ranking"]])
        limit = view["turn_limit"]
        lines.append(tr("The turn limit ({limit}) ended the game. Ranking by Power-Ups, then HP: {ranked}", limit=limit, ranked=ranked)[lang])
    elif view["phase"] == "over":
        lines.append(tr("The game is over; nobody won.")[lang])
    else:
        round_no, turn_of = view["round"], names[view["turn_seat"]]
        if view["phase"] == PHASE_WINDOW:  # between turns
            lines.append(tr("Round {round_no} — between turns, after {turn_of}'s turn", round_no=round_no, turn_of=turn_of)[lang])
        else:
            lines.append(tr("Round {round_no} — turn of {turn_of}", round_no=round_no, turn_of=turn_of)[lang])
    lines.append("")
    lines.append(tr("Dungeon map:")[lang])
    lines += ["  " + x for x in view["map"]]
    lines.append(tr("Key: 12M = room 12, kind M (? face down, M Monster, T Team Battle, B Boss, R Reward, P Portal, H Drink Hoard; lower case = seen, face down again); (1) = player 1 is there; ^ traps; + a dropped Power-Up; SP = the Starting Point")[lang])
    lines.append("")
    for p in view["players"]:
        pus = ", ".join(_t(cards[x]["name"], lang) for x in p["powerups"]) or "-"
        room_no = p["room"]
        room = tr("the Starting Point")[lang] if room_no == 0 else tr("room {room_no}", room_no=room_no)[lang]
        char = f" [{_t(cards[p['character']]['name'], lang)}]" if p.get("character") else ""
        loot = p["loot"]
        if loot == 1:
            held = tr("{loot} Loot card, Power-Ups: {pus}", loot=loot, pus=pus)[lang]
        else:
            held = tr("{loot} Loot cards, Power-Ups: {pus}", loot=loot, pus=pus)[lang]
        lines.append(f"  ({p['seat'] + 1}) {p['name']}{char}: {p['hp']} HP, {room}, " + held)
    notes = []
    for room in view["rooms"]:
        room_no = room["n"]
        at = tr("room {room_no}", room_no=room_no)[lang]
        if room.get("traps"):
            k = room["traps"]
            if k == 1:
                notes.append(tr("{at}: {k} trap", at=at, k=k)[lang])
            else:
                notes.append(tr("{at}: {k} traps", at=at, k=k)[lang])
        if room.get("drops"):
            notes.append(f"{at}: " + ", ".join(_t(cards[d]["name"], lang) for d in room["drops"]))
        if room.get("kind") in ("monster", "team", "boss") and not room.get("beaten") and room["n"]:
            tile = view["tiles"][room["tile"]]
            level, damage = tile["level"], tile["damage"]
            if level:
                stats = tr("level {level}, {damage} damage", level=level, damage=damage)[lang]
            else:
                stats = tr("{damage} damage", damage=damage)[lang]
            notes.append(f"{at} {_t(tile['name'], lang)} ({stats})")
    if notes:
        noted = "; ".join(notes)
        lines.append(tr("Notes: {noted}", noted=noted)[lang])
    if view.get("house_rule"):
        hr = cards[view["house_rule"]]
        rule, rule_text = _t(hr["name"], lang), _t(hr["text"], lang)
        lines.append(tr("House Rule: {rule} — {rule_text}", rule=rule, rule_text=rule_text)[lang])
    g = view["guardian"]
    d = view["decks"]
    level, damage = g["level"], g["damage"]
    loot_left, powerups_left, traps_left = d["loot"], d["powerups"], d["traps_left"]
    lines.append(tr("Guardian: level {level}, {damage} damage. Left: {loot_left} Loot cards, {powerups_left} Power-Ups, {traps_left} trap tokens.", level=level, damage=damage, loot_left=loot_left, powerups_left=powerups_left, traps_left=traps_left)[lang])
    _BOARD_CACHE[:] = [*_BOARD_CACHE[-5:], (view["players"], lang, lines)]
    return lines


def render(view: Mapping[str, Any], lang: str) -> str:
    cards = view["cards"]
    names = [p["name"] for p in view["players"]]
    lines = list(board_lines(view, lang))
    if view["hand"] is not None:
        lines.append("")
        lines.append(tr("Your hand:")[lang])
        timings = {"between": tr("between turns")[lang],
                   "turn": tr("your turn")[lang]}
        for cid in sorted(set(view["hand"]), key=view["hand"].index):  # a card held twice is told once, "×2"
            card = cards[cid]
            many = view["hand"].count(cid)
            when = timings.get(card["timing"], "")
            lines.append(f"  {_t(card['name'], lang)}{f' ×{many}' if many > 1 else ''} ({when}): {_t(card['text'], lang)}")
        if not view["hand"]:
            lines.append("  -")
        me = view["players"][view["you"]]
        mine = [*me["powerups"], *([me["character"]] if me.get("character") else [])]
        if mine:
            if me.get("character"):
                title = tr("Your Power-Ups and Signature Move:")[lang]
            else:
                title = tr("Your Power-Ups:")[lang]
            lines.append(title)
            lines += [f"  {_t(cards[x]['name'], lang)}: {_t(cards[x]['text'], lang)}" for x in mine]
    if view["pending"]:
        p = view["pending"][0]
        what = PENDING_TEXT.get(p["kind"], PENDING_OTHER)[lang]
        if p["seat"] == view["you"]:
            lines.append(tr("You must {what}.", what=what)[lang])
        else:
            waited = names[p["seat"]]
            lines.append(tr("Waiting for {waited}: {what}", waited=waited, what=what)[lang])
    elif view["phase"] == "turn":
        lines.append(turn_left(view["turn"], lang))
    w = view["window"]
    if w["asked"]:
        waiting = ", ".join(names[x] for x in w["asked"] if x not in w["chosen_by"])
        if view["phase"] == PHASE_CHARACTERS:
            lines.append(tr("Waiting for a character choice from: {waiting}", waiting=waiting)[lang])
        else:
            lines.append(tr("Between turns, waiting for: {waiting}", waiting=waiting)[lang])
        if w.get("my_choice"):
            chosen = choice_text(view, w["my_choice"], lang)
            lines.append(tr("Your choice: {chosen}", chosen=chosen)[lang])
    lines.append("")
    if view["phase"] == PHASE_CHARACTERS:
        lines.append(tr("Commands: character knight (or just the name: knight), or a number from the menu")[lang])
        return "\n".join(lines)
    lines.append(command_help(view, lang))
    return "\n".join(lines)


def turn_left(t: Mapping[str, Any], lang: str) -> str:
    """What the player may still do this turn, as a sentence (duels only before the action, HB-56)."""
    parts = []
    a = t["actions"]
    if a == 1:
        parts.append(tr("{a} action", a=a)[lang])
    elif a:
        parts.append(tr("{a} actions", a=a)[lang])
    if t["duels"] and not t["acted"]:
        k = t["duels"]
        if k == 1:
            parts.append(tr("{k} duel (before your action)", k=k)[lang])
        else:
            parts.append(tr("{k} duels (before your action)", k=k)[lang])
    if t["teleports"]:
        k = t["teleports"]
        if k == 1:
            parts.append(tr("{k} teleport", k=k)[lang])
        else:
            parts.append(tr("{k} teleports", k=k)[lang])
    if not parts:
        return tr("No action left this turn.")[lang]
    listed = ", ".join(parts)
    if a:
        return tr("Left this turn: {listed}.", listed=listed)[lang]
    return tr("Left this turn: {listed} (no action left).", listed=listed)[lang]


def command_help(view: Mapping[str, Any], lang: str) -> str:
    """The command line of the mail, with this game's players and the viewer's own cards as examples."""
    names = tuple(p["name"] for p in view["players"])
    refs = player_refs(names)
    me = view.get("you")
    k = next((i for i in range(len(names)) if i != me), 0)
    other = names[k].strip() if " " not in names[k].strip() and slug(names[k]) == refs[k] else refs[k]
    hand = view.get("hand") or []
    card = hand[0] if hand else "dash"
    card_word = _t(view["cards"][card]["name"], lang).lower() if card in view["cards"] else card  # a name parses too
    return tr("Commands (or reply with a menu number): reveal 12 | enter 3 7 (or by direction: enter n nw) | portal 7 | hoard | duel {other} | play {card_word} | trap 12 | pass | autopass; when asked: team {other} | boss {other} | hoard / wait | put 12", other=other, card_word=card_word)[lang]


def choice_text(view: Mapping[str, Any], choice: list[Any], lang: str) -> str:
    """A recorded secret choice (an action as JSON) in words: "Thirst Aid", "Sloppy on Chi", "pass"."""
    kind, args = choice[0], choice[1:]
    if kind == "pass":
        return tr("pass")[lang]
    if kind == "autopass":
        return tr("pass, and auto-pass from now on")[lang]
    cards = view["cards"]
    if kind in ("play", "character") and args and args[0] in cards:
        text = _t(cards[args[0]]["name"], lang)
        if kind == "play" and len(args) > 1:
            kinds = content().loot[args[0]].effect.kind if args[0] in content().loot else ""
            names = [p["name"] for p in view["players"]]
            targets = [names[int(room_no)] if kinds in ("damage_player", "steal_loot") else
                       tr("room {room_no}", room_no=room_no)[lang] for room_no in args[1:]]
            aimed = ", ".join(targets)
            text = tr("{text} on {aimed}", text=text, aimed=aimed)[lang]
        return text
    return " ".join(str(x) for x in choice)
