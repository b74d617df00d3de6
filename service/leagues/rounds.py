"""The scheduler's step for leagues: drop members whose seat was abandoned, close a round that
is over, pair and start the next one, and mail everyone the round summary.

Kept apart from ``season`` (the database operations) and ``report`` (what the mails say), so
neither has to know the other; ``schedule.runtime.Service.sweep`` calls ``advance_all``.
"""

from __future__ import annotations

import json

from sqlmodel import Session, col, select

from service.context import AppContext
from service.leagues import report, season
from service.store.games import seats_of
from service.store.league_models import League, LeagueGame


def drop_abandoned(session: Session, ctx: AppContext, league: League) -> list[int]:
    """Members whose seat in a game of this round was abandoned (the deadline policy's K missed
    deadlines in a row, ``schedule.deadlines``) leave the league: dropped, their game settled
    as their loss, and everyone told. Returns the player ids dropped."""
    active = {m.player_id: m for m, _ in season.members(session, league)}
    dropped: list[int] = []
    games = session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                  LeagueGame.round == league.current_round)).all()
    for lg in games:
        seats = json.loads(lg.seats)
        for row, player in seats_of(session, lg.game_id):
            if row.abandoned_at is None or row.bot_reason != "abandoned" or player.id not in active:
                continue
            if player.id in dropped or row.seat >= len(seats) or seats[row.seat] != player.id:
                continue
            season.drop(session, ctx, league, active[player.id], reason="abandoned")
            # "their game counts as their loss" only when the drop decided it (not when it was over)
            lost = lg.game_id if lg.settled == "dropped" else None
            report.mail_dropped(session, ctx, league, player, reason="abandoned", game_id=lost)
            dropped.append(player.id)
    return dropped


def advance(session: Session, ctx: AppContext, league: League) -> bool:
    """One scheduler step for a running league; True when something changed."""
    if league.status != "running":
        return False
    changed = bool(drop_abandoned(session, ctx, league))
    if not season.round_over(session, ctx, league):
        return changed
    season.finish_round(session, ctx, league)
    done = league.current_round
    if league.current_round >= league.rounds or len(season.members(session, league)) < 2:
        league.status = "finished"
    else:
        season.start_round(session, ctx, league)
    report.mail_round(session, ctx, league, done)
    return True


def advance_all(session: Session, ctx: AppContext) -> int:
    """``advance`` every running league (in the caller's transaction); how many changed."""
    changed = 0
    for league in session.exec(select(League).where(League.status == "running").order_by(col(League.id))).all():
        changed += advance(session, ctx, league)
    return changed
