"""A new Tag Team game: how the teams are formed (TT-9..TT-13) from the draft option.

The first game's fixed teams and the random teams are formed at once; the free choice and the
drafts open their first secret step. The steps after that live in ``rules``.
"""

from __future__ import annotations

from engines.contract import Event, tr
from engines.rng import Rng
from engines.tagteam.content import Content
from engines.tagteam.rules import begin, deal_draft, form_teams
from engines.tagteam.state import TTState

FIRST_GAME: tuple[tuple[str, str], tuple[str, str]] = (("joan", "ching_shih"), ("bodvar", "wong"))


def new_state(content: Content, players: list[str], draft: str, seed: int) -> tuple[TTState, list[Event]]:
    s = TTState(players=list(players), draft=draft, rng=Rng(seed).state, phase="")
    if draft == "first_game":
        return s, form_teams(content, s, [list(FIRST_GAME[0]), list(FIRST_GAME[1])])
    if draft == "random":
        rng = Rng(s.rng)
        ids = sorted(content.fighters)
        rng.shuffle(ids)
        s.rng = rng.state
        return s, form_teams(content, s, [ids[:2], ids[2:4]])
    if draft == "free":
        begin(s, "free")
        return s, [Event(tr("Each player secretly chooses 2 fighters."))]
    return s, deal_draft(content, s)
