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
import gc
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]
from sqlalchemy import update
from sqlmodel import Session, col, select

from service.clock import Clock, SystemClock
from service.config import Settings
from service.context import AppContext
from service.faults import Backoff, is_transient
from service.inbound.fetch import Inbox
from service.inbound.noticed import NoticeJournal, default_journal_path, notice_key
from service.inbound.pipeline import (
    SUBJECT_KEY_RE,
    Pipeline,
    requeue_transient_quarantine,
    store_batch,
)
from service.leagues.rounds import advance_all
from service.outbound.outbox import Sender, send_due, send_now
from service.outbound.render import build_message
from service.outbound.smtpprocess import SmtpProcess
from service.outbound.smtpthread import SmtpThread
from service.play.start import create_game
from service.schedule.deadlines import DeadlinePolicy, act_on_missed, send_reminders
from service.schedule.digests import send_daily_digests
from service.schedule.watchdog import await_chain
from service.store.claims import worker_token
from service.store.games import StaleGame, create_player
from service.store.locks import AdvisoryLock, job_lock
from service.store.models import Game, InboundMail

log = logging.getLogger(__name__)

__all__ = ["Service", "create_game", "create_player"]

#: stored mails a worker claims at a time: small, so several workers share a burst
CLAIM_BATCH = 8



def freeze_startup_objects() -> None:
    """Move what is alive once a server is ready (modules, engines' content, compiled templates,
    the catalogs: ~140,000 objects) out of the cyclic garbage collector's sight.

    A full collection otherwise walks them all — about 0.1 s during which no reply is handled,
    the slow tail of a reply's service time under light load. Called once by ``pbem serve``
    (and the benchmarks that stand in for it), not by ``serve_forever``: a test process serves
    many times, and objects frozen there would never be collected if they later form cycles.
    """
    gc.collect()
    gc.freeze()

