"""The numbered menu of a mail shows each command in the reader's language (Vietnamese words
to Vietnamese players), and both words parse back to the same move."""

from __future__ import annotations

from engines.grizzled.engine import ENGINE as GRIZZLED
from engines.grizzled.scenario import position
from engines.tac.engine import ENGINE as TAC
from engines.tac.setup import position as tac_position
from service.outbound.notify import menu_context


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
