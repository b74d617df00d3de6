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

from sqlalchemy import Connection, Table, func
from sqlmodel import col, select

import engines
from service.config import Settings
from service.outbound.keys import make_key, reply_address
from service.outbound.render import subject_tag
from service.play.start import create_game
from service.schedule.runtime import Service, freeze_startup_objects
from service.store.games import create_player
from service.store.models import Game, GameSeat, InboundMail, Outbox, Player, ReplyKey

SERVICE_ADDRESS = "play@pbem.test"
SERVICE_PASSWORD = "pbem"
TEMPLATES_PER_ENGINE = 4


def bench_settings(stack: Any, db_path: Path | str, **extra: Any) -> Settings:
    """Settings for a benchmark service on ``stack``: a SQLite file, or any database URL."""
    return Settings(**bench_values(stack, db_path, **extra))


def bench_values(stack: Any, db_path: Path | str, **extra: Any) -> dict[str, Any]:
    """The values of ``bench_settings`` (JSON-able: worker processes get them as they are)."""
    values: dict[str, Any] = {
        "database_url": db_path if isinstance(db_path, str) else f"sqlite:///{db_path}",
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
    return values


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
        secret = ctx.key_secret
        now = ctx.clock.now()
        deadline = now + timedelta(days=30)
        with self.service.session() as s:
            next_game = (s.exec(select(func.max(Game.id))).one() or 0) + 1
            next_player = (s.exec(select(func.max(Player.id))).one() or 0) + 1
            games: list[dict[str, Any]] = []
            players: list[dict[str, Any]] = []
            seats: list[dict[str, Any]] = []
            keys: list[dict[str, Any]] = []
            # per template, once: its engine, acting seats and their decisions (parsing a state
            # per copy made 100,000 games take minutes)
            shapes = []
            for template in self.templates:
                engine = engines.get(template.engine_id)
                state = engine.from_json(template.state)
                acting = sorted(engine.to_act(state))
                shapes.append((engine, acting, {seat: engine.decision_key(state, seat) for seat in acting}))
            for n in range(count):
                pick = rng.randrange(len(self.templates))
                template = self.templates[pick]
                engine, acting, decisions = shapes[pick]
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
                    if seat in decisions:
                        key = make_key(secret, game_id, seat, decisions[seat])
                        keys.append(
                            {
                                "key": key,
                                "game_id": game_id,
                                "seat": seat,
                                "decision": decisions[seat],
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
            conn = s.connection()
            for table, rows in ((Player.__table__, players), (Game.__table__, games),  # type: ignore[attr-defined]
                                (GameSeat.__table__, seats), (ReplyKey.__table__, keys)):  # type: ignore[attr-defined]
                _bulk_insert(conn, table, rows)
            s.commit()
        self.players += len(players)
        return time.perf_counter() - started


def _bulk_insert(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """One driver-level executemany: SQLAlchemy's per-row parameter processing cost more than
    SQLite's inserting (100,000 games are ~1 million rows). Each distinct value goes through
    its column type's bind processor once, so what is stored is what the ORM would store."""
    if not rows:
        return
    names = list(rows[0])
    processors = [table.c[name].type._cached_bind_processor(conn.dialect) for name in names]
    memo: dict[tuple[int, Any], Any] = {}

    def bound(i: int, value: Any) -> Any:
        process = processors[i]
        if process is None or value is None or (isinstance(value, (int, str)) and not isinstance(value, bool)):
            return value
        key = (i, value)
        if key not in memo:
            memo[key] = process(value)
        return memo[key]

    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"  # SQLite; psycopg (PostgreSQL)
    sql = f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({', '.join([mark] * len(names))})"
    conn.exec_driver_sql(sql, [tuple(bound(i, row[name]) for i, name in enumerate(names)) for row in rows])


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
        if handled >= expected and outbox_empty(service):
            break
    return time.perf_counter() - started


async def serve_until_done(service: Service, expected: int, timeout: float = 600.0) -> float:
    """Seconds for ``pbem serve``'s own loop (``serve_forever``: IDLE, poll, outbox worker) to
    handle ``expected`` stored-or-waiting replies and send everything they cause."""
    freeze_startup_objects()  # as `pbem serve` does
    started = time.perf_counter()
    serving = asyncio.create_task(service.serve_forever())
    try:
        while time.perf_counter() - started < timeout:
            await asyncio.sleep(0.05)
            if serving.done():
                serving.result()  # the service died: say why
            if handled_count(service) >= expected and outbox_empty(service):
                break
        return time.perf_counter() - started
    finally:
        service.stop()
        await serving


def handled_count(service: Service) -> int:
    """Inbound mails the service is done with (any status but ``new``)."""
    with service.session() as s:
        return int(s.exec(select(func.count()).select_from(InboundMail).where(InboundMail.status != "new")).one())


def outbox_empty(service: Service) -> bool:
    """Nothing pending or being sent."""
    with service.session() as s:
        return (
            int(s.exec(select(func.count()).select_from(Outbox)
                       .where(col(Outbox.status).in_(("pending", "sending")))).one()) == 0
        )


@dataclass
class ScaleReport:
    games: int
    players: int
    replies: int
    cycle_s: float
    handled: int
    db_mb: float
    cpu_s: float = 0.0
    insert_s: float = 0.0

    @property
    def ms_per_reply(self) -> float:
        return 1000 * self.cycle_s / self.replies

    @property
    def cpu_ms_per_reply(self) -> float:
        return 1000 * self.cpu_s / self.replies


#: The statements a reply runs against tables that grow with the games (SQLite syntax), each
#: checked with EXPLAIN QUERY PLAN: none may scan a whole table.
HOT_QUERIES = {
    "reply key": "SELECT * FROM reply_keys WHERE key = 'x'",
    "seats of a game": "SELECT * FROM seats JOIN players ON seats.player_id = players.id WHERE seats.game_id = 1 "
                       "ORDER BY seats.seat",
    "game": "SELECT * FROM games WHERE id = 1",
    "player by address": "SELECT * FROM players WHERE address = 'a@b'",
    "digest since last mail": "SELECT * FROM move_log WHERE game_id = 1 AND id > 0 ORDER BY id",
    "mails that handed out a key": "SELECT id, raw FROM outbox WHERE reply_key = 'x' ORDER BY id DESC LIMIT 6",
    "mail by Message-ID": "SELECT * FROM outbox WHERE message_id = '<x>'",
    "answers to an address": "SELECT count(*) FROM outbox WHERE to_address = 'a@b' AND kind IN ('help') "
                             "AND created_at >= '2026-01-01'",
    "inbound dedupe": "SELECT * FROM inbound_mails WHERE message_id = '<x>'",
    "pending inbound": "SELECT id FROM inbound_mails WHERE status = 'new' ORDER BY id",
    "due outbox": "SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= '2027-01-01' ORDER BY id",
    "overdue games": "SELECT id FROM games WHERE status = 'active' AND deadline <= '2026-01-01'",
}


def full_scans(service: Service) -> list[str]:
    """The hot queries whose SQLite plan scans a whole table (none, with the indexes we have)."""
    if not service.settings.database_url.startswith("sqlite"):
        return []
    bad: list[str] = []
    with service.ctx.db.connect() as conn:
        for name, sql in HOT_QUERIES.items():
            plan = [str(row[-1]) for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")]
            scans = [step for step in plan if step.startswith("SCAN") and "USING" not in step]
            if scans:
                bad.append(f"{name}: {'; '.join(scans)}")
    return bad


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
            with service.ctx.db.begin() as conn:  # fresh statistics for the planner, as an operator's ANALYZE
                conn.exec_driver_sql("ANALYZE")
            echo(f"{world.games:,} live games, {world.players:,} players (bulk insert {took:.1f} s)")
            fresh = [live for live in world.to_act if live.game_id not in answered]
            chosen = rng.sample(fresh, replies)
            answered.update(live.game_id for live in chosen)
            asyncio.run(inject(stack, [reply_for(live, rng) for live in chosen]))
            cpu_started = time.process_time()
            cycle = asyncio.run(poll_cycle(service, replies))
            cpu = time.process_time() - cpu_started
            with service.session() as s:
                applied = int(
                    s.exec(
                        select(func.count()).select_from(InboundMail).where(InboundMail.status == "applied")
                    ).one()
                )
            reports.append(
                ScaleReport(world.games, world.players, replies, cycle, applied, db_path.stat().st_size / 1e6,
                            cpu, took)
            )
            echo(
                f"  one poll cycle with {replies} new replies: {cycle:.2f} s, CPU {1000 * cpu / replies:.1f} ms "
                f"per reply ({applied} replies applied so far, database {db_path.stat().st_size / 1e6:.0f} MB)"
            )
        for problem in full_scans(service):
            echo(f"  full table scan in a hot query: {problem}")
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
