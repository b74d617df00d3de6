"""Tag Team: both teams' health tracks with their icons (Stop, Cancel, specials) and the
markers, power, special counters and tokens, and the cards revealed in the last Turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import i18n
from engines.contract import tr
from service.outbound.pictures import Picture
from service.outbound.pictures.canvas import (
    BLUE,
    FIELD,
    INK,
    LINE,
    MUTED,
    ORANGE,
    VERMILLION,
    centred,
    fit,
    font,
    new_canvas,
    png,
    text_colour_on,
)

WIDTH = 640
TEAM_COLOURS = (BLUE, ORANGE)
ICON_TEXT = {"stop": ("S", "#FFFFFF", INK), "cancel": ("C", VERMILLION, "#FFFFFF")}


def _icon(kind: str) -> tuple[str, str, str]:
    """Letter, fill and text colour of a track icon: S(top), C(ancel), a special's initial."""
    return ICON_TEXT.get(kind, (kind[:1].upper(), "#FFF4C2", INK))


def draw(view: Mapping[str, Any], lang: str) -> Picture:
    teams: list[list[dict[str, Any]]] = view.get("teams") or []
    players: list[str] = list(view["players"])
    fight = (view.get("last_fight") or [])[-1:] or []
    revealed = fight[0]["cards"] if fight else []
    height = 40 + sum(36 + 92 * len(t) for t in teams) + (70 if revealed else 0) + 40
    image, d = new_canvas(WIDTH, max(height, 120))
    y = 16
    if not teams:
        centred(d, (WIDTH / 2, 60), tr("Teams are being chosen")[lang], 18, INK, bold=True)
    for seat, team in enumerate(teams):
        colour = TEAM_COLOURS[seat % 2]
        you = tr(" (you)")[lang] if seat == view.get("you") else ""
        d.rectangle((12, y, WIDTH - 12, y + 26), fill=colour)
        d.text((22, y + 13), fit(players[seat], 24) + you, font=font(15, True), fill=text_colour_on(colour), anchor="lm")
        y += 36
        for fighter in team:
            _fighter(d, fighter, y, lang)
            y += 92
    if revealed:
        d.text((16, y + 4), tr("Last Turn:")[lang], font=font(14, True), fill=INK)
        x = 16
        for i, card in enumerate(revealed):
            text = fit(str(card.get("name", "?")), 26)
            cancelled = fight[0].get("cancelled", [False, False])
            mark = tr(" × cancelled")[lang] if i < len(cancelled) and cancelled[i] else ""
            d.rounded_rectangle((x, y + 26, x + 296, y + 58), radius=6, fill="#FFFFFF", outline=TEAM_COLOURS[i % 2], width=2)
            d.text((x + 8, y + 42), fit(text + mark, 36), font=font(13), fill=INK, anchor="lm")
            x += 308
    return Picture(png(image), _alt(view, players, lang), WIDTH, image.height)


def _fighter(d: Any, f: Mapping[str, Any], y: float, lang: str) -> None:
    hp, top = int(f["hp"]), int(f["max"])
    name, power = f["name"], f["power"]
    status = tr("{name} — HP {hp}/{top} · Power {power}", name=name, hp=hp, top=top, power=power)[lang]
    if f.get("special_max"):
        track_name = i18n.gettext(lang, str(f["special_name"]), "track")  # the view keeps the English name
        status += f" · {track_name} {f['special']}/{f['special_max']}"
    tokens = f.get("tokens") or {}
    if tokens:
        names = f.get("token_names") or {}
        status += " · " + ", ".join(f"{(names.get(k) or {}).get(lang, k)} {n}" for k, n in tokens.items())
    d.text((16, y + 10), fit(status, 78), font=font(14, hp > 0), fill=INK if hp > 0 else MUTED, anchor="lm")
    cells = top + 1
    w = min(36.0, (WIDTH - 32) / cells)
    track = {int(k): v for k, v in (f.get("track") or {}).items()}
    for pos in range(cells):
        x = 16 + pos * w
        here = pos == hp
        fill = "#FFFFFF" if pos <= top else FIELD
        d.rectangle((x, y + 26, x + w - 3, y + 70), fill=INK if here else fill, outline=LINE)
        centred(d, (x + (w - 3) / 2, y + 36), str(pos), 11, "#FFFFFF" if here else MUTED)
        for i, kind in enumerate(track.get(pos, [])[:1]):
            letter, bg, fg = _icon(kind)
            cx, cy = x + (w - 3) / 2, y + 56 + i * 12
            d.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), fill=bg, outline=LINE)
            centred(d, (cx, cy), letter, 11, fg, bold=True)
        if pos == int(f.get("start", -1)):
            d.line((x, y + 73, x + w - 3, y + 73), fill=MUTED, width=2)


def _alt(view: Mapping[str, Any], players: list[str], lang: str) -> str:
    parts = []
    for seat, team in enumerate(view.get("teams") or []):
        fighters = ", ".join(f"{f['name']} {f['hp']}/{f['max']}" for f in team)
        parts.append(f"{players[seat]}: {fighters}")
    legend = tr("S = Stop, C = Cancel")[lang]
    return ("Tag Team — " + "; ".join(parts) + f" ({legend})") if parts else "Tag Team"
