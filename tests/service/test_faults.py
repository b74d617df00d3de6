"""Transient faults versus poisonous mails, on a real SQLite database and real SMTP servers.

A full or read-only database (tests.support.dbfaults: SQLite itself refuses the writes) must
never cost a move, quarantine a good mail or make the outbox send a mail twice."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiosmtplib
import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import select

import engines
from service.clock import ManualClock
from service.context import AppContext
from service.faults import Backoff, is_transient
from service.inbound.pipeline import Pipeline, extract, requeue_transient_quarantine, store, subject_command
from service.outbound.outbox import Queued, Sender, queue_mail, send_due
from service.outbound.render import Renderer
from service.store.claims import process_space
from service.store.models import InboundMail, MoveLog, Outbox
from tests.support.dbfaults import SqliteFaults
from tests.support.mailservers import fetch_all

from .test_stages import key_of, mail
from .world import make_settings, parse


@pytest.fixture(autouse=True)
def _on_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """These faults are SQLite's own (``max_page_count``, ``query_only``): the module stays on
    SQLite when the suite runs on PostgreSQL (PostgreSQL faults: ``test_faults_live``)."""
    monkeypatch.setenv("PBEM_TEST_DATABASE", "sqlite")


@pytest.fixture
def faults() -> Iterator[SqliteFaults]:
    installed = SqliteFaults().install()
    yield installed
    installed.remove()


def stored_reply(ctx: AppContext, game: int, seat: int = 0, text: str = "high", n: int = 1) -> int:
    key = key_of(ctx, game, seat)
    sender = ("ann@x.test", "bob@x.test")[seat]
    with ctx.session() as s:
        row, _ = store(s, ctx, mail(sender, f"play+{key}@pbem.test", text, message_id=f"<r{n}@x.test>").as_bytes(),
                       n, "INBOX")
    assert row.id is not None
    return row.id


def toy_game(service: Any, ann: str, bob: str, *, seed: int, ann_lang: str = "en") -> int:
    """Ann and Bob registered and seated in a new toy game; its id."""
    from service.store.games import create_player

    ctx = service.ctx
    with ctx.session() as s:
        create_player(s, ann, "Ann", ann_lang, ctx=ctx)
        create_player(s, bob, "Bob", ctx=ctx)
        s.commit()
    return int(service.new_game("toy", [ann, bob], seed=seed))  # Any-typed service


def test_transient_errors_are_told_from_bugs() -> None:
    full = OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))
    locked = OperationalError("UPDATE", {}, sqlite3.OperationalError("database is locked"))
    missing = OperationalError("SELECT", {}, sqlite3.OperationalError("no such column: games.x"))
    assert is_transient(full) and is_transient(locked) and not is_transient(missing)
    assert is_transient(ConnectionRefusedError()) and is_transient(TimeoutError())
    assert is_transient(aiosmtplib.SMTPResponseException(451, "try later"))
    assert not is_transient(aiosmtplib.SMTPResponseException(550, "no such user"))
    assert not is_transient(RuntimeError("engine exploded")) and not is_transient(KeyError("x"))
    try:
        try:
            raise full
        except OperationalError as exc:
            raise RuntimeError("while saving") from exc
    except RuntimeError as wrapped:
        assert is_transient(wrapped)  # the cause counts
    backoff = Backoff(first=1, cap=15)
    assert [backoff.failed() for _ in range(6)] == [1, 2, 4, 8, 15, 15]
    backoff.succeeded()
    assert backoff.failed() == 1


def test_a_full_database_defers_a_reply_without_counting_it_then_applies_it_once(
        ctx: AppContext, game_id: int, faults: SqliteFaults) -> None:
    inbound = stored_reply(ctx, game_id)
    pipeline = Pipeline(ctx)
    faults.mode = "full"
    for _ in range(ctx.settings.max_crashes + 3):  # more failures than the crash limit
        assert pipeline.process(inbound) == "deferred"
    faults.mode = ""
    with ctx.session() as s:
        row = s.get_one(InboundMail, inbound)
        assert (row.status, row.attempts) == ("new", 0)  # never counted as a crash
        assert s.exec(select(MoveLog)).all() == []
    assert pipeline.waiting[inbound].failures == ctx.settings.max_crashes + 3
    assert pipeline.waiting[inbound].sender == "ann@x.test"  # will be told if it waits long
    assert pipeline.process(inbound) == "applied"
    assert inbound not in pipeline.waiting
    with ctx.session() as s:
        assert [m.command for m in s.exec(select(MoveLog)).all()] == ["high"]
        assert s.get_one(InboundMail, inbound).status == "applied"


def test_a_read_only_database_defers_too(ctx: AppContext, game_id: int, faults: SqliteFaults) -> None:
    inbound = stored_reply(ctx, game_id)
    pipeline = Pipeline(ctx)
    faults.mode = "readonly"  # even the claim cannot be written
    assert pipeline.process(inbound) == "deferred"
    assert pipeline.process(inbound) == "deferred"
    faults.mode = ""
    assert pipeline.process(inbound) == "applied"


def test_a_transient_error_that_repeats_while_other_mails_go_through_quarantines(
        ctx: AppContext, game_id: int, monkeypatch: pytest.MonkeyPatch) -> None:
    toy = engines.get("toy")
    real_parse = toy.parse

    def parse_or_lock(state: Any, seat: int, text: str) -> Any:
        if text == "low":  # this mail, and only this one, always meets a "locked" database
            raise OperationalError("UPDATE", {}, sqlite3.OperationalError("database is locked"))
        return real_parse(state, seat, text)

    monkeypatch.setattr(toy, "parse", parse_or_lock)
    bad = stored_reply(ctx, game_id, text="low", n=1)
    pipeline = Pipeline(ctx)
    assert pipeline.process(bad) == "deferred"
    statuses = []
    for n in range(2, 2 + Pipeline.transient_repeats):
        good = stored_reply(ctx, game_id, seat=1, text="help", n=n)  # other mails go through
        assert pipeline.process(good) != "deferred"
        statuses.append(pipeline.process(bad))
    assert statuses == ["deferred"] * (Pipeline.transient_repeats - 1) + ["quarantined"]
    with ctx.session() as s:
        row = s.get_one(InboundMail, bad)
        assert row.stage == "apply" and (row.error or "").startswith("repeated ")
        assert requeue_transient_quarantine(s) == []  # the mail is the problem: it stays


def test_a_mail_quarantined_for_a_full_disk_is_put_back_and_applied(ctx: AppContext, game_id: int) -> None:
    inbound = stored_reply(ctx, game_id)
    with ctx.session() as s:  # as the service before this fix left it
        row = s.get_one(InboundMail, inbound)
        row.status, row.stage, row.attempts = "quarantined", "apply", 1
        row.error = "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database or disk is full"
        s.add(row)
        s.commit()
        assert requeue_transient_quarantine(s) == [inbound]
    assert Pipeline(ctx).process(inbound) == "applied"


def test_text_after_the_reply_key_in_the_subject_is_a_command_line() -> None:
    key = "abcdefghijklmnopqrst"
    subject = f"Re: [BARCADIA #4] Your turn · ref {key} 4"
    assert subject_command(subject) == "4"
    assert extract(mail("a@x.test", "play@pbem.test", "", subject=subject)) == "4"
    assert extract(mail("a@x.test", "play@pbem.test", "state\n", subject=subject)) == "4\nstate"
    assert extract(mail("a@x.test", "play@pbem.test", "state\n", subject=f"Re: [BARCADIA #4] Your turn · ref {key}")) == "state"


# -- the outbox ---------------------------------------------------------------------------


def queue(ctx: AppContext, to: str, n: int) -> Queued:
    rendered = Renderer().render("info", "en", player="A", title=f"Hello {n}")
    with ctx.session() as s:
        row = queue_mail(s, ctx, to=to, kind="info", subject=f"[PBEM] hello {n}", rendered=rendered)
        assert row is not None
        s.commit()
        return row


@pytest.mark.e2e
def test_the_outbox_stops_when_it_cannot_record_a_send_and_never_sends_a_mail_twice(
        mail_stack: Any, tmp_path: Path, faults: SqliteFaults) -> None:
    mail_stack.add_user("ann@pbem.test", "pw")
    ctx = AppContext.create(make_settings(mail_stack, tmp_path), ManualClock())
    rows = [queue(ctx, "ann@pbem.test", n) for n in range(3)]

    healed = False
    faults.current = lambda: ("readonly" if mail_stack.delivered >= 1 and not healed else "")  # type: ignore[method-assign]
    sender = Sender()
    assert asyncio.run(send_due(ctx, sender=sender)) == 1
    assert sender.breaker_open and list(sender.unrecorded) == [rows[0].id]
    for _ in range(5):  # the outbox ticks on while the disk is read-only
        sender.retry_at = 0.0
        assert asyncio.run(send_due(ctx, sender=sender)) == 0
    assert mail_stack.delivered == 1  # no flood
    healed = True
    sender.retry_at = 0.0
    assert asyncio.run(send_due(ctx, sender=sender)) == 2
    assert not sender.breaker_open and not sender.unrecorded
    ids = [str(parse(raw)["Message-ID"]) for raw in fetch_all(mail_stack, "ann@pbem.test", "pw")]
    assert sorted(ids) == sorted(r.message_id for r in rows)  # each exactly once
    with ctx.session() as s:
        assert [(r.status, r.sends) for r in s.exec(select(Outbox)).all()] == [("sent", 1)] * 3


@pytest.mark.e2e
def test_a_claim_left_by_a_dead_process_is_sent_once_more_and_never_a_third_time(
        mail_stack: Any, tmp_path: Path) -> None:
    mail_stack.add_user("ann@pbem.test", "pw")
    ctx = AppContext.create(make_settings(mail_stack, tmp_path), ManualClock())
    row = queue(ctx, "ann@pbem.test", 1)
    dead = f"{process_space()}:{dead_pid()}:gone"  # this host and pid namespace, a pid that has exited

    def orphan() -> None:
        with ctx.session() as s:
            stored = s.get_one(Outbox, row.id)
            stored.status, stored.claimed_by, stored.claimed_at = "sending", dead, ctx.clock.now()
            s.add(stored)
            s.commit()

    orphan()  # killed between claim and record, once
    assert asyncio.run(send_due(ctx)) == 1
    orphan()  # and again after the resend
    assert asyncio.run(send_due(ctx)) == 0
    with ctx.session() as s:
        stored = s.get_one(Outbox, row.id)
    assert (stored.status, stored.crash_resends, stored.sends) == ("sent", 1, 1)
    assert "assumed delivered" in (stored.last_error or "")
    assert mail_stack.delivered == 1


def dead_pid() -> int:
    """A pid no process has right now."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


