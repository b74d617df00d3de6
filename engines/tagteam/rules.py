"""The game's flow: team building, setup, Fight!, Build!, Instant Bonuses and the end.

Every function here works on a state the caller has already cloned, and returns the
events to show. Each OPEN resolution of the digest lives in exactly one named place:
- TT-11 (clashing free choices fall back to a Standard draft): ``resolve_free``;
- TT-19 (secret simultaneous setup order): ``resolve_setup``;
- TT-24 (revealed cards keep their order): ``run_fight`` never touches deck order;
- TT-32 (decks of unequal length): ``run_fight``;
- TT-75/TT-76 (simultaneous builds; a short Build Deck ends the game first): ``start_build``;
- TT-79 (Instant Bonuses as one step after both builds): ``resolve_builds``;
- TT-81/TT-83 (double KO, checks at the end of the Turn): ``check_ko``;
the Turn itself (TT-29..TT-31, TT-47, TT-59..TT-62) lives in ``fight.Resolver``; ``cancel_text``
says what each Cancel reverted and skipped (TT-62).
"""

from __future__ import annotations

from engines.contract import Event, Text, tr
from engines.i18n import each_lang
from engines.rng import Rng
from engines.tagteam.content import Content
from engines.tagteam.fight import CancelNote, Resolver, Step, TurnReport, Undone
from engines.tagteam.state import FighterState, TTState
from engines.tagteam.words import (
    as_sentence,
    instant_text,
    join_texts,
    side_name,
    special_name,
    step_text,
    token_name,
)

DRAFT_MODES = ("standard", "competitive", "free", "random", "first_game")
SIMULTANEOUS = ("draft1", "draft2", "free", "setup", "build")


def begin(s: TTState, phase: str) -> None:
    """A new simultaneous step: everyone owes a choice, menus of the old step are outdated."""
    s.phase = phase
    s.pending = [None, None]
    s.step_version = s.version


def deal_draft(content: Content, s: TTState) -> list[Event]:
    """TT-6: shuffle the 12 Draft cards, 6 face down to each player."""
    rng = Rng(s.rng)
    ids = sorted(content.fighters)
    rng.shuffle(ids)
    s.rng = rng.state
    s.hands = [sorted(ids[:6]), sorted(ids[6:12])]
    s.picks = [[], []]
    s.discards = [[], []]
    begin(s, "draft1")
    return [Event(tr("The Draft cards are dealt: 6 to each player."))]


def fighter_name(content: Content, fid: str) -> str:
    f = content.fighters.get(fid)
    return f.name if f is not None else fid


def resolve_draft1(content: Content, s: TTState) -> list[Event]:
    """TT-7/TT-8: reveal the first picks, drop the discards, pass the rest to the opponent."""
    rest: list[list[str]] = [[], []]
    for seat in (0, 1):
        choice = s.pending[seat]
        assert choice is not None
        pick = str(choice[1])
        s.picks[seat].append(pick)
        if choice[0] == "pick_discard":
            s.discards[seat].append(str(choice[2]))
        rest[seat] = [f for f in s.hands[seat] if f != pick and f not in s.discards[seat]]
    s.hands = [rest[1], rest[0]]
    begin(s, "draft2")
    picked = ", ".join(f"{s.players[i]}: {fighter_name(content, s.picks[i][0])}" for i in (0, 1))
    return [Event(tr("First picks revealed — {picked}. The other cards are passed.", picked=picked))]


def resolve_draft2(content: Content, s: TTState) -> list[Event]:
    for seat in (0, 1):
        choice = s.pending[seat]
        assert choice is not None
        s.picks[seat].append(str(choice[1]))
    picked = ", ".join(f"{s.players[i]}: {fighter_name(content, s.picks[i][1])}" for i in (0, 1))
    events = [Event(tr("Second picks revealed — {picked}.", picked=picked))]
    return events + form_teams(content, s, [list(s.picks[0]), list(s.picks[1])])


def resolve_free(content: Content, s: TTState) -> list[Event]:
    """TT-9/TT-11: free choices stand unless they clash; a clash falls back to a Standard draft."""
    teams = []
    for seat in (0, 1):
        choice = s.pending[seat]
        assert choice is not None
        teams.append([str(choice[1]), str(choice[2])])
    if set(teams[0]) & set(teams[1]):
        s.fallback = True
        s.draft = "standard"
        names = ", ".join(fighter_name(content, f) for f in sorted(set(teams[0]) & set(teams[1])))
        return [Event(tr("Both players chose {names}: each fighter exists once, so a Standard draft decides.", names=names)), *deal_draft(content, s)]
    return form_teams(content, s, teams)


