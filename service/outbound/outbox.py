"""The transactional outbox: mails are rows written in the same transaction as the move.

``queue_mail`` only inserts a row (so a rolled-back move sends nothing); ``send_due`` claims
each due row (``sending``), delivers it over SMTP (aiosmtplib) and records it ``sent``, each
in its own small commit. A crash between the claim and the record resends the same bytes with
the same Message-ID once, never more (a mail client recognises it as one mail): at-least-once
delivery, at most two copies. When the database cannot take the record, a circuit breaker
(``Sender``) stops all sending until it can — a full disk must not turn into a flood.
A server-wide temporary refusal (4xx, connection lost) backs off briefly (1 s, doubling to
10 s) without counting against a mail; a 4xx for one mail while others go through backs that
mail off exponentially, and after ``max_send_attempts`` it is ``failed``.
Answers (help, state, errors, invitations) are limited per address and hour/day, errors also per
day, so neither a loop with a misbehaving robot nor a flood of forged mails can aim the service
at an inbox; the last answer before a limit says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import ssl
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, timedelta
from html import escape

import aiosmtplib
from sqlalchemy import bindparam, func, insert, update
from sqlmodel import Session, col, select

from engines.contract import tr
from service.config import Settings
from service.context import AppContext
from service.faults import Backoff, is_transient
from service.outbound.render import Attachment, Rendered, build_message
from service.store.claims import claim_outbox, claim_outbox_in, outbox_due, owner_alive, worker_token
from service.store.models import Outbox, Player
from service.tls import client_context, trust_error

log = logging.getLogger(__name__)

#: Kinds of mail that answer a problem; these are rate-limited per address and day.
ERROR_KINDS = frozenset({"rejected", "finished", "too_large"})
#: Every kind of answer a mail can cause (someone else can write that mail, with a forged From):
#: limited per address and hour/day, so the service cannot be aimed at an inbox. Mails the game
#: itself causes (turn, started, received, moved, over) are never limited.
ANSWER_KINDS = ERROR_KINDS | {"help", "info", "invite"}

LAST_ANSWER_NOTE = tr("This is the last answer I send to this address for now (too many in a short time); mail about your games keeps coming, and I answer again {when}.")
LAST_ANSWER_WHEN = {"hour": tr("in an hour"), "day": tr("tomorrow")}
KEEP_OPEN_SECONDS = 10.0
#: how often a sender looks for claims left by a dead process (and on its first round)
RECOVER_EVERY = 5.0
BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_MAX = timedelta(hours=6)
#: How long a claim (``sending``) of another host's process is trusted before it counts as
#: orphaned; a dead process on this host is recognised at once by its pid.
CLAIM_LEASE = timedelta(minutes=5)


def new_message_id(ctx: AppContext, kind: str) -> str:
    """A fresh id with 128 random bits: never predictable, never shared with another database."""
    return f"<{uuid.uuid4().hex}.{kind}@{ctx.settings.domain}>"


def error_answers_today(session: Session, ctx: AppContext, address: str) -> int:
    return _answers(session, ctx, address, ERROR_KINDS, timedelta(days=1))


def _answers(session: Session, ctx: AppContext, address: str, kinds: frozenset[str], window: timedelta,
             game_id: int | None = None) -> int:
    since = ctx.clock.now() - window
    query = select(func.count()).select_from(Outbox).where(
        Outbox.to_address == address, col(Outbox.kind).in_(kinds), Outbox.created_at >= since
    )
    if game_id is not None:
        query = query.where(Outbox.game_id == game_id)
    return int(session.exec(query).one())


def answer_allowed(session: Session, ctx: AppContext, to: str, kind: str,
                   game_id: int | None) -> tuple[bool, str | None]:
    """(send it?, the window it is the LAST answer of — "hour" or "day" — or None).

    Limits are per address: errors per day, all answers per hour and per day. A limit never
    hides the first answer about a game that got no answer in the window (a bad hour in one
    game does not silence a correct reply in another).
    """
    if kind not in ANSWER_KINDS:
        return True, None
    cfg = ctx.settings
    limits = [(ANSWER_KINDS, timedelta(hours=1), cfg.answers_per_hour, "hour"),
              (ANSWER_KINDS, timedelta(days=1), cfg.answers_per_day, "day")]
    if kind in ERROR_KINDS:
        limits.append((ERROR_KINDS, timedelta(days=1), cfg.error_answers_per_day, "day"))
    last: str | None = None
    for kinds, window, limit, name in limits:
        used = _answers(session, ctx, to, kinds, window)
        if used >= limit:
            if game_id is not None and _answers(session, ctx, to, ANSWER_KINDS, window, game_id) == 0:
                continue  # the first answer about this game in the window is always sent
            return False, None
        if used == limit - 1:
            last = last or name
    return True, last


def _with_note(rendered: Rendered, note: str) -> Rendered:
    """The mail with one more paragraph above the signature (text) or at the end (HTML)."""
    text = rendered.text
    cut = text.rfind("\n-- \n")
    text = f"{text[:cut]}\n\n{note}\n{text[cut:]}" if cut >= 0 else f"{text.rstrip()}\n\n{note}\n"
    html = rendered.html
    paragraph = f"<p>{escape(note)}</p>"
    at = html.rfind("</body>")
    html = f"{html[:at]}{paragraph}\n{html[at:]}" if at >= 0 else html + paragraph
    return dataclasses.replace(rendered, text=text, html=html)  # pictures and all


def queue_mail(
    session: Session,
    ctx: AppContext,
    *,
    to: str,
    kind: str,
    subject: str,
    rendered: Rendered,
    reply_to: str | None = None,
    game_id: int | None = None,
    in_reply_to: str | None = None,
    message_id: str | None = None,
    reply_key: str | None = None,
    attachments: Sequence[Attachment] = (),
) -> Queued | None:
    """Add a mail to the outbox (no commit). ``None`` when an answer limit for ``to`` is reached
    (see ``answer_allowed``); the last answer before a limit says so.

    The row is written with a Core insert in the session's transaction, not as an ORM object:
    nobody reads the object back, and building and flushing it cost ~7 % of a reply's CPU."""
    allowed, last = answer_allowed(session, ctx, to, kind, game_id)
    if not allowed:
        log.info("not answering %s (%s): answer limit reached", to, kind)
        return None
    if last is not None:
        lang = session.exec(select(Player.lang).where(Player.address == to)).first() or "en"
        lang = lang if lang in LAST_ANSWER_NOTE else "en"
        rendered = _with_note(rendered, LAST_ANSWER_NOTE[lang].format(when=LAST_ANSWER_WHEN[last][lang]))
    now = ctx.clock.now()
    message_id = message_id or new_message_id(ctx, kind)
    raw = build_message(
        from_name=ctx.settings.service_name,
        from_address=ctx.settings.service_address,
        to=to,
        reply_to=reply_to or ctx.settings.service_address,
        subject=subject,
        rendered=rendered,
        message_id=message_id,
        date=now,
        in_reply_to=in_reply_to,
        attachments=attachments,
    )
    result = session.connection().execute(_INSERT_OUTBOX, {
        "message_id": message_id, "to_address": to, "kind": kind, "game_id": game_id, "reply_key": reply_key,
        "raw": raw, "next_attempt_at": now, "created_at": now})
    key = result.inserted_primary_key
    assert key is not None  # an INSERT always names its row
    return Queued(int(key[0]), message_id)


