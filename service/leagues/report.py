"""What league mails say, written for the member who reads them, in their language.

The round mail: each game of the round with its players and result (who won, a draw, or how
the league settled it and why), the byes, who was away and who dropped out; then the standings
(a text table for the plain part, a real HTML table for the HTML part, the reader's own row
marked) and the reader's rating change; then the next round's pairing from the reader's side.
Also: the mail telling members that someone was dropped, the standings on their own, a
member's rating history per round, and the note `games` adds to a league game.

Sections are plain values the templates lay out (``mail_templates/_page.html.j2`` and
the text layouts): ``{"title", "items": [str], "text": [str], "table": {head, rows, numeric,
mine} | None}``.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session, col, select

from engines.contract import Text, tr
from service.context import AppContext
from service.leagues import season
from service.leagues.scoring import BYE_POINTS, COOPERATIVE, FREE_FOR_ALL, Rating, Row, standings_text
from service.outbound.outbox import queue_mail
from service.outbound.render import SERVICE_TAG
from service.store.league_models import League, LeagueGame, LeagueMember, LeagueRating
from service.store.models import Player

Section = dict[str, Any]
START = Rating(25.0, 25.0 / 3)  # openskill's default: the rating before a member's first round

DROP_WHY = {
    "left": tr("left the league"),
    "abandoned": tr("missed too many deadlines in a row and was dropped"),
    "operator": tr("was removed by the organiser"),
}
#: the same, told to the member who is out
DROP_YOU = {
    "left": tr("You left the league"),
    "abandoned": tr("You missed too many deadlines in a row, so you are dropped from the league"),
    "operator": tr("The organiser removed you from the league"),
}


def _t(lang: str, text: Text | str) -> str:
    """A catalog message in ``lang``; a plain string (a name, a number) as it is."""
    if isinstance(text, Text):
        return text.get(lang)
    return text


def _name(names: dict[int, str], pid: int, me: int | None, lang: str, *, capital: bool = False) -> str:
    if pid == me:
        word = _t(lang, tr("you"))
        return word.capitalize() if capital else word
    return names.get(pid, str(pid))


def _join(items: list[str], lang: str) -> str:
    return _t(lang, tr(" & ")).join(items)


# -- the standings -------------------------------------------------------------------


def standings_section(rows: list[Row], lang: str, me: int | None, title: str) -> Section:
    """The standings as a text table (plain part) and an HTML table (HTML part)."""
    head = ["#", _t(lang, tr("Player")), _t(lang, tr("Pl")), _t(lang, tr("W")),
            _t(lang, tr("Pts")), "BH", _t(lang, tr("Rating"))]
    text = standings_text(rows, lang)
    body: list[list[str]] = []
    mine: int | None = None
    for n, r in enumerate(rows, start=1):
        name = r.name + (_t(lang, tr(" (dropped)")) if r.dropped else "")
        body.append([str(n), name, str(r.played), str(r.wins), f"{r.points:.1f}", f"{r.buchholz:.1f}",
                     f"{r.rating:.1f}"])
        if r.player_id == me:
            mine = n - 1
            text[n] += "  ←"
    return {"title": title, "items": [], "text": text, "note": standings_legend(lang),
            "table": {"head": head, "rows": body, "numeric": [True, False, True, True, True, True, True],
                      "mine": mine}}


def standings_legend(lang: str) -> list[str]:
    """What the short column heads mean: a member meets "BH" and a rating below zero once, and
    should not have to ask what they are."""
    return [_t(lang, tr("Pl: games played · W: games won · Pts: league points")),
            _t(lang, tr("BH (Buchholz): the points of everyone you played, added up; it breaks ties")),
            _t(lang, tr("Rating: the service's estimate of your skill (OpenSkill); it starts at 0"))]


# -- one round -----------------------------------------------------------------------


def _sides(league: League, seats: list[int]) -> list[list[int]]:
    if league.format == "partners" and len(seats) == 4:
        return [[seats[0], seats[2]], [seats[1], seats[3]]]
    return [[p] for p in seats]


def game_line(league: League, lg: LeagueGame, names: dict[int, str], dropped: dict[int, LeagueMember],
              me: int | None, lang: str) -> str:
    """One game of a round and its result, from the reader's side."""
    seats: list[int] = json.loads(lg.seats)
    points: list[float] = json.loads(lg.points) if lg.points else []
    sides = _sides(league, seats)
    who = " – ".join(_join([_name(names, p, me, lang) for p in side], lang) for side in sides)
    head = f"#{lg.game_id} {who}: "
    if not points:
        return head + _t(lang, tr("not finished"))
    if league.engine in COOPERATIVE:
        table = _t(lang, tr("your table")) if me in seats else _t(lang, tr("the table"))
        result = (_t(lang, tr("{table} won", table=table)) if points[0] >= 1.0 else
                  _t(lang, tr("{table} lost, scoring {points:.2f} (how far the Trials pile got)", table=table, points=points[0])))
    elif league.engine in FREE_FOR_ALL and len(seats) > 2:
        order = sorted(range(len(seats)), key=lambda i: -points[i])
        result = ", ".join(f"{_name(names, seats[i], me, lang)} {points[i]:g}" for i in order)
        result = _t(lang, tr("finishing order {result}", result=result))
    elif len(set(points)) == 1:
        result = _t(lang, tr("a draw"))
    else:
        best = max(points)
        winner = next(side for side in sides if points[seats.index(side[0])] == best)
        names_won = _join([_name(names, p, me, lang) for p in winner], lang)
        result = _t(lang, tr("{names_won} won", names_won=names_won))
    why = ""
    if lg.settled == "draw":
        why = _t(lang, tr(" — the round's time ran out, so it counts as a draw"))
    elif lg.settled == "adjudicated":
        why = _t(lang, tr(" — the round's time ran out, so the position decided"))
    elif lg.settled == "dropped":
        gone = [p for p in seats if p in dropped and dropped[p].dropped_round == lg.round]
        if gone and gone[0] == me:
            why = _t(lang, tr(" — you left the league, so it counts as your loss"))
        elif gone:
            why = _t(lang, tr(" — {get} left the league, so it counts as their loss", get=names.get(gone[0], '?')))
    return head + result + why


