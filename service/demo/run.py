"""Running the demo: stack, service, players, games; then the mail archive and the outcomes.

``run_demo`` is the library call behind ``pbem demo`` (and its test). The service runs as
``pbem serve`` does (``Service.serve_forever``: IDLE-driven polling, outbox flushes); the
players run in a worker thread and talk to it only by SMTP and IMAP.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import shutil
import smtplib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func
from sqlmodel import select

import engines
from service.config import Settings
from service.demo.archive import write_archive
from service.demo.bots import MailBot
from service.demo.styles import PERSONAS
from service.localmail.stackprocess import SubprocessMailStack
from service.play.start import create_game
from service.schedule.runtime import Service
from service.store.games import create_player
from service.store.models import Game, MoveLog

SERVICE_ADDRESS = "play@pbem.test"
SERVICE_PASSWORD = "pbem"
PLAYER_PASSWORD = "pbem"

#: Players and options per engine for the demo (options an engine does not know are left out,
#: so a renamed option cannot break the demo); other engines get their minimum player count.
DEMO_SETUP: dict[str, tuple[int, dict[str, Any]]] = {
    "tac": (4, {}),
    "tagteam": (2, {}),
    "grizzled": (3, {}),
    "barcadia": (2, {}),
}
NAMES = (
    "An",
    "Bình",
    "Chi",
    "Dũng",
    "Emma",
    "Finn",
    "Giang",
    "Hoa",
    "Ivy",
    "Jack",
    "Khánh",
    "Linh",
    "Mai",
    "Nam",
)


@dataclass
class DemoGame:
    game_id: int
    engine_id: str
    players: list[str]
    names: list[str]
    status: str = "active"
    outcome: str | None = None
    moves: int = 0


@dataclass
class DemoResult:
    games: list[DemoGame]
    out_dir: Path
    index_html: Path
    mail_dir: Path
    seconds: float
    replies: int
    mails_archived: int
    quarantined: int
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def all_finished(self) -> bool:
        return all(g.status != "active" for g in self.games)


@dataclass
class Progress:
    """Callbacks the CLI turns into a progress bar (tests pass none)."""

    start: Callable[[int], None] = lambda total_games: None
    update: Callable[[int, int], None] = lambda games_done, moves: None


def demo_engines(wanted: Sequence[str] | None) -> list[str]:
    available = engines.names(include_extra=False)
    if not wanted:
        return available
    unknown = [e for e in wanted if e not in available]
    if unknown:
        raise ValueError(f"unknown engine(s) {', '.join(unknown)}; landed: {', '.join(available)}")
    return list(wanted)


def _prepare_out_dir(out_dir: Path) -> None:
    """Remove what an earlier demo left in ``out_dir`` (only our own files)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in ("mail", "index.html"):
        path = out_dir / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for db_file in out_dir.glob("pbem.sqlite3*"):
        db_file.unlink()


