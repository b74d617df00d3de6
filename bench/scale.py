"""``pbem bench scale``: does one poll cycle cost grow with new mail or with the number of games?

Builds 10,000 live TAC games (40,000 players) in SQLite, puts 100 replies in the inbox and
times one poll cycle (fetch, pipeline, outbox flush) at 1,000 games and again at 10,000.

Creating 10,000 games through ``create_game`` (rendering every start mail) would take minutes,
so ``World`` creates a few template games the normal way and then bulk-inserts copies of them:
same engine state, new players, fresh seats and reply keys issued exactly as the service
issues them (``make_key`` of the game, seat and decision). ``bench.pipeline`` uses the same
world. A benchmark, not a test: numbers drift ±30 % on a shared machine; compare within a run.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import random
import secrets
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert
from sqlmodel import select

import engines
from service.config import Settings
from service.outbound.keys import make_key, reply_address
from service.outbound.render import subject_tag
from service.play.start import create_game
from service.schedule.runtime import Service
from service.store.games import create_player
from service.store.models import Game, GameSeat, InboundMail, Outbox, Player, ReplyKey

SERVICE_ADDRESS = "play@pbem.test"
SERVICE_PASSWORD = "pbem"
TEMPLATES_PER_ENGINE = 4


def bench_settings(stack: Any, db_path: Path, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{db_path}",
        "service_address": SERVICE_ADDRESS,
        "secret": secrets.token_hex(16),
        "imap_host": stack.host,
        "imap_port": stack.imap_port,
        "imap_user": SERVICE_ADDRESS,
        "imap_password": SERVICE_PASSWORD,
        "imap_ssl": False,
        "smtp_host": stack.host,
        "smtp_port": stack.smtp_port,
        "error_answers_per_day": 1_000_000, "answers_per_hour": 1_000_000, "answers_per_day": 1_000_000,
    }
    values.update(extra)
    return Settings(**values)


@dataclass
class Template:
    """A game created the normal way, whose state and start mails the copies reuse."""

    engine_id: str
    players: int
    options: str
    seed: int
    state: str
    mail_text: dict[int, str]  # seat -> text of its "the game starts" mail


@dataclass
class LiveSeat:
    game_id: int
    engine_id: str
    seat: int
    address: str
    key: str
    template: Template


@dataclass
class World:
    """Live games in a service database, with the seat that must act in each one."""

    service: Service
    templates: list[Template] = field(default_factory=list)
    to_act: list[LiveSeat] = field(default_factory=list)
    players: int = 0

    @property
    def games(self) -> int:
        return len(self.to_act)

    def add_templates(self, engine_ids: Sequence[str], seed: int = 1) -> None:
        ctx = self.service.ctx
        for engine_id in engine_ids:
            engine = engines.get(engine_id)
            count = engine.max_players if engine_id == "tac" else engine.min_players
            for n in range(TEMPLATES_PER_ENGINE):
                with self.service.session() as s:
                    addresses = [f"template{n}.{seat}.{engine_id}@players.test" for seat in range(count)]
                    for address in addresses:
                        create_player(s, address, address.split("@")[0], ctx=ctx)
                    game = create_game(s, engine_id, addresses, None, seed + n, ctx=ctx)
                    s.commit()
                    assert game.id is not None
                    mails = s.exec(select(Outbox).where(Outbox.game_id == game.id)).all()
                    texts: dict[int, str] = {}
                    for row in mails:
                        seat = addresses.index(row.to_address)
                        msg = email.message_from_bytes(row.raw, policy=email.policy.default)
                        body = msg.get_body(("plain",))
                        texts[seat] = str(body.get_content()) if body is not None else ""
                        row.status = "sent"  # setup mail: not part of any measurement
                    s.commit()
                    self.templates.append(
                        Template(engine_id, count, game.options, game.seed, game.state, texts)
                    )

    def add_games(self, count: int, rng: random.Random) -> float:
        """Bulk-insert ``count`` copies of the templates; returns seconds taken."""
        started = time.perf_counter()
        ctx = self.service.ctx
        now = ctx.clock.now()
        deadline = now + timedelta(days=30)
        with self.service.session() as s:
            next_game = (s.exec(select(func.max(Game.id))).one() or 0) + 1
            next_player = (s.exec(select(func.max(Player.id))).one() or 0) + 1
            games: list[dict[str, Any]] = []
            players: list[dict[str, Any]] = []
            seats: list[dict[str, Any]] = []
            keys: list[dict[str, Any]] = []
            for n in range(count):
                template = self.templates[rng.randrange(len(self.templates))]
                engine = engines.get(template.engine_id)
                state = engine.from_json(template.state)
                game_id = next_game + n
                games.append(
                    {
                        "id": game_id,
                        "engine": template.engine_id,
                        "options": template.options,
                        "seed": template.seed,
                        "state": template.state,
                        "version": 0,
                        "status": "active",
                        "deadline": deadline,
                        "outcome": None,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
                acting = sorted(engine.to_act(state))
                for seat in range(template.players):
                    player_id = next_player
                    next_player += 1
                    address = f"p{player_id}@players.test"
                    players.append(
                        {
                            "id": player_id,
                            "address": address,
                            "name": f"P{player_id}",
                            "lang": "en",
                            "tz": "UTC",
                            "vacation": False,
                            "created_at": now,
                        }
                    )
                    key = None
                    if seat in acting:
                        key = make_key(ctx.key_secret, game_id, seat, engine.decision_key(state, seat))
                        keys.append(
                            {
                                "key": key,
                                "game_id": game_id,
                                "seat": seat,
                                "decision": engine.decision_key(state, seat),
                                "created_at": now,
                            }
                        )
                        if seat == acting[0]:
                            self.to_act.append(
                                LiveSeat(game_id, template.engine_id, seat, address, key, template)
                            )
                    seats.append(
                        {
                            "game_id": game_id,
                            "seat": seat,
                            "player_id": player_id,
                            "reply_key": key,
                            "last_log_id": 0,
                        }
                    )
            s.execute(insert(Player), players)
            s.execute(insert(Game), games)
            s.execute(insert(GameSeat), seats)
            s.execute(insert(ReplyKey), keys)
            s.commit()
        self.players += len(players)
        return time.perf_counter() - started


def reply_for(live: LiveSeat, rng: random.Random, domain: str = "pbem.test") -> EmailMessage:
    """A player's reply to its start mail: first legal option, as a number or as text, quoting."""
    engine = engines.get(live.engine_id)
    state = engine.from_json(live.template.state)
    menu = engine.menu(state, live.seat)
    number = rng.randrange(len(menu))
    answer = str(number + 1) if rng.random() < 0.5 else menu[number].command
    original = live.template.mail_text.get(live.seat, "")
    quoted = "\n".join(f"> {line}".rstrip() for line in original.splitlines())
    msg = EmailMessage()
    msg["From"] = live.address
    msg["To"] = reply_address(SERVICE_ADDRESS, live.key)
    msg["Subject"] = f"Re: {subject_tag(live.engine_id, live.game_id)} The game starts · ref {live.key}"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"{answer}\n\nOn Mon, 30 Nov 2026 at 10:00, pbem <{msg['To']}> wrote:\n{quoted}\n")
    return msg


