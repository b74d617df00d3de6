"""Whole leagues played by bots over the real local mail stack, the clock fast-forwarded:
sign-up, every move, a vacation, a member leaving, all by mail; the standings must equal an
independent recomputation from the stored games."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from service.leagues import season
from service.store.league_models import League, LeagueGame
from service.store.models import MoveLog

from .league_by_mail import play_season, recompute
from .world import World


@pytest.fixture
def world(mail_stack: Any, tmp_path: Path) -> Iterator[World]:
    w = World.create(mail_stack, tmp_path)
    yield w
    w.close()


def _standings(world: World, name: str) -> dict[int, float]:
    with world.service.session() as s:
        league = s.exec(select(League).where(League.name == name)).one()
        return {r.player_id: r.points for r in season.table(s, league)}


def _check(world: World, result: Any, *, vacation: tuple[int, int], leave: tuple[int, int]) -> dict[str, int]:
    """The season's facts; returns how its games ended (``LeagueGame.settled`` counts)."""
    name = result.league
    assert _standings(world, name) == pytest.approx(recompute(world, name))
    with world.service.session() as s:
        league = s.exec(select(League).where(League.name == name)).one()
        assert league.status == "finished"
        members = {p.address: (m, p) for m, p in season.members(s, league, active_only=False)}
        games = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all()
        by_mail = [lg for lg in games if s.exec(select(MoveLog).where(
            MoveLog.game_id == lg.game_id, col(MoveLog.inbound_id).is_not(None))).first() is not None]
        kept = [lg for lg in games if lg.settled != "dropped"]  # a leaver may go before the first move
        assert {lg.id for lg in kept} <= {lg.id for lg in by_mail}, "every game was played by mail (players' replies)"
        ended = Counter(lg.settled for lg in games)
    assert result.away_seen, "the vacation mail was taken"
    away_id = members[result.addresses[vacation[0]]][1].id
    gone, gone_player = members[result.addresses[leave[0]]]
    assert all(away_id not in seats for seats in result.rounds[vacation[1] - 1]), "away for that round"
    assert len(result.rounds) == vacation[1] or any(away_id in seats for seats in result.rounds[vacation[1]]), \
        "back for the next"
    assert gone.status == "dropped" and gone.dropped_round == leave[1]
    assert all(gone_player.id not in seats for r in result.rounds[leave[1]:] for seats in r), "no games after leaving"
    for address, (member, player) in members.items():
        mails = result.league_mails[address]
        vi = player.lang == "vi"
        final = [t for t in mails if ("Bảng xếp hạng chung cuộc" if vi else "Final standings") in t]
        if member.status == "active":
            assert len(final) == 1, f"{address}: the final standings"
            assert player.name in next(line for line in final[0].splitlines() if line.endswith("←"))
        summaries = [t for t in mails if ("Kết quả vòng" if vi else "Round ") in t]
        expected = len(result.rounds) if member.status == "active" else leave[1]
        assert len(summaries) >= expected, f"{address}: a summary after every round it played"
    if any(gone_player.id in seats for seats in result.rounds[leave[1] - 1]):  # (else they had the bye)
        assert ended["dropped"] >= 1, "the leaver's game was settled as their loss"
    return dict(ended)


def test_a_small_tag_team_league_by_mail(world: World) -> None:
    """The quick one: 4 players, round robin, 2 rounds; one away in round 2, another leaves in it."""
    started = time.monotonic()
    result = asyncio.run(play_season(world, "tagteam", 4, rounds=2, vacation=(1, 2), leave=(3, 2), steps_per_round=8))
    ended = _check(world, result, vacation=(1, 2), leave=(3, 2))
    assert len(result.rounds) == 2 and ended.get("played", 0) >= 1 and ended.get("dropped") == 1, ended
    assert time.monotonic() - started < 60


@pytest.mark.slow
def test_a_six_player_tag_team_round_robin_by_mail(world: World) -> None:
    result = asyncio.run(play_season(world, "tagteam", 6, rounds=5, vacation=(3, 2), leave=(4, 4)))
    ended = _check(world, result, vacation=(3, 2), leave=(4, 4))
    assert ended.get("played", 0) >= 5, f"most games end by their rules: {ended}"
    assert [len(r) for r in result.rounds][:1] == [3], "three games in round 1"


@pytest.mark.slow
def test_an_eight_player_tac_league_with_rotating_partners_by_mail(world: World) -> None:
    result = asyncio.run(play_season(world, "tac", 8, rounds=3, vacation=(5, 2), leave=(6, 3), steps_per_round=4))
    _check(world, result, vacation=(5, 2), leave=(6, 3))
    partners: Counter[frozenset[int]] = Counter()
    for r in result.rounds:
        for g in r:
            assert len(g) == 4, "tables of four"
            partners.update((frozenset((g[0], g[2])), frozenset((g[1], g[3]))))
    assert max(partners.values()) == 1, "nobody partners the same player twice"


@pytest.mark.slow
@pytest.mark.parametrize("engine_id", ["grizzled", "barcadia"])
def test_a_table_league_by_mail(engine_id: str, world: World) -> None:
    options = {"turn_limit": 60} if engine_id == "barcadia" else {}
    result = asyncio.run(play_season(world, engine_id, 7, rounds=3, vacation=(2, 2), leave=(3, 3),
                                     steps_per_round=6, **options))
    _check(world, result, vacation=(2, 2), leave=(3, 3))
    sizes = [sorted(len(g) for g in r) for r in result.rounds]
    assert sizes[0] == [3, 4], "seven players: a table of four and one of three"
    met = Counter(frozenset(p) for r in result.rounds for g in r for p in itertools.combinations(g, 2))
    assert len(met) > 9, "tables mix from round to round"
