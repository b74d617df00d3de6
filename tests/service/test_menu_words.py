"""The numbered menu of a mail shows each command in the reader's language (Vietnamese words
to Vietnamese players), and both words parse back to the same move."""

from __future__ import annotations

from pathlib import Path

from engines.grizzled.engine import ENGINE as GRIZZLED
from engines.grizzled.scenario import position
from engines.tac.engine import ENGINE as TAC
from engines.tac.setup import position as tac_position
from service.outbound.notify import menu_context
from service.play.start import create_game
from service.store.games import create_player
from tests.service.test_reading import deliver, make_ctx, moves, outbox, sent_plain


def test_a_vietnamese_reader_sees_vietnamese_commands() -> None:
    s = position(3, hands=[["rain shell", "phobia gas"], [], []], tiles=[["left", "right"], [], []])
    vi = {row["command"] for row in menu_context(GRIZZLED, s, 0, "vi")}
    en = {row["command"] for row in menu_context(GRIZZLED, s, 0, "en")}
    assert {"đánh mưa đạn pháo", "đánh nỗi ám ảnh mặt nạ khí", "rút lui trái"} <= vi
    assert {"play rain shell", "play phobia gas", "withdraw left"} <= en
    for command in vi | en:
        GRIZZLED.parse(s, 0, command)  # every shown command is accepted


def test_tac_menus_too() -> None:
    s = tac_position("a10", {0: ["13", "4"]})
    assert {"13 mở", "4 lùi a1"} <= {row["command"] for row in menu_context(TAC, s, 0, "vi")}


def test_the_done_line_answers_a_vietnamese_player_in_vietnamese_words(tmp_path: Path) -> None:
    ctx = make_ctx(tmp_path)
    with ctx.session() as s:
        players = [create_player(s, f"{n}@x.test", n.title(), lang, ctx=ctx).address
                   for n, lang in (("an", "vi"), ("bob", "en"))]
        create_game(s, "grizzled", players, seed=5, ctx=ctx)
        s.commit()
    first = outbox(ctx, "an@x.test")[0]
    assert "1. chọn felix —" in sent_plain(first)
    deliver(ctx, "an@x.test", f"play+{first.reply_key}@pbem.test", "1\n", In_Reply_To=first.message_id)
    assert moves(ctx) == ["1"]
    answer = sent_plain(outbox(ctx, "an@x.test")[-1])
    assert "1 → chọn felix" in answer and "choose felix" not in answer
    bob = outbox(ctx, "bob@x.test")[0]
    assert "1. choose felix —" in sent_plain(bob)
    deliver(ctx, "bob@x.test", f"play+{bob.reply_key}@pbem.test", "chọn gustave\n", In_Reply_To=bob.message_id)
    assert "chọn gustave → choose gustave" in sent_plain(outbox(ctx, "bob@x.test")[-1])
