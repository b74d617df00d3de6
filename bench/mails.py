"""Mails per game: how many mails each seat gets, by kind, and how long a turn mail is.

A benchmark, not a test: ``python -m bench.mails [--mode turns|every|daily] [--seed N]``.
It plays one game of every engine as the demo does (the demo's player counts and options,
random menu choices, seeded), but in process: each reply goes straight to
``play.replies.handle_game_reply`` — the same code a mail from the inbox reaches — and the
mails are counted in the outbox instead of being delivered. Players alternate English and
Vietnamese like the demo's personas. Why in process: the whole demo over the local mail
stack takes minutes on a shared machine; the outbox holds exactly what would be sent.

Per engine it prints: the seats' replies (own decisions), the mails per seat by kind, and the
text part of the turn mails (lines and bytes: median and maximum) in each language. The clock
moves an hour per reply; with ``--mode daily`` the digest job runs after every reply.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import random
import statistics
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import col, select

from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.demo.run import DEMO_SETUP, NAMES
from service.outbound.keys import KeyInfo
from service.play.replies import handle_game_reply
from service.play.start import create_game
from service.store.games import create_player, load, seats_of
from service.store.models import Game, Outbox, Player

#: Moves after which a game is stopped (Barcadia's random play can run long).
MAX_REPLIES = 3000


@dataclass
class EngineMails:
    engine: str
    seats: int
    replies: int
    mails: int
    by_kind: Counter[str] = field(default_factory=Counter)
    turn_lines: dict[str, list[int]] = field(default_factory=dict)
    turn_bytes: dict[str, list[int]] = field(default_factory=dict)
    receipt_lines: list[int] = field(default_factory=list)
    finished: bool = True
    #: the longest turn mail's text per language, and one receipt (``--show``)
    samples: dict[str, str] = field(default_factory=dict)

    def row(self) -> str:
        per_seat = {k: v / self.seats for k, v in sorted(self.by_kind.items())}
        kinds = ", ".join(f"{k} {v:.1f}" for k, v in per_seat.items())
        sizes = []
        for lang in sorted(self.turn_lines):
            lines, sizes_b = self.turn_lines[lang], self.turn_bytes[lang]
            sizes.append(f"{lang}: {statistics.median(lines):.0f}/{max(lines)} lines, "
                         f"{statistics.median(sizes_b):.0f}/{max(sizes_b)} B")
        receipts = (f"; receipt lines median {statistics.median(self.receipt_lines):.0f} max {max(self.receipt_lines)}"
                    if self.receipt_lines else "")
        return (f"{self.engine:9} seats {self.seats}  replies/seat {self.replies / self.seats:6.1f}  "
                f"mails/seat {self.mails / self.seats:6.1f}  ({kinds})\n"
                f"{'':9} turn mail text (median/max): {'; '.join(sizes)}{receipts}"
                f"{'' if self.finished else '  [stopped unfinished]'}")


def text_part(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    body = msg.get_body(("plain",))  # type: ignore[attr-defined]
    return str(body.get_content()) if body is not None else ""


def measure(engine_id: str, *, mode: str = "turns", seed: int = 1, folder: Path) -> EngineMails:
    """Play one demo game of ``engine_id`` in process and count what the outbox holds."""
    players, options = DEMO_SETUP.get(engine_id, (2, {}))
    settings = Settings(database_url=f"sqlite:///{folder / (engine_id + '.db')}", service_address="play@pbem.test",
                        secret="bench-secret-0123456789abcdef", imap_ssl=False, pictures=False)
    clock = ManualClock()
    ctx = AppContext.create(settings, clock)
    rng = random.Random(seed)
    with ctx.session() as s:
        addresses = []
        for n in range(players):
            address = f"p{n}@pbem.test"
            player = create_player(s, address, NAMES[n], "en" if n % 2 == 0 else "vi", ctx=ctx)
            if hasattr(player, "mail_mode"):  # absent before the setting existed (the "before" run)
                player.mail_mode = mode
                player.last_digest_at = clock.now()
            addresses.append(address)
        game = create_game(s, engine_id, addresses, options, seed, ctx=ctx)
        s.commit()
        game_id = game.id
    assert game_id is not None
    replies = 0
    while replies < MAX_REPLIES:
        with ctx.session() as s:
            game = s.get_one(Game, game_id)
            if game.status != "active":
                break
            engine, state = load(game)
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            seat = to_act[rng.randrange(len(to_act))]
            seat_row, player = next((r, p) for r, p in seats_of(s, game_id) if r.seat == seat)
            menu = engine.menu(state, seat)
            choice = menu[rng.randrange(len(menu))]
            line = choice.command
            key = KeyInfo(game_id, seat, engine.decision_key(state, seat))
            handle_game_reply(s, ctx, game, key, seat_row, player, [line], None)
            s.commit()
        replies += 1
        clock.advance(hours=1)  # a reply an hour: the daily digests below go out at their hour
        if mode == "daily":
            from service.schedule.digests import send_daily_digests  # lazy: the "before" code has none

            with ctx.session() as s:
                send_daily_digests(s, ctx)
                s.commit()
    with ctx.session() as s:
        rows = s.exec(select(Outbox).where(Outbox.game_id == game_id).order_by(col(Outbox.id))).all()
        langs = {p.address: p.lang for p in s.exec(select(Player)).all()}
        finished = s.get_one(Game, game_id).status != "active"
    out = EngineMails(engine_id, players, replies, len(rows), finished=finished)
    for row in rows:
        out.by_kind[row.kind] += 1
        if row.kind == "turn":
            text = text_part(row.raw)
            lang = langs.get(row.to_address, "en")
            out.turn_lines.setdefault(lang, []).append(len(text.splitlines()))
            if len(text.splitlines()) > len(out.samples.get(lang, "").splitlines()):
                out.samples[lang] = text
            out.turn_bytes.setdefault(lang, []).append(len(text.encode("utf-8")))
        elif row.kind in ("moved", "received"):
            out.receipt_lines.append(len(text_part(row.raw).splitlines()))
            out.samples.setdefault("receipt", text_part(row.raw))
    ctx.db.dispose()
    return out


def run(mode: str = "turns", seed: int = 1, engine_ids: list[str] | None = None) -> list[EngineMails]:
    with tempfile.TemporaryDirectory() as tmp:
        return [measure(e, mode=mode, seed=seed, folder=Path(tmp)) for e in (engine_ids or list(DEMO_SETUP))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="turns", choices=("every", "turns", "daily"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print the longest turn mail per language and a receipt")
    parser.add_argument("--write", metavar="DIR", help="write those mails to DIR/ENGINE-{en,vi,receipt}.txt")
    parser.add_argument("engines", nargs="*")
    args = parser.parse_args(argv)
    print(f"mail mode {args.mode}, seed {args.seed}")
    for result in run(args.mode, args.seed, args.engines or None):
        print(result.row())
        for name, text in result.samples.items():
            if args.show:
                print(f"----- {result.engine}: {name} -----\n{text}")
            if args.write:
                Path(args.write).mkdir(parents=True, exist_ok=True)
                (Path(args.write) / f"{result.engine}-{name}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