def run_demo(
    out_dir: Path,
    *,
    engine_ids: Sequence[str] | None = None,
    games_per_engine: int = 1,
    seed: int = 1,
    timeout: float = 600.0,
    progress: Progress | None = None,
) -> DemoResult:
    """Play ``games_per_engine`` games of each engine by mail; returns what happened."""
    progress = progress or Progress()
    chosen = demo_engines(engine_ids)
    _prepare_out_dir(out_dir)
    for noisy in ("service", "apscheduler"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL)
    started = time.monotonic()
    # The stack runs in a child process: its Python work (pymap parses every stored mail)
    # then uses the second core instead of slowing the service down.
    with SubprocessMailStack(queue_delivery=True) as stack:
        stack.add_user(SERVICE_ADDRESS, SERVICE_PASSWORD)
        settings = Settings(
            database_url=f"sqlite:///{out_dir / 'pbem.sqlite3'}",
            service_address=SERVICE_ADDRESS,
            secret=secrets.token_hex(16),
            imap_host=stack.host,
            imap_port=stack.imap_port,
            imap_user=SERVICE_ADDRESS,
            imap_password=SERVICE_PASSWORD,
            imap_ssl=False,
            smtp_host=stack.host,
            smtp_port=stack.smtp_port,
            # IDLE wakes the poll at once (also when mail arrives during a poll); the
            # interval is the fallback for the wake-ups pymap's IDLE still misses (about one
            # in 30 in a demo), so it is short.
            poll_interval_seconds=0.1,
            outbox_interval_seconds=0.2,
            error_answers_per_day=1000, answers_per_hour=1000, answers_per_day=1000,
        )
        service = Service(settings)
        rng = random.Random(seed)
        bots: list[MailBot] = []
        games: list[DemoGame] = []
        with service.session() as s:
            for engine_id in chosen:
                engine = engines.get(engine_id)
                count, wanted = DEMO_SETUP.get(engine_id, (engine.min_players, {}))
                options = {k: v for k, v in wanted.items() if k in engine.options}
                for game_no in range(games_per_engine):
                    seated: list[str] = []
                    names: list[str] = []
                    for _seat in range(count):
                        name = NAMES[len(bots) % len(NAMES)]
                        persona = PERSONAS[len(bots) % len(PERSONAS)]
                        address = f"{_slug(name)}.{engine_id}{game_no + 1}@pbem.test"
                        stack.add_user(address, PLAYER_PASSWORD)
                        create_player(s, address, name, persona.lang, ctx=service.ctx)
                        bots.append(
                            MailBot(
                                address,
                                PLAYER_PASSWORD,
                                name,
                                persona,
                                random.Random(rng.random()),
                                stack.host,
                                stack.imap_port,
                            )
                        )
                        seated.append(address)
                        names.append(name)
                    game = create_game(s, engine_id, seated, options or None, seed + game_no, ctx=service.ctx)
                    assert game.id is not None
                    games.append(DemoGame(game.id, engine_id, seated, names))
            s.commit()
        progress.start(len(games))
        timed_out = asyncio.run(_play(service, stack, bots, games, timeout, progress))
        _refresh(service, games)
        quarantined = len(service.quarantined())
        for bot in bots:
            bot.close()
        index, mail_dir, archived = write_archive(
            out_dir, stack, SERVICE_ADDRESS, SERVICE_PASSWORD, games, bots
        )
    return DemoResult(
        games=games,
        out_dir=out_dir,
        index_html=index,
        mail_dir=mail_dir,
        seconds=time.monotonic() - started,
        replies=sum(b.replies_sent for b in bots),
        mails_archived=archived,
        quarantined=quarantined,
        timed_out=timed_out,
    )


def _slug(name: str) -> str:
    import unicodedata

    flat = unicodedata.normalize("NFKD", name.replace("đ", "d").replace("Đ", "D"))
    return "".join(ch for ch in flat if ch.isascii() and ch.isalnum()).lower()


def _refresh(service: Service, games: list[DemoGame]) -> None:
    with service.session() as s:
        for g in games:
            row = s.get_one(Game, g.game_id)
            g.status, g.outcome = row.status, row.outcome
            g.moves = int(
                s.exec(select(func.count()).select_from(MoveLog).where(MoveLog.game_id == g.game_id)).one()
            )


async def _play(
    service: Service,
    stack: SubprocessMailStack,
    bots: list[MailBot],
    games: list[DemoGame],
    timeout: float,
    progress: Progress,
) -> bool:
    """Run the service and the players until every game is over; True when time ran out."""
    serving = asyncio.create_task(service.serve_forever())
    players_done = asyncio.Event()
    deadline = time.monotonic() + timeout

    def all_over() -> bool:
        return all(g.status != "active" for g in games)

    def players() -> None:
        smtp: smtplib.SMTP | None = None
        delivered: dict[str, int] = {}
        try:
            while not players_done.is_set() and time.monotonic() < deadline:
                busy = False
                for bot in bots:
                    busy = bot.check_mail(delivered.get(bot.address, 0)) > 0 or busy
                    for reply in bot.replies_due():
                        if smtp is None:
                            smtp = smtplib.SMTP(stack.host, stack.smtp_port, timeout=30)
                        bot.send(smtp, reply)
                        busy = True
                # Like a phone's push notification: sleep until the server stored new mail
                # for someone (the bots still read it over IMAP), never spin.
                seen = -1 if busy else sum(delivered.values())
                delivered = stack.wait_deliveries(seen, 0.25)
        finally:
            if smtp is not None:
                smtp.quit()

    worker = asyncio.create_task(asyncio.to_thread(players))
    try:
        while time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            _refresh(service, games)
            progress.update(sum(g.status != "active" for g in games), sum(g.moves for g in games))
            if all_over():
                # Let the "game over" mails go out and reach the players before stopping.
                await service.flush_outbox()
                await asyncio.sleep(0.5)
                break
            if worker.done():
                break
    finally:
        players_done.set()
        await worker
        service.stop()
        await serving
    return not all_over()
