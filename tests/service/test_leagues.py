"""Leagues: pairing formats, a whole season played by bots, standings recomputed independently.

The games are played by the engines' bots through the service's own record functions
(``load`` → ``engine.apply`` → ``log_move`` + ``save_state`` + ``queue_game_mails``, as the
deadline sweep plays a default move), with the manual clock moved on between rounds.
"""

from __future__ import annotations

import email
import email.policy
import itertools
import json
from collections import Counter, defaultdict
from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.leagues import pairing, season
from service.leagues import rounds as league_rounds
from service.leagues.season import LeagueError
from service.outbound.notify import queue_game_mails
from service.store.games import create_player, load, log_move, save_state
from service.store.league_models import League, LeagueGame
from service.store.models import Game, Outbox, Player

NAMES = ["Anh", "Bình", "Chi", "Dũng", "Em", "Phúc", "Giang", "Hà", "Linh", "Minh"]


def _ctx(settings: Settings, db: Engine) -> AppContext:
    return AppContext(settings=settings, db=db, clock=ManualClock())


def _play_out(s: Session, ctx: AppContext, game_id: int, moves: int = 10_000) -> None:
    """Bots play ``moves`` decisions of a game (the deadline sweep's way of moving)."""
    game = s.get_one(Game, game_id)
    engine, state = load(game)
    done = 0
    while game.status == "active" and engine.outcome(state) is None and done < moves:
        for seat in sorted(engine.to_act(state)):
            if engine.outcome(state) is not None or seat not in engine.to_act(state):
                continue
            action = engine.default_action(state, seat)
            state, events = engine.apply(state, seat, action)
            log_move(s, ctx, game, seat, "(bot)", action, events, engine.state_version(state))
            done += 1
        save_state(s, ctx, game, engine, state)
    queue_game_mails(s, ctx, game, engine, state, actor=None)


def _league(s: Session, ctx: AppContext, engine_id: str, count: int, **kw: object) -> League:
    league = season.new_league(s, ctx, f"{engine_id}-cup", engine_id, **kw)  # type: ignore[arg-type]
    for i in range(count):
        player = create_player(s, f"p{i}@x.test", NAMES[i], "vi" if i % 2 else "en", ctx=ctx)
        season.join(s, ctx, league.name, player)
    return league


def _run_season(s: Session, ctx: AppContext, league: League, *, unfinished_round: int | None = None) -> list[list[list[int]]]:
    clock = ctx.clock
    assert isinstance(clock, ManualClock)
    rounds: list[list[list[int]]] = []
    season.start(s, ctx, league.name)
    while league.status == "running":
        games = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                LeagueGame.round == league.current_round)).all()
        rounds.append([json.loads(lg.seats) for lg in games])
        for lg in games:
            _play_out(s, ctx, lg.game_id, moves=3 if league.current_round == unfinished_round else 10_000)
        if league.current_round == unfinished_round:
            clock.advance(days=league.round_days + 1)  # time is up: unfinished games settled
        assert league_rounds.advance(s, ctx, league)
        s.flush()
    return rounds


def _recomputed(s: Session, league: League) -> dict[int, float]:
    """Points straight from the stored games' outcomes, not from the league's bookkeeping."""
    totals: dict[int, float] = defaultdict(float)
    for lg in s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
        game = s.get_one(Game, lg.game_id)
        seats = json.loads(lg.seats)
        outcome = json.loads(game.outcome) if game.outcome else None
        for seat, pid in enumerate(seats):
            if lg.settled == "played" and outcome is not None:
                winners = outcome["winners"]
                totals[pid] += 0.5 if outcome["draw"] or (not winners and len(seats) == 2) else (1.0 if seat in winners else 0.0)
            else:
                totals[pid] += json.loads(lg.points)[seat]  # settled: the league's rule decided
    return totals


def test_round_robin_meets_everyone_once_with_fair_seats() -> None:
    met: Counter[frozenset[int]] = Counter()
    first: Counter[int] = Counter()
    for r in range(1, 6):
        rnd = pairing.round_robin(list(range(6)), r)
        assert rnd.byes == []
        for a, b in rnd.games:
            met[frozenset((a, b))] += 1
            first[a] += 1
    assert len(met) == 15 and set(met.values()) == {1}
    assert max(first.values()) - min(first.values()) <= 1
    odd = [pairing.round_robin(list(range(5)), r).byes for r in range(1, 6)]
    assert sorted(b for bs in odd for b in bs) == [0, 1, 2, 3, 4], "each of five sits out once"


def test_swiss_never_rematches_while_avoidable_and_pairs_close_scores() -> None:
    h = pairing.History(points={1: 2, 2: 2, 3: 1, 4: 1, 5: 0, 6: 0})
    h.met[frozenset((1, 2))] = 1
    rnd = pairing.swiss([1, 2, 3, 4, 5, 6], h)
    pairs = {frozenset(g) for g in rnd.games}
    assert frozenset((1, 2)) not in pairs
    assert frozenset((5, 6)) in pairs