def new_fighter(content: Content, fid: str) -> FighterState:
    """TT-12..TT-15: first side up, marker on Start, Base Power cubes, special setup."""
    f = content.fighters[fid]
    side = f.sides[0]
    tokens = {t.id: t.start for t in f.tokens if t.start}
    return FighterState(fid, side.id, side.start, f.base_power, f.special_start, tokens)


def form_teams(content: Content, s: TTState, teams: list[list[str]]) -> list[Event]:
    """TT-10, TT-16, TT-18: boards out, Starting cards aside, the other 18 shuffled as the Build Deck."""
    rng = Rng(s.rng)
    s.teams = [[new_fighter(content, fid) for fid in team] for team in teams]
    s.picks = [list(t) for t in teams]
    s.hands = [[], []]
    for seat in (0, 1):
        deck = [cid for fid in teams[seat] for cid in content.fighter_deck(fid)[1:]]
        rng.shuffle(deck)
        s.build[seat] = deck
        s.fight[seat] = []
    s.rng = rng.state
    begin(s, "setup")
    shown = "; ".join(f"{s.players[i]}: {' + '.join(fighter_name(content, f) for f in teams[i])}" for i in (0, 1))
    return [Event(tr("Teams — {shown}. Each player now secretly orders their 2 Starting cards.", shown=shown))]


def resolve_setup(content: Content, s: TTState) -> list[Event]:
    """TT-17/TT-19: both Starting-card orders, chosen in secret, become the Fight Decks."""
    for seat in (0, 1):
        choice = s.pending[seat]
        assert choice is not None
        order = [int(choice[1]), int(choice[2])]
        s.fight[seat] = [content.fighters[s.teams[seat][i - 1].id].starting_card.id for i in order]
    s.round = 1
    s.pending = [None, None]
    events = [Event(tr("Both Fight Decks are ready. Fight!"))]
    return events + play_round(content, s)


def play_round(content: Content, s: TTState) -> list[Event]:
    events = run_fight(content, s)
    if s.result is None:
        events += start_build(s)
    return events


def card_label(content: Content, cid: str) -> str:
    card = content.cards.get(cid)
    if card is None:
        return cid
    return f"{fighter_name(content, card.fighter)} «{card.name}»"


def fighter_index(s: TTState, seat: int, fid: str) -> int:
    for i, f in enumerate(s.teams[seat]):
        if f.id == fid:
            return i
    raise ValueError(f"card of {fid} in the deck of a team without {fid}")


def run_fight(content: Content, s: TTState) -> list[Event]:
    """TT-23/TT-26/TT-32: Turns until both decks are played; a shorter deck reveals nothing."""
    events: list[Event] = []
    s.last_fight = []
    turns = max(len(s.fight[0]), len(s.fight[1]))
    for k in range(turns):
        cids = [s.fight[t][k] if k < len(s.fight[t]) else None for t in (0, 1)]
        cards = [content.cards[c] if c is not None else None for c in cids]
        tags = []
        for t in (0, 1):
            card = cards[t]
            if card is not None:
                was = s.active[t]
                s.active[t] = fighter_index(s, t, card.fighter)  # TT-33, TT-37
                if (k or s.round > 1) and s.active[t] != was:
                    tags.append(Step("tag", (t, s.active[t])))
        report = Resolver(content, s.teams, s.active, cards, record=True).run_turn()
        after = [[f.hp for f in team] for team in s.teams]
        report.steps[:0] = tags
        report.steps += [Step("ko", (t, i)) for t in (0, 1) for i in (0, 1) if after[t][i] == 0]
        s.last_fight.append([cids[0], cids[1], list(s.active), after, list(report.cancelled)])
        events.append(turn_event(content, s, k + 1, cids, report))
        if check_ko(content, s):
            events.append(end_event(s))
            return events
    return events


