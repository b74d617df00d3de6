"""TAC: the ring of 64 fields, the four start fields, homes and waiting areas, marbles by
colour *and* name, the last card played, and the seat's own hand below."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from engines.contract import tr
from engines.tac.board import HOME, WAIT
from engines.tac.content import name as card_name
from service.outbound.pictures import Picture
from service.outbound.pictures.canvas import (
    BLUE,
    FIELD,
    GREEN,
    INK,
    LINE,
    MUTED,
    ORANGE,
    PURPLE,
    centred,
    fit,
    new_canvas,
    png,
    text_colour_on,
)

LETTERS = "abcd"
COLOURS = {"a": BLUE, "b": ORANGE, "c": GREEN, "d": PURPLE}
WIDTH, RING_H, HAND_H = 640, 720, 120
CX, CY, R = WIDTH / 2, 365, 236


def _at(field: float, radius: float) -> tuple[float, float]:
    """Field 0 at the top, clockwise (the direction marbles move)."""
    a = -math.pi / 2 + 2 * math.pi * field / 64
    return CX + radius * math.cos(a), CY + radius * math.sin(a)


def _marble(draw: Any, xy: tuple[float, float], name: str, you: bool) -> None:
    fill = COLOURS[name[0]]
    x, y = xy
    r = 15
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK if you else "#FFFFFF", width=3 if you else 2)
    centred(draw, (x, y), name, 13, text_colour_on(fill), bold=True)


def _where(name: str, pos: int, starts: Mapping[str, int]) -> tuple[float, float]:
    """The picture coordinates of marble ``name`` at engine position ``pos``."""
    start = starts[name[0]]
    if pos == WAIT:
        return _at(start + 3.2, R + 58)
    if pos >= HOME:
        return _at(start, R - 40 - 34 * (pos - HOME))
    return _at(pos, R)


def _arrow(d: Any, frm: tuple[float, float], to: tuple[float, float]) -> None:
    """The last move: a dark line with a head, drawn under the marbles."""
    (x0, y0), (x1, y1) = frm, to
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * 16, y1 - uy * 16)  # stop at the marble's edge
    d.line((x0, y0, tip[0], tip[1]), fill=INK, width=4)
    left = (tip[0] - ux * 14 - uy * 8, tip[1] - uy * 14 + ux * 8)
    right = (tip[0] - ux * 14 + uy * 8, tip[1] - uy * 14 - ux * 8)
    d.polygon([tip, left, right], fill=INK)


def draw(view: Mapping[str, Any], lang: str) -> Picture:
    players: list[str] = list(view["players"])
    you = view.get("you")
    mine = LETTERS[you] if isinstance(you, int) else None
    hand: list[str] = list(view.get("hand") or [])
    height = RING_H + (HAND_H if hand else 20)
    image, d = new_canvas(WIDTH, height)

    starts: dict[str, int] = {k: int(v) for k, v in view["starts"].items()}
    start_of = {v: k for k, v in starts.items()}
    for field in range(64):
        x, y = _at(field, R)
        r = 12
        owner = start_of.get(field)
        if owner:
            d.ellipse((x - 17, y - 17, x + 17, y + 17), outline=COLOURS[owner], width=4)
        d.ellipse((x - r, y - r, x + r, y + r), fill=FIELD, outline=LINE)
        if field % 8 == 4:
            lx, ly = _at(field, R - 30)
            centred(d, (lx, ly), str(field), 12, MUTED)
    # homes: four fields inward from each start, H1 at the entrance
    for colour, start in starts.items():
        for k in range(4):
            x, y = _at(start, R - 40 - 34 * k)
            d.rounded_rectangle((x - 13, y - 13, x + 13, y + 13), radius=5, fill="#FFFFFF", outline=COLOURS[colour], width=2)
            marble = view["homes"][colour][k]
            if marble:
                _marble(d, (x, y), marble, marble[0] == mine)
            else:
                centred(d, (x, y), f"H{k + 1}", 10, MUTED)
        # waiting area: a 2x2 block just outside the ring, beside the start field
        wx, wy = _at(start + 3.2, R + 58)
        waiting = view["waiting"][colour]
        seat = LETTERS.index(colour)
        label = fit(players[seat], 12) if seat < len(players) else colour
        centred(d, (wx, wy - 44), f"{colour} · {label}", 13, COLOURS[colour] if colour != "b" else "#9A6A00", bold=True)
        for i in range(4):
            x, y = wx + (i % 2 - 0.5) * 34, wy + (i // 2 - 0.5) * 34
            d.ellipse((x - 14, y - 14, x + 14, y + 14), outline=LINE, width=1)
            if i < len(waiting):
                _marble(d, (x, y), waiting[i], waiting[i][0] == mine)
    last = view.get("last_play")
    for name, old, new in (last or {}).get("moves", []):
        _arrow(d, _where(name, int(old), starts), _where(name, int(new), starts))
    for key, marble in view["ring"].items():
        _marble(d, _at(int(key), R), marble, marble[0] == mine)

    # the centre: whose turn, the last card
    to_act = view.get("to_act") or []
    if to_act:
        who = ", ".join(players[s] for s in to_act)
        shown = fit(who, 22)
        centred(d, (CX, CY - 22), tr("To play: {shown}", shown=shown)[lang], 15, INK, bold=True)
    if last:
        name = card_name(str(last["card"]), lang)
        player = players[last["seat"]]
        said = (tr("{player} discarded {name}", player=player, name=name)[lang] if last.get("discard")
                else tr("{player} played {name}", player=player, name=name)[lang])
        centred(d, (CX, CY + 6), fit(said, 30), 14, MUTED)
    deck_size = view.get("deck_size", "?")
    centred(d, (CX, CY + 32), tr("Deck: {deck_size} cards", deck_size=deck_size)[lang], 13, MUTED)

    if hand:
        top = RING_H
        centred(d, (CX, top + 8), tr("Your hand")[lang], 14, INK, bold=True)
        w, gap = 82, 10
        x0 = CX - (len(hand) * (w + gap) - gap) / 2
        for i, cid in enumerate(hand):
            x = x0 + i * (w + gap)
            d.rounded_rectangle((x, top + 24, x + w, top + 104), radius=8, fill="#FFFFFF", outline=INK, width=2)
            if cid.isdigit():
                centred(d, (x + w / 2, top + 64), cid, 30, INK, bold=True)
            else:
                centred(d, (x + w / 2, top + 64), fit(card_name(cid, lang), 11), 13, INK, bold=True)
    alt = _alt(view, players, lang)
    return Picture(png(image), alt, WIDTH, height)


def _alt(view: Mapping[str, Any], players: list[str], lang: str) -> str:
    parts = []
    for colour in LETTERS[: len(players)]:
        on_ring = sorted(f"{m}@{k}" for k, m in view["ring"].items() if m[0] == colour)
        home = sum(1 for m in view["homes"][colour] if m)
        waiting = len(view["waiting"][colour])
        player = players[LETTERS.index(colour)]
        ring = " ".join(on_ring) or "-"
        parts.append(tr("{colour} ({player}): ring {ring}, home {home}, waiting {waiting}", colour=colour, player=player, ring=ring, home=home, waiting=waiting)[lang])
    hand = view.get("hand")
    if hand:
        cards = " ".join(hand)
        parts.append(tr("hand: {cards}", cards=cards)[lang])
    board = "; ".join(parts)
    return tr("TAC board — {board}", board=board)[lang]
