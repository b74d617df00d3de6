"""What one seat may see, and its plain-text rendering for a mail body.

A view never holds another seat's hand, the partner's exchange card before it is handed over,
the deck order or the RNG state. The one sanctioned peek: while a Devil is being played, its
player sees the victim's hand (TAC-58).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.contract import Text, text_of, tr
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
        "last_play": None if last is None else {k: last[k] for k in ("seat", "card", "discard", "text", "moves", *OLD_WORDED)
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


#: the keys a state saved before the catalogs held the last play under: its words per language
OLD_WORDED = ("en", "vi")


def _last_play_words(last: Mapping[str, Any], lang: str) -> str:
    """The last play in ``lang``: its stored sentence (msgid and facts), or, in a state saved
    before the catalogs, the words it was given then (English for a language added since)."""
    if "text" in last:
        return text_of(last["text"], lang)
    worded = {k: str(last[k]) for k in OLD_WORDED if k in last}
    return text_of(worded, lang) if worded else ""


def _t(lang: str, text: Text) -> str:
    return text.get(lang)


def _cards(cards: list[str], lang: str) -> str:
    return ", ".join(cardlib.name(c, lang) for c in cards) or _t(lang, tr("(none)"))


HELP = tr("How to write a move (reply with a menu number, or write it):\n  13 start     open: a waiting marble onto your start field\n  5 b1         move marble b1 five fields;  4 back a2: four back\n  5 a1 h2      name the end field when a marble may enter its home\n               or stay on the ring (5 a1 2)\n  7 a1:4 c2:3  split a 7 as marble:steps, in order; add >h1 when a\n               part ends in the home (also: 7 a4 c3 = colour + steps)\n  8 skip       the next player skips;  trick a1 d2: swap two marbles\n  tac | discard 9 | give 12 | angel start | devil | fool | warrior a1\nMarbles: colour letter + number. a1..a4 belong to the first seat (a),\nb.. to the second, c.. to the third, d.. to the fourth. Ring fields\nare 0-63 clockwise; AH1..AH4 is a's home, H1 at the entrance.")


def render(view_: Mapping[str, Any], lang: str) -> str:
    """A readable board and hand from the view only."""
    players: list[str] = list(view_["players"])
    lines: list[str] = []
    you = view_["you"]
    who = [f"{LETTERS[p]} = {players[p]}" for p in range(4)]
    lines.append(_t(lang, tr("TAC — teams a+c and b+d. ")) + "; ".join(who))
    if you is not None:
        lines.append(_t(lang, tr("You are {players} (colour {LETTERS}).", players=players[you], LETTERS=LETTERS[you])))
    lines.append(_t(lang, tr("Deal {view}, dealer {players}.", view=view_['deal'], players=players[view_['dealer']])))
    options = view_["options"]
    if options.get("seven_in_home") == "forward-only":
        lines.append(_t(lang, tr("Variant: a 7 moves marbles inside a home forward only.")))
    elif options.get("seven_stuck") == "after-the-seven":
        lines.append(_t(lang, tr("Variant: inside a home a 7 may step a marble forward and back; it counts as stuck only once the 7 is finished.")))
    said = ", ".join(f"{players[p]}: " + (_t(lang, tr("I can")) if c else _t(lang, tr("I can't")))
                     for p, c in enumerate(view_["announcements"]))
    lines.append(_t(lang, tr("Announcements: ")) + said)
    lines.append("")
    lines.append(_t(lang, tr("Ring (field: marble; * = fresh on its start field):")))
    fresh = set(view_["fresh"])
    ring = view_["ring"]
    cells = [f"{f}:{m}{'*' if m in fresh else ''}" for f, m in sorted(ring.items(), key=lambda kv: int(kv[0]))]
    if not cells:
        lines.append("  " + _t(lang, tr("(empty)")))
    for i in range(0, len(cells), 8):  # short lines: mail clients wrap long ones
        lines.append("  " + " ".join(cells[i:i + 8]))
    for c in LETTERS:
        home = " ".join(m or "." for m in view_["homes"][c])
        wait = " ".join(view_["waiting"][c]) or "-"
        start_field = view_["starts"][c]
        lines.append(_t(lang, tr("  {c}: start {start_field}, home [{home}], waiting {wait}", c=c, start_field=start_field, home=home, wait=wait)))
    lines.append("")
    counts = ", ".join(f"{players[p]} {n}" for p, n in enumerate(view_["hand_counts"]))
    lines.append(_t(lang, tr("Cards in hand: {counts}. Draw pile {view}.", counts=counts, view=view_['deck_size'])))
    if view_["hand"] is not None:
        lines.append(_t(lang, tr("Your hand: ")) + _cards(view_["hand"], lang))
    if view_["pile_top"] is not None:
        lines.append(_t(lang, tr("Top of the discard pile: ")) + cardlib.name(view_["pile_top"], lang))
    last = view_["last_play"]
    said = last and _last_play_words(last, lang)
    if said:
        lines.append(_t(lang, tr("Last play: ")) + str(said))
    ex = view_["exchange"]
    if ex["open"]:
        chosen = ", ".join(players[p] for p in ex["chosen"]) or "-"
        lines.append(_t(lang, tr("Partner exchange: chosen so far: {chosen}.", chosen=chosen)))
        if ex["your_gift"]:
            lines.append(_t(lang, tr("You give: {name} (you may still change it).", name=cardlib.name_text(ex['your_gift']))))
    pending = view_["pending"]
    if pending and pending["kind"] == "use":
        lines.append(_t(lang, tr("TAC played: now use the {name}.", name=cardlib.name_text(pending['card']))))
    if pending and pending["kind"] == "devil":
        victim = players[pending["victim"]]
        lines.append(_t(lang, tr("Devil: play {victim}'s turn with one of their cards.", victim=victim)))
        if "victim_hand" in pending:
            lines.append(_t(lang, tr("{victim}'s hand: ", victim=victim)) + _cards(pending["victim_hand"], lang))
    if view_["skipped"]:
        lines.append(_t(lang, tr("The player to act was skipped by an 8: discard a card or answer with a TAC.")))
    if view_["threat"] is not None:
        lines.append(_t(lang, tr("A winning move was made: it must be answered with a TAC now.")))
    if view_["winners"]:
        w = " + ".join(players[p] for p in view_["winners"])
        lines.append(_t(lang, tr("Game over: {w} win.", w=w)))
    elif view_["to_act"]:
        acting = ", ".join(players[p] for p in view_["to_act"])
        lines.append(_t(lang, tr("To act: {acting}.", acting=acting)))
    lines.append("")
    lines.append(HELP[lang])
    return "\n".join(lines)