@pytest.mark.e2e
def test_a_player_whose_reply_waits_is_told_once_in_their_language(
        mail_stack: Any, tmp_path: Path, faults: SqliteFaults) -> None:
    from service.schedule.runtime import Service

    from .world import text_of

    mail_stack.add_user("ann@pbem.test", "pw")
    service = Service(make_settings(mail_stack, tmp_path, delay_notice_seconds=60), ManualClock())
    ctx = service.ctx
    game = toy_game(service, "ann@pbem.test", "bob@pbem.test", seed=3, ann_lang="vi")
    key = key_of(ctx, game, 0)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@pbem.test", "play@pbem.test", "",  # Apple Mail: typed in the subject
                                    subject=f"Re: [TOY #1] Your turn · ref {key} high").as_bytes(), 1, "INBOX")
    faults.mode = "full"
    assert row.id is not None and service.pipeline.process(row.id) == "deferred"
    assert asyncio.run(service.tell_waiting_players()) == 0  # not waiting long yet
    service.pipeline.waiting[row.id].since -= 61
    assert asyncio.run(service.tell_waiting_players()) == 1
    assert asyncio.run(service.tell_waiting_players()) == 0  # once per mail
    (notice,) = [parse(raw) for raw in fetch_all(mail_stack, "ann@pbem.test", "pw")]
    assert str(notice["Subject"]) == "Đã nhận, sẽ xử lý sớm: Re: [TOY #1] Your turn"  # no key, no command
    assert "không cần gửi lại" in text_of(notice) and notice["In-Reply-To"] == "<m1@x.test>"
    faults.mode = ""
    assert service.pipeline.process(row.id) == "applied"
    with ctx.session() as s:
        assert s.get_one(InboundMail, row.id).delay_noticed_at is not None
    english = Renderer().render("waiting", "en", player="Bob")
    assert "will be applied as soon as possible" in english.text and "Bob" in english.html