def turn_event(content: Content, s: TTState, turn: int, cids: list[str | None], report: TurnReport) -> Event:
    """One Turn as one paragraph: who revealed what, then each step in order (the HP each step
    moved is in its own sentence, so no summary line repeats it)."""
    shown: list[Text] = []
    for t in (0, 1):
        cid = cids[t]
        player = s.players[t]
        if cid is None:
            shown.append(tr("{player} has no card left", player=player))
        elif report.cancelled[t]:
            label = card_label(content, cid)
            shown.append(tr("{player} reveals {label} (cancelled)", player=player, label=label))
        else:
            label = card_label(content, cid)
            shown.append(tr("{player} reveals {label}", player=player, label=label))
    revealed = each_lang(join_texts, shown, ", ", "")
    steps = [step_lines(content, s, step) for step in report.steps if not is_revert(step)]
    if not steps:
        return Event(tr("Round {round}, Turn {turn}: {revealed}. Nothing changes.", round=s.round, turn=turn, revealed=revealed))
    # a Turn is one paragraph: the reveal, then each step as a sentence, in order
    log = each_lang(join_texts, steps, " ", "")
    return Event(tr("Round {round}, Turn {turn}: {revealed}. {log}", round=s.round, turn=turn, revealed=revealed, log=log))


def is_revert(step: Step) -> bool:
    """A marker a Cancel handed back: the Cancel's own line already says it (``... HP -3 (to 12)``)."""
    return step.kind == "hp" and any(verb == "cancel" for verb, _, _ in step.causes)


def step_lines(content: Content, s: TTState, step: Step) -> Text:
    """One line of the Turn log (issue 15): a Cancel and a tag here, every other step in ``words``."""
    if step.kind == "cancel":
        assert step.note is not None
        return as_sentence(cancel_text(content, s, step.note))
    name = fighter_name(content, s.teams[step.ref[0]][step.ref[1]].id)
    if step.kind == "tag":
        player = s.players[step.ref[0]]
        return tr("{player} tags in {name}.", player=player, name=name)
    ids = [[f.id for f in team] for team in s.teams]
    return step_text(content, ids, step)


def cancel_text(content: Content, s: TTState, note: CancelNote) -> Text:
    """TT-62: one sentence per Cancel that fired — what it reverted and what it skipped, or why nothing."""
    owner = fighter_name(content, s.teams[note.track[0]][note.track[1]].id)
    player = s.players[note.team]
    if note.state == "no_card":
        return tr("{owner}'s Cancel finds no card of {player}: nothing to cancel", owner=owner, player=player)
    if note.state == "already":
        return tr("{owner}'s Cancel: {player}'s card is already cancelled, nothing more to revert or skip", owner=owner, player=player)
    if not note.undone and not note.skipped:
        return tr("{owner}'s Cancel ignores {player}'s card: nothing to revert or skip", owner=owner, player=player)
    parts: list[Text] = []
    if note.undone:
        items = each_lang(join_texts, [undone_text(content, s, u) for u in note.undone], ", ", "")
        parts.append(tr("reverted {items}", items=items))
    if note.skipped:
        fid = s.teams[note.team][s.active[note.team]].id  # the cancelled card's fighter
        skipped = instant_text(content, fid, tuple(note.skipped))
        parts.append(tr("skipped: {skipped}", skipped=skipped))
    done = each_lang(join_texts, parts, "; ", "")
    return tr("{owner}'s Cancel ignores {player}'s card: {done}", owner=owner, player=player, done=done)


def undone_text(content: Content, s: TTState, u: Undone) -> Text:
    """``Bödvar HP -2 (to 14)``: the card's change that was reverted, and the value right after the
    revert (later steps of the Turn may move it again)."""
    f = s.teams[u.ref[0]][u.ref[1]]
    fighter = content.fighters[f.id]
    name = fighter.name
    if u.what == "side":
        was, now = side_name(fighter.side(u.was)), side_name(fighter.side(str(u.now)))
        return tr("{name}'s flip to {was} (back on {now})", name=name, was=was, now=now)
    if u.what.startswith("token:"):
        token = token_name(content.tokens[u.what[6:]])
        label = tr("{name} {token}", name=name, token=token)
    elif u.what == "hp":
        label = tr("{name} HP", name=name)
    elif u.what == "power":
        label = tr("{name} Power", name=name)
    elif u.what == "special":
        special = special_name(fighter)
        label = tr("{name} {special}", name=name, special=special)
    else:
        raise KeyError(u.what)
    return tr("{label} {change:+d} (to {now})", label=label, change=u.change, now=u.now)


