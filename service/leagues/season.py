"""A league's season in the database: sign-up, rounds of games, settling, standings, ratings.

Everything runs in the caller's transaction. ``advance`` is the one step the scheduler calls:
a running league whose round has ended (every game over, or the round's time up) is settled
(unfinished games by the league's rule), rated, told its standings by mail, and the next round
is paired and started — or the season ends.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

import engines
from engines.contract import Outcome, Text, tr
from service.context import AppContext
from service.leagues import pairing
from service.leagues.scoring import (
    BYE_POINTS,
    COOPERATIVE,
    Rating,
    Row,
    game_points,
    groups_of,
    parse_tie_breaks,
    rate,
    standings,
)
from service.outbound.notify import queue_game_mails
from service.play.start import create_game
from service.store.games import end_game, load, player_by_address, stored_outcome
from service.store.league_models import League, LeagueGame, LeagueMember, LeagueRating
from service.store.models import Game, Player
from service.store.policy import DeadlinePolicy, PolicyError

#: the pairing format of each engine (and the formats an engine allows)
FORMATS: dict[str, tuple[str, ...]] = {
    "tagteam": ("round-robin", "swiss"), "tac": ("partners",), "grizzled": ("tables",), "barcadia": ("tables",),
}
TABLE_SIZES = {"grizzled": (3, 5), "barcadia": (3, 6)}


class LeagueError(ValueError):
    """A league operation that cannot be done; the message says why, in one line (English, for
    the operator). ``said`` is the same refusal worded for a player, in any language: set by
    ``telling`` for the refusals a player's own command can meet."""

    def __init__(self, message: str, said: Text | dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.said = said

    @classmethod
    def telling(cls, said: Text | dict[str, str]) -> LeagueError:
        """A refusal a player may read: the English words are also the operator's message."""
        return cls(said["en"], said)


def _league(session: Session, name: str) -> League:
    league = session.exec(select(League).where(League.name == name)).first()
    if league is None:
        raise LeagueError.telling(tr("no league {name!r}", name=name))
    return league


def new_league(session: Session, ctx: AppContext, name: str, engine_id: str, *, fmt: str | None = None,
               rounds: int | None = None, round_days: float = 14.0, turn_hours: float | None = None,
               max_players: int = 32, options: dict[str, Any] | None = None,
               signup_days: float | None = None, policy: str = "", tie_breaks: str = "") -> League:
    """A league open for sign-up. ``policy`` is the deadline policy of its games in the
    operator's words (``hours=48 reminders=24 miss=wait``), on top of ``turn_hours``."""
    if not name or not name.replace("-", "").replace("_", "").isalnum():
        raise LeagueError("a league name is one word of letters, digits, - or _")
    if session.exec(select(League).where(League.name == name)).first() is not None:
        raise LeagueError(f"league {name!r} exists already")
    try:
        engine = engines.get(engine_id)
    except KeyError:
        raise LeagueError(f"no game {engine_id!r}; games: {', '.join(FORMATS)}") from None
    allowed = FORMATS.get(engine_id, ())
    fmt = fmt or (allowed[0] if allowed else "")
    if fmt not in allowed:
        raise LeagueError(f"{engine.title} leagues are {' or '.join(allowed) or 'not possible'}, not {fmt!r}")
    if rounds is not None and rounds < 1:
        raise LeagueError("rounds must be at least 1")
    if round_days <= 0 or max_players < 2:
        raise LeagueError("round length must be positive and the player limit at least 2")
    try:
        resolved = engine.resolve_options(options or {})
    except (KeyError, ValueError) as exc:
        raise LeagueError(f"bad option: {exc}") from None
    try:
        chain = ",".join(parse_tie_breaks(tie_breaks)) if tie_breaks else League.model_fields["tie_breaks"].default
    except ValueError as exc:
        raise LeagueError(f"bad --tie-breaks: {exc}") from None
    base = DeadlinePolicy.defaults(ctx.settings)
    try:
        games_policy = base.with_values({"hours": turn_hours}) if turn_hours else base
        games_policy = DeadlinePolicy.parse(policy, games_policy) if policy else games_policy
    except PolicyError as exc:
        raise LeagueError(f"bad deadline policy: {exc}") from None
    now = ctx.clock.now()
    league = League(name=name, engine=engine_id, options=json.dumps(resolved, sort_keys=True), format=fmt,
                    policy=games_policy.to_json(),
                    rounds=rounds or 0, round_days=round_days, turn_hours=games_policy.hours,
                    max_players=max_players, created_at=now, tie_breaks=chain,
                    signup_until=now + timedelta(days=signup_days) if signup_days else None)
    session.add(league)
    session.flush()
    return league


def members(session: Session, league: League, *, active_only: bool = True) -> list[tuple[LeagueMember, Player]]:
    query = select(LeagueMember, Player).where(LeagueMember.league_id == league.id,
                                               col(LeagueMember.player_id) == col(Player.id))
    if active_only:
        query = query.where(LeagueMember.status == "active")
    return list(session.exec(query.order_by(col(LeagueMember.id))).all())


def join(session: Session, ctx: AppContext, name: str, player: Player) -> League:
    league = _league(session, name)
    if league.status != "open":
        raise LeagueError.telling(tr("league {name} is not open for sign-up", name=name))
    if league.signup_until and ctx.clock.now() > league.signup_until:
        raise LeagueError.telling(tr("the sign-up of {name} has closed", name=name))
    existing = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id,
                                                       LeagueMember.player_id == player.id)).first()
    if existing is not None and existing.status == "active":
        raise LeagueError.telling(tr("you are already in {name}", name=name))
    if len(members(session, league)) >= league.max_players:
        raise LeagueError.telling(tr("{name} is full ({max_players} players)", name=name, max_players=league.max_players))
    assert league.id is not None and player.id is not None
    if existing is not None:
        existing.status = "active"
    else:
        session.add(LeagueMember(league_id=league.id, player_id=player.id, joined_at=ctx.clock.now()))
    session.flush()
    return league