@pytest.mark.e2e
def test_a_restart_while_the_database_is_read_only_does_not_tell_the_player_twice(
        mail_stack: Any, tmp_path: Path, faults: SqliteFaults) -> None:
    """Seen in the live fault test: killed and restarted during an outage, the service told
    each waiting player a second time (the database's mark could not be written)."""
    from service.schedule.runtime import Service

    mail_stack.add_user("ann@pbem.test", "pw")
    settings = make_settings(mail_stack, tmp_path, delay_notice_seconds=60)
    first = Service(settings, ManualClock())
    ctx = first.ctx
    game = toy_game(first, "ann@pbem.test", "bob@pbem.test", seed=3)
    with ctx.session() as s:
        row, _ = store(s, ctx, mail("ann@pbem.test", "play@pbem.test", "high",
                                    subject=f"Re: [TOY #1] Your turn · ref {key_of(ctx, game, 0)}").as_bytes(),
                       1, "INBOX")
    faults.mode = "readonly"
    assert row.id is not None and first.pipeline.process(row.id) == "deferred"
    first.pipeline.waiting[row.id].since -= 61
    assert asyncio.run(first.tell_waiting_players()) == 1
    with ctx.session() as s:
        assert s.get_one(InboundMail, row.id).delay_noticed_at is None  # the database could not keep it

    second = Service(settings, ManualClock())  # the restart: nothing in memory
    assert second.pipeline.process(row.id) == "deferred"
    second.pipeline.waiting[row.id].since -= 61
    assert asyncio.run(second.tell_waiting_players()) == 0
    assert len(fetch_all(mail_stack, "ann@pbem.test", "pw")) == 1
    faults.mode = ""
    assert second.pipeline.process(row.id) == "applied"


