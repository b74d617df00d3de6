"""What league members are told: the round summary (results, byes, absences, drops, the
standings as a text and an HTML table, the next pairing), tie-break chains, ratings, abandoned
seats dropping a member — and the round mail read by Chromium at phone width."""

from __future__ import annotations

import email
import email.policy
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.leagues import report, season
from service.leagues import rounds as league_rounds
from service.leagues.scoring import Row, parse_tie_breaks, standings
from service.schedule.deadlines import act_on_missed
from service.store.games import create_player, load, log_move, save_state
from service.store.league_models import League, LeagueGame, LeagueMember
from service.store.models import Game, GameSeat, Outbox, Player
from tests.service.test_mail_in_browser import browser  # noqa: F401  (the shared Chromium fixture)

from .test_leagues import _play_out

NAMES = ["Anh", "Bình", "Chi", "Dũng", "Em", "Phúc"]


def _ctx(settings: Settings, db: Engine) -> AppContext:
    return AppContext(settings=settings, db=db, clock=ManualClock())


def _league(s: Session, ctx: AppContext, count: int, **kw: Any) -> League:
    league = season.new_league(s, ctx, "autumn", "tagteam", **kw)
    for i in range(count):
        season.join(s, ctx, league.name, create_player(s, f"p{i}@x.test", NAMES[i], "vi" if i % 2 else "en", ctx=ctx))
    return league


def _mails(s: Session, address: str, kind: str = "league") -> list[email.message.EmailMessage]:
    raws = s.exec(select(Outbox.raw).where(Outbox.to_address == address, Outbox.kind == kind)
                  .order_by(col(Outbox.id))).all()
    return [email.message_from_bytes(raw, policy=email.policy.default) for raw in raws]  # type: ignore[misc]


def _parts(msg: Any) -> tuple[str, str]:
    return str(msg.get_body(("plain",)).get_content()), str(msg.get_body(("html",)).get_content())


# -- tie-breaks ----------------------------------------------------------------------


def test_the_tie_break_chain_orders_the_standings() -> None:
    rows = [Row(1, "Ann", points=2, buchholz=3, wins=2), Row(2, "Bob", points=2, buchholz=5, wins=1),
            Row(3, "Cat", points=2, buchholz=3, wins=1), Row(4, "Dan", points=3, buchholz=0, dropped=True)]
    meetings = {(3, 1): 1.0, (1, 3): 0.0, (2, 1): 0.0, (1, 2): 1.0}
    by_default = [r.name for r in standings(rows)]
    assert by_default == ["Bob", "Ann", "Cat", "Dan"], "Buchholz, then wins; a dropped member is last"
    assert [r.name for r in standings(rows, ("points", "wins", "buchholz"))] == ["Ann", "Bob", "Cat", "Dan"]
    # head-to-head counts only games among the tied: Cat beat Ann, Ann beat Bob -> Ann 1, Cat 1, Bob 0
    assert [r.name for r in standings(rows, ("points", "h2h", "buchholz"), meetings)] == ["Ann", "Cat", "Bob", "Dan"]
    tied = [Row(1, "Ann", points=2), Row(3, "Cat", points=2)]
    assert [r.name for r in standings(tied, ("points", "h2h"), meetings)] == ["Cat", "Ann"], "Cat beat Ann"
    assert parse_tie_breaks("h2h, wins") == ("points", "h2h", "wins")
    for bad, message in (("points,elo", "unknown tie-break 'elo'"), ("wins,wins", "twice"), (",", "empty")):
        with pytest.raises(ValueError, match=message):
            parse_tie_breaks(bad)