def leave(session: Session, ctx: AppContext, name: str, player: Player) -> League:
    """Leaving before the start removes the sign-up; later it drops the player (games settled)."""
    league = _league(session, name)
    member = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id,
                                                     LeagueMember.player_id == player.id,
                                                     LeagueMember.status == "active")).first()
    if member is None:
        raise LeagueError.telling(tr("you are not in {name}", name=name))
    if league.status in ("open", "closed"):
        session.delete(member)
    else:
        drop(session, ctx, league, member)
    session.flush()
    return league


def drop(session: Session, ctx: AppContext, league: League, member: LeagueMember, reason: str = "left") -> None:
    """A dropped member plays no more rounds; their unfinished game this round is settled as a
    loss for their side: opponents win a 1-v-1 or team game (TAC's partner loses with them);
    at a co-operative or free-for-all table the others keep what the position gives them.
    ``reason`` (left | abandoned | operator) and the round are kept for the round summary."""
    member.status = "dropped"
    member.dropped_round, member.drop_reason = league.current_round, reason
    for lg in _round_games(session, league, league.current_round):
        seats = json.loads(lg.seats)
        if member.player_id in seats and not lg.settled:
            game = session.get(Game, lg.game_id)
            assert game is not None
            if game.status != "active":  # over before the drop: its own result stands
                settle_game(session, ctx, lg)
                continue
            quitter = seats.index(member.player_id)
            if league.engine in ("grizzled", "barcadia"):
                points = settle_game(session, ctx, lg, force="adjudicate")
            else:
                points = [1.0] * len(seats)
            losing = {quitter, (quitter + 2) % 4} if league.format == "partners" else {quitter}
            points = [0.0 if seat in losing else pts for seat, pts in enumerate(points)]
            _settle(session, ctx, lg, game, points, "dropped", finish=True)


def set_away(session: Session, league: League, player_id: int, round_no: int) -> None:
    """A vacation: the member sits out ``round_no`` without penalty (no bye points either)."""
    member = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id,
                                                     LeagueMember.player_id == player_id)).first()
    if member is None:
        raise LeagueError("not a member")
    rounds = {int(x) for x in member.away.split(",") if x}
    rounds.add(round_no)
    member.away = ",".join(str(x) for x in sorted(rounds))


def _round_games(session: Session, league: League, round_no: int) -> list[LeagueGame]:
    return list(session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                      LeagueGame.round == round_no)).all())


def history(session: Session, league: League) -> pairing.History:
    h = pairing.History()
    teams = league.format == "partners"
    by_round: dict[int, list[list[int]]] = defaultdict(list)
    for lg in session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
        seats = json.loads(lg.seats)
        by_round[lg.round].append(seats)
        for pid, pts in zip(seats, json.loads(lg.points) if lg.points else [], strict=False):
            h.points[pid] = h.points.get(pid, 0.0) + pts
    byes: dict[int, list[int]] = defaultdict(list)
    for member, _ in members(session, league, active_only=False):
        for r in (int(x) for x in member.byes.split(",") if x):
            byes[r].append(member.player_id)
            h.points[member.player_id] = h.points.get(member.player_id, 0.0) + BYE_POINTS[league.format]
    for r in sorted(set(by_round) | set(byes)):
        pairing.record(h, by_round.get(r, []), byes.get(r, []), teams)
    return h