def test_the_notice_journal_is_shared_by_processes_and_survives_an_unwritable_file(tmp_path: Path) -> None:
    from service.inbound.noticed import NoticeJournal, default_journal_path, notice_key

    path = tmp_path / "state" / "noticed-replies"
    one, other = NoticeJournal(path), NoticeJournal(path)
    key = notice_key("<m1@x.test>")
    assert not other.told(key)
    one.record(key)
    assert other.told(key) and NoticeJournal(path).told(key)
    assert not other.told(notice_key("<m2@x.test>"))
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    stuck = NoticeJournal(blocked / "noticed")  # its folder cannot be made: memory only
    stuck.record(key)
    assert stuck.told(key)
    assert default_journal_path("sqlite://") is None
    assert default_journal_path("sqlite:////var/lib/pbem/pbem.sqlite3") == Path("/var/lib/pbem/pbem.sqlite3-noticed")
    assert default_journal_path("postgresql+psycopg://h/db", str(tmp_path)) == tmp_path / "noticed-replies"


def test_the_notice_journal_keeps_its_newest_lines_when_compacted(tmp_path: Path) -> None:
    from service.inbound import noticed

    path = tmp_path / "noticed-replies"
    path.write_text("".join(f"{i:016x} 1796000000\n" for i in range(noticed.COMPACT_AT)))
    journal = noticed.NoticeJournal(path)
    journal.record("f" * 16)
    kept = path.read_text().splitlines()
    assert len(kept) == noticed.KEEP_LINES and kept[-1].startswith("f" * 16)
    assert noticed.NoticeJournal(path).told(f"{noticed.COMPACT_AT - 1:016x}")
    assert not noticed.NoticeJournal(path).told(f"{0:016x}")


def test_with_the_imap_server_away_mail_already_stored_is_still_handled(tmp_path: Path) -> None:
    from service.schedule.runtime import Service

    from .test_outbox_sweep import free_port

    class NoStack:
        host, smtp_port, imap_port = "127.0.0.1", free_port(), free_port()

    service = Service(make_settings(NoStack(), tmp_path), ManualClock())
    ctx = service.ctx
    game = toy_game(service, "ann@x.test", "bob@x.test", seed=5)
    inbound = stored_reply(ctx, game)
    assert asyncio.run(service.poll_once()) == 1  # the fetch failed, the stored reply did not wait
    assert service.poll_trouble  # and the poll comes back soon
    with ctx.session() as s:
        assert s.get_one(InboundMail, inbound).status == "applied"