def test_a_league_keeps_its_tie_breaks(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league = season.new_league(s, ctx, "h2h-cup", "tagteam", tie_breaks="points,h2h,wins")
        assert league.tie_breaks == "points,h2h,wins"
        with pytest.raises(season.LeagueError, match="bad --tie-breaks: unknown tie-break 'luck'"):
            season.new_league(s, ctx, "x", "tagteam", tie_breaks="luck")


# -- the round mail ------------------------------------------------------------------


def _first_round(s: Session, ctx: AppContext) -> tuple[League, list[LeagueGame], Player, Player]:
    """5 members, Tag Team round robin: one away on vacation, one dropping out mid-round."""
    league = _league(s, ctx, 5, rounds=3)
    away = s.exec(select(Player).where(Player.address == "p4@x.test")).one()
    away.away_until = ctx.clock.now() + timedelta(days=2)
    season.start(s, ctx, league.name)
    games = list(s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all())
    quitter_id = json.loads(games[0].seats)[1]
    quitter = s.get_one(Player, quitter_id)
    member = s.exec(select(LeagueMember).where(LeagueMember.player_id == quitter_id)).one()
    season.drop(s, ctx, league, member)
    for lg in games[1:]:
        _play_out(s, ctx, lg.game_id)
    assert league_rounds.advance(s, ctx, league)
    return league, games, away, quitter


def test_the_round_mail_tells_each_member_the_round_the_standings_and_their_next_game(
        settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league, games, away, quitter = _first_round(s, ctx)
        played = s.get_one(Game, games[1].game_id)
        winner_seat = json.loads(played.outcome or "{}").get("winners", [None])
        round2 = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id, LeagueGame.round == 2)).all()
        for member, player in season.members(s, league, active_only=False):
            (mail,) = _mails(s, player.address)
            text, html = _parts(mail)
            vi = player.lang == "vi"
            assert ("Kết quả vòng 1" if vi else "Round 1 results") in text
            assert f"#{games[0].game_id} " in text and f"#{games[1].game_id} " in text
            if player.id != quitter.id:
                assert (f"{quitter.name} rời giải nên ván được tính là thua" if vi
                        else f"{quitter.name} left the league, so it counts as their loss") in text
            if player.id == away.id:
                assert ("Bạn vắng mặt vòng này" if vi else "You sat this round out, away on vacation") in text
            else:
                assert (f"{away.name} vắng mặt vòng này" if vi else f"{away.name} sat this round out") in text
            assert ("Bảng xếp hạng sau vòng 1" if vi else "Standings after round 1") in text
            mine = next(line for line in text.splitlines() if line.endswith("←"))
            assert player.name in mine, "the reader's own row is marked"
            assert '<table class="pb-table"' in html and "pb-mine" in html and "<th scope=\"col\"" in html
            legend = ("BH (Buchholz): tổng điểm của những người bạn đã gặp" if vi
                      else "BH (Buchholz): the points of everyone you played, added up")
            assert legend in text and legend in html, "the short column heads are explained"
            assert ("Hệ số" if vi else "Rating") in text.split(legend)[1], "and the rating"
            if member.status == "dropped":
                assert player.id == quitter.id
                assert ("bạn rời giải nên ván được tính là bạn thua" if vi else "so it counts as your loss") in text
                continue
            in_round2 = [lg for lg in round2 if player.id in json.loads(lg.seats)]
            if in_round2:
                assert (f"Ván của bạn: #{in_round2[0].game_id} gặp" if vi else
                        f"Your game: #{in_round2[0].game_id} against") in text
            elif player.id == away.id:  # still away when round 2 was paired
                assert ("Bạn không thi đấu vòng này (bạn đang vắng mặt)" if vi else "You sit this round out") in text
            else:
                assert ("Bạn được nghỉ vòng này" if vi else "You have a bye this round") in text
        assert winner_seat is not None


def test_the_standings_and_ratings_answers_and_games_note(settings: Settings, db: Engine) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        league, games, _, _ = _first_round(s, ctx)
        seats = json.loads(games[1].seats)
        player = s.get_one(Player, seats[0])
        lines = report.rating_history(s, league, seats[0], player.lang)
        assert len(lines) == 1 and "0.0 →" in lines[0] and f"#{games[1].game_id}" in lines[0]
        round2 = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id, LeagueGame.round == 2)).all()
        someone = s.get_one(Player, json.loads(round2[0].seats)[0])
        notes = report.game_notes(s, someone, [round2[0].game_id, 9999])
        member = next(m for m, p in season.members(s, league) if p.id == someone.id)
        shown = f"{member.mu - 3 * member.sigma:.1f}"
        assert list(notes) == [round2[0].game_id] and "autumn" in notes[round2[0].game_id]
        assert shown in notes[round2[0].game_id]


