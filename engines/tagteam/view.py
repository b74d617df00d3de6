"""Per-seat views (TT-75) and their plain-text rendering for mail bodies.

A seat sees both boards, every card the Fights revealed and the announced Instant Bonuses;
of its own secrets it sees its draft hand, Fight-Deck order, drawn cards and pending choice.
Of the opponent it sees only sizes. The view holds ids and numbers, no words: ``render``
writes it in the reader's language from the view and the public content (card, token and
track texts come from ``words``, i.e. from the catalogs), so a mail can never show more than
the view holds and a language needs no code.

Why the mail is short (issue 15: a turn mail fits two phone screens): the Turn log of the
"since your last mail" digest tells what happened in the last Fight, so the board shows only
the position, the cards the reader decides about (own Fight Deck, drawn cards) and the
opponent's cards seen so far, each once; the track legend only until the first Fight.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.contract import Action, text_of, tr
from engines.i18n import each_lang
from engines.tagteam import words
from engines.tagteam.commands import format_action, label
from engines.tagteam.content import Content, ContentError, parse_act
from engines.tagteam.state import TTState
from engines.tagteam.words import ICON_LEGEND, sentence


def card_view(content: Content, cid: str) -> dict[str, Any]:
    card = content.cards.get(cid)
    if card is None:
        return {"id": cid, "name": cid, "fighter": ""}
    return {"id": cid, "name": card.name, "fighter": content.fighters[card.fighter].name}


def fighter_summary(content: Content, fid: str) -> dict[str, Any]:
    """What a drafting player needs to know of a fighter: power, track and the 10 cards."""
    f = content.fighters.get(fid)
    if f is None:
        return {"id": fid, "name": fid, "power": 0, "hp": "", "cards": []}
    side = f.sides[0]
    return {"id": fid, "name": f.name, "power": f.base_power, "hp": f"{side.start}/{side.max_hp}",
            "cards": [c.id for c in f.cards]}


def _token_names(content: Content, held: Mapping[str, int]) -> dict[str, dict[str, str]]:
    """Token names per language, for the board picture (which reads the view alone)."""
    return {k: each_lang(_named, words.token_name(content.tokens[k])) for k in sorted(held) if k in content.tokens}


def _named(text: Any, lang: str) -> str:
    return str(text.get(lang))


def board_view(content: Content, s: TTState) -> list[list[dict[str, Any]]]:
    out = []
    for team in s.teams:
        rows = []
        for f in team:
            fighter = content.fighters[f.id]
            side = fighter.side(f.side)
            rows.append({
                "id": f.id, "name": fighter.name, "side": side.id, "hp": f.hp, "max": side.max_hp,
                "start": side.start, "power": f.power, "special": f.special, "special_name": fighter.special_name,
                "special_max": fighter.special_max, "tokens": dict(sorted(f.tokens.items())),
                "token_names": _token_names(content, f.tokens),
                "track": {str(k): list(v) for k, v in sorted(side.icons.items(), reverse=True)},
            })
        out.append(rows)
    return out


def build_view(content: Content, s: TTState, seat: int | None) -> dict[str, Any]:
    mine = seat is not None
    view: dict[str, Any] = {
        "game": "tagteam", "you": seat, "players": list(s.players), "phase": s.phase, "round": s.round,
        "draft": s.draft, "fallback": s.fallback, "picks": [list(p) for p in s.picks],
        "teams": board_view(content, s),
        "fight_sizes": [len(d) for d in s.fight], "build_sizes": [len(d) for d in s.build],
        "chosen": [p is not None for p in s.pending],
        "last_fight": [
            {"cards": [card_view(content, c) if c else None for c in turn[0:2]], "hp": turn[3],
             "cancelled": turn[4]}
            for turn in s.last_fight
        ],
        "bonuses": [list(b) for b in s.bonuses],
        "result": s.result,
        "hand": [], "discards": [], "fight_deck": [], "draw": [], "my_choice": None, "starting": [],
    }
    if mine:
        assert seat is not None
        view["hand"] = [fighter_summary(content, h) for h in s.hands[seat]]
        if s.phase == "free":
            view["hand"] = [fighter_summary(content, fid) for fid in sorted(content.fighters)]
        view["discards"] = list(s.discards[seat])
        view["fight_deck"] = [card_view(content, c) for c in s.fight[seat]]
        view["draw"] = [card_view(content, c) for c in s.draw[seat]]
        if s.phase == "setup":  # the order is chosen knowing what each Starting card does
            view["starting"] = [card_view(content, content.fighters[f.id].starting_card.id) for f in s.teams[seat]]
        pending = s.pending[seat]
        view["my_choice"] = None if pending is None else choice_words(content, s, seat, Action.from_json(pending))
    return view


def choice_words(content: Content, s: TTState, seat: int, action: Action) -> dict[str, Any]:
    """The seat's recorded secret choice in words (the menu label), else as a command.

    Why the fallback: a stored choice is data; one that no longer fits the position (or the
    conformance suite's planted markers) must still show, never crash the mail."""
    try:
        return label(content, s, seat, action).to_json()
    except (ValueError, IndexError, KeyError):
        return tr("{command}", command=format_action(action)).to_json()


def bonus_words(content: Content, bonus: list[str], lang: str) -> str:
    """An announced Instant Bonus (``[fighter name, action, ...]`` in the state) in words."""
    if not bonus:
        return ""
    name, sources = bonus[0], bonus[1:]
    fid = next((f.id for f in content.fighters.values() if f.name == name), "")
    try:
        acts = tuple(parse_act(src, "bonus") for src in sources)
        said = words.instant_text(content, fid, acts)
        return said if isinstance(said, str) else said.get(lang)
    except (ContentError, KeyError, ValueError):
        return name


# ---------------------------------------------------------------------------
# rendering

L = {
    "power": tr("Power"),
    "hp": tr("HP"),
    "deck": tr("Your Fight Deck (top first)"),
    "draw": tr("You drew"),
    "sizes": tr("Fight Decks"),
    "build": tr("Build Decks"),
    "hand": tr("Fighters you may choose"),
    "choice": tr("Your choice so far"),
    "waiting": tr("waiting for"),
    "bonus": tr("Instant Bonuses announced"),
    "starting": tr("Your Starting cards (`order 1 2` plays card 1 first)"),
}
PHASES = {
    "draft1": tr("Draft: first pick"),
    "draft2": tr("Draft: second pick"),
    "free": tr("Free choice of 2 fighters"),
    "setup": tr("Setup: order your Starting cards"),
    "build": tr("Build!"),
}
HELP = {
    "draft1": tr("Write `pick NAME` (competitive draft: `pick NAME discard NAME`)."),
    "draft2": tr("Write `pick NAME`."),
    "free": tr("Write `pick NAME NAME`."),
    "setup": tr("Write `order 1 2` or `order 2 1`: which Starting card your Fight Deck plays first."),
    "build": tr("Write `add CARD WHERE`: CARD is 1-3; WHERE is `top`, `bottom`, `after N` or `before N` (N = a card of your Fight Deck). Add `bottom X Y` for the order in which the other two go under your Build Deck."),
}


def _t(key: str, lang: str) -> str:
    return L[key][lang]


def _track(content: Content, f: Mapping[str, Any], lang: str) -> str:
    """What each icon space of a fighter's board does, top first: ``13: Bödvar gains 1 Rage; 10: Stop``."""
    fighter = content.fighters.get(str(f.get("id")))
    if fighter is None:
        return ""
    marks = []
    for space, icons in f.get("track", {}).items():
        said = [words.icon_text(content, fighter, icon) for icon in icons]
        marks.append(f"{space}: " + " + ".join(x if isinstance(x, str) else x.get(lang) for x in said))
    return "; ".join(marks)


def _card_line(content: Content, c: Mapping[str, Any], lang: str) -> str:
    """``Bass Reeves «Badge of the Marshal» — Give your opponent the Sheriff token, then ...``."""
    card = content.cards.get(str(c["id"]))
    if card is None:
        return f"«{c['name']}»"
    return f"{c['fighter']} «{c['name']}» — {words.card_text(content, card, lang)}"


def _heading(round_no: int, phase: str, lang: str) -> str:
    """``Tag Team — Round 3 — Build!`` (no "Round 0" while drafting). "Game over" is worded in
    whole headings: alone it is another sentence of the catalog, translated otherwise."""
    if phase == "over":
        if round_no:
            return tr("Tag Team — Round {round_no} — Game over", round_no=round_no)[lang]
        return tr("Tag Team — Game over")[lang]
    step = PHASES[phase][lang] if phase in PHASES else phase
    if round_no:
        return tr("Tag Team — Round {round_no} — {step}", round_no=round_no, step=step)[lang]
    return f"Tag Team — {step}"


def _fighter_line(content: Content, seat_name: str, f: Mapping[str, Any], lang: str) -> list[str]:
    """One line per fighter on a board (its flip rule under it when it can flip)."""
    fighter = content.fighters.get(str(f["id"]))
    extra = ""
    if f["special_max"] and fighter is not None:
        extra += f", {words.special_name(fighter)[lang]} {f['special']}/{f['special_max']}"
    for k, n in f["tokens"].items():
        token = words.token_name(content.tokens[k])[lang] if k in content.tokens else k
        extra += ", " + tr("{n}× {token}", n=n, token=token)[lang]
    board = None
    if fighter is not None and f["side"] in {x.id for x in fighter.sides}:
        board = fighter.side(str(f["side"]))
    track = _track(content, f, lang)
    if fighter is not None and board is not None and board.name != fighter.name:  # a flipped board
        head = tr("{fighter} on the {side} side ({player})", fighter=f["name"], side=words.side_name(board),
                  player=seat_name)[lang]
    else:
        head = tr("{fighter} ({player})", fighter=f["name"], player=seat_name)[lang]
    lines = [f"  {head}: {_t('hp', lang)} {f['hp']}/{f['max']}, {_t('power', lang)} {f['power']}{extra}"
             + (f" [{track}]" if track else "")]
    if fighter is not None and board is not None and board.flip_when is not None:
        lines.append(f"    {words.flip_text(content, fighter, board, lang)}")
    return lines


def _hand(content: Content, hand: list[Mapping[str, Any]], lang: str) -> list[str]:
    """The fighters a drafting player may choose, each with its board and its cards."""
    lines: list[str] = []  # under the heading, which says "Fighters you may choose"
    for h in hand:
        fighter = content.fighters.get(str(h["id"]))
        if fighter is None:
            lines.append(f"  {h['name']}")
            continue
        side = fighter.sides[0]
        start = tr("track {max_hp} max, start {start}", max_hp=side.max_hp, start=side.start)[lang]
        track = _track(content, {"id": fighter.id, "track": {str(k): list(v) for k, v in
                                                               sorted(side.icons.items(), reverse=True)}}, lang)
        special = (f", {words.special_name(fighter)[lang]} 0/{fighter.special_max}" if fighter.special_max else "")
        # the flip rule and the tokens on the fighter's own line: a draft mail lists 4-6 fighters
        more = [words.flip_text(content, fighter, side, lang)] if side.flip_when is not None else []
        for t in fighter.tokens:
            rule = f"{words.token_text(content, t, lang)} ({words.token_count_text(t, lang)})"
            more.append(tr("Token {token}: {rule}", token=words.token_name(t), rule=rule)[lang])
        lines.append(f"  {fighter.name} ({fighter.id}): {_t('power', lang)} {fighter.base_power}{special} "
                     f"[{start}; {track}]" + "".join(f" {m}" for m in more))
        # the fighter's cards grouped on one line (a draft mail lists up to 6 fighters of 6 cards)
        cards = [f"{'★ ' if card.starting else ''}«{card.name}» ×{card.frequency}: {words.card_text(content, card, lang)}"
                 for card in fighter.cards]
        lines.append("    " + " · ".join(cards))
    return lines


def _seen(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The opponent's cards revealed in the last Fight, each once, in the order they came."""
    you = view.get("you")
    if you is None:
        return []
    out: dict[str, Mapping[str, Any]] = {}
    for turn in view["last_fight"]:
        c = turn["cards"][1 - you]
        if c:
            out.setdefault(str(c["id"]), c)
    return list(out.values())


def render(content: Content, view: Mapping[str, Any], lang: str) -> str:
    names = view["players"]
    heading = _heading(view["round"], view["phase"], lang)
    lines = [f"{heading} — {_t('hand', lang)}:" if view["hand"] else heading]
    if view["result"]:
        reason = text_of(view["result"]["reason"], lang)
        winners = ", ".join(names[w] for w in view["result"]["winners"]) or tr("draw")[lang]
        lines.append(tr("Game over: {reason} — {winners}", reason=reason, winners=winners)[lang])
    held: dict[str, int] = {}
    for seat, team in enumerate(view["teams"]):
        for f in team:
            lines += _fighter_line(content, names[seat], f, lang)
            held.update(f["tokens"])
    if any(view["teams"]) and view["round"] <= 1:  # until the first Fight is over; the rules summary says it too
        lines.append(ICON_LEGEND[lang])
    for k in held:
        if k in content.tokens:
            t = content.tokens[k]
            rule = words.token_text(content, t, lang)
            lines.append(tr("Token {token}: {rule}", token=words.token_name(t), rule=rule)[lang])
    if any(view["fight_sizes"]):
        lines.append(f"{_t('sizes', lang)}: " + ", ".join(f"{n} {k}" for n, k in zip(names, view["fight_sizes"], strict=True))
                     + f"; {_t('build', lang)}: " + ", ".join(f"{n} {k}" for n, k in zip(names, view["build_sizes"], strict=True)))
    if view["hand"]:
        lines += _hand(content, view["hand"], lang)
    for key, cards in (("deck", view["fight_deck"]), ("starting", view.get("starting") or []), ("draw", view["draw"])):
        if cards:
            lines.append(f"{_t(key, lang)}:")
            lines += [f"  #{i} {_card_line(content, c, lang)}" for i, c in enumerate(cards, 1)]
    seen = _seen(view)
    if seen and view["phase"] != "over":
        other = names[1 - view["you"]]
        lines.append(tr("{player}'s cards in the last Fight:", player=other)[lang])
        lines += [f"  {_card_line(content, c, lang)}" for c in seen]
    if view["my_choice"]:
        lines.append(f"{_t('choice', lang)}: {text_of(view['my_choice'], lang)}")
    said = [bonus_words(content, b, lang) for b in view.get("bonuses") or []]
    if any(said):
        lines.append(f"{_t('bonus', lang)}: " + "; ".join(
            f"{names[t]}: {sentence(b)}" for t, b in enumerate(said) if b))
    if view["phase"] in HELP and not (view["phase"] == "draft2" or (view["phase"] == "draft1" and view["draft"] != "competitive")):
        lines.append(HELP[view["phase"]][lang])  # a one-fighter pick: the menu lists every command already
    if view["phase"] in HELP:
        waiting = [names[i] for i, c in enumerate(view["chosen"]) if not c and i != view.get("you")]
        if waiting:
            lines.append(f"({_t('waiting', lang)}: {', '.join(waiting)})")
    return "\n".join(lines)