def test_partners_rotate_so_everyone_partners_everyone_once() -> None:
    h = pairing.History()
    for _ in range(7):
        rnd = pairing.partners(list(range(8)), h)
        pairing.record(h, rnd.games, rnd.byes, teams=True)
    assert len(h.partnered) == 28 and set(h.partnered.values()) == {1}
    opp = Counter(h.met.values())
    assert max(h.met.values()) <= 3 and sum(k * v for k, v in opp.items()) == 7 * 2 * 4


def test_tables_split_evenly_and_rotate_byes() -> None:
    assert pairing.table_sizes(7, 3, 5) == [4, 3]
    assert pairing.table_sizes(11, 3, 5) == [4, 4, 3]
    assert pairing.table_sizes(2, 3, 5) == []
    h = pairing.History()
    byes: Counter[int] = Counter()
    for r in range(4):
        rnd = pairing.tables(list(range(2)) + list(range(10, 12)), h, 3, 3, seed=r)  # 4 players, tables of 3
        pairing.record(h, rnd.games, rnd.byes, teams=False)
        byes.update(rnd.byes)
    assert sorted(byes.values()) == [1, 1, 1, 1], "the one seat out rotates"


def test_tagteam_round_robin_season_standings_match_the_games(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 6)
        rounds = _run_season(s, ctx, league, unfinished_round=2)
        assert len(rounds) == 5 and league.status == "finished"
        met = Counter(frozenset(g) for r in rounds for g in r)
        assert len(met) == 15 and set(met.values()) == {1}
        rows = season.table(s, league)
        expected = _recomputed(s, league)
        assert {r.player_id: r.points for r in rows} == pytest.approx(dict(expected))
        assert sum(r.points for r in rows) == pytest.approx(15.0), "one point per game"
        assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
        # ratings moved and standings mails went to every member, in their language
        assert len({round(r.rating, 3) for r in rows}) > 1
        mails = s.exec(select(Outbox).where(Outbox.kind == "league")).all()
        assert len(mails) == 6 * 5
        s.commit()


def test_tac_partners_league_of_eight(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tac", 8, rounds=3)
        rounds = _run_season(s, ctx, league, unfinished_round=1)
        assert [len(r) for r in rounds] == [2, 2, 2]
        partners = Counter(frozenset((g[0], g[2])) for r in rounds for g in r) + \
            Counter(frozenset((g[1], g[3])) for r in rounds for g in r)
        assert max(partners.values()) == 1, "no one partners the same player twice in three rounds"
        rows = season.table(s, league)
        assert {r.player_id: r.points for r in rows} == pytest.approx(dict(_recomputed(s, league)))


def test_league_commands_refuse_clearly(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 2)
        with pytest.raises(LeagueError, match="exists already"):
            season.new_league(s, ctx, league.name, "tagteam")
        with pytest.raises(LeagueError, match="not 'tables'"):
            season.new_league(s, ctx, "x", "tagteam", fmt="tables")
        with pytest.raises(LeagueError, match="no game"):
            season.new_league(s, ctx, "y", "chess")
        player = create_player(s, "late@x.test", "Late", ctx=ctx)
        with pytest.raises(LeagueError, match="already in"):
            season.join(s, ctx, league.name, create_player(s, "p0@x.test", "Anh", ctx=ctx))
        season.start(s, ctx, league.name)
        with pytest.raises(LeagueError, match="not open"):
            season.join(s, ctx, league.name, player)
        with pytest.raises(LeagueError, match="no league"):
            season.join(s, ctx, "nope", player)


def test_a_dropped_player_plays_no_more_and_loses_the_open_game(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 4)
        season.start(s, ctx, league.name)
        leaver = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).first()
        assert leaver is not None
        quitter = json.loads(leaver.seats)[0]
        member = next(m for m, _ in season.members(s, league) if m.player_id == quitter)
        season.drop(s, ctx, league, member)
        assert json.loads(leaver.points or "[]")[0] == 0.0
        for lg in s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
            _play_out(s, ctx, lg.game_id)
        assert league_rounds.advance(s, ctx, league)
        second = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id, LeagueGame.round == 2)).all()
        assert all(quitter not in json.loads(lg.seats) for lg in second)
        assert any(quitter in (rows.player_id,) and rows.dropped for rows in season.table(s, league))