def round_section(session: Session, league: League, round_no: int, me: int | None, lang: str) -> Section:
    """Every game of ``round_no`` with its result, then byes, absences and drops."""
    everyone = season.members(session, league, active_only=False)
    names = {m.player_id: p.name for m, p in everyone}
    dropped = {m.player_id: m for m, _ in everyone if m.status == "dropped"}
    games = list(session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id, LeagueGame.round == round_no)
                              .order_by(col(LeagueGame.game_id))).all())
    items = [game_line(league, lg, names, dropped, me, lang) for lg in games]
    playing = {pid for lg in games for pid in json.loads(lg.seats)}
    bye_points = BYE_POINTS[league.format]
    for member, _ in everyone:
        pid = member.player_id
        if member.status == "dropped" and (member.dropped_round or 0) < round_no:
            continue
        who = _name(names, pid, me, lang, capital=True)
        if str(round_no) in member.byes.split(","):
            extra = _t(lang, tr(" (+{bye_points:g} point)", bye_points=bye_points)) if bye_points else ""
            items.append(_t(lang, tr("{who} had a bye: no game this round{extra}", who=who, extra=extra)))
        elif pid not in playing:
            items.append(_t(lang, tr("{who} sat this round out, away on vacation (no penalty)", who=who)))
        if member.status == "dropped" and member.dropped_round == round_no:
            why = DROP_WHY.get(member.drop_reason, DROP_WHY["left"])
            items.append(_t(lang, tr("{who} {why}: no more games in this league", who=who, why=why)))
    title = _t(lang, tr("Round {round_no} results", round_no=round_no))
    return {"title": title, "items": items, "text": [], "table": None}


