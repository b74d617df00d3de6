"""What one seat may know (GR-55, GR-56), and its plain-text rendering for a mail body.

Private: the seat's own hand, its unplaced Support tiles, the tile it placed this Mission, its
secret answer to a Speech and the Grizzled it asked for while the choice is open (GR-11). Public: No Man's Land, Hard Knocks in play, charm sides, Speech
tokens, who has withdrawn or placed a tile, pile sizes and hand sizes. The Trials pile, the
Morale Reserve and the RNG are never shown. ``render_view`` reads the view only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.contract import Text, text_of, tr
from engines.grizzled import rules, words
from engines.grizzled.content import content
from engines.grizzled.state import CHOOSE, CHRISTMAS, INTENSITY, OVER, SPEECH, SUPPORT, TURN, GrizzledState


def _face(cid: str) -> str:
    """A card's face; an id that is not a card (a planted marker) shows as itself."""
    card = content().cards.get(cid)
    return card.face if card is not None else cid


def build_view(s: GrizzledState, seat: int | None) -> dict[str, Any]:
    c = content()
    chars = {ch.id: ch for ch in c.characters}
    counts = rules.threat_counts(s) if s.phase in (TURN, SPEECH, CHRISTMAS) else {}
    to_act = [p for p in range(s.n) if seat_must_act(s, p)]
    return {
        "you": seat,
        "players": list(s.players),
        "grizzled": [
            {"name": chars[cid].name, "charm": chars[cid].charm, "charm_ready": s.charm_ready[p]} if cid else None
            for p, cid in enumerate(s.characters)
        ],
        "choosing": None if s.phase != CHOOSE else {
            "waiting": [p for p in s.choosers if str(p) not in s.picks],
            "free": [{"name": chars[cid].name, "charm": chars[cid].charm, "command": f"choose {cid}"}
                     for cid in rules.free_characters(s)],
            "first": rules.clash_order(s),
        },
        "mission": s.mission,
        "phase": s.phase,
        "leader": s.leader,
        "turn": s.turn if s.phase in (INTENSITY, TURN, CHRISTMAS, SUPPORT) else None,
        "to_act": to_act,
        "trials": len(s.trials),
        "reserve": len(s.reserve),
        "nml": sorted((_face(cid) for cid in s.nml), key=c.face_order),
        "threat_counts": {t: counts.get(t, 0) for t in c.threat_ids},
        "knocks": [[_face(cid) for cid in k] for k in s.knocks],
        "weights": [rules.weight(s, p) for p in range(s.n)],
        "hand_sizes": [len(h) for h in s.hands],
        "withdrawn": list(s.withdrawn),
        "placed": [t is not None for t in s.placed_tile],
        "tile_counts": [len(t) for t in s.tiles],
        "intensity": None if s.phase != INTENSITY else {"min": rules.min_intensity(s), "max": rules.max_intensity(s)},
        "speech_supply": s.speech_supply,
        "speech_held": list(s.speech_held),
        "speech": None if s.phase != SPEECH else {
            "speaker": s.speaker,
            "threat": s.speech_threat,
            "waiting": [p for p in s.responders if str(p) not in s.responses],
        },
        "withdraw": _withdraw_cause(s),
        "speech_usable": seat is not None and s.phase == TURN and s.turn == seat and rules.can_speak(s, seat),
        "charm_usable": seat is not None and s.phase == TURN and s.turn == seat and bool(rules.charm_targets(s, seat)),
        "result": s.result,
        "reason": rules.REASONS[s.reason].to_json() if s.reason else None,
        "hand": sorted((_face(cid) for cid in s.hands[seat]), key=c.face_order) if seat is not None else None,
        "tiles": list(s.tiles[seat]) if seat is not None else None,
        "my_placed": s.placed_tile[seat] if seat is not None else None,
        "my_answer": s.responses.get(str(seat)) if seat is not None else None,
        "my_pick": _pick_name(s, seat, chars),
    }


def _withdraw_cause(s: GrizzledState) -> dict[str, Any] | None:
    """Why the seat on its turn must or may not withdraw (public: Hard Knocks and hand sizes are)."""
    if s.phase != TURN or s.turn is None:
        return None
    rule, holder, cid = rules.withdraw_cause(s, s.turn)
    if rule == "free" or holder is None or cid is None:
        return None
    return {"rule": rule, "seat": s.turn, "holder": holder, "knock": _face(cid)}


def _pick_name(s: GrizzledState, seat: int | None, chars: Mapping[str, Any]) -> str | None:
    """The Grizzled the seat asked for while the choice is open; an id that is not one (a planted
    marker) shows as itself."""
    pick = s.picks.get(str(seat)) if seat is not None else None
    return None if pick is None else (chars[pick].name if pick in chars else pick)