def check_ko(content: Content, s: TTState) -> bool:
    """TT-80/TT-81/TT-83: checked only once everything of the Turn has resolved."""
    ko = [any(f.hp == 0 for f in team) for team in s.teams]
    if not any(ko):
        return False
    out = [fighter_name(content, f.id) for team in s.teams for f in team if f.hp == 0]
    names = ", ".join(out)
    if all(ko):
        finish(s, [], tr("double KO ({names}): a draw", names=names))
    else:
        winner = 0 if ko[1] else 1
        finish(s, [winner], tr("{names} knocked out", names=names))
    return True


def finish(s: TTState, winners: list[int], reason: Text) -> None:
    s.result = {"winners": winners, "draw": not winners, "reason": reason.to_json()}
    s.phase = "over"
    s.pending = [None, None]
    s.draw = [[], []]


def end_event(s: TTState) -> Event:
    assert s.result is not None
    reason = s.result["reason"]
    if s.result["draw"]:
        return Event(tr("Game over: {reason}.", reason=reason))
    w = s.players[s.result["winners"][0]]
    return Event(tr("Game over: {reason}. {w} wins!", reason=reason, w=w))


def start_build(s: TTState) -> list[Event]:
    """TT-70/TT-74/TT-76: both draw 3, unless either Build Deck is short (then a draw, nobody adds)."""
    if any(len(deck) < 3 for deck in s.build):
        finish(s, [], tr("a Build Deck is depleted: a draw"))
        return [end_event(s)]
    for seat in (0, 1):
        s.draw[seat] = s.build[seat][:3]
        s.build[seat] = s.build[seat][3:]
    begin(s, "build")
    return [Event(tr("Build! step of Round {round}: each player draws 3 cards and secretly adds one.", round=s.round))]


def resolve_builds(content: Content, s: TTState) -> list[Event]:
    """TT-71..TT-73, TT-78/TT-79: add, bottom the rest, then both Instant Bonuses at once."""
    events: list[Event] = []
    bonus = []
    s.bonuses = [[], []]
    for seat in (0, 1):
        choice = s.pending[seat]
        assert choice is not None
        pick, pos, first, second = (int(x) for x in choice[1:5])
        drawn = s.draw[seat]
        cid = drawn[pick - 1]
        s.fight[seat].insert(pos, cid)
        s.build[seat] += [drawn[first - 1], drawn[second - 1]]
        s.draw[seat] = []
        events.append(Event(tr("You added {card_label} at position {value} of {n}; bottom of your Build Deck: {card_label2}, then {card_label3}.", card_label=card_label(content, cid), value=pos + 1, n=len(s.fight[seat]), card_label2=card_label(content, drawn[first - 1]), card_label3=card_label(content, drawn[second - 1])), frozenset({seat})))
        events.append(Event(tr("{players} added a card: Fight Deck now {n} cards.", players=s.players[seat], n=len(s.fight[seat])),
                            frozenset({1 - seat})))  # the other player's twin of the line above
        card = content.cards[cid]
        if card.instant:
            idx = fighter_index(s, seat, card.fighter)
            bonus.append((seat, idx, card.instant))
            s.bonuses[seat] = [fighter_name(content, card.fighter), *(a.source for a in card.instant)]
            said = instant_text(content, card.fighter, card.instant)
            player, fighter = s.players[seat], fighter_name(content, card.fighter)
            events.append(Event(tr("Instant Bonus for {player}'s {fighter}: {said}.", player=player, fighter=fighter, said=said)))
    s.pending = [None, None]
    if bonus:
        Resolver(content, s.teams, s.active, [None, None]).run_bonus(bonus)
        if check_ko(content, s):
            return [*events, end_event(s)]
    s.round += 1
    return events + play_round(content, s)


def reset_decks(content: Content, s: TTState) -> dict[str, list[str]]:
    """TT-85: every Fight card back into its fighter's deck, the Starting card on top."""
    every = [c for seat in (0, 1) for c in s.fight[seat] + s.build[seat] + s.draw[seat]]
    decks: dict[str, list[str]] = {}
    for team in s.teams:
        for f in team:
            start = content.fighters[f.id].starting_card.id
            mine = sorted(c for c in every if content.cards[c].fighter == f.id and c != start)
            decks[f.id] = [start, *mine] if start in every else mine
    return decks