def test_an_abandoned_seat_drops_the_member_and_settles_the_game(settings: Settings, db: Engine) -> None:
    """The deadline policy abandons a seat after K missed deadlines; the league then drops
    the member, settles their game as their loss and tells everyone."""
    settings = settings.model_copy(update={"abandon_after_misses": 1})
    ctx = _ctx(settings, db)
    clock = ctx.clock
    assert isinstance(clock, ManualClock)
    with ctx.session() as s:
        league = _league(s, ctx, 4, rounds=2, policy="hours=24 grace=0 miss=default")
        season.start(s, ctx, league.name)
        lg = s.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).first()
        assert lg is not None
        game = s.get_one(Game, lg.game_id)
        engine, state = load(game)  # one player is on time, the other never answers
        seat = min(engine.to_act(state))
        action = engine.default_action(state, seat)
        state, events = engine.apply(state, seat, action)
        log_move(s, ctx, game, seat, "(bot)", action, events, engine.state_version(state))
        save_state(s, ctx, game, engine, state)
        clock.advance(hours=25)
        assert act_on_missed(s, ctx, lg.game_id)
        s.flush()
        seats = json.loads(lg.seats)
        abandoned = {row.player_id for row in s.exec(select(GameSeat).where(GameSeat.game_id == lg.game_id)).all()
                     if row.abandoned_at is not None}
        assert len(abandoned) == 1, "the policy abandoned the late seat"
        assert set(league_rounds.drop_abandoned(s, ctx, league)) == abandoned
        dropped = [m for m, _ in season.members(s, league, active_only=False) if m.status == "dropped"]
        assert {m.player_id for m in dropped} == abandoned and {m.drop_reason for m in dropped} == {"abandoned"}
        first = seats.index(dropped[0].player_id)
        assert lg.settled == "dropped" and json.loads(lg.points or "[]")[first] == 0.0
        assert game.status == "settled"
        for member in dropped:
            out = s.get_one(Player, member.player_id)
            told = [_parts(m)[0] for m in _mails(s, out.address)]
            assert any(("quá nhiều lần liền" if out.lang == "vi" else "missed too many deadlines") in t for t in told)
        for _, other in season.members(s, league):
            texts = [_parts(m)[0] for m in _mails(s, other.address)]
            assert all(any(s.get_one(Player, m.player_id).name in t for t in texts) for m in dropped)
            assert any(f"#{lg.game_id}" in t for t in texts), "the others learn which game it decided"
            over = _mails(s, other.address, kind="over")
            assert bool(over) == (other.id in seats), "the game is over for its players only"
        assert not league_rounds.drop_abandoned(s, ctx, league), "once only"


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_round_mail_reads_on_a_phone(lang: str, browser: Any, settings: Settings, db: Engine,  # noqa: F811
                                         tmp_path: Path) -> None:
    ctx = _ctx(settings, db)
    with ctx.session() as s:
        _first_round(s, ctx)
        address = "p0@x.test" if lang == "en" else "p1@x.test"
        _, html = _parts(_mails(s, address)[-1])
    page_file = tmp_path / "round.html"
    page_file.write_text(html, encoding="utf-8")
    for scheme in ("light", "dark"):
        page = browser.new_page(viewport={"width": 390, "height": 844}, color_scheme=scheme)
        page.goto(page_file.as_uri())
        found = page.evaluate("""() => {
          const vw = window.innerWidth, t = document.querySelector('table.pb-table');
          const r = t.getBoundingClientRect();
          const cells = [...t.querySelectorAll('th, td')].filter(c => {
              const b = c.getBoundingClientRect(); return b.right > vw + 1 || b.left < 0; }).length;
          return {scroll: document.documentElement.scrollWidth, vw, left: r.left, right: r.right,
                  rows: t.querySelectorAll('tr:has(td)').length, cells, texts: [...t.querySelectorAll('tbody tr')].map(r => r.textContent),
                  mine: getComputedStyle(t.querySelector('tr.pb-mine')).fontWeight};
        }""")
        page.close()
        assert found["scroll"] <= found["vw"], f"{lang}/{scheme}: horizontal scroll {found}"
        assert found["left"] >= 0 and found["right"] <= found["vw"] + 1 and found["cells"] == 0, found
        assert found["rows"] == 5 and int(found["mine"]) >= 600, (found["rows"], found["texts"], found["mine"])
