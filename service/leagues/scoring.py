"""Points per game, ratings and the standings table: pure functions, one place each.

Points (each decision in one named function, so it can change):
- 1-v-1 and team games (Tag Team, TAC): a win 1, a draw ½ each, a loss 0 (``game_points``);
- co-operative (The Grizzled): every member of a table gets the table's score — 1 for a win,
  else how far the Trials pile got (the engine's ``score``, 0..1) — (``game_points``);
- free-for-all (Heroes of Barcadia): by finishing order, first 1 … last 0; the engine's
  ``score`` orders those who did not win; without one, the winner 1 and the rest 0;
- a bye: ``BYE_POINTS`` of the format (a win in 1-v-1 formats, nothing at tables).

Ratings: openskill's Plackett-Luce model (Weng-Lin), which takes teams and free-for-all
rankings alike; shown as the conservative ``mu - 3·sigma``. Co-operative tables are ranked
against each other by their score within a round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from engines.contract import Outcome, tr

BYE_POINTS = {"round-robin": 1.0, "swiss": 1.0, "partners": 0.0, "tables": 0.0}
COOPERATIVE = {"grizzled"}
FREE_FOR_ALL = {"barcadia"}
MODEL = PlackettLuce()


def game_points(engine_id: str, seats: int, outcome: Outcome | None,
                score: Mapping[int, float] | None) -> list[float]:
    """Points of each seat for one game (``outcome`` None: unfinished, settled as a draw)."""
    if engine_id in COOPERATIVE:
        if outcome is not None and outcome.winners:
            return [1.0] * seats
        progress = max(score.values()) if score else 0.0
        return [round(min(max(progress, 0.0), 1.0), 3)] * seats
    if outcome is None or outcome.draw:
        return [0.5] * seats if seats == 2 or engine_id not in FREE_FOR_ALL else [0.0] * seats
    if engine_id in FREE_FOR_ALL and seats > 2:
        winners = set(outcome.winners)
        others = sorted((s for s in range(seats) if s not in winners),
                        key=lambda s: -(score or {}).get(s, 0.0))
        order = sorted(winners) + others
        points = [0.0] * seats
        if score:
            for rank, seat in enumerate(order):
                points[seat] = round((seats - 1 - rank) / (seats - 1), 3)
        else:
            for seat in winners:
                points[seat] = 1.0
        return points
    return [1.0 if s in outcome.winners else 0.0 for s in range(seats)]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The conservative estimate people see: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def rate(groups: Sequence[Sequence[tuple[int, Rating]]], scores: Sequence[float]) -> dict[int, Rating]:
    """New ratings for players in ``groups`` (teams, or single players) ranked by ``scores``."""
    if len(groups) < 2:
        return {}
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma, name=str(pid)) for pid, r in group] for group in groups]
    ordered = sorted(set(scores), reverse=True)
    ranks: list[float] = [float(ordered.index(s) + 1) for s in scores]
    new = MODEL.rate(teams, ranks=ranks)
    return {pid: Rating(float(n.mu), float(n.sigma))
            for group, rated in zip(groups, new, strict=True) for (pid, _), n in zip(group, rated, strict=True)}


def groups_of(engine_id: str, seats: Sequence[int], points: Sequence[float]) -> list[list[int]]:
    """The rating teams of one game: TAC's partners together, everyone else alone."""
    if engine_id == "tac" and len(seats) == 4:
        return [[seats[0], seats[2]], [seats[1], seats[3]]]
    return [[p] for p in seats]


@dataclass
class Row:
    player_id: int
    name: str
    played: int = 0
    wins: int = 0
    points: float = 0.0
    byes: int = 0
    buchholz: float = 0.0
    rating: float = 0.0
    dropped: bool = False


#: the tie-break keys a league may chain (``League.tie_breaks``), each higher-is-better
TIE_BREAKS = {
    "points": "points", "buchholz": "Buchholz (the opponents' points)", "h2h": "head-to-head among the tied",
    "wins": "wins", "rating": "rating",
}
DEFAULT_TIE_BREAKS = ("points", "buchholz", "wins", "rating")


def parse_tie_breaks(text: str) -> tuple[str, ...]:
    """``"points,h2h,buchholz"`` → the chain; a one-line ``ValueError`` for an unknown or repeated
    key. Points come first whether written or not: a tie-break only orders equal points."""
    keys = tuple(k.strip().lower() for k in text.replace(" ", ",").split(",") if k.strip())
    unknown = [k for k in keys if k not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}; use a comma list of {', '.join(TIE_BREAKS)}")
    if len(set(keys)) != len(keys):
        raise ValueError(f"a tie-break is listed twice in {text!r}")
    if not keys:
        raise ValueError("the tie-break list is empty")
    return keys if keys[0] == "points" else ("points", *keys)


def standings(rows: Sequence[Row], chain: Sequence[str] = DEFAULT_TIE_BREAKS,
              meetings: Mapping[tuple[int, int], float] | None = None) -> list[Row]:
    """Dropped members last; then by ``chain`` (each key higher first), then by name.

    ``h2h`` compares only the rows still tied on every earlier key: the points each scored in
    games against the others of that tied group (``meetings[(a, b)]``: what a scored facing b).
    """
    meetings = meetings or {}

    def order(group: list[Row], keys: Sequence[str]) -> list[Row]:
        if len(group) < 2 or not keys:
            return sorted(group, key=lambda r: r.name.lower())
        key, rest = keys[0], keys[1:]
        ids = {r.player_id for r in group}
        if key == "h2h":
            value = {r.player_id: sum(meetings.get((r.player_id, q), 0.0) for q in ids if q != r.player_id)
                     for r in group}
        else:
            value = {r.player_id: float(getattr(r, key)) for r in group}
        out: list[Row] = []
        for level in sorted({round(v, 9) for v in value.values()}, reverse=True):
            out += order([r for r in group if round(value[r.player_id], 9) == level], rest)
        return out

    active = [r for r in rows if not r.dropped]
    return order(active, tuple(chain)) + order([r for r in rows if r.dropped], tuple(chain))


def standings_text(rows: Sequence[Row], lang: str) -> list[str]:
    """The standings as monospaced text lines; ``rows`` are already in standings order."""
    head = ("#", tr("Player")[lang], tr("Pl")[lang],
            tr("W")[lang], tr("Pts")[lang], "BH",
            tr("Rating")[lang])
    width = max([len(r.name) for r in rows] + [len(head[1])])
    lines = [f"{head[0]:>2}  {head[1]:<{width}}  {head[2]:>4}  {head[3]:>5}  {head[4]:>5}  {head[5]:>5}  {head[6]:>6}"]
    for n, r in enumerate(rows, start=1):
        mark = tr(" (dropped)")[lang] if r.dropped else ""
        lines.append(f"{n:>2}  {r.name:<{width}}  {r.played:>4}  {r.wins:>5}  {r.points:>5.1f}  {r.buchholz:>5.1f}  "
                     f"{r.rating:>6.1f}{mark}")
    return lines