@dataclass(frozen=True)
class Queued:
    """The outbox row ``queue_mail`` wrote: its id and the Message-ID it is sent with."""

    id: int
    message_id: str


#: One outbox row; status, attempts and the counters take their column defaults (``pending``, 0).
_INSERT_OUTBOX = insert(Outbox)


def backoff(attempts: int) -> timedelta:
    delay: timedelta = BACKOFF_BASE * (2 ** max(attempts - 1, 0))
    return min(delay, BACKOFF_MAX)


@dataclass
class Sender:
    """The outbox worker's memory between rounds: its claim token and the circuit breaker.

    Why a breaker: a mail is claimed before SMTP and its send recorded right after; when that
    record cannot be written (a full or read-only disk, a lost database) the mail must not go
    out again and again. The breaker opens on any database error, remembers the outcomes it
    could not write (``unrecorded``) and sends nothing until they are written; the SMTP side
    has its own backoff so a refusing server is not hammered either.
    """

    owner: str = field(default_factory=worker_token)
    unrecorded: dict[int, tuple[str, str | None, bool]] = field(default_factory=dict)
    db_backoff: Backoff = field(default_factory=Backoff)
    smtp_backoff: Backoff = field(default_factory=Backoff)
    retry_at: float = 0.0
    breaker_open: bool = False
    opened: int = 0
    #: keep the SMTP connection between rounds (``pbem serve`` flushes after every handled
    #: mail); an idle connection is not trusted after ``KEEP_OPEN_SECONDS`` and opened afresh
    keep_open: bool = False
    smtp: aiosmtplib.SMTP | None = None
    smtp_used: float = 0.0

    #: when this sender last looked for claims orphaned by a dead process (monotonic)
    recovered_at: float | None = None
    #: the last round stopped at its ``limit`` with mail still due: the caller runs another
    #: round at once instead of at its next tick (a backlog drained 200 mails per tick)
    cut_short: bool = False
    async def close(self) -> None:
        """Quit a kept SMTP connection (the service stops)."""
        smtp, self.smtp = self.smtp, None
        if smtp is not None:
            with contextlib.suppress(aiosmtplib.SMTPException, OSError):
                await smtp.quit()

    def fresh_connection(self) -> aiosmtplib.SMTP | None:
        """The kept connection, taken out of the sender, when it may still be trusted (used
        within ``KEEP_OPEN_SECONDS``); None when there is none or it is stale (then it stays
        for ``_connection`` to quit)."""
        kept = self.smtp
        if kept is not None and kept.is_connected and time.monotonic() - self.smtp_used < KEEP_OPEN_SECONDS:
            self.smtp = None
            return kept
        return None

    def keep(self, smtp: aiosmtplib.SMTP | None) -> None:
        """Keep ``smtp`` open for the next round (when given)."""
        if smtp is not None:
            self.smtp, self.smtp_used = smtp, time.monotonic()

    def trip(self, backoff: Backoff, why: object) -> None:
        delay = backoff.failed()
        self.retry_at = time.monotonic() + delay
        if backoff is self.db_backoff and not self.breaker_open:
            self.breaker_open = True
            self.opened += 1
            log.warning("outbox: the database takes no writes (%s); sending stops until it does", why)
        else:
            log.warning("outbox: %s; next try in %.0f s", why, delay)