class Service:
    """The mail service for one configuration (and one injectable clock)."""

    def __init__(self, settings: Settings, clock: Clock | None = None, *, ctx: AppContext | None = None,
                 worker_id: str | None = None) -> None:
        self.ctx = ctx or AppContext.create(settings, clock)
        self.settings = settings
        self.worker_id = worker_id or f"{socket.gethostname()}:{os.getpid()}"
        #: the token this worker's claims carry (``service.store.claims``)
        self.owner = worker_token(worker_id)
        self.inbox = Inbox(settings)
        self.pipeline = Pipeline(self.ctx, self.owner)
        #: the notices "received, will be applied soon" already sent, kept where a database
        #: fault cannot reach (``service.inbound.noticed``)
        self.noticed = NoticeJournal(default_journal_path(settings.database_url, settings.state_dir))
        #: who reads the mailbox: one worker at a time (a PostgreSQL advisory lock; always
        #: granted on SQLite); the others process and send what is stored
        self.mailbox_lock = AdvisoryLock(
            self.ctx.db, f"mailbox:{settings.imap_user}@{settings.imap_host}:{settings.imap_port}/{settings.imap_mailbox}")
        self._stop = asyncio.Event()
        self._watcher: Inbox | None = None
        self._wakes: dict[str, asyncio.Event] = {}
        #: the task running each job's worker, and when its current round began (monotonic)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._round_started: dict[str, float] = {}
        self._rounds_begun: dict[str, int] = {}
        #: rounds the watchdog found stuck and started afresh (health, tests)
        self.stuck_rounds = 0
        self._flush_lock = asyncio.Lock()
        self.sender = Sender(owner=self.owner)
        #: while serving: the thread the outbox rounds (SMTP and their small commits) run on,
        #: or the child process they run in (``outbox_process``)
        self._smtp_thread: SmtpThread | None = None
        self._smtp_process: SmtpProcess | None = None
        self.poll_backoff = Backoff()
        self.idle_backoff = Backoff()
        self.poll_trouble = False
        self._retry_handle: asyncio.TimerHandle | None = None
        self._requeue_checked = False
        #: the next batch of the inbox, read while the current one is processed (``poll_once``)
        self._prefetch: asyncio.Future[list[tuple[int, bytes]]] | None = None
        #: when this service started and last read the inbox without a fault (health check)
        self.started_at = self.ctx.clock.now()
        self.last_poll_ok: datetime | None = None

    @classmethod
    async def when_ready(cls, settings: Settings, worker_id: str | None = None) -> Service:
        """A Service once its database answers: a restart during a database outage waits
        (1 s, doubling to 10 s) instead of exiting, and serves as soon as it can."""
        backoff = Backoff()
        while True:
            try:
                return cls(settings, worker_id=worker_id)
            except Exception as exc:
                if not is_transient(exc):
                    raise
                delay = backoff.failed()
                log.warning("database unavailable at start (%s); retrying in %.0f s", exc, delay)
                await asyncio.sleep(delay)

    def session(self) -> Session:
        return self.ctx.session()

    # -- one round of each job ------------------------------------------------------

    async def poll_once(self, limit: int = 100, *, after_each: Callable[[], Awaitable[Any]] | None = None) -> int:
        """Fetch new mail, store it, run the pipeline, flag it done; returns mails handled.

        ``after_each`` runs after every mail's commit (``serve_forever`` sends that mail's
        answers at once instead of after the whole batch).

        The fetched mails are stored in ONE commit (``store_batch``) before any is processed;
        then each mail's processing commits on its own; the IMAP flags of the whole batch are set in ONE
        ``STORE`` after the last commit. A crash in between re-fetches mails already handled,
        which ``store_batch`` recognises by Message-ID and flags without running them again.

        A transient fault (the database cannot be written, IMAP drops) never loses a mail: what
        was not stored stays unflagged in the inbox, what was stored stays ``new``; the round
        stops early when two mails in a row fail that way and ``poll_trouble`` tells the
        caller to come back soon.
        """
        self.poll_trouble = False
        prefetched, self._prefetch = self._prefetch, None
        try:
            if not self.holds_mailbox():
                fetched = []
                if prefetched is not None:  # read ahead while this worker held the mailbox
                    self._prefetch = prefetched
                    self._drop_prefetch()
            elif prefetched is not None:
                fetched = await prefetched
            else:
                fetched = await asyncio.to_thread(self.inbox.fetch_new, limit)
        except Exception as exc:
            if not is_transient(exc):
                raise
            # the IMAP server is away: mail stored before still gets handled meanwhile
            log.warning("cannot read the inbox (%s); handling the mail already stored", exc)
            self.poll_trouble = True
            fetched = []
        log.debug("poll: %d new mails in the inbox", len(fetched))
        uids_of: dict[int, list[int]] = {}
        done: list[int] = []
        try:
            with self.session() as s:
                try:  # the whole fetch in one commit, before any of it is processed
                    rows = store_batch(s, self.ctx, fetched, self.settings.imap_mailbox)
                except Exception:
                    for _uid, unstored in fetched:
                        with contextlib.suppress(Exception):
                            self.pipeline.not_stored(unstored)
                    raise
                for (uid, _raw), row in zip(fetched, rows, strict=True):
                    self.pipeline.stored(row)
                    if row.status == "new":
                        uids_of.setdefault(row.id, []).append(uid)
                    else:
                        done.append(uid)  # handled before a crash (or by another worker), flag missing
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.warning("cannot store new mail (%s); it stays in the inbox for the next round", exc)
            self.poll_trouble = True
        if len(fetched) >= limit and not self.poll_trouble:
            # a full batch: more may wait. The next batch is read while this one is processed
            # (it is stored by the next round, like any fetch); the flags of this batch wait for it
            # below (one IMAP connection). Mail fetched and not stored stays unflagged in the inbox.
            self._prefetch = asyncio.create_task(  # noqa: RUF006 - kept here, awaited below
                asyncio.to_thread(self.inbox.fetch_new, limit, max(uid for uid, _raw in fetched)), name="pbem-prefetch")
        handled = in_a_row = 0
        try:
            while not self._stop.is_set() and in_a_row < 2:
                try:  # a few stored mails no other worker holds (SKIP LOCKED on PostgreSQL)
                    batch = self.pipeline.claim(CLAIM_BATCH)
                except Exception as exc:
                    if not is_transient(exc):
                        raise
                    log.warning("cannot claim stored mail (%s)", exc)
                    self.poll_trouble = True
                    break
                if not batch:
                    break
                todo = sorted(batch)
                for n, inbound_id in enumerate(todo):
                    if self._stop.is_set() or in_a_row >= 2:
                        self.pipeline.release(todo[n:])  # not started: no attempt counted
                        break
                    if self.pipeline.process(inbound_id, batch[inbound_id]) == "deferred":
                        self.poll_trouble = True
                        in_a_row += 1  # two in a row: the database (or a server) is in trouble
                        continue
                    in_a_row = 0
                    handled += 1
                    done += uids_of.get(inbound_id, [])
                    if after_each is not None:
                        await after_each()
        finally:
            if self._prefetch is not None:
                await asyncio.wait([self._prefetch])  # the IMAP connection is free again
                if self._stop.is_set():
                    self._drop_prefetch()
            if done:
                await asyncio.to_thread(self.inbox.mark_done, sorted(done))
        if not self.poll_trouble:
            self.last_poll_ok = self.ctx.clock.now()
        return handled

    def _drop_prefetch(self) -> None:
        """Forget a batch read ahead (stopping): it is not stored, so it stays unflagged in the
        inbox and is read again at the next start."""
        prefetch, self._prefetch = self._prefetch, None
        if prefetch is not None and prefetch.done() and not prefetch.cancelled():
            prefetch.exception()  # retrieved: a failed read ahead is not an error of its own

    def holds_mailbox(self) -> bool:
        """Whether this worker reads the mailbox now: it holds the mailbox lock, or takes it
        when free (its holder stopped or died). Never waits."""
        try:
            if self.mailbox_lock.held() or self.mailbox_lock.try_acquire():
                return True
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.warning("cannot take the mailbox lock (%s)", exc)
        return False

    async def flush_outbox(self) -> int:
        """One outbox round; while serving it runs in the outbox process (``SmtpProcess``) or
        on the SMTP thread (``SmtpThread``), so answers go out while the next reply is processed
        on this loop."""
        if self._smtp_process is not None:
            sent, self.sender.cut_short = await self._smtp_process.round()
            return sent
        work = send_due(self.ctx, sender=self.sender)
        return await (self._smtp_thread.run(work) if self._smtp_thread is not None else work)

    def _outbox_in_a_process(self) -> bool:
        """Whether the outbox rounds may run in a child process: asked for, on the real clock
        (a test's clock cannot cross into another process) and a database another process can open."""
        url = self.settings.database_url
        return (self.settings.outbox_process and isinstance(self.ctx.clock, SystemClock)
                and ":memory:" not in url and url not in ("sqlite://", "sqlite:///"))

    async def tell_waiting_players(self) -> int:
        """Tell each player whose reply has waited ``delay_notice_seconds`` for a passing
        fault that it was received and will be applied as soon as possible — once per mail.

        Sent straight over SMTP: the fault may be that the outbox cannot be written. "Once"
        is kept in the database when it can be written and in a local journal always (a mail
        that could not be stored has no row, and a restart forgets what memory held). The
        Message-ID is derived from the reply, so a notice sent twice all the same (the journal
        unwritable too) is recognisable as the same mail."""
        told = 0
        for inbound_id, w in self.pipeline.delayed(self.settings.delay_notice_seconds):
            assert w.sender
            key = notice_key(w.message_id)
            if self.noticed.told(key):
                w.noticed = True
                continue
            rendered = self.ctx.renderer.render("waiting", w.lang, player=w.name or w.sender)
            raw = build_message(
                from_name=self.settings.service_name, from_address=self.settings.service_address,
                to=w.sender, reply_to=self.settings.service_address,
                subject=f"{rendered.subject}: {_without_key(w.subject)}"[:200], rendered=rendered,
                message_id=f"<waiting.{key}@{self.settings.domain}>", date=self.ctx.clock.now(),
                in_reply_to=w.message_id or None)
            try:
                await send_now(self.ctx, w.sender, raw)
            except Exception as exc:
                if not is_transient(exc):
                    raise
                log.warning("cannot tell %s that mail %s waits: %s", w.sender, inbound_id, exc)
                break
            w.noticed = True
            told += 1
            self.noticed.record(key)
            log.info("told %s that mail %s %s waits for a passing fault", w.sender,
                     inbound_id if inbound_id is not None else "(not stored yet)", w.message_id)
            if inbound_id is None:
                continue
            with contextlib.suppress(Exception), self.ctx.db.begin() as conn:
                conn.execute(update(InboundMail).where(col(InboundMail.id) == inbound_id)
                             .values(delay_noticed_at=self.ctx.clock.now()))
        return told

    async def sweep(self) -> list[int]:
        """Act on missed deadlines, then send the due reminders; returns the games acted on.

        One worker sweeps at a time (an advisory lock on PostgreSQL): two sweeps at once
        would both queue a reminder before either recorded it. The policy (reminders, grace, wait/default/skip, abandoned seats) is
        ``service.schedule.deadlines``; each game is acted on in its own transaction.
        """
        with job_lock(self.ctx.db, "sweep") as mine:
            if not mine:
                log.debug("sweep: another worker is sweeping; skipped")
                return []
            return self._sweep()

    def _sweep(self) -> list[int]:
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
        with self.session() as s:
            send_daily_digests(s, self.ctx)
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
        try:
            handled = await self.poll_once(after_each=self._answers_out)
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.warning("poll failed (%s)", exc)
            handled, self.poll_trouble = 0, True
        if self.poll_trouble:
            delay = self.poll_backoff.failed()
            log.info("poll: a transient fault; next round in %.0f s", delay)
            self._wake_later("poll", delay)
        elif self.poll_backoff.failing or not self._requeue_checked:
            self.poll_backoff.succeeded()
            self._requeue_checked = True
            with self.session() as s:
                back = requeue_transient_quarantine(s)
            if back:
                log.warning("mails %s were quarantined for a passing fault; tried again", back)
                handled += len(back)
        await self.tell_waiting_players()
        if handled:
            self._wakes["poll"].set()  # look once more: replies to what we just sent may be in

    def _wake_later(self, name: str, delay: float) -> None:
        """Run job ``name`` again after ``delay`` seconds (one pending retry at a time)."""
        if self._retry_handle is not None:
            self._retry_handle.cancel()
        self._retry_handle = asyncio.get_running_loop().call_later(delay, self._wakes[name].set)

    async def _answers_out(self) -> None:
        """After each handled mail: wake the outbox worker, which hands its round to the SMTP
        thread at once, so a mail's answers go out while the next mail is processed here
        instead of before it."""
        self._wakes["outbox"].set()
        await asyncio.sleep(0)

    async def _flush_once(self) -> int:
        """``flush_outbox``, never two at once (the poll and the outbox worker both flush)."""
        async with self._flush_lock:
            sent = await self.flush_outbox()
        if self.sender.cut_short and "outbox" in self._wakes:
            self._wakes["outbox"].set()  # a backlog: the next round now, not at the next tick
        return sent

    async def _worker(self, name: str, wake: asyncio.Event, job: Callable[[], Awaitable[Any]]) -> None:
        while True:
            await wake.wait()
            if self._stop.is_set():
                return
            wake.clear()
            self._round_started[name] = time.monotonic()
            self._rounds_begun[name] = self._rounds_begun.get(name, 0) + 1
            try:
                await job()
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if self._stop.is_set() or (task is not None and task.cancelling()):
                    raise  # cancelled from outside (the watchdog): this worker ends, a new one starts
                # a library turned an error into a cancellation: it must not end the job for good
                log.exception("%s: a cancellation leaked out of the round; retrying at the next wake-up", name)
            except Exception:
                log.exception("%s failed; retrying at the next wake-up", name)
            finally:
                self._round_started.pop(name, None)

    async def _tick(self, name: str) -> None:
        """APScheduler's job: wake the worker of job ``name``.

        A coroutine on purpose: APScheduler's asyncio executor runs a plain function in a
        worker THREAD, and ``asyncio.Event`` is not thread-safe — a ``set`` racing the loop's
        ``wait`` left the event set with its waiter never woken, and every later ``set`` did
        nothing: the poll job stopped for good (found live, after a kill -9 restart). As a
        coroutine it runs on the event loop like every other wake-up."""
        self._wakes[name].set()

    def _start_worker(self, name: str, job: Callable[[], Awaitable[Any]]) -> asyncio.Task[None]:
        task = asyncio.create_task(self._worker(name, self._wakes[name], job), name=f"pbem-{name}")
        self._tasks[name] = task
        return task

    async def _watchdog(self, jobs: dict[str, Callable[[], Awaitable[Any]]]) -> None:
        """Keep every job alive: a round that runs longer than ``job_round_timeout_seconds`` is
        waiting for something that will not come (each mail server and database call has its
        own timeout, so this is a defect): its await chain is logged — where it waits — and it
        is cancelled; a worker woken but still idle a whole look later (a lost wake-up) and a
        worker that ended are started afresh. Mails a cancelled poll round had claimed are this
        worker's own claims, which its next claim takes again at once."""
        limit = self.settings.job_round_timeout_seconds
        woken_at_last_look: dict[str, int] = {}  # jobs woken but idle at the last look: rounds begun then
        while not self._stop.is_set():
            await self._pause(min(max(limit / 5, 0.2), 30.0))
            if self._stop.is_set():
                return
            for name, task in list(self._tasks.items()):
                begun = self._rounds_begun.get(name, 0)
                if name in self._round_started or not self._wakes[name].is_set() or task.done():
                    woken_at_last_look.pop(name, None)
                elif woken_at_last_look.get(name) == begun:  # woken a whole look ago, and idle still
                    self.stuck_rounds += 1
                    log.error("%s worker does not take its wake-up, waiting in %s; started afresh",
                              name, await_chain(task))
                    task.cancel()
                    await asyncio.wait([task], timeout=10)
                    woken_at_last_look.pop(name, None)
                else:
                    woken_at_last_look[name] = begun
            now = time.monotonic()
            for name, started in list(self._round_started.items()):
                task = self._tasks.get(name)
                if task is None or task.done() or now - started <= limit:
                    continue
                self.stuck_rounds += 1
                log.error("%s round stuck for %.0f s, waiting in %s; cancelled and started afresh",
                          name, now - started, await_chain(task))
                self._round_started.pop(name, None)
                task.cancel()
                await asyncio.wait([task], timeout=10)
            for name, task in list(self._tasks.items()):
                if not task.done() or self._stop.is_set():
                    continue
                if not task.cancelled() and task.exception() is not None:
                    log.error("%s worker ended on %r; started afresh", name, task.exception())
                self._start_worker(name, jobs[name])
                self._wakes[name].set()  # its round runs again at once

    async def _idle_loop(self) -> None:
        """Wake the poll worker as soon as IDLE reports new mail (own connection).

        After an error the watcher reconnects with a short backoff (1 s, doubling to 10 s),
        and every new connection wakes the poll for a catch-up search: mail that arrived
        while the server was away is picked up as soon as it is back, not at the next poll.
        """
        watcher = self._watcher = Inbox(self.settings)
        seen_connections = 0
        holder = False
        try:
            while not self._stop.is_set():
                if not await asyncio.to_thread(self.holds_mailbox):
                    # another worker reads the mailbox: process and send what it stores, and
                    # take the mailbox over as soon as its holder is gone
                    if holder:
                        log.warning("worker %s lost the mailbox lock; another worker reads the inbox", self.worker_id)
                        holder = False
                        await asyncio.to_thread(watcher.close)
                    self._wakes["poll"].set()
                    await self._pause(self.settings.worker_poll_seconds)
                    continue
                if not holder:
                    holder = True
                    if self.mailbox_lock.postgres:
                        log.info("worker %s reads the mailbox (holds its lock)", self.worker_id)
                try:
                    await asyncio.to_thread(watcher.connect)
                    if watcher.connections != seen_connections:  # before IDLE: it would block
                        if seen_connections:
                            log.info("IMAP watcher reconnected; catching up")
                        seen_connections = watcher.connections
                        self._wakes["poll"].set()
                    news = await asyncio.to_thread(watcher.wait, min(self.settings.poll_interval_seconds, 60))
                except Exception as exc:
                    delay = self.idle_backoff.failed()
                    log.warning("IMAP watcher: %s; reconnecting in %.0f s", exc, delay)
                    await self._pause(delay)
                    continue
                if watcher.client is None:  # the wait lost its connection: reconnect soon
                    await self._pause(self.idle_backoff.failed())
                    continue
                self.idle_backoff.succeeded()
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
            scheduler.add_job(self._tick, "interval", args=[name], seconds=seconds, id=name,
                              next_run_time=first_run[name] or now + timedelta(seconds=seconds),
                              coalesce=True, max_instances=1, misfire_grace_time=None)
        for name, (_seconds, job) in jobs.items():
            self._start_worker(name, job)
        self.sender.keep_open = True
        self._smtp_thread = SmtpThread()
        if self._outbox_in_a_process():
            self._smtp_process = SmtpProcess(self.settings)
            self._smtp_process.start_soon()
        scheduler.start()
        idle = asyncio.create_task(self._idle_loop(), name="pbem-idle")
        job_of = {name: job for name, (_seconds, job) in jobs.items()}
        watchdog = asyncio.create_task(self._watchdog(job_of), name="pbem-watchdog")
        try:
            await self._stop.wait()
        finally:
            self._stop.set()
            scheduler.shutdown(wait=False)
            if self._watcher is not None:
                self._watcher.interrupt()
            for wake in self._wakes.values():
                wake.set()  # a waiting worker sees the stop; a busy one finishes its round first
            await asyncio.gather(idle, watchdog, return_exceptions=True)
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
            try:  # the answers of mails the last round committed (their send was only woken)
                await self._flush_once()
            except Exception:
                log.exception("outbox: the last round before stopping failed; sent at the next start")
            self.sender.keep_open = False
            smtp_process, self._smtp_process = self._smtp_process, None
            if smtp_process is not None:
                await smtp_process.close()
            smtp_thread, self._smtp_thread = self._smtp_thread, None
            await smtp_thread.run(self.sender.close())
            smtp_thread.close()
            self._drop_prefetch()
            await asyncio.to_thread(self.inbox.close)
            self.mailbox_lock.release()

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


def _without_key(subject: str) -> str:
    """The player's subject without our ``ref KEY`` and what follows it: a reply to the
    notice must not carry the command typed there a second time."""
    found = SUBJECT_KEY_RE.search(subject)
    return (subject[:found.start()] if found else subject).rstrip(" ·-")
