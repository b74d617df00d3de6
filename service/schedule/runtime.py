"""The running service: poll the inbox, run the pipeline, flush the outbox, sweep deadlines.

``Service`` is what ``pbem serve`` runs and what tests drive step by step: ``poll_once``,
``flush_outbox`` and ``sweep`` each do one round and return, and ``serve_forever`` schedules
them with APScheduler's ``AsyncIOScheduler`` (IDLE, where offered, triggers a poll at once;
news arriving during a poll runs it again right after).
Blocking IMAP calls run in a worker thread so the event loop keeps sending mail meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]
from sqlmodel import Session, col, select

from service.clock import Clock
from service.config import Settings
from service.context import AppContext
from service.inbound.fetch import Inbox
from service.inbound.pipeline import Pipeline, pending_ids, store
from service.leagues.season import advance_all
from service.outbound.outbox import send_due
from service.play.start import create_game
from service.schedule.deadlines import DeadlinePolicy, act_on_missed, send_reminders
from service.store.games import StaleGame, create_player
from service.store.models import Game, InboundMail

log = logging.getLogger(__name__)

__all__ = ["Service", "create_game", "create_player"]


class Service:
    """The mail service for one configuration (and one injectable clock)."""

    def __init__(self, settings: Settings, clock: Clock | None = None, *, ctx: AppContext | None = None) -> None:
        self.ctx = ctx or AppContext.create(settings, clock)
        self.settings = settings
        self.inbox = Inbox(settings)
        self.pipeline = Pipeline(self.ctx)
        self._stop = asyncio.Event()
        self._watcher: Inbox | None = None
        self._wakes: dict[str, asyncio.Event] = {}
        self._flush_lock = asyncio.Lock()

    def session(self) -> Session:
        return self.ctx.session()

    # -- one round of each job ------------------------------------------------------

    async def poll_once(self, limit: int = 100, *, after_each: Callable[[], Awaitable[Any]] | None = None) -> int:
        """Fetch new mail, store it, run the pipeline, flag it done; returns mails handled.

        ``after_each`` runs after every mail's commit (``serve_forever`` sends that mail's
        answers at once instead of after the whole batch).

        Each mail commits on its own; the IMAP flags of the whole batch are set in ONE
        ``STORE`` after the last commit. A crash in between re-fetches mails already handled,
        which ``store`` recognises by Message-ID and flags without running them again.
        """
        fetched = await asyncio.to_thread(self.inbox.fetch_new, limit)
        uid_of: dict[int, int] = {}
        done: list[int] = []
        with self.session() as s:
            for uid, raw in fetched:
                row, _created = store(s, self.ctx, raw, uid, self.settings.imap_mailbox)
                assert row.id is not None
                if row.status == "new":
                    uid_of[row.id] = uid
                else:
                    done.append(uid)  # handled before a crash, flag missing
            todo = pending_ids(s)
        handled = 0
        try:
            for inbound_id in todo:
                self.pipeline.process(inbound_id)
                handled += 1
                if inbound_id in uid_of:
                    done.append(uid_of[inbound_id])
                if after_each is not None:
                    await after_each()
        finally:
            if done:
                await asyncio.to_thread(self.inbox.mark_done, sorted(done))
        return handled

    async def flush_outbox(self) -> int:
        return await send_due(self.ctx)

    async def sweep(self) -> list[int]:
        """Act on missed deadlines, then send the due reminders; returns the games acted on.

        The policy (reminders, grace, wait/default/skip, abandoned seats) is
        ``service.schedule.deadlines``; each game is acted on in its own transaction.
        """
        now = self.ctx.clock.now()
        with self.session() as s:
            overdue = s.exec(select(Game.id).where(Game.status == "active", col(Game.deadline) <= now)).all()
        swept: list[int] = []
        for game_id in overdue:
            assert game_id is not None
            with contextlib.suppress(StaleGame), self.session() as s:
                if act_on_missed(s, self.ctx, game_id):
                    swept.append(game_id)
                s.commit()
        with self.session() as s:
            send_reminders(s, self.ctx)
            s.commit()
        self.advance_leagues()
        return swept

    def advance_leagues(self) -> int:
        """Close the rounds of running leagues that are over and start the next (one commit each)."""
        with self.session() as s:
            changed = advance_all(s, self.ctx)
            s.commit()
        return changed

    # -- forever -------------------------------------------------------------------
    #
    # APScheduler decides WHEN each job is due; the work itself runs in one worker task per
    # job that waits for a wake-up event. A wake-up that arrives while the worker is busy
    # (IDLE news during a poll, say) is kept in the event and runs the job again right after,
    # instead of being dropped as a second instance; stopping lets every worker finish its
    # round, so no job is cancelled halfway.

    async def _poll_round(self) -> None:
        if await self.poll_once(after_each=self._flush_once):
            self._wakes["poll"].set()  # look once more: replies to what we just sent may be in

    async def _flush_once(self) -> int:
        """``flush_outbox``, never two at once (the poll and the outbox worker both flush)."""
        async with self._flush_lock:
            return await self.flush_outbox()

    async def _worker(self, name: str, wake: asyncio.Event, job: Callable[[], Awaitable[Any]]) -> None:
        while True:
            await wake.wait()
            if self._stop.is_set():
                return
            wake.clear()
            try:
                await job()
            except Exception:
                log.exception("%s failed; retrying at the next wake-up", name)

    async def _idle_loop(self) -> None:
        """Wake the poll worker as soon as IDLE reports new mail (own connection)."""
        watcher = self._watcher = Inbox(self.settings)
        try:
            while not self._stop.is_set():
                try:
                    news = await asyncio.to_thread(watcher.wait, min(self.settings.poll_interval_seconds, 60))
                except Exception:
                    await self._pause(self.settings.poll_interval_seconds)
                    continue
                if news:
                    self._wakes["poll"].set()
                elif not (self.settings.imap_idle and watcher.client and watcher.client.has_capability("IDLE")):
                    await self._pause(self.settings.poll_interval_seconds)
        finally:
            await asyncio.to_thread(watcher.close)

    async def _pause(self, seconds: float) -> None:
        """Sleep, but no longer than until ``stop()``."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    async def serve_forever(self) -> None:
        """Run every job until ``stop()``; returns once every worker has finished its round."""
        cfg = self.settings
        jobs: dict[str, tuple[float, Callable[[], Awaitable[Any]]]] = {
            "poll": (cfg.poll_interval_seconds, self._poll_round),
            "outbox": (cfg.outbox_interval_seconds, self._flush_once),
            "sweep": (cfg.sweep_interval_seconds, self.sweep),
        }
        self._wakes = {name: asyncio.Event() for name in jobs}
        self._flush_lock = asyncio.Lock()  # made here: bound to the loop that serves
        scheduler = AsyncIOScheduler(timezone="UTC")
        # Job timing is APScheduler's wall clock; what is due (deadlines, backoff) is decided
        # inside the jobs by the injectable clock, so a test clock never skews the scheduler.
        now = datetime.now(UTC)
        first_run = {"poll": now, "outbox": now + timedelta(seconds=0.2), "sweep": None}
        for name, (seconds, _job) in jobs.items():
            scheduler.add_job(self._wakes[name].set, "interval", seconds=seconds, id=name,
                              next_run_time=first_run[name] or now + timedelta(seconds=seconds),
                              coalesce=True, max_instances=1, misfire_grace_time=None)
        workers = [asyncio.create_task(self._worker(name, self._wakes[name], job), name=f"pbem-{name}")
                   for name, (_seconds, job) in jobs.items()]
        scheduler.start()
        idle = asyncio.create_task(self._idle_loop(), name="pbem-idle")
        try:
            await self._stop.wait()
        finally:
            self._stop.set()
            scheduler.shutdown(wait=False)
            if self._watcher is not None:
                self._watcher.interrupt()
            for wake in self._wakes.values():
                wake.set()  # a waiting worker sees the stop; a busy one finishes its round first
            await asyncio.gather(idle, *workers, return_exceptions=True)
            await asyncio.to_thread(self.inbox.close)

    def stop(self) -> None:
        self._stop.set()

    # -- conveniences for the CLI, demo and benchmarks --------------------------------------

    def add_player(self, address: str, name: str, lang: str = "en", tz: str = "UTC") -> int:
        """``create_player`` in its own transaction; returns the player id."""
        with self.session() as s:
            player = create_player(s, address, name, lang, tz, ctx=self.ctx)
            s.commit()
            assert player.id is not None
            return player.id

    def new_game(self, engine_id: str, players: list[str], options: dict[str, Any] | None = None,
                 seed: int | None = None, policy: str = "") -> int:
        """``create_game`` in its own transaction (first mails queued with it); returns the id.

        ``policy``: the deadline policy as an operator writes it (``hours=48 miss=wait``; see
        ``DeadlinePolicy.parse``), "" for the configured defaults."""
        stored = DeadlinePolicy.parse(policy, DeadlinePolicy.defaults(self.settings)).to_json() if policy else ""
        with self.session() as s:
            game = create_game(s, engine_id, players, options, seed, ctx=self.ctx, policy=stored)
            s.commit()
            assert game.id is not None
            return game.id

    def quarantined(self) -> list[InboundMail]:
        with self.session() as s:
            return list(s.exec(select(InboundMail).where(InboundMail.status == "quarantined")).all())