def _record(ctx: AppContext, outbox_id: int, outcome: str, error: str | None, charge: bool,
            claim_for: str | None = None) -> tuple[int, str, bytes] | None:
    """Write what happened to a claimed mail: ``sent``, ``released`` (back to pending after a
    temporary refusal; ``charge`` counts it against ``max_send_attempts``) or ``failed``.

    ``claim_for``: also claim the next due mail for this owner in the same commit (returned
    as ``claim_outbox`` does): one commit per mail sent instead of two."""
    now = ctx.clock.now()
    with ctx.db.begin() as conn:
        if outcome == "sent":
            conn.execute(_SENT, {"outbox_id": outbox_id, "now": now})
        else:
            row = conn.execute(select(Outbox.attempts).where(col(Outbox.id) == outbox_id)).one()
            attempts = row[0] + (1 if charge or outcome == "failed" else 0)
            gives_up = outcome == "failed" or attempts >= ctx.settings.max_send_attempts
            if gives_up:
                log.error("giving up on outbox mail %s: %s", outbox_id, error)
            conn.execute(update(Outbox).where(col(Outbox.id) == outbox_id, col(Outbox.status) == "sending")
                         .values(status="failed" if gives_up else "pending", attempts=attempts,
                                 last_error=(error or "")[:1000], claimed_by=None,
                                 next_attempt_at=now + (backoff(attempts) if charge else timedelta(0))))
        return claim_outbox_in(conn, claim_for, now) if claim_for is not None else None


#: built once: the statement runs once per mail sent
_SENT = (update(Outbox).where(col(Outbox.id) == bindparam("outbox_id"), col(Outbox.status) == "sending")
         .values(status="sent", sent_at=bindparam("now"), sends=col(Outbox.sends) + 1,
                 attempts=col(Outbox.attempts) + 1, claimed_by=None))