def next_round_section(session: Session, league: League, me: int | None, lang: str) -> Section:
    """The round now running, from the reader's side: their game (or bye), then the others."""
    if league.status == "finished":
        return {"title": _t(lang, tr("The season is over")),
                "items": [_t(lang, tr("Thank you for playing! The standings above are final."))],
                "text": [], "table": None}
    everyone = season.members(session, league, active_only=False)
    names = {m.player_id: p.name for m, p in everyone}
    games = list(session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                       LeagueGame.round == league.current_round)
                              .order_by(col(LeagueGame.game_id))).all())
    ends = season.round_ends_at(session, league)
    ends_word = _t(lang, tr("ends"))
    until = f" ({ends_word} {ends:%Y-%m-%d})" if ends else ""
    title = _t(lang, tr("Round {current_round} of {rounds}{until}", current_round=league.current_round, rounds=league.rounds, until=until))
    mine: list[str] = []
    others: list[str] = []
    for lg in games:
        seats: list[int] = json.loads(lg.seats)
        sides = _sides(league, seats)
        if me in seats:
            mates = next(side for side in sides if me in side)
            rivals = [p for p in seats if p not in mates]
            partner = [names.get(p, "?") for p in mates if p != me]
            text = _t(lang, tr("Your game: #{game_id} against {join}", game_id=lg.game_id, join=_join([names.get(p, '?') for p in rivals], lang)))
            if partner:
                text += _t(lang, tr(", with {partner} as your partner", partner=partner[0]))
            if league.engine in COOPERATIVE:
                text = _t(lang, tr("Your table: #{game_id} with {join}", game_id=lg.game_id, join=_join([names.get(p, '?') for p in rivals], lang)))
            mine.append(text + _t(lang, tr(" — its first mail is in your inbox.")))
        else:
            others.append(f"#{lg.game_id} " + " – ".join(_join([names.get(p, "?") for p in side], lang)
                                                        for side in sides))
    for member, _ in everyone:
        if member.status != "active" or member.player_id == me or any(
                member.player_id in json.loads(lg.seats) for lg in games):
            continue
        who = names.get(member.player_id, "?")
        bye = str(league.current_round) in member.byes.split(",")
        others.append(_t(lang, tr("{who}: a bye", who=who)) if bye
                      else _t(lang, tr("{who}: away this round", who=who)))
    if not mine and me is not None:
        reader = next((m for m, _ in everyone if m.player_id == me), None)
        if reader is not None and reader.status == "active":
            bye = str(league.current_round) in reader.byes.split(",")
            mine.append(_t(lang, tr("You have a bye this round.")) if bye
                        else _t(lang, tr("You sit this round out (you are away).")))
    return {"title": title, "items": mine + others, "text": [], "table": None}


def rating_change(session: Session, league: League, player_id: int, round_no: int) -> tuple[float, float] | None:
    """The reader's shown rating before and after ``round_no`` (None: not rated that round)."""
    ratings = list(session.exec(select(LeagueRating).where(LeagueRating.league_id == league.id,
                                                          LeagueRating.player_id == player_id,
                                                          col(LeagueRating.round) <= round_no)
                                .order_by(col(LeagueRating.round))).all())
    if not ratings or ratings[-1].round != round_no:
        return None
    before = Rating(ratings[-2].mu, ratings[-2].sigma) if len(ratings) > 1 else START
    return before.shown, Rating(ratings[-1].mu, ratings[-1].sigma).shown


def round_mail_sections(session: Session, league: League, round_no: int, player: Player) -> list[Section]:
    lang = player.lang
    me = player.id
    rows = season.table(session, league)
    final = league.status == "finished"
    title = (_t(lang, tr("Final standings")) if final
             else _t(lang, tr("Standings after round {round_no}", round_no=round_no)))
    standing = standings_section(rows, lang, me, title)
    change = rating_change(session, league, me or 0, round_no)
    if change is not None:
        standing["items"] = [_t(lang, tr("Your rating: {change:.1f} → {change2:.1f}", change=change[0], change2=change[1]))]
    return [round_section(session, league, round_no, me, lang), standing, next_round_section(session, league, me, lang)]


def _readers(session: Session, league: League, round_no: int) -> list[Player]:
    """Active members, and those dropped in this very round (they are told how it ended)."""
    return [p for m, p in season.members(session, league, active_only=False)
            if m.status == "active" or m.dropped_round == round_no]


def mail_round(session: Session, ctx: AppContext, league: League, round_no: int) -> None:
    """The round summary to every member, each in their language and from their side."""
    for player in _readers(session, league, round_no):
        lang = player.lang
        final = league.status == "finished"
        title = (_t(lang, tr("League {name}: round {round_no} is over — the season is finished", name=league.name, round_no=round_no)) if final
                 else _t(lang, tr("League {name}: round {round_no} is over, round {current_round} begins", name=league.name, round_no=round_no, current_round=league.current_round)))
        sections = round_mail_sections(session, league, round_no, player)
        rendered = ctx.renderer.render("info", lang, player=player.name, title=title, sections=sections)
        queue_mail(session, ctx, to=player.address, kind="league", subject=f"{SERVICE_TAG} {title}", rendered=rendered)


