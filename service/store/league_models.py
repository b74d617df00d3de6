"""League tables: a league, its members, its rounds, the games of each round, rating history.

Kept apart from ``models`` so the league feature owns its schema in one place; Alembic sees
these tables because ``migrations/env.py`` imports this module too.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class League(SQLModel, table=True):
    """A season of one game: who plays, how rounds are paired, how long a round lasts."""

    __tablename__ = "leagues"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    engine: str
    options: str = "{}"
    #: round-robin | swiss | partners (TAC: partners rotate, tables of four) | tables (co-op / free-for-all)
    format: str
    rounds: int  # planned number of rounds
    round_days: float = 14.0
    turn_hours: float = 72.0  # the deadline per decision of the league's games
    #: the deadline policy of the league's games (``DeadlinePolicy`` JSON; "" = defaults + turn_hours)
    policy: str = ""
    max_players: int = 32
    status: str = Field(default="open", index=True)  # open | closed | running | finished
    signup_until: datetime | None = None
    current_round: int = 0
    #: unfinished games at the end of a round: "adjudicate" (engine score, else draw) | "draw"
    settle_rule: str = "adjudicate"
    #: the standings order after the dropped-last rule: a comma chain of points, buchholz, h2h
    #: (head-to-head among the tied), wins, rating (``scoring.TIE_BREAKS``)
    tie_breaks: str = Field(default="points,buchholz,wins,rating", sa_column_kwargs={"server_default": "points,buchholz,wins,rating"})
    created_at: datetime


class LeagueMember(SQLModel, table=True):
    __tablename__ = "league_members"
    __table_args__ = (UniqueConstraint("league_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", index=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    status: str = "active"  # active | dropped
    #: the round in which the member was dropped, and why: left | abandoned | operator
    dropped_round: int | None = None
    drop_reason: str = Field(default="", sa_column_kwargs={"server_default": ""})
    joined_at: datetime
    #: rounds this member sits out (a comma list of round numbers): byes and vacations
    byes: str = ""
    away: str = ""
    mu: float = 25.0
    sigma: float = 25.0 / 3


class LeagueGame(SQLModel, table=True):
    """One game of one round; ``points`` is the JSON {player_id: points} once settled."""

    __tablename__ = "league_games"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", index=True)
    round: int = Field(index=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    #: player ids in seat order
    seats: str
    points: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    #: "" until settled; then "played" | "adjudicated" | "draw" | "operator"
    settled: str = ""


class LeagueRating(SQLModel, table=True):
    """A member's rating after a round (openskill Weng-Lin: mu, sigma; shown as mu - 3 sigma)."""

    __tablename__ = "league_ratings"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", index=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    round: int
    mu: float
    sigma: float