def seat_must_act(s: GrizzledState, seat: int) -> bool:
    if s.phase == OVER:
        return False
    if s.phase == CHOOSE:
        return seat in s.choosers and str(seat) not in s.picks
    if s.phase == SPEECH:
        return seat in s.responders and str(seat) not in s.responses
    return seat == s.turn


def _tile_name(tile: str, lang: str) -> str:
    t = content().tiles.get(tile)
    return t.name.get(lang) if t is not None else tile


def _holder(view: Mapping[str, Any], seat: int) -> words.Holder:
    """"you" for the reader's own Hard Knocks, the holder's name for everyone else's."""
    return words.YOU if seat == view["you"] else words.Holder(view["players"][seat])


def _help_lines(view: Mapping[str, Any], lang: str) -> list[str]:
    """What the Hard Knocks in play and the special cards in the reader's hand do, each said to
    or about its holder; a card in the hand is said to the reader, whom it will hit."""
    c = content()
    out: list[str] = []
    for p, faces in enumerate(view["knocks"]):
        for f in faces:
            card = c.faces.get(f)
            if card is None or card.knock is None:
                continue
            threat = card.threats[0] if card.threats else None
            out.append(words.knock_line(c.knocks[card.knock], _holder(view, p), threat).get(lang))
    for f in dict.fromkeys(view["hand"] or []):
        card = c.faces.get(f)
        if card is not None and card.kind != "threat":
            out.append(words.card_line(card).get(lang))
    if view["phase"] == CHRISTMAS and not any(c.faces.get(f) is not None and c.faces[f].kind == "special"
                                              for f in view["hand"] or []):
        out.append(words.card_line(c.faces["christmas"]).get(lang))
    return out


def _withdraw_line(view: Mapping[str, Any], lang: str) -> str:
    """Why withdrawing is missing from the menu, or the only thing in it."""
    why = view.get("withdraw")
    if not why:
        return ""
    c = content()
    card = c.faces.get(why["knock"])
    if card is None or card.knock is None:
        return ""
    kt = c.knocks[card.knock]
    mover = why["seat"] == view["you"]
    name = view["players"][why["seat"]]
    title = words.knock_title(kt, _holder(view, why["holder"])).get(lang)
    effect = words.knock_effect(kt, _holder(view, why["holder"])).get(lang)
    if why["rule"] == "forced":
        head = tr("You must withdraw this turn") if mover else \
            tr("{name} must withdraw this turn", name=name)
    else:
        head = tr("You may not withdraw now") if mover else \
            tr("{name} may not withdraw now", name=name)
    return f"{head.get(lang)} — {title}: {effect}."


# the commands of each step, as a reader of each language writes them (the other language works too)
COMMANDS: dict[str, Text] = {
    CHOOSE: tr("Commands: choose felix | choose night (by the lucky charm)"),
    INTENSITY: tr("Commands: intensity 3"),
    TURN: tr("Commands: play N | play rain shell | charm rain shell | speech gas | withdraw left"),
    SPEECH: tr("Commands: discard rain shell | keep"),
    CHRISTMAS: tr("Commands: heal mute"),
    SUPPORT: tr("Commands: remove mute | recover charm | decline"),
}


def _commands_line(phase: str, lang: str) -> str:
    text = COMMANDS.get(phase)
    if text is None:
        return ""
    return text.get(lang)