def pair_round(session: Session, league: League, round_no: int, now: datetime | None = None) -> pairing.Round:
    """The pairing of ``round_no`` for the active members who are not away that round: marked
    away for it (``set_away``), or on ``vacation`` (``Player.away_until``) when it is paired.
    An absent member sits the round out with no bye points and no penalty."""
    playing = [m.player_id for m, p in members(session, league)
               if str(round_no) not in m.away.split(",") and not _on_vacation(p, now)]
    h = history(session, league)
    if league.format == "round-robin":
        return pairing.round_robin(playing, round_no)
    if league.format == "swiss":
        return pairing.swiss(playing, h)
    if league.format == "partners":
        return pairing.partners(playing, h)
    low, high = TABLE_SIZES.get(league.engine, (2, 6))
    return pairing.tables(playing, h, low, high, seed=(league.id or 0) * 1000 + round_no)


def _on_vacation(player: Player, now: datetime | None) -> bool:
    until = player.away_until
    if now is None or until is None:
        return False
    if until.tzinfo is None:
        until = until.replace(tzinfo=now.tzinfo)
    return until > now


def planned_rounds(league: League, count: int) -> int:
    if league.rounds:
        return league.rounds
    if league.format == "round-robin":
        return count - 1 if count % 2 == 0 else count
    if league.format == "partners":
        return max(1, count - 1)
    return 5


def start(session: Session, ctx: AppContext, name: str) -> League:
    league = _league(session, name)
    if league.status not in ("open", "closed"):
        raise LeagueError(f"league {name} has started already")
    count = len(members(session, league))
    engine = engines.get(league.engine)
    need = 4 if league.format == "partners" else TABLE_SIZES.get(league.engine, (engine.min_players, 0))[0]
    if count < max(need, 2):
        raise LeagueError(f"{name} needs at least {max(need, 2)} players, has {count}")
    league.rounds = planned_rounds(league, count)
    league.status = "running"
    start_round(session, ctx, league)
    return league


def start_round(session: Session, ctx: AppContext, league: League) -> pairing.Round:
    """Pair the next round and create its games (their first mails go out with the commit)."""
    assert league.id is not None
    league.current_round += 1
    rnd = pair_round(session, league, league.current_round, ctx.clock.now())
    players = {m.player_id: p for m, p in members(session, league)}
    for seats in rnd.games:
        game = create_game(session, league.engine, [players[pid].address for pid in seats],
                           json.loads(league.options), ctx=ctx, policy=league.policy)
        assert game.id is not None
        session.add(LeagueGame(league_id=league.id, round=league.current_round, game_id=game.id,
                               seats=json.dumps(seats)))
    for member, _ in members(session, league):
        if member.player_id in rnd.byes:
            member.byes = ",".join([*filter(None, member.byes.split(",")), str(league.current_round)])
    session.flush()
    return rnd


def round_ends_at(session: Session, league: League) -> datetime | None:
    games = _round_games(session, league, league.current_round)
    if not games:
        return None
    first = min((session.get(Game, lg.game_id) for lg in games), key=lambda g: g.created_at if g else datetime.max)
    assert first is not None
    return first.created_at + timedelta(days=league.round_days)


def _settle(session: Session, ctx: AppContext, lg: LeagueGame, game: Game, points: list[float], how: str,
            *, finish: bool = False) -> None:
    lg.points = json.dumps(points)
    lg.settled = how
    if finish and game.status == "active":
        # the game ends here: its players get the usual "game over" mail, saying why
        engine, state = load(game)
        best = max(points) if points else 0.0
        winners = frozenset(seat for seat, pts in enumerate(points) if pts == best and best > 0)
        draw = len(set(points)) == 1
        why = SETTLED_WHY.get(how, SETTLED_WHY["draw"])
        outcome = Outcome(frozenset() if draw else winners, draw, why)
        end_game(session, ctx, game, "settled", outcome)
        queue_game_mails(session, ctx, game, engine, state, actor=None)


#: why a league ended a game before its rules did (the reason in the players' "game over" mail)
SETTLED_WHY = {
    "draw": tr("the league round ended before the game did; it counts as a draw"),
    "adjudicated": tr("the league round ended before the game did; it was decided by the position"),
    "dropped": tr("a player left the league; the game counts as their loss"),
}


