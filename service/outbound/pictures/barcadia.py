"""Heroes of Barcadia: the hex dungeon with revealed rooms (kind in words), the players as
numbered discs, known traps, dropped Power-Ups, and the viewer's room highlighted."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engines.barcadia.hexes import START_POINT
from engines.contract import tr
from service.outbound.pictures import Picture
from service.outbound.pictures.canvas import (
    BLUE,
    FIELD,
    INK,
    LINE,
    MUTED,
    SEAT_COLOURS,
    VERMILLION,
    YELLOW,
    centred,
    fit,
    font,
    new_canvas,
    png,
    text_colour_on,
)

WIDTH = 640
KIND_FILL = {"start": "#FFFFFF", "monster": "#F6D6C8", "team": "#F3C6DD", "boss": "#E9B7B7",
             "reward": "#D8EFD9", "portal": "#D6E6F5", "hoard": "#F8EDB0"}
KIND_WORD = {"start": tr("Start"), "monster": tr("Monster"),
             "team": tr("Team"), "boss": tr("Boss"),
             "reward": tr("Reward"), "portal": tr("Portal"),
             "hoard": tr("Hoard")}


def _centre(q: int, r: int, size: float) -> tuple[float, float]:
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def _hexagon(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [(cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def draw(view: Mapping[str, Any], lang: str) -> Picture:
    words = {kind: text[lang] for kind, text in KIND_WORD.items()}
    rooms: list[dict[str, Any]] = list(view.get("rooms") or [])
    hexes: list[list[int]] = list(view.get("hexes") or [])
    cells: list[tuple[int, int, dict[str, Any]]] = []
    for room in rooms:
        n = room["n"]
        if n == 0:
            cells += [(q, r, room) for q, r in START_POINT]
        elif n < len(hexes):
            cells.append((hexes[n][0], hexes[n][1], room))
    players: list[dict[str, Any]] = list(view.get("players") or [])
    you = view.get("you")
    raw = [_centre(q, r, 1.0) for q, r, _ in cells] or [(0.0, 0.0)]
    span_x = max(x for x, _ in raw) - min(x for x, _ in raw) + 2
    span_y = max(y for _, y in raw) - min(y for _, y in raw) + 2
    size = min(36.0, (WIDTH - 40) / span_x)
    legend_h = 34 + 22 * ((len(players) + 2) // 3)
    height = int(span_y * size + 40 + legend_h)
    image, d = new_canvas(WIDTH, height)
    ox = (WIDTH - span_x * size) / 2 - min(x for x, _ in raw) * size + size
    oy = 20 - min(y for _, y in raw) * size + size
    at_room: dict[int, list[int]] = {}
    for p in players:
        at_room.setdefault(int(p["room"]), []).append(int(p["seat"]))
    my_room = players[you]["room"] if isinstance(you, int) and you < len(players) else None
    drawn_label: set[int] = set()
    for q, r, room in cells:
        x, y = _centre(q, r, size)
        cx, cy = ox + x, oy + y
        kind = room.get("kind") if room.get("up") or room["n"] == 0 or room.get("kind") else None
        fill = KIND_FILL.get(str(kind), FIELD) if room.get("up") or room["n"] == 0 else FIELD
        mine = room["n"] == my_room
        d.polygon(_hexagon(cx, cy, size - 1.5), fill=fill, outline=BLUE if mine else LINE, width=4 if mine else 1)
        if room["n"] in drawn_label and room["n"] == 0:
            continue
        drawn_label.add(room["n"])
        label = str(room["n"]) if room["n"] else ""
        if kind:
            word = words.get(str(kind), str(kind))
            label = f"{label} {word}".strip() if size >= 30 else (label or word[:2])
            if room.get("beaten"):
                label += " ✓"
        elif not room.get("up"):
            label = f"{room['n']}?"
        centred(d, (cx, cy - size * 0.35), fit(label, 11), max(9, int(size * 0.3)), INK if room.get("up") else MUTED)
        marks = []
        if room.get("traps"):
            marks.append(("T", VERMILLION))
        if room.get("drops"):
            marks.append(("P", YELLOW))
        for i, (letter, colour) in enumerate(marks):
            mx = cx + size * 0.55 - i * 16
            my = cy + size * 0.42
            d.rectangle((mx - 7, my - 7, mx + 7, my + 7), fill=colour, outline=INK)
            centred(d, (mx, my), letter, 10, text_colour_on(colour), bold=True)
        seats = at_room.get(room["n"], []) if room["n"] != 0 or (q, r) == START_POINT[0] else []
        for i, seat in enumerate(seats[:6]):
            px = cx - (len(seats[:6]) - 1) * 8 + i * 16
            py = cy + size * 0.12
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            d.ellipse((px - 8, py - 8, px + 8, py + 8), fill=colour, outline=INK if seat == you else "#FFFFFF", width=2)
            centred(d, (px, py), str(seat + 1), 10, text_colour_on(colour), bold=True)
    # legend: seat discs with names, then the marks
    y = int(span_y * size + 30)
    for i, p in enumerate(players):
        x = 16 + (i % 3) * 208
        yy = y + (i // 3) * 22
        colour = SEAT_COLOURS[int(p["seat"]) % len(SEAT_COLOURS)]
        d.ellipse((x, yy, x + 16, yy + 16), fill=colour)
        centred(d, (x + 8, yy + 8), str(int(p["seat"]) + 1), 10, text_colour_on(colour), bold=True)
        tag = tr(" (you)")[lang] if p["seat"] == you else ""
        d.text((x + 22, yy + 8), fit(f"{p['name']}{tag} · {p['hp']} HP", 24), font=font(12), fill=INK, anchor="lm")
    yy = y + 22 * ((len(players) + 2) // 3) + 4
    key = tr("T = known trap · P = dropped Power-Up · ? = face-down room · ✓ = beaten")[lang]
    d.text((16, yy + 6), key, font=font(12), fill=MUTED, anchor="lm")
    return Picture(png(image), _alt(view, players, lang), WIDTH, height)


def _alt(view: Mapping[str, Any], players: list[dict[str, Any]], lang: str) -> str:
    up = sum(1 for r in view.get("rooms") or [] if r.get("up"))
    where = ", ".join(tr("{p} in room {p2} ({p3} HP)", p=p['name'], p2=p['room'], p3=p['hp'])[lang] for p in players)
    return tr("Barcadia dungeon — {up} rooms revealed; {where}", up=up, where=where)[lang]