def render(view: Mapping[str, Any], lang: str) -> str:
    c = content()

    def T(text: Text) -> str:
        return text.get(lang)

    def face(f: str) -> str:
        return c.face_text(f).get(lang)

    names: list[str] = view["players"]
    lines: list[str] = []
    if view["result"]:
        lines.append(T(tr("GAME OVER: ")) + (text_of(view["reason"], lang) if view["reason"] else ""))
    phase_text = {
        CHOOSE: T(tr("everyone chooses a Grizzled")),
        INTENSITY: T(tr("the Leader chooses the Intensity")),
        TURN: T(tr("turns")),
        SPEECH: T(tr("answering a speech")),
        CHRISTMAS: T(tr("Merry Christmas")),
        SUPPORT: T(tr("support")),
        OVER: T(tr("over")),
    }.get(view["phase"], view["phase"])
    lines.append(T(tr("Mission {view} — {phase_text}.", view=view['mission'], phase_text=phase_text)))
    lines.append(T(tr("Trials pile: {view} cards. Morale Reserve: {view2} cards. Speech tokens in supply: {view3}.", view=view['trials'], view2=view['reserve'], view3=view['speech_supply'])))
    nml = ", ".join(face(f) for f in view["nml"]) or T(tr("empty"))
    lines.append(T(tr("No Man's Land: {nml}.", nml=nml)))
    counts = [f"{c.threat_name(t).get(lang)} {n}" for t, n in view["threat_counts"].items() if n]
    if counts:
        lines.append(T(tr("Threat counts (3 fails the mission): ")) + ", ".join(counts) + ".")
    lines.append("")
    for p, pname in enumerate(names):
        g = view["grizzled"][p]
        marks = []
        if p == view["leader"]:
            marks.append(T(tr("Leader")))
        if view["turn"] == p or p in view["to_act"]:
            marks.append(T(tr("to act")))
        if view["withdrawn"][p] and view["phase"] in (TURN, SPEECH, CHRISTMAS):
            marks.append(T(tr("withdrawn")) + (T(tr(", tile placed")) if view["placed"][p] else ""))
        if g is None:
            who, charm = T(tr("(choosing a Grizzled)")), "—"
        else:
            who = g["name"]
            charm = c.threat_name(g["charm"]).get(lang) + ("" if g["charm_ready"] else T(tr(" (used)")))
        knocks = ", ".join(face(f) for f in view["knocks"][p]) or "—"
        lines.append(f"{pname} — {who} [{'; '.join(marks)}]" if marks else f"{pname} — {who}")
        lines.append(T(tr("  charm: {charm}; cards in hand: {view}; Support tiles: {view2}; Speech tokens: {view3}", charm=charm, view=view['hand_sizes'][p], view2=view['tile_counts'][p], view3=view['speech_held'][p])))
        weight = view["weights"][p]
        if view["knocks"][p]:
            lines.append(T(tr("  Hard Knocks (weight {weight}, 4 loses): {knocks}", weight=weight, knocks=knocks)))
    helps = _help_lines(view, lang)
    if helps:
        lines.append("")
        lines.extend(f"* {line}" for line in helps)
    why = _withdraw_line(view, lang)
    if why:
        lines.append("")
        lines.append(why)
    if view["choosing"]:
        ch = view["choosing"]
        free = ", ".join(f"{g['name']} ({c.threat_name(g['charm']).get(lang)})" for g in ch["free"])
        first = ", ".join(names[p] for p in ch["first"])
        waiting = ", ".join(names[p] for p in ch["waiting"]) or "—"
        lines.append("")
        lines.append(T(tr("Grizzled still free: {free}.", free=free)))
        lines.append(words.CHARM_RULE.get(lang))
        lines.append(T(tr("Each of you secretly chooses one (`choose felix`, or by the lucky charm: `choose night`) and may change it until everyone has chosen. If two ask for the same Grizzled, the one first in turn order from the Leader keeps it ({first}) and the other chooses again.", first=first)))
        lines.append(T(tr("Waiting for: {waiting}.", waiting=waiting)))
    if view["intensity"]:
        lo, hi = view["intensity"]["min"], view["intensity"]["max"]
        lines.append("")
        lines.append(T(tr("{names} chooses an Intensity from {lo} to {hi}; {hi} deals the whole Trials pile.", names=names[view['leader']], lo=lo, hi=hi))
                     if lo < hi else
                     T(tr("{names} sets Intensity {lo}, the only one possible.", names=names[view['leader']], lo=lo)))
    if view["speech"]:
        sp = view["speech"]
        waiting = ", ".join(names[p] for p in sp["waiting"]) or "—"
        lines.append("")
        lines.append(T(tr("{names} gave a speech about {threat_name}; waiting for: {waiting}.", names=names[sp['speaker']], threat_name=c.threat_name(sp['threat']), waiting=waiting)))
    if view["you"] is not None:
        lines.append("")
        hand = view["hand"] or []
        g = view["grizzled"][view["you"]]
        if g is not None and view.get("charm_usable"):
            ch = next(x for x in content().characters if x.name == g["name"])
            what = words.charm_effect(ch)
            lines.append(tr("Your {what} (`charm`).", what=what).get(lang))
        if view.get("speech_usable"):
            lines.append(words.SPEECH.get(lang))
        lines.append(T(tr("Your hand (play N plays card N):")))
        lines.extend(f"  {i}. {face(f)}" for i, f in enumerate(hand, 1))
        if not hand:
            lines.append(T(tr("  (empty)")))
        tiles = ", ".join(_tile_name(t, lang) for t in view["tiles"] or []) or "—"
        lines.append(T(tr("Your Support tiles: {tiles}.", tiles=tiles)))
        if view["my_placed"]:
            lines.append(T(tr("You placed face down: {tile_name}.", tile_name=_tile_name(view['my_placed'], lang))))
        if view["my_pick"]:
            lines.append(T(tr("You asked for: {view} (you may change it until everyone has chosen).", view=view['my_pick'])))
        if view["my_answer"] is not None:
            ans = face(view["my_answer"]) if view["my_answer"] else T(tr("keep"))
            lines.append(T(tr("Your answer to the speech: {ans} (you may change it).", ans=ans)))
    commands = _commands_line(view["phase"], lang)
    if commands:
        lines.append("")
        lines.append(commands)
    return "\n".join(lines)