def mail_standings(session: Session, ctx: AppContext, league: League) -> None:
    """The standings now, to every active member (the operator's ``standings --mail``)."""
    rows = season.table(session, league)
    for _, player in season.members(session, league):
        lang = player.lang
        title = _t(lang, tr("League {name}: standings", name=league.name))
        section = standings_section(rows, lang, player.id, title)
        rendered = ctx.renderer.render("info", lang, player=player.name, title=title, sections=[section])
        queue_mail(session, ctx, to=player.address, kind="league", subject=f"{SERVICE_TAG} {title}", rendered=rendered)


def mail_dropped(session: Session, ctx: AppContext, league: League, gone: Player, *, reason: str,
                 game_id: int | None = None) -> None:
    """Tell the dropped member, and the others, that they are out and how their game ends."""
    why = DROP_WHY.get(reason, DROP_WHY["left"])
    you = DROP_YOU.get(reason, DROP_YOU["left"])
    for member, player in season.members(session, league, active_only=False):
        if member.status != "active" and player.id != gone.id:
            continue
        lang = player.lang
        if player.id == gone.id:
            title = _t(lang, tr("League {name}: you are out of the league", name=league.name))
            lines = [_t(lang, tr("{you}. You get no more games in {name}; your unfinished game this round counts as your loss. You may `join` another league any time.", you=you, name=league.name))]
        else:
            title = _t(lang, tr("League {name}: {name2} is out", name=league.name, name2=gone.name))
            game = (_t(lang, tr(" Game #{game_id} counts as their loss.", game_id=game_id))
                    if game_id else "")
            lines = [_t(lang, tr("{name} {why}; they play no more rounds.{game}", name=gone.name, why=why, game=game))]
        rendered = ctx.renderer.render("info", lang, player=player.name, title=title, lines=lines)
        queue_mail(session, ctx, to=player.address, kind="league", subject=f"{SERVICE_TAG} {title}", rendered=rendered)


# -- ratings -------------------------------------------------------------------------


def rating_history(session: Session, league: League, player_id: int, lang: str) -> list[str]:
    """One line per round the member was rated: the rating before → after, and the game."""
    ratings = session.exec(select(LeagueRating).where(LeagueRating.league_id == league.id,
                                                     LeagueRating.player_id == player_id)
                           .order_by(col(LeagueRating.round))).all()
    names = {m.player_id: p.name for m, p in season.members(session, league, active_only=False)}
    dropped = {m.player_id: m for m, _ in season.members(session, league, active_only=False) if m.status == "dropped"}
    before = START
    lines: list[str] = []
    for r in ratings:
        after = Rating(r.mu, r.sigma)
        lg = next((g for g in session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id,
                                                                     LeagueGame.round == r.round)).all()
                   if player_id in json.loads(g.seats)), None)
        game = game_line(league, lg, names, dropped, player_id, lang) if lg else "-"
        lines.append(_t(lang, tr("Round {round}: {shown:.1f} → {shown2:.1f}   {game}", round=r.round, shown=before.shown, shown2=after.shown, game=game)))
        before = after
    if not lines:
        lines.append(_t(lang, tr("No rated round yet.")))
    return lines


def game_notes(session: Session, player: Player, game_ids: list[int]) -> dict[int, str]:
    """For `games`: which league and round a game belongs to, and the player's rating there."""
    if not game_ids:
        return {}
    lang = player.lang
    out: dict[int, str] = {}
    rows = session.exec(select(LeagueGame, League).where(col(LeagueGame.game_id).in_(game_ids),
                                                         col(LeagueGame.league_id) == col(League.id))).all()
    for lg, league in rows:
        member = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id,
                                                         LeagueMember.player_id == player.id)).first()
        rating = Rating(member.mu, member.sigma).shown if member else START.shown
        out[lg.game_id] = _t(lang, tr("league {name}, round {round}; your rating {rating:.1f}", name=league.name, round=lg.round, rating=rating))
    return out