async def inject(stack: Any, messages: Sequence[EmailMessage]) -> list[float]:
    """Send the replies into the service mailbox over one SMTP connection; arrival times."""
    import aiosmtplib

    arrivals: list[float] = []
    smtp = aiosmtplib.SMTP(hostname=stack.host, port=stack.smtp_port, timeout=60)
    await smtp.connect()
    try:
        for msg in messages:
            await smtp.send_message(msg, sender=str(msg["From"]), recipients=[str(msg["To"])])
            arrivals.append(time.time())
    finally:
        await smtp.quit()
    return arrivals


async def poll_cycle(service: Service, expected: int) -> float:
    """Seconds for the service to take in ``expected`` new replies and send what they cause."""
    started = time.perf_counter()
    handled = 0
    for _ in range(1000):
        handled += await service.poll_once()  # the default batch, as serve_forever polls
        await service.flush_outbox()
        if handled >= expected and await _outbox_empty(service):
            break
    return time.perf_counter() - started


async def _outbox_empty(service: Service) -> bool:
    with service.session() as s:
        return (
            int(s.exec(select(func.count()).select_from(Outbox).where(Outbox.status == "pending")).one()) == 0
        )


@dataclass
class ScaleReport:
    games: int
    players: int
    replies: int
    cycle_s: float
    handled: int
    db_mb: float


def run_scale(
    sizes: Sequence[int] = (1_000, 10_000), replies: int = 100, seed: int = 1, echo: Any = print
) -> list[ScaleReport]:
    """One poll cycle with ``replies`` new replies at each size (games grow between sizes)."""
    from service.localmail.stackprocess import SubprocessMailStack

    rng = random.Random(seed)
    reports: list[ScaleReport] = []
    with (
        tempfile.TemporaryDirectory(prefix="pbem-scale-") as tmp,
        SubprocessMailStack(auto_create=True) as stack,
    ):
        stack.add_user(SERVICE_ADDRESS, SERVICE_PASSWORD)
        db_path = Path(tmp) / "pbem.sqlite3"
        service = Service(bench_settings(stack, db_path))
        world = World(service)
        world.add_templates(["tac"], seed)
        answered: set[int] = set()
        for size in sizes:
            took = world.add_games(size - world.games, rng)
            echo(f"{world.games:,} live games, {world.players:,} players (bulk insert {took:.1f} s)")
            fresh = [live for live in world.to_act if live.game_id not in answered]
            chosen = rng.sample(fresh, replies)
            answered.update(live.game_id for live in chosen)
            asyncio.run(inject(stack, [reply_for(live, rng) for live in chosen]))
            cycle = asyncio.run(poll_cycle(service, replies))
            with service.session() as s:
                applied = int(
                    s.exec(
                        select(func.count()).select_from(InboundMail).where(InboundMail.status == "applied")
                    ).one()
                )
            reports.append(
                ScaleReport(world.games, world.players, replies, cycle, applied, db_path.stat().st_size / 1e6)
            )
            echo(
                f"  one poll cycle with {replies} new replies: {cycle:.2f} s "
                f"({applied} replies applied so far, database {db_path.stat().st_size / 1e6:.0f} MB)"
            )
    return reports


def main() -> None:
    reports = run_scale()
    first, last = reports[0], reports[-1]
    print(
        f"cycle at {first.games:,} games: {first.cycle_s:.2f} s; at {last.games:,} games: {last.cycle_s:.2f} s "
        f"(x{last.cycle_s / first.cycle_s:.2f} for x{last.games / first.games:.0f} games)"
    )


if __name__ == "__main__":
    main()
