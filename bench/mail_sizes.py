"""Turn-mail sizes per engine and language: lines and bytes of the text part, and digest lines.

Why: a turn mail should fit about two phone screens; this plays one seeded bot game per engine,
renders every turn mail the seat to act would get (engine view + the service's templates, no
mail server) and prints the median and largest. ``python -m bench.mail_sizes``.
"""

from __future__ import annotations

import random
import statistics
from typing import Any

from engines.registry import get
from service.outbound.notify import menu_context
from service.outbound.render import Renderer

NAMES = ["An", "Dũng", "Chi", "Bảo"]


def game_sizes(engine_id: str, lang: str, players: int, seed: int = 7) -> str:
    """One summary line for a seeded bot game of ``engine_id`` read in ``lang``."""
    engine: Any = get(engine_id)
    names = NAMES[:players]
    state = engine.new_game(names, None, seed)
    rng = random.Random(seed)
    bot = engine.bots().get("heuristic") or next(iter(engine.bots().values()))
    renderer = Renderer()
    digest: dict[int, list[str]] = {i: [] for i in range(players)}
    sizes: list[tuple[int, int, int]] = []
    for _ in range(3000):
        acting = sorted(engine.to_act(state))
        if not acting:
            break
        seat = acting[0]
        mail = renderer.render("turn", lang, player=names[seat], players=names,
                               game={"id": 1, "title": engine.title}, digest=digest[seat],
                               board=engine.render_view(engine.view(state, seat), lang),
                               menu=menu_context(engine, state, seat, lang), deadline="-", to_act=True,
                               waiting=0, outcome="", final_board=False)
        sizes.append((len(mail.text.splitlines()), len(mail.text.encode()), len(digest[seat])))
        digest[seat] = []
        state, events = engine.apply(state, seat, bot.choose(engine, state, seat, rng))
        for event in events:
            for other in range(players):
                if event.visible(other):
                    digest[other].append(event.text.get(lang))
    lines, size, told = (list(x) for x in zip(*sizes, strict=True))
    return (f"{engine_id} {players}p {lang}: {len(sizes)} turn mails; lines median {statistics.median(lines):.0f} "
            f"max {max(lines)}; bytes median {statistics.median(size):.0f} max {max(size)}; "
            f"digest lines median {statistics.median(told):.0f} max {max(told)}")


def main() -> None:
    for engine_id, players in (("barcadia", 4), ("barcadia", 2), ("tagteam", 2)):
        for lang in ("en", "vi"):
            print(game_sizes(engine_id, lang, players))


if __name__ == "__main__":
    main()
