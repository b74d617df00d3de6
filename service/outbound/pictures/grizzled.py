"""The Grizzled: No Man's Land grouped by threat (three of one threat fail the mission, so a
count of two is marked), each Grizzled with Hard Knocks, charm and speech tokens, and the Trials
and Morale piles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.contract import tr
from engines.grizzled.content import content
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
    SKY,
    VERMILLION,
    centred,
    fit,
    font,
    new_canvas,
    png,
)

WIDTH = 640
THREAT_COLOURS = {"rain": SKY, "snow": "#DDE7F0", "night": PURPLE, "whistle": ORANGE, "gas": GREEN, "shell": VERMILLION}


def _name(threat: str, lang: str) -> str:
    try:
        return content().threat_name(threat).get(lang)
    except KeyError:
        return threat


def _face(face: str, lang: str) -> str:
    try:
        return content().face_text(face).get(lang)
    except KeyError:
        return face


def draw(view: Mapping[str, Any], lang: str) -> Picture:
    players: list[str] = list(view["players"])
    counts: dict[str, int] = dict(view.get("threat_counts") or {})
    nml: list[str] = list(view.get("nml") or [])
    rows = max(1, (len(nml) + 2) // 3)
    height = 150 + 30 * rows + 96 * len(players) + 20
    image, d = new_canvas(WIDTH, height)
    # piles
    mission, trials, reserve = view.get("mission", "?"), view.get("trials", 0), view.get("reserve", 0)
    title = tr("Mission {mission}", mission=mission)[lang]
    d.text((16, 20), title, font=font(18, True), fill=INK, anchor="lm")
    piles = tr("Trials: {trials} · Morale: {reserve}", trials=trials, reserve=reserve)[lang]
    d.text((WIDTH - 16, 20), piles, font=font(15, True), fill=INK, anchor="rm")
    # threat counts: six boxes, danger when two of one threat are out (a third fails)
    d.text((16, 50), tr("No Man's Land")[lang], font=font(15, True), fill=INK, anchor="lm")
    w = (WIDTH - 32 - 5 * 8) / 6
    for i, threat in enumerate(THREAT_COLOURS):
        x = 16 + i * (w + 8)
        n = counts.get(threat, 0)
        danger = n >= 2
        d.rounded_rectangle((x, 64, x + w, 118), radius=6, fill=THREAT_COLOURS[threat],
                            outline=INK if danger else LINE, width=4 if danger else 1)
        d.rounded_rectangle((x + 6, 70, x + w - 6, 90), radius=4, fill="#FFFFFF")
        centred(d, (x + w / 2, 80), fit(_name(threat, lang), 12), 12, INK, bold=True)
        centred(d, (x + w / 2, 104), f"{n}" + (" !" if danger else ""), 16, "#FFFFFF" if threat in ("night", "shell", "gas") else INK, bold=True)
    y = 128
    for i, face in enumerate(nml):
        x = 16 + (i % 3) * 204
        yy = y + (i // 3) * 30
        d.rounded_rectangle((x, yy, x + 196, yy + 24), radius=4, fill=FIELD, outline=LINE)
        d.text((x + 6, yy + 12), fit(_face(face, lang), 30), font=font(12), fill=INK, anchor="lm")
    if not nml:
        d.text((16, y + 12), tr("(empty)")[lang], font=font(12), fill=MUTED, anchor="lm")
    y += 30 * rows + 10
    # the Grizzled
    grizzled = view.get("grizzled") or []
    knocks = view.get("knocks") or []
    for seat, name in enumerate(players):
        you = seat == view.get("you")
        box = (16, y, WIDTH - 16, y + 86)
        d.rounded_rectangle(box, radius=8, fill="#FFFFFF", outline=BLUE if you else LINE, width=3 if you else 1)
        g = (grizzled[seat] if seat < len(grizzled) else None) or {}  # None: still choosing (GR-11)
        out = (view.get("withdrawn") or [False] * len(players))[seat]
        head = fit(name, 18) + (tr(" (you)")[lang] if you else "")
        if g:
            head += f" — {fit(str(g.get('name', '')), 22)}"
        elif view.get("phase") == "choose":
            head += tr(" — (choosing a Grizzled)")[lang]
        d.text((28, y + 16), head, font=font(14, True), fill=INK, anchor="lm")
        status = []
        if out:
            status.append(tr("withdrawn")[lang])
        if seat == view.get("leader"):
            status.append(tr("leader")[lang])
        if status:
            d.text((WIDTH - 28, y + 16), ", ".join(status), font=font(12, True), fill=MUTED, anchor="rm")
        charm = g.get("charm")
        held = (view.get("speech_held") or [0] * len(players))[seat]
        hand = (view.get("hand_sizes") or [0] * len(players))[seat]
        info = []
        if charm:
            ready = g.get("charm_ready")
            charm_name = _name(str(charm), lang)
            info.append(tr("Charm: {charm_name}", charm_name=charm_name)[lang] if ready
                        else tr("Charm: {charm_name} (used)", charm_name=charm_name)[lang])
        info.append(tr("Speech: {held}", held=held)[lang])
        info.append(tr("Cards: {hand}", hand=hand)[lang])
        d.text((28, y + 40), " · ".join(info), font=font(12), fill=INK, anchor="lm")
        ks = knocks[seat] if seat < len(knocks) else []
        text = ", ".join(_face(k, lang) for k in ks) or ("—")
        d.text((28, y + 64), fit(tr("Hard Knocks: {text}", text=text)[lang], 80), font=font(12), fill=VERMILLION if ks else MUTED, anchor="lm")
        y += 96
    return Picture(png(image), _alt(view, players, lang), WIDTH, height)


def _alt(view: Mapping[str, Any], players: list[str], lang: str) -> str:
    counts = view.get("threat_counts") or {}
    out = ", ".join(f"{_name(t, lang)} {n}" for t, n in counts.items() if n) or tr("empty")[lang]
    trials, reserve = view.get("trials", 0), view.get("reserve", 0)
    return tr("The Grizzled — Trials {trials}, Morale {reserve}; No Man's Land: {out}", trials=trials, reserve=reserve, out=out)[lang]
