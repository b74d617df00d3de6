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
    # Barcadia has no turn limit by default (HB-71); the demo's players choose at random, and
    # all-random play runs ~600 moves (up to ~10,000), so the demo keeps a limit for them.
    "barcadia": (2, {"turn_limit": 200}),
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
    #: with ``--league``: the final standings (text lines) and the league's status
    standings: list[str] = field(default_factory=list)
    league_status: str = ""

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
    league_players: int = 0,
    league_rounds: int = 5,
    league_engine: str = "tagteam",
) -> DemoResult:
    """Play ``games_per_engine`` games of each engine by mail; returns what happened.

    With ``league_players``, instead: a league of that many bots plays ``league_rounds``
    rounds of ``league_engine`` by mail; the service pairs each round when the last one ends.
    """
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
            sweep_interval_seconds=0.5,  # a league's next round starts at the sweep after its last game
            error_answers_per_day=1000, answers_per_hour=1000, answers_per_day=1000,
        )
        service = Service(settings)
        rng = random.Random(seed)
        bots: list[MailBot] = []
        games: list[DemoGame] = []
        league_id: int | None = None
        with service.session() as s:
            if league_players:
                league_id = _start_league(s, service, stack, bots, rng, league_players, league_rounds, league_engine)
                chosen = []
            for engine_id in chosen:
                engine = engines.get(engine_id)
                count, wanted = DEMO_SETUP.get(engine_id, (engine.min_players, {}))
                options = {k: v for k, v in wanted.items() if k in engine.options}
                for game_no in range(games_per_engine):
                    seated: list[str] = []
                    names: list[str] = []
                    for _seat in range(count):
                        address, name = _add_bot(s, service, stack, bots, rng, f"{engine_id}{game_no + 1}")
                        seated.append(address)
                        names.append(name)
                    game = create_game(s, engine_id, seated, options or None, seed + game_no, ctx=service.ctx)
                    assert game.id is not None
                    games.append(DemoGame(game.id, engine_id, seated, names))
            s.commit()
        if league_id is not None:
            _sync_league(service, league_id, games)
        progress.start(len(games))
        timed_out = asyncio.run(_play(service, stack, bots, games, timeout, progress, league_id))
        if league_id is not None:
            _sync_league(service, league_id, games)
        _refresh(service, games)
        standings, league_status, league_sections = (_league_report(service, league_id) if league_id is not None
                                                     else ([], "", []))
        quarantined = len(service.quarantined())
        for bot in bots:
            bot.close()
        index, mail_dir, archived = write_archive(
            out_dir, stack, SERVICE_ADDRESS, SERVICE_PASSWORD, games, bots, standings=standings,
            league=league_sections,
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
        standings=standings,
        league_status=league_status,
    )


def _add_bot(s: Any, service: Service, stack: SubprocessMailStack, bots: list[MailBot], rng: random.Random,
             tag: str) -> tuple[str, str]:
    name = NAMES[len(bots) % len(NAMES)]
    persona = PERSONAS[len(bots) % len(PERSONAS)]
    address = f"{_slug(name)}.{tag}@pbem.test"
    stack.add_user(address, PLAYER_PASSWORD)
    create_player(s, address, name, persona.lang, ctx=service.ctx)
    bots.append(MailBot(address, PLAYER_PASSWORD, name, persona, random.Random(rng.random()), stack.host,
                        stack.imap_port))
    return address, name


def _start_league(s: Any, service: Service, stack: SubprocessMailStack, bots: list[MailBot], rng: random.Random,
                  players: int, rounds: int, engine_id: str) -> int:
    """A league of bots: each joins as a player would, then round 1 is paired and started."""
    from service.leagues.season import join, new_league, start
    from service.store.games import player_by_address

    league = new_league(s, service.ctx, "demo-league", engine_id, rounds=rounds, round_days=1)
    for _ in range(players):
        address, _name = _add_bot(s, service, stack, bots, rng, "league")
        player = player_by_address(s, address)
        assert player is not None
        join(s, service.ctx, league.name, player)
    start(s, service.ctx, league.name)
    assert league.id is not None
    return league.id


def _sync_league(service: Service, league_id: int, games: list[DemoGame]) -> None:
    """Add the games of rounds the service has started since the last look."""
    from service.store.league_models import LeagueGame
    from service.store.models import GameSeat, Player

    known = {g.game_id for g in games}
    with service.session() as s:
        for lg in s.exec(select(LeagueGame).where(LeagueGame.league_id == league_id)).all():
            if lg.game_id in known:
                continue
            game = s.get_one(Game, lg.game_id)
            seats = s.exec(select(GameSeat, Player).where(GameSeat.game_id == lg.game_id,
                                                          GameSeat.player_id == Player.id)).all()
            ordered = sorted(seats, key=lambda row: row[0].seat)
            games.append(DemoGame(lg.game_id, game.engine, [p.address for _, p in ordered],
                                  [p.name for _, p in ordered]))


def _league_over(service: Service, league_id: int) -> bool:
    from service.store.league_models import League

    with service.session() as s:
        league = s.get(League, league_id)
        return league is not None and league.status == "finished"


def _league_report(service: Service, league_id: int) -> tuple[list[str], str, list[dict[str, Any]]]:
    """The final standings (text lines for the console), the league's status, and what the
    index page shows of it: every round's games with their results, then the standings table
    (the same sections the members' round mails carry, read by nobody in particular)."""
    from service.leagues.report import round_section, standings_section
    from service.leagues.scoring import standings_text
    from service.leagues.season import table
    from service.store.league_models import League

    with service.session() as s:
        league = s.get_one(League, league_id)
        rows = table(s, league)
        sections = [round_section(s, league, r, None, "en") for r in range(1, league.current_round + 1)]
        title = f"League {league.name}: {league.engine}, {league.format}, {league.current_round} of {league.rounds} " \
                f"rounds, {league.status} — standings (tie-breaks: {league.tie_breaks.replace(',', ', ')})"
        sections.append(standings_section(rows, "en", None, title))
        return standings_text(rows, "en"), league.status, sections


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
    league_id: int | None = None,
) -> bool:
    """Run the service and the players until every game (or the league) is over; True when time ran out."""
    serving = asyncio.create_task(service.serve_forever())
    players_done = asyncio.Event()
    deadline = time.monotonic() + timeout

    def all_over() -> bool:
        if league_id is not None:
            return _league_over(service, league_id)
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
            if league_id is not None:
                _sync_league(service, league_id, games)
                progress.start(len(games))
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