def settle_game(session: Session, ctx: AppContext, lg: LeagueGame, *, force: str | None = None) -> list[float]:
    """Points of one league game: from its result, or (unfinished) by the league's rule."""
    game = session.get(Game, lg.game_id)
    assert game is not None
    engine, state = load(game)
    seats = json.loads(lg.seats)
    outcome = stored_outcome(game) or engine.outcome(state)
    score = getattr(engine, "score", None)
    scored = score(state) if callable(score) else None
    if outcome is not None:  # a finished game keeps its result, whatever the rule or the operator says
        points = game_points(engine.id, len(seats), outcome, scored)
        _settle(session, ctx, lg, game, points, "played")
        return points
    if (force or _rule(session, lg)) == "draw":
        points = game_points(engine.id, len(seats), None, scored if engine.id == "grizzled" else None)
        _settle(session, ctx, lg, game, points, "draw", finish=True)
        return points
    points = game_points(engine.id, len(seats), None, scored)
    if scored and engine.id != "grizzled":
        best = max(scored.values())
        points = [1.0 if scored.get(s) == best else 0.0 for s in range(len(seats))]
    _settle(session, ctx, lg, game, points, "adjudicated" if scored else "draw", finish=True)
    return points


def _rule(session: Session, lg: LeagueGame) -> str:
    league = session.get(League, lg.league_id)
    assert league is not None
    return league.settle_rule


def round_over(session: Session, ctx: AppContext, league: League) -> bool:
    games = _round_games(session, league, league.current_round)
    if all(lg.settled or _game_over(session, lg) for lg in games):
        return True
    ends = round_ends_at(session, league)
    return ends is not None and ctx.clock.now() >= ends


def _game_over(session: Session, lg: LeagueGame) -> bool:
    game = session.get(Game, lg.game_id)
    return game is not None and game.status != "active"


def finish_round(session: Session, ctx: AppContext, league: League) -> None:
    """Settle every game of the current round and update the ratings (``rounds.advance``
    then pairs the next round and mails the round summary)."""
    games = _round_games(session, league, league.current_round)
    results: list[tuple[LeagueGame, list[float]]] = []
    for lg in games:
        points = json.loads(lg.points) if lg.settled and lg.points else settle_game(session, ctx, lg)
        results.append((lg, points))
    _rate_round(session, league, results)


def _rate_round(session: Session, league: League, results: list[tuple[LeagueGame, list[float]]]) -> None:
    by_id = {m.player_id: m for m, _ in members(session, league, active_only=False)}
    current = {pid: Rating(m.mu, m.sigma) for pid, m in by_id.items()}
    new: dict[int, Rating] = {}
    if league.engine == "grizzled":  # co-operative: the round's tables ranked by their score
        groups = [[(pid, current[pid]) for pid in json.loads(lg.seats)] for lg, _ in results]
        new = rate(groups, [pts[0] if pts else 0.0 for _, pts in results])
    else:
        for lg, pts in results:
            seats = json.loads(lg.seats)
            teams = groups_of(league.engine, seats, pts)
            team_scores = [pts[seats.index(team[0])] for team in teams]
            new.update(rate([[(pid, current[pid]) for pid in team] for team in teams], team_scores))
    assert league.id is not None
    for pid, rating in new.items():
        member = by_id[pid]
        member.mu, member.sigma = rating.mu, rating.sigma
        session.add(LeagueRating(league_id=league.id, player_id=pid, round=league.current_round,
                                 mu=rating.mu, sigma=rating.sigma))


def table(session: Session, league: League) -> list[Row]:
    """The standings rows, recomputed from the stored games (never from a running total), in
    the order of the league's tie-break chain."""
    rows: dict[int, Row] = {}
    for member, player in members(session, league, active_only=False):
        rows[member.player_id] = Row(member.player_id, player.name, byes=len([x for x in member.byes.split(",") if x]),
                                     rating=Rating(member.mu, member.sigma).shown, dropped=member.status == "dropped")
        rows[member.player_id].points += BYE_POINTS[league.format] * rows[member.player_id].byes
    opponents: dict[int, list[int]] = defaultdict(list)
    meetings: dict[tuple[int, int], float] = defaultdict(float)
    for lg in session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
        if not lg.points:
            continue
        seats, points = json.loads(lg.seats), json.loads(lg.points)
        best = max(points)
        sides = groups_of(league.engine, seats, points)
        for pid, pts in zip(seats, points, strict=True):
            row = rows.get(pid)
            if row is None:
                continue
            row.played += 1
            row.points += pts
            row.wins += 1 if (pts == best and pts > 0 and len(set(points)) > 1) or (pts == 1.0 and len(set(points)) == 1) else 0
            mates = next((side for side in sides if pid in side), [pid]) if league.engine not in COOPERATIVE else [pid]
            faced = [q for q in seats if q not in mates]
            opponents[pid] += faced
            for q in faced:
                meetings[(pid, q)] += pts
    for pid, row in rows.items():
        row.buchholz = sum(rows[q].points for q in opponents[pid] if q in rows)
        row.points = round(row.points, 3)
    return standings(list(rows.values()), parse_tie_breaks(league.tie_breaks), meetings)


def member_of(session: Session, address: str) -> Player | None:
    return player_by_address(session, address)
