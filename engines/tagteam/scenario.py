"""Test-only positions: made-up cards ("J:Attack") and boards set by hand.

The digest's scenario checks (S-1..S-20) speak of test cards and of the reference track RT
(TT-48); this module builds exactly those positions so rule tests read like the digest. It is
part of the engine package so the service's tests and the bench can use it too, but no game
ever reaches it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engines.tagteam.content import Card, Content, Side, load_content, parse_act, parse_segments
from engines.tagteam.rules import form_teams
from engines.tagteam.state import TTState

SHORT = {"J": "joan", "C": "ching_shih", "B": "bodvar", "W": "wong"}

RT = Side("rt", "RT", 16, 14, {10: ("stop",), 7: ("cancel",), 4: ("stop",)})


def rt_content(base: Content | None = None) -> Content:
    """The shipped content, with the 4 first-game fighters on track RT and no special icons."""
    content = base if base is not None else load_content()
    fighters = dict(content.fighters)
    for fid in SHORT.values():
        f = fighters[fid]
        first = replace(RT, id=f.sides[0].id, name=f.sides[0].name)
        fighters[fid] = replace(f, sides=(first, *f.sides[1:]))
    return replace(content, fighters=fighters)


_counter = [0]


def card(who: str, *lines: str, instant: Sequence[str] = ()) -> Card:
    """``card("J", "power +1", "then", "attack")``: a made-up card of fighter J, C, B or W (or an id)."""
    fid = SHORT.get(who, who)
    _counter[0] += 1
    cid = f"{fid}.test{_counter[0]}"
    where = f"test card {cid}"
    return Card(cid, fid, " ".join(lines), 1, False, parse_segments(list(lines), where),
                tuple(parse_act(a, where) for a in instant))


def position(
    content: Content,
    decks: Sequence[Sequence[Card]] = ((), ()),
    teams: Sequence[Sequence[str]] = (("joan", "ching_shih"), ("bodvar", "wong")),
    hp: Mapping[str, int] | None = None,
    power: Mapping[str, int] | None = None,
    seed: int = 1,
) -> tuple[Content, TTState]:
    """Both teams set up (TT-12..TT-18), Fight Decks replaced by ``decks``, boards adjusted.

    Returns the content extended with the made-up cards, and the state in phase ``build``
    with round 1 about to fight (call ``rules.run_fight``).
    """
    content = content.with_cards(c for deck in decks for c in deck)
    s = TTState(players=["P1", "P2"], draft="first_game", rng=seed, phase="")
    form_teams(content, s, [[SHORT.get(f, f) for f in team] for team in teams])
    s.fight = [[c.id for c in deck] for deck in decks]
    s.round = 1
    s.phase = "build"
    for team in s.teams:
        for f in team:
            short = next((k for k, v in SHORT.items() if v == f.id), f.id)
            if hp and (short in hp or f.id in hp):
                f.hp = hp.get(short, hp.get(f.id, f.hp))
            if power and (short in power or f.id in power):
                f.power = power.get(short, power.get(f.id, f.power))
    return content, s


def fighter(s: TTState, who: str) -> int:
    """HP of fighter J/C/B/W (or an id)."""
    fid = SHORT.get(who, who)
    return next(f.hp for team in s.teams for f in team if f.id == fid)


def power_of(s: TTState, who: str) -> int:
    fid = SHORT.get(who, who)
    return next(f.power for team in s.teams for f in team if f.id == fid)