def _recover_claims(ctx: AppContext, sender: Sender) -> None:
    """Claims whose process died (kill -9 between claim and record): the mail may or may not
    have gone out. Sent again once; a second orphaned claim of the same mail counts as sent,
    so no mail is ever sent more than twice.

    Several workers may look at the same orphan at once: each change is a compare-and-set on
    (status, owner, crash_resends) as read, so exactly one of them acts on it."""
    lease = ctx.clock.now() - CLAIM_LEASE
    with ctx.session() as s:
        rows = s.exec(select(Outbox.id, Outbox.claimed_by, Outbox.claimed_at, Outbox.crash_resends,
                             Outbox.message_id, Outbox.to_address).where(Outbox.status == "sending")).all()
    for outbox_id, owner, claimed_at, resends, message_id, to_address in rows:
        if outbox_id is None or outbox_id in sender.unrecorded:
            continue
        if claimed_at is not None and claimed_at.tzinfo is None:
            claimed_at = claimed_at.replace(tzinfo=UTC)
        if owner_alive(owner, sender.owner) and claimed_at is not None and claimed_at > lease:
            continue
        now = ctx.clock.now()
        if resends >= 1:
            values: dict[str, object] = {
                "status": "sent", "sent_at": now, "claimed_by": None,
                "last_error": "outcome of two sends unknown (process died); assumed delivered"}
        else:
            values = {"status": "pending", "crash_resends": resends + 1, "next_attempt_at": now, "claimed_by": None}
        with ctx.db.begin() as conn:
            owned = col(Outbox.claimed_by).is_(None) if owner is None else col(Outbox.claimed_by) == owner
            done = conn.execute(update(Outbox).where(col(Outbox.id) == outbox_id, col(Outbox.status) == "sending",
                                                     owned, col(Outbox.crash_resends) == resends).values(**values))
        if done.rowcount != 1:
            continue  # another worker recovered it first
        if resends >= 1:
            log.warning("outbox mail %s to %s: claimed twice by processes that died; counted as "
                        "sent (at most two copies)", message_id, to_address)
        else:
            log.warning("outbox mail %s: its sender died mid-send; sending it once more", message_id)


async def send_due(ctx: AppContext, limit: int = 200, sender: Sender | None = None) -> int:
    """Send every due mail (up to ``limit``) over one SMTP connection; returns mails sent.

    Each mail is claimed (``pending`` → ``sending``) in a small commit before it is handed
    to SMTP and recorded (``sent``) right after — in the same commit as the claim of the
    next mail; a crash in between resends it once at most (``_recover_claims``, run on a
    sender's first round and then every ``RECOVER_EVERY`` seconds). When a claim or a
    record cannot be written the breaker of ``sender`` opens and nothing more is sent until
    the database takes writes again.
    """
    sender = sender or Sender()
    sender.cut_short = False
    if time.monotonic() < sender.retry_at:
        return 0
    kept = sender.fresh_connection()
    try:
        for held_id, (held, held_error, held_charge) in list(sender.unrecorded.items()):
            _record(ctx, held_id, held, held_error, held_charge)
            del sender.unrecorded[held_id]
            if sender.breaker_open:
                log.warning("outbox: the database takes writes again; sends recorded, sending resumes")
                sender.breaker_open = False
        if sender.recovered_at is None or time.monotonic() - sender.recovered_at >= RECOVER_EVERY:
            _recover_claims(ctx, sender)
            sender.recovered_at = time.monotonic()
        # with a kept connection the claim itself says whether anything is due (one query less)
        due = kept is not None or outbox_due(ctx.db, ctx.clock.now())
    except Exception as exc:
        if not is_transient(exc):
            raise
        sender.keep(kept)
        sender.trip(sender.db_backoff, exc)
        return 0
    if not due:
        sender.keep(kept)
        return 0  # nothing to claim (with the breaker open: it stays open until a write goes through)
    try:
        smtp = kept or await _connection(ctx, sender)
    except (aiosmtplib.SMTPException, OSError) as exc:
        sender.trip(sender.smtp_backoff, f"SMTP server unavailable: {exc}")
        return 0
    sent = 0
    cfg = ctx.settings
    healthy = False
    try:
        try:  # the next due mail no other worker holds (SKIP LOCKED on PostgreSQL)
            claimed = claim_outbox(ctx.db, sender.owner, ctx.clock.now())
        except Exception as exc:
            if not is_transient(exc):
                raise
            sender.trip(sender.db_backoff, exc)
            claimed, limit = None, 0
        for n in range(limit):
            if sender.breaker_open:
                log.warning("outbox: the database takes writes again; sending resumes")
                sender.breaker_open = False
            sender.db_backoff.succeeded()
            if claimed is None:
                healthy = True  # nothing due any more (or every due mail is another worker's)
                break
            outbox_id, to_address, raw = claimed
            outcome, error, charge, stop = "sent", None, False, False
            try:
                await smtp.sendmail(cfg.service_address, [to_address], raw)
            except aiosmtplib.SMTPRecipientsRefused as exc:
                codes = [r.code for r in exc.recipients]
                error = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
                outcome = "failed" if all(500 <= c < 600 for c in codes) else "released"
            except aiosmtplib.SMTPResponseException as exc:
                error = f"{exc.code} {exc.message}"
                outcome = "failed" if 500 <= exc.code < 600 else "released"
            except (aiosmtplib.SMTPException, OSError) as exc:
                outcome, error, stop = "released", str(exc), True
            if outcome == "released":
                # a refusal while other mails of this round went through is this mail's own
                # problem (a full mailbox) and counts; otherwise the server is in trouble
                charge = sent > 0
                stop = stop or not charge
            more = not stop and n + 1 < limit
            try:
                claimed = _record(ctx, outbox_id, outcome, error, charge, sender.owner if more else None)
            except Exception as exc:
                if not is_transient(exc):
                    raise
                sender.unrecorded[outbox_id] = (outcome, error, charge)
                sender.trip(sender.db_backoff, exc)
                if outcome == "sent":
                    sent += 1
                break
            if outcome == "sent":
                sent += 1
                sender.smtp_backoff.succeeded()
            elif stop:
                sender.trip(sender.smtp_backoff, f"SMTP refused or dropped: {error}")
                break
        else:
            healthy = limit > 0
            sender.cut_short = limit > 0  # every mail of the round went: more may be due
    finally:
        if sender.keep_open and healthy and smtp.is_connected:
            sender.keep(smtp)
        else:
            with contextlib.suppress(aiosmtplib.SMTPException, OSError):
                await smtp.quit()
    return sent