def test_vacation_sits_out_a_round_without_penalty(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 5, fmt="swiss", rounds=2)
        season.set_away(s, league, 1, 1)  # player id 1 is away in round 1
        season.start(s, ctx, league.name)
        first = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all()
        assert all(1 not in json.loads(lg.seats) for lg in first)
        row = next(r for r in season.table(s, league) if r.player_id == 1)
        assert row.byes == 0 and row.points == 0
        assert len(list(itertools.chain.from_iterable(json.loads(lg.seats) for lg in first))) == 4


def test_league_games_follow_the_leagues_deadline_policy(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 2, policy="hours=48 reminders=12 miss=wait")
        season.start(s, ctx, league.name)
        lg = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).one()
        game = s.get_one(Game, lg.game_id)
        policy = json.loads(game.policy)
        assert policy["hours"] == 48 and policy["reminders"] == [12] and policy["on_miss"] == "wait"
        assert game.deadline is not None and game.deadline - ctx.clock.now() == timedelta(hours=48)


@pytest.mark.parametrize("engine_id, count, sizes", [("grizzled", 7, [4, 3]), ("barcadia", 7, [4, 3])])
def test_table_leagues_play_to_the_end_and_score_by_the_table(
        engine_id: str, count: int, sizes: list[int], settings: Settings, db: Engine) -> None:
    """Co-operative tables (each member gets the table's score) and free-for-all tables
    (finishing order): 7 players make a table of 4 and one of 3, rounds mix the tables."""
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, engine_id, count, rounds=2)
        rounds = _run_season(s, ctx, league)
        assert [sorted(len(g) for g in r) for r in rounds] == [sorted(sizes)] * 2
        assert league.status == "finished"
        for lg in s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
            points = json.loads(lg.points or "[]")
            game = s.get_one(Game, lg.game_id)
            outcome = json.loads(game.outcome or "null")
            assert outcome is not None and lg.settled == "played"
            if engine_id == "grizzled":
                assert len(set(points)) == 1, "every member gets the table's score"
                assert points[0] == (1.0 if outcome["winners"] else pytest.approx(points[0]))
            else:
                winner = outcome["winners"][0] if outcome["winners"] else None
                assert winner is None or points[winner] == 1.0, "the winner finishes first"
                assert sorted(points) == sorted({round((len(points) - 1 - r) / (len(points) - 1), 3)
                                                 for r in range(len(points))}) or winner is None
        rows = season.table(s, league)
        totals: dict[int, float] = defaultdict(float)
        for lg in s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
            for pid, pts in zip(json.loads(lg.seats), json.loads(lg.points or "[]"), strict=True):
                totals[pid] += pts
        assert {r.player_id: r.points for r in rows} == pytest.approx(dict(totals))
        assert all(r.played == 2 for r in rows)


def test_a_player_on_vacation_sits_the_round_out(settings: Settings, db: Engine) -> None:
    """`vacation N` (the player's absence) keeps them out of a round paired while they are away."""
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 5, fmt="swiss", rounds=2)
        away = s.exec(select(Player).where(Player.address == "p2@x.test")).one()
        away.away_until = ctx.clock.now() + timedelta(days=3)
        season.start(s, ctx, league.name)
        first = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all()
        assert all(away.id not in json.loads(lg.seats) for lg in first)
        row = next(r for r in season.table(s, league) if r.player_id == away.id)
        assert row.byes == 0 and row.points == 0, "no bye points and no penalty"


def test_dropping_out_of_a_tac_league_loses_the_game_for_the_team(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tac", 4, rounds=1)
        season.start(s, ctx, league.name)
        lg = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).one()
        seats = json.loads(lg.seats)
        member = next(m for m, _ in season.members(s, league) if m.player_id == seats[1])
        season.drop(s, ctx, league, member)
        assert json.loads(lg.points or "[]") == [1.0, 0.0, 1.0, 0.0], "the quitter and the partner opposite lose"
        assert s.get_one(Game, lg.game_id).status == "settled"
        over = s.exec(select(Outbox).where(Outbox.game_id == lg.game_id, Outbox.kind == "over")).all()
        assert len(over) == 4, "every seat is told the game is over"
        texts = [email.message_from_bytes(m.raw, policy=email.policy.default).get_body(("plain",)).get_content()
                 for m in over]
        assert all("left the league" in t or "rời giải" in t for t in texts), texts[0]


def test_settling_never_overrides_a_finished_games_result(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = _league(s, ctx, "tagteam", 2, rounds=1)
        season.start(s, ctx, league.name)
        lg = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).one()
        _play_out(s, ctx, lg.game_id)
        points = season.settle_game(s, ctx, lg, force="draw")  # the operator asks for a draw, too late
        outcome = json.loads(s.get_one(Game, lg.game_id).outcome or "null")
        assert outcome is not None and lg.settled == "played"
        expected = [0.5, 0.5] if outcome["draw"] else [1.0 if seat in outcome["winners"] else 0.0 for seat in (0, 1)]
        assert points == expected
