"""Whole games' mails, rendered without a database: bots play an engine through its API and the
service's renderer writes every seat's mails, as ``notify.mail_to_seat`` assembles them.

Used by the catalog checks (no English in a Vietnamese mail) and by the third-language test.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import engines
from service.outbound.notify import menu_context, outcome_text
from service.outbound.render import Renderer

#: every engine with the player counts the checks play; seeded, so the mails are the same each run
GAMES: list[tuple[str, int, int]] = [("tac", 4, 3), ("tagteam", 2, 5), ("grizzled", 3, 2), ("barcadia", 4, 7)]
MAX_STEPS = 400
NAMES = ["Ann", "Bao", "Chi", "Dung", "Em", "Phuong"]


@dataclass(frozen=True)
class Mail:
    engine: str
    purpose: str
    seat: int
    subject: str
    text: str


def game_mails(engine_id: str, players: int, seed: int, lang: str, renderer: Renderer,
               steps: int = MAX_STEPS) -> Iterator[Mail]:
    """The started, turn/moved and over mails of one bot-played game, in ``lang``."""
    engine: Any = engines.get(engine_id)
    names = NAMES[:players]
    state = engine.new_game(names, None, seed)
    rng = random.Random(seed)
    bots = engine.bots()
    bot = bots.get("heuristic") or bots.get("random")
    digests: dict[int, list[str]] = {s: [] for s in range(players)}

    def mail(purpose: str, seat: int, over: bool = False) -> Mail:
        to_act = engine.to_act(state)
        view = engine.view(state, seat)
        values = {
            "player": names[seat], "players": names, "game": {"id": 1, "title": engine.title},
            "digest": digests[seat], "board": engine.render_view(view, lang),
            "menu": [] if over else menu_context(engine, state, seat, lang),
            "to_act": seat in to_act, "waiting": len(to_act - {seat}),
            "outcome": outcome_text(engine.outcome(state), names, lang), "final_board": over,
            "deadline": None,
        }
        rendered = renderer.render(purpose, lang, **values)
        digests[seat] = []
        return Mail(engine_id, purpose, seat, rendered.subject, rendered.text)

    for seat in range(players):
        yield mail("started", seat)
    for _ in range(steps):
        if engine.is_over(state):
            break
        seat = min(engine.to_act(state))
        action = bot.choose(engine, state, seat, rng) if bot else rng.choice(engine.legal_actions(state, seat)).action
        state, events = engine.apply(state, seat, action)
        for s in range(players):
            digests[s] += [e.text.get(lang) for e in events if e.visible(s)]
        for s in sorted(engine.to_act(state)):
            yield mail("turn", s)
        yield mail("moved", seat)
    if engine.is_over(state):
        for seat in range(players):
            yield mail("over", seat, over=True)


#: common English words that are not Vietnamese words when written without diacritics
ENGLISH_WORDS = frozenset(["the", "of", "and", "is", "are", "your", "you", "with", "for", "this", "that", "from", "has", "have", "will", "not", "their", "when", "then", "must", "each", "which", "there", "been", "into", "its", "it", "was", "were", "would", "should", "could", "they", "them", "these", "those", "what", "who", "while", "only", "also", "more", "than", "other", "after", "before", "until", "may", "can", "any", "all", "but", "our", "his", "her", "she", "he", "we", "be"])

_WORD = re.compile(r"[A-Za-z']+")


def english_words(line: str) -> set[str]:
    """The distinct common English words of a line; commands (quoted or `code`) and «names»
    (a card's own name, which stays as printed) are left out."""
    line = re.sub(r"`[^`]*`|\"[^\"]*\"|«[^»]*»", " ", line)
    return {w.lower() for w in _WORD.findall(line)} & ENGLISH_WORDS


def looks_english(line: str) -> bool:
    """A line reads as an English sentence: three or more distinct common English words."""
    return len(english_words(line)) >= 3


_FIELD = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)s")


def english_pieces(catalog: Any) -> set[str]:
    """The fixed English pieces of every message whose translation differs from it: text between
    fields, at least two words and 12 characters (shorter ones are names and commands)."""
    out: set[str] = set()
    for message in catalog:
        if not message.id or not isinstance(message.id, str) or message.string == message.id:
            continue
        for piece in _FIELD.split(message.id):
            piece = piece.strip(" .,:;—-()")
            if len(piece) >= 12 and " " in piece and re.search(r"[a-z]{3}", piece):
                out.add(piece)
    return out