async def _connection(ctx: AppContext, sender: Sender) -> aiosmtplib.SMTP:
    """A new connection (logged in); a kept one that is no longer fresh is quit first.

    Reused only within ``KEEP_OPEN_SECONDS`` of its last round (``Sender.fresh_connection``):
    a server may drop an idle client, and a send failing halfway must not be how we find out."""
    kept, sender.smtp = sender.smtp, None
    if kept is not None:
        with contextlib.suppress(aiosmtplib.SMTPException, OSError):
            await kept.quit()
    cfg = ctx.settings
    smtp = smtp_client(cfg)
    await smtp_connect(smtp, cfg)
    if cfg.smtp_user:
        await smtp.login(cfg.smtp_user, cfg.smtp_password)
    return smtp


async def send_now(ctx: AppContext, to_address: str, raw: bytes) -> None:
    """Send one mail straight over SMTP, outside the outbox — for the notice that a reply
    waits, which must reach the player while the database (and so the outbox) cannot be
    written. Raises on any SMTP error; the caller decides when to try again."""
    cfg = ctx.settings
    smtp = smtp_client(cfg)
    await smtp_connect(smtp, cfg)
    try:
        if cfg.smtp_user:
            await smtp.login(cfg.smtp_user, cfg.smtp_password)
        await smtp.sendmail(cfg.service_address, [to_address], raw)
    finally:
        with contextlib.suppress(aiosmtplib.SMTPException, OSError):
            await smtp.quit()


def smtp_client(cfg: Settings) -> aiosmtplib.SMTP:
    """An SMTP client as configured: TLS from the first byte (``smtp_ssl``, port 465), STARTTLS
    required (``smtp_tls``, port 587), or STARTTLS when the server offers it (neither). The
    certificate is verified against ``tls_ca_file`` or the system store."""
    start_tls: bool | None = False if cfg.smtp_ssl else (True if cfg.smtp_tls else None)
    return aiosmtplib.SMTP(hostname=cfg.smtp_host, port=cfg.smtp_port, use_tls=cfg.smtp_ssl, start_tls=start_tls,
                           tls_context=client_context(cfg.tls_ca_file), timeout=30)


async def smtp_connect(smtp: aiosmtplib.SMTP, cfg: Settings) -> None:
    """``smtp.connect()``, with a certificate that does not verify told as ``TlsTrustError``."""
    try:
        await smtp.connect()
    except (aiosmtplib.SMTPConnectError, ssl.SSLCertVerificationError) as exc:
        cause = exc if isinstance(exc, ssl.SSLCertVerificationError) else exc.__cause__ or exc.__context__
        if isinstance(cause, ssl.SSLCertVerificationError):
            raise trust_error("SMTP", cfg.smtp_host, cfg.smtp_port, cause, cfg.tls_ca_file) from exc
        raise
