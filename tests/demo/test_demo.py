"""``pbem demo``: bot players finish real games over SMTP and IMAP, and the archive lists them."""

from __future__ import annotations

import email
import email.policy
import random
from pathlib import Path

import pytest

from service.demo.bots import GameView, MailBot
from service.demo.reading import read_mail
from service.demo.run import run_demo
from service.demo.styles import PERSONAS, Persona
from service.inbound.extract import new_text
from service.outbound.render import MARKER

TURN_MAIL = (
    "From: pbem <play@pbem.test>\r\nTo: ann@pbem.test\r\nReply-To: play+abcdefghij234567abcd@pbem.test\r\n"
    "Subject: [TAC #7] Your turn \u00b7 ref abcdefghij234567abcd\r\nMessage-ID: <t1@pbem.test>\r\n"
    "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\nMIME-Version: 1.0\r\n\r\n"
    f"{MARKER}\r\n\r\nIt is your turn, Ann.\r\n\r\nReply with a number or write a command:\r\n"
    "  1. 7 a4 c3 \u2014 move a4 to c3\r\n  2. 4 back c1 \u2014 c1 56\u219252\r\n\r\n-- \r\npbem\r\n"
).encode()


def test_read_mail_finds_game_key_and_menu() -> None:
    mail = read_mail(TURN_MAIL)
    assert mail.game == "TAC #7"
    assert mail.key == "abcdefghij234567abcd"
    assert [(m.number, m.command) for m in mail.menu] == [(1, "7 a4 c3"), (2, "4 back c1")]
    assert not mail.is_over and not mail.is_receipt


@pytest.mark.parametrize("persona", PERSONAS, ids=[p.name for p in PERSONAS])
def test_every_persona_reply_reads_back_as_its_choice(persona: Persona) -> None:
    """What each demo player writes is exactly what the service's extraction reads."""
    mail = read_mail(TURN_MAIL)
    bot = MailBot("ann@pbem.test", "pw", "Ann", persona, random.Random(3), "127.0.0.1", 1)
    assert bot.replies_due() == []  # no mail read yet: nothing to answer
    bot.games["TAC #7"] = GameView(latest=mail)
    [msg] = bot.replies_due()
    assert bot.replies_due() == []  # answered once
    text = new_text(email.message_from_bytes(msg.as_bytes(), policy=email.policy.default), MARKER)
    assert text in {"1", "2", "7 a4 c3", "4 back c1"}
    assert msg["To"] == "play+abcdefghij234567abcd@pbem.test"
    assert msg["In-Reply-To"] == "<t1@pbem.test>"


@pytest.mark.e2e
def test_demo_plays_games_to_the_end_by_mail(tmp_path: Path) -> None:
    result = run_demo(tmp_path / "demo", engine_ids=["tagteam", "grizzled"], seed=2, timeout=120)
    assert result.all_finished and not result.timed_out
    assert result.quarantined == 0
    assert all(g.moves > 0 and g.outcome for g in result.games)
    assert result.replies >= sum(g.moves for g in result.games)
    index = result.index_html.read_text(encoding="utf-8")
    for g in result.games:
        assert f"{g.engine_id.upper()} #{g.game_id}" in index
        for address in g.players:
            assert (result.mail_dir / address).is_dir()
    replies = [p.read_bytes() for p in (result.mail_dir / "play@pbem.test").glob("*.eml")]
    assert len(replies) == result.replies
    bodies = "\n".join(
        str(email.message_from_bytes(r, policy=email.policy.default).get_body(("plain",)).get_content())  # type: ignore[union-attr]
        for r in replies
    )
    assert "Gửi từ iPhone của tôi" in bodies  # Vietnamese client
    assert "\n> " in bodies  # quoting the whole mail
    assert "From: pbem" in bodies  # Outlook header block


def test_outcome_line_names_winners_draws_and_unfinished_games() -> None:
    from service.demo.outcome import outcome_line
    from service.demo.run import DemoGame

    game = DemoGame(1, "tac", ["a@x", "b@x", "c@x", "d@x"], ["An", "Bình", "Chi", "Dũng"], status="finished")
    game.outcome = '{"winners": [1, 3], "draw": false, "reason": {"en": "all home"}}'
    assert outcome_line(game) == "Bình and Dũng win (all home)"
    game.outcome = '{"winners": [], "draw": true, "reason": {"en": "turn limit"}}'
    assert outcome_line(game) == "draw (turn limit)"
    game.status = "active"
    assert outcome_line(game) == "unfinished"


@pytest.mark.slow
def test_league_demo_plays_a_season_by_mail(tmp_path: Path) -> None:
    """``pbem demo --league``: 4 bots, 3 rounds of Tag Team round robin, every game by mail."""
    result = run_demo(tmp_path / "league", league_players=4, league_rounds=3, timeout=600)
    assert result.league_status == "finished" and not result.timed_out
    assert len(result.games) == 6 and result.all_finished, "3 rounds of 2 games"
    assert result.quarantined == 0
    points = [float(line.split()[4]) for line in result.standings[1:]]  # "#  Player  Pl  W  Pts ..."
    assert sum(points) == pytest.approx(6.0), "one point per game"
    index = result.index_html.read_text(encoding="utf-8")
    assert "<h2>League</h2>" in index and "<table class='league'>" in index
    assert all(f"Round {r} results" in index for r in (1, 2, 3)), "every round's games and results"
    assert index.count("<a href='#game-") >= 6 and "id='game-" in index, "the games link to their mails"
