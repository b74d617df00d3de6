"""The first mail's "how to play by mail" lines and the ``rules`` answer's text.

Why apart from ``notify``: what a newcomer needs to read is its own small piece of text,
tested on its own (five lines, only the game's real names), and the ``rules`` command of
``play.player_commands`` answers with the same summary the first mail points to.
"""

from __future__ import annotations

from typing import Any

from engines.contract import Engine, tr
from engines.summary import rules_summary


def first_mail_lines(names: list[str], lang: str) -> list[str]:
    """Five lines: reply to play, a number or a command, one move per reply (quoting is fine),
    deadlines and how often mail comes, and where the rules and commands are. The only
    names used are the game's own players."""
    players = ", ".join(names)
    return [
        tr("How to play by mail: reply to the latest mail of this game, writing above the marker line.")[lang],
        tr("Write the number of a menu line (e.g. `1`) or the move as text — one move per reply.")[lang],
        tr("Quoting our mail below your answer is fine: only your own new lines are read.")[lang],
        tr("Every decision has a deadline (shown in the mail); you get a mail when it is your turn and a short receipt for each reply (`mail turns|every|daily` sets how much mail you get).")[lang],
        tr("The rules in short: reply `rules`; every command: `help`. Players: {players}.", players=players)[lang],
    ]


def rules_lines(engine: Engine[Any], lang: str) -> list[str]:
    """The ``rules`` answer: the engine's summary, or a sentence saying there is none."""
    lines = rules_summary(engine.id, lang)
    if lines:
        return lines
    return [tr("This game has no rules summary yet.")[lang]]
