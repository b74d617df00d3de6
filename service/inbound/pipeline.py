"""The inbound pipeline as named stages (Roundup's ordered stages, Discourse's receiver).

    fetch (service.inbound.fetch) → store → filter → route → authenticate → extract → split → apply

Each stage is a plain function tested alone. ``process_mail`` runs them for one stored mail
inside ONE transaction: the move, its log entry, the mails it causes and the inbound status
commit together. A stage that raises parks the mail in quarantine with the stage name and
the error; a mail whose processing crashed the process ``max_crashes`` times is quarantined
before it is tried again, so one poisonous mail cannot stop the service forever.
"""

from __future__ import annotations

import contextlib
import email
import hashlib
import logging
import re
import time
import traceback
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from email.parser import BytesHeaderParser
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError, NoResultFound
from sqlmodel import Session, col, select

from engines.contract import tr
from service.addresses import address_detail, bare_address, base_address, parse_address, parse_addresses
from service.context import AppContext
from service.faults import TRANSIENT_TEXT_RE, is_transient
from service.inbound.autoreply import decoded_text
from service.leagues.commands import install as install_league_commands
from service.outbound.keys import KEY_LENGTH, KeyInfo, lookup_key
from service.outbound.render import MARKER, SERVICE_TAG
from service.store.claims import claim_inbound, release_inbound, worker_token
from service.store.games import StaleGame, player_by_address
from service.store.models import Game, GameSeat, InboundMail, Outbox, Player

if TYPE_CHECKING:
    from service.inbound.extract import SentText

log = logging.getLogger(__name__)

STAGES = ("store", "parse", "filter", "route", "authenticate", "extract", "split", "apply")
ROUTING_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
SUBJECT_KEY_RE = re.compile(rf"\bref\s+([a-z2-7]{{{KEY_LENGTH}}})\b", re.IGNORECASE)
SUBJECT_PREFIX_RE = re.compile(r"^\s*((re|fw|fwd|aw|wg|tr|sv|vs|antw|rv|odp)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
#: Our subject tag, as clients give it back: "[TAC #42]", "[tac #42]", "[Tag Team #3]", "[TAGTEAM#3]".
SUBJECT_TAG_RE = re.compile(r"\[[^\W\d_][\w .-]{0,30}?\s*#\s*\d+\]\s*", re.IGNORECASE)
COMMAND_SPLIT_RE = re.compile(r"[\r\n;]+")
MESSAGE_ID_RE = re.compile(r"<[^<>\s]+>")


class LostClaim(RuntimeError):
    """Another worker holds the mail now (our claim's lease ran out): this worker lets go."""


class Rejected(Exception):
    """The mail is understood but must not change anything; ``kind`` picks the answer."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# -- stages ------------------------------------------------------------------------


def message_id_of(raw: bytes, msg: Message) -> str:
    """The Message-ID, or a digest of the bytes for a mail without one (still deduplicated)."""
    found = "".join(str(msg.get("Message-ID") or "").split())  # unfolded; an id has no spaces
    return found or f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def parse_message(raw: bytes) -> Message:
    """The whole mail, with the compat32 policy: headers stay as written and are decoded only
    where we need their text (``header_text``). The modern policy parsed every header on every
    access through its header registry, which was the biggest single cost of a reply."""
    return email.message_from_bytes(raw)


def parse_headers(raw: bytes) -> Message:
    """Only the header block (what ``store`` needs), without parsing the body. The block is cut
    off first: the email package's header-only parser still feeds the whole mail through its
    line splitter (2.6 s for a 10 MB mail)."""
    ends = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    head = raw[: min(ends) + 2] if ends else raw
    return BytesHeaderParser().parsebytes(head)


def header_text(msg: Message, name: str) -> str:
    """A header's text with RFC 2047 encoded words decoded ("" when absent)."""
    value = raw_header(msg, name)
    return "" if value is None else header_text_of(value)


def raw_header(msg: Message, name: str) -> str | None:
    """The first ``name`` header as stored: compat32 turns a raw 8-bit value into a Header of
    unknown charset (printed as replacement characters), so read the stored string instead."""
    wanted = name.lower()
    for key, value in msg.raw_items():
        if key.lower() == wanted:
            return str(value)
    return None


def sender_of(msg: Message) -> tuple[str, str]:
    """(display name, bare address) of the From header."""
    name, address = parse_address(_utf8_header(raw_header(msg, "From") or ""))
    return header_text_of(name), bare_address(address)


def header_text_of(value: str) -> str:
    """Decode one header value: raw 8-bit UTF-8 (RFC 6532, which compat32 keeps as surrogate
    escapes) and RFC 2047 encoded words (``autoreply.decoded_text``, which remembers them)."""
    return decoded_text(_utf8_header(value))


def _utf8_header(value: str) -> str:
    """Undo compat32's surrogate escapes of 8-bit header bytes: UTF-8 (RFC 6532), else Latin-1."""
    if value.isascii() or not any("\udc80" <= ch <= "\udcff" for ch in value):
        return value
    raw = value.encode("utf-8", "surrogateescape")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def store(session: Session, ctx: AppContext, raw: bytes, uid: int | None, mailbox: str) -> tuple[InboundMail, bool]:
    """Store the raw mail before anything else; ``(row, False)`` when its Message-ID is known."""
    msg = parse_headers(raw)
    message_id = message_id_of(raw, msg)
    # no look-up first: the unique Message-ID index tells a mail stored before (a re-fetch
    # after a crash, another worker) — one query less for every new mail
    row = InboundMail(message_id=message_id, mailbox=mailbox, uid=uid, raw=raw,
                      sender=sender_of(msg)[1], subject=header_text(msg, "Subject")[:500],
                      received_at=ctx.clock.now())
    session.add(row)
    try:
        session.commit()
    except IntegrityError:  # stored before (by us before a crash, or by another worker)
        session.rollback()
        return session.exec(select(InboundMail).where(InboundMail.message_id == message_id)).one(), False
    return row, True


@dataclass(frozen=True)
class Stored:
    """A fetched mail as stored: its row id, status (``new`` unless handled before) and Message-ID."""

    id: int
    status: str
    message_id: str


def store_batch(session: Session, ctx: AppContext, fetched: list[tuple[int, bytes]],
                mailbox: str) -> list[Stored]:
    """Store every fetched ``(uid, raw)`` mail in ONE commit; one ``Stored`` per mail, in order.

    ``INSERT … ON CONFLICT (message_id) DO NOTHING`` (SQLite and PostgreSQL): a mail whose
    Message-ID is known (a re-fetch after a crash, another worker, the same mail twice in one
    fetch) is not stored again but looked up, as ``store`` does one mail at a time — a commit
    per mail was the biggest cost of a burst of replies. Nothing is stored when this raises."""
    if not fetched:
        return []
    now = ctx.clock.now()
    rows: list[dict[str, Any]] = []
    for uid, raw in fetched:
        msg = parse_headers(raw)
        rows.append({"message_id": message_id_of(raw, msg), "mailbox": mailbox, "uid": uid, "raw": raw,
                     "sender": sender_of(msg)[1], "subject": header_text(msg, "Subject")[:500],
                     "status": "new", "attempts": 0, "received_at": now})
    conn = session.connection()
    conn.execute(_insert_new(conn.dialect.name), rows)
    ids = [r["message_id"] for r in rows]
    known: dict[str, tuple[int, str]] = {mid: (i, status) for i, mid, status in conn.execute(
        select(col(InboundMail.id), col(InboundMail.message_id), col(InboundMail.status))
        .where(col(InboundMail.message_id).in_(ids))).all() if i is not None}
    session.commit()
    return [Stored(known[mid][0], known[mid][1], mid) for mid in ids]


def _insert_new(dialect: str) -> Any:
    """The dialect's ``INSERT … ON CONFLICT (message_id) DO NOTHING`` into ``inbound_mails``."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(InboundMail).on_conflict_do_nothing(index_elements=["message_id"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(InboundMail).on_conflict_do_nothing(index_elements=["message_id"])


def filter_automatic(msg: Message, own_addresses: Collection[str]) -> str | None:
    """Why this mail must never be answered (auto-reply, bounce, list, our own), or None."""
    from service.inbound.autoreply import automatic_reason

    return automatic_reason(msg, own_addresses)


@dataclass(frozen=True)
class Route:
    """Where a mail belongs: a game seat's decision (``info``), or the plain mailbox."""

    key: str | None
    info: KeyInfo | None
    via: str  # plus | subject | in-reply-to | none


def route(session: Session, ctx: AppContext, msg: Message) -> Route:
    """Find the reply key: plus-address in the delivery headers, then ``ref KEY`` in the subject,
    then the key of our mail that In-Reply-To/References point to.

    A route ``via="in-reply-to"`` names a seat but does NOT authenticate a move: Message-IDs
    travel in every quote and forward, and anyone can write one into a forged mail. The
    pipeline answers such a mail with the seat's current mail (to the seat's own address, with
    its key) and applies nothing."""
    service = ctx.settings.service_address
    candidates: list[str] = []
    for header in ROUTING_HEADERS:
        values = msg.get_all(header)
        if not values:  # parsing an absent header's "" still cost a parser run
            continue
        for _, address in parse_addresses([str(v) for v in values]):
            if address and base_address(address) == service:
                detail = address_detail(address)
                if detail:
                    candidates.append(detail)
    for key in candidates:
        info = lookup_key(session, ctx.key_secrets, key)
        if info is not None:
            return Route(key.lower(), info, "plus")
    match = SUBJECT_KEY_RE.search(header_text(msg, "Subject"))
    if match:
        info = lookup_key(session, ctx.key_secrets, match.group(1))
        if info is not None:
            return Route(match.group(1).lower(), info, "subject")
    if not candidates:  # a mailbox without plus-addressing and an edited subject
        pointed = MESSAGE_ID_RE.findall(str(msg.get("In-Reply-To", "")))
        pointed += reversed(MESSAGE_ID_RE.findall(str(msg.get("References", ""))))  # newest first
        for message_id in pointed:
            issued = session.exec(select(Outbox.reply_key).where(Outbox.message_id == message_id)).first()
            info = lookup_key(session, ctx.key_secrets, issued) if issued else None
            if issued and info is not None:
                return Route(issued, info, "in-reply-to")
    if candidates or match:
        raise Rejected("unknown_key", "the reply key is not one we issued")
    return Route(None, None, "none")


def authenticate(session: Session, info: KeyInfo, sender: str,
                 msg: Message | None = None) -> tuple[Game, GameSeat, Player]:
    """The seat the key names, if ``sender`` is that seat's own address (else ``Rejected``),
    and the receiving server did not record a failed DKIM/SPF/DMARC check for it."""
    game, seat_row, player, _seats = authenticate_seats(session, info, sender, msg)
    return game, seat_row, player


def authenticate_seats(session: Session, info: KeyInfo, sender: str, msg: Message | None = None,
                       ) -> tuple[Game, GameSeat, Player, list[tuple[GameSeat, Player]]]:
    """``authenticate``, plus every seat of the game with its player (``seats_of``), read in
    the same query: applying the move needs them all, and reading them twice cost a query
    and its ORM rows per reply."""
    rows = session.exec(_GAME_SEATS, params={"game_id": info.game_id}).all()
    if not rows:
        raise NoResultFound(f"game {info.game_id} or its seats")
    game = rows[0][0]
    seats = [(row, p) for _g, row, p in rows]
    found = [(row, p) for row, p in seats if row.seat == info.seat]
    if not found:
        raise Rejected("unknown_key", f"game {info.game_id} has no seat {info.seat}")
    seat_row, player = found[0]
    if bare_address(sender) != player.address:
        raise Rejected("wrong_sender", f"key of game {info.game_id} seat {info.seat} used by {sender}")
    failed = failed_authentication(msg, sender) if msg is not None else None
    if failed:
        raise Rejected("forged", f"{failed} for {sender}")
    return game, seat_row, player, seats


#: The game, its seats and their players in one query; built once (building the statement
#: cost more than a third of running it).
_GAME_SEATS = (select(Game, GameSeat, Player)
               .where(Game.id == bindparam("game_id"), GameSeat.game_id == Game.id, GameSeat.player_id == Player.id)
               .order_by(col(GameSeat.seat)))


def failed_authentication(msg: Message, sender: str) -> str | None:
    """A failed DKIM, SPF or DMARC result for the sender's domain in ``Authentication-Results``.

    Parsed with ``authres`` (RFC 8601). Only failures count: a forger can add a header that says
    "pass", but a header saying "fail" can only have been added against the sender's interest,
    normally by our receiving server. A mail without the header is judged by its reply key.
    """
    import authres

    domain = sender.rpartition("@")[2].lower()
    for value in msg.get_all("Authentication-Results", []):
        try:
            parsed = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {value}")
        except Exception:  # an unparsable header proves nothing either way
            continue
        for result in parsed.results:
            method, outcome = str(result.method).lower(), str(result.result).lower()
            if method not in ("dkim", "spf", "dmarc") or outcome not in ("fail", "permerror"):
                continue
            names = [str(p.value).lower().rpartition("@")[2] for p in result.properties]
            if not names or domain in names or any(domain.endswith("." + n) for n in names):
                return f"{method}={outcome}"
    return None


def subject_command(subject: str) -> str:
    """A command written in the subject: after our ``ref KEY`` (Apple Mail users type there:
    ``Re: [BARCADIA #4] Your turn · ref KEY 4``), or in place of our title when the key was
    removed (``Re: [TAC #42] 7 a4 c3``); "" for our own subject, untouched."""
    match = SUBJECT_KEY_RE.search(subject)
    if match:
        return subject[match.end():].strip(" \t·-–—:|")
    text = SUBJECT_PREFIX_RE.sub("", subject)
    if not SUBJECT_TAG_RE.match(text):
        return ""
    return SUBJECT_TAG_RE.sub("", text, count=1).strip()


SENT_MAILS_COMPARED = 6


def sent_for(session: Session, msg: Message, key: str | None) -> SentText:
    """What we sent that this reply may quote: the mails In-Reply-To/References name, and the
    latest mails that handed out its reply key (the outbox keeps every mail's bytes)."""
    from service.inbound.extract import SentText, sent_text_of

    pointed = MESSAGE_ID_RE.findall(str(msg.get("In-Reply-To", "")))
    pointed += reversed(MESSAGE_ID_RE.findall(str(msg.get("References", ""))))
    raws: dict[int, bytes] = {}
    conn = session.connection()  # Core reads: only committed mails can have been quoted
    if pointed:
        query = select(col(Outbox.id), col(Outbox.raw)).where(col(Outbox.message_id).in_(pointed[:20]))
        raws.update((i, r) for i, r in conn.execute(query).all() if i is not None)
    if key:
        raws.update((i, r) for i, r in conn.execute(_SENT_WITH_KEY, {"key": key}).all() if i is not None)
    texts: list[str] = []
    for _, raw in sorted(raws.items(), reverse=True)[:SENT_MAILS_COMPARED]:
        texts += sent_text_of(parse_message(raw))
    return SentText(texts)


#: the latest mails that handed out a reply key (``sent_for``)
_SENT_WITH_KEY = (select(col(Outbox.id), col(Outbox.raw)).where(col(Outbox.reply_key) == bindparam("key"))
                  .order_by(col(Outbox.id).desc()).limit(SENT_MAILS_COMPARED))


def extract(msg: Message, sent: SentText | None = None, max_chars: int | None = None) -> str:
    """Only the new text of the reply. Text after our ``ref KEY`` in the subject is a command
    line of its own, read first (we wrote nothing there, so a player did); any other subject
    text is read only when the body is empty (it is usually our title).

    Raises ``Unreadable`` when the body cannot be read and the subject holds no command,
    ``TooLarge`` when it holds more than ``max_chars`` of text."""
    from service.inbound.extract import MAX_TEXT_CHARS, TooLarge, Unreadable, new_text

    subject = header_text(msg, "Subject")
    after_key = subject_command(subject) if SUBJECT_KEY_RE.search(subject) else ""
    try:
        text = new_text(msg, MARKER, sent, max_chars or MAX_TEXT_CHARS).strip()
    except TooLarge:
        raise
    except Unreadable:
        text = after_key or subject_command(subject)
        if not text:
            raise
        return text
    if after_key:
        return f"{after_key}\n{text}" if text else after_key
    return text or subject_command(subject)


def split_commands(text: str) -> list[str]:
    """One command per line (or ``;``), in order, blank lines dropped."""
    return [line.strip() for line in COMMAND_SPLIT_RE.split(text) if line.strip()]


# -- running the stages ---------------------------------------------------------------


@dataclass
class Waiting:
    """A stored mail that failed for a transient cause, as this process remembers it.

    Kept in memory because the fault may be that the database cannot be written: ``owed``
    counts claims (crash counts) to give back once it can, ``healthy_repeats`` the failures
    that happened although other mails went through meanwhile (then the mail itself is the
    problem), ``noticed`` whether the player was told that the reply waits.
    """

    since: float
    failures: int = 0
    owed: int = 0
    successes_seen: int = 0
    healthy_repeats: int = 0
    sender: str | None = None
    lang: str = "en"
    name: str = ""
    subject: str = ""
    message_id: str = ""
    noticed: bool = False
    last_error: str = ""


class Pipeline:
    """Processes stored mails one at a time; remembers the stage for the quarantine record.

    An error is first classified (``service.faults.is_transient``): a fault of the database
    or a mail server leaves the mail ``new`` ("deferred" is returned) and it is tried again
    by the next poll round; it never counts as a crash and never quarantines the mail —
    unless it repeats ``transient_repeats`` times on this mail while other mails went through
    (the service was otherwise healthy). Any other error quarantines at once, as before.
    """

    transient_repeats = 3

    def __init__(self, ctx: AppContext, owner: str | None = None) -> None:
        self.ctx = ctx
        #: this worker's claim token (``service.store.claims``)
        self.owner = owner or worker_token()
        self.stage = "store"
        install_league_commands()  # join/leave/standings/schedule/leagues in any mail
        self.waiting: dict[int, Waiting] = {}
        self.unstored: dict[str, Waiting] = {}
        self.successes = 0

    def own_addresses(self) -> set[str]:
        return {self.ctx.settings.service_address}

    def claim(self, limit: int = 8) -> dict[int, int]:
        """Claim up to ``limit`` stored mails for this worker: ``{id: attempts}`` to pass to
        ``process`` (``service.store.claims.claim_inbound``; SKIP LOCKED on PostgreSQL)."""
        return claim_inbound(self.ctx.db, self.owner, self.ctx.clock.now(), self.lease, limit=limit)

    def release(self, ids: list[int]) -> None:
        """Give back claimed mails this worker will not process now (no attempt counted)."""
        with contextlib.suppress(Exception):
            release_inbound(self.ctx.db, self.owner, ids, uncount=1)

    @property
    def lease(self) -> timedelta:
        return timedelta(seconds=self.ctx.settings.claim_lease_seconds)

    def process(self, inbound_id: int, attempts: int | None = None) -> str:
        """Run the stages for one stored mail; returns its final status, or "deferred".

        ``attempts``: the mail was claimed by ``claim`` (its attempt count after the claim);
        without it the mail is claimed here first."""
        self.stage = "store"
        try:
            status = self._process(inbound_id, attempts)
        except Exception as exc:
            if not is_transient(exc):
                raise
            return self._defer(inbound_id, self.stage, _one_line(exc))
        if status != "deferred":
            self.waiting.pop(inbound_id, None)
            if status != "new":
                self.successes += 1
        return status

    def _process(self, inbound_id: int, attempts: int | None) -> str:
        ctx = self.ctx
        waiting = self.waiting.get(inbound_id)
        if waiting is not None and waiting.owed:
            owed = waiting.owed
            self._give_back(inbound_id, waiting, release=False)
            if attempts is not None:
                attempts -= owed
        if attempts is None:
            # Claim the mail (committed first, so a crash below still counts as an attempt;
            # a mail another live worker holds is left to it).
            attempts = claim_inbound(ctx.db, self.owner, ctx.clock.now(), self.lease, ids=[inbound_id]).get(inbound_id)
            if attempts is None:
                with ctx.session() as s:
                    return s.get_one(InboundMail, inbound_id).status  # done, or "new": another worker has it
        if attempts > ctx.settings.max_crashes:
            return self._quarantine(inbound_id, "crashed",
                                    f"processing crashed {attempts - 1} times; not retried")
        for _ in range(5):
            try:
                return self._run(inbound_id)
            except StaleGame:
                log.info("mail %s: game changed meanwhile, retrying", inbound_id)
                continue
            except LostClaim as exc:
                log.warning("mail %s: %s; left to the worker that has it", inbound_id, exc)
                return "new"
            except Exception as exc:
                detail = _one_line(exc)
                if is_transient(exc):
                    return self._defer(inbound_id, self.stage, detail, claimed=True)
                log.exception("mail %s failed in stage %s", inbound_id, self.stage)
                return self._quarantine(inbound_id, self.stage, detail)
        return self._quarantine(inbound_id, "apply", "the game kept changing under us")

    def _defer(self, inbound_id: int, stage: str, detail: str, *, claimed: bool = False) -> str:
        """A transient failure: the mail stays ``new``; its claim is given back (it was no
        crash), in the database when it can be written, else remembered until it can."""
        w = self.waiting.get(inbound_id)
        if w is None:
            w = self.waiting[inbound_id] = Waiting(since=time.monotonic(), successes_seen=self.successes)
        elif self.successes > w.successes_seen:
            w.healthy_repeats += 1
        w.failures += 1
        w.successes_seen = self.successes
        w.last_error = f"{stage}: {detail}"
        if claimed:
            w.owed += 1
        log.warning("mail %s waits: transient error in stage %s (%s), failure %d", inbound_id, stage,
                    detail, w.failures)
        if w.healthy_repeats >= self.transient_repeats:
            try:
                self._give_back(inbound_id, w)
                self.waiting.pop(inbound_id, None)
                return self._quarantine(inbound_id, stage, f"repeated {w.failures} times while other mails "
                                        f"went through: {detail}")
            except Exception as exc:
                if not is_transient(exc):
                    raise
                return "deferred"
        with contextlib.suppress(Exception):
            self._give_back(inbound_id, w)
        if w.sender is None:
            with contextlib.suppress(Exception):
                self._remember_sender(inbound_id, w)
        return "deferred"

    def _give_back(self, inbound_id: int, w: Waiting, *, release: bool = True) -> None:
        """Undo the crash counts of claims that ended in a transient failure; ``release``
        also lets go of the claim (any worker may try the mail again)."""
        if not w.owed:
            return
        freed: dict[str, Any] = {"claimed_by": None, "claimed_at": None} if release else {}
        with self.ctx.db.begin() as conn:
            conn.execute(update(InboundMail)
                         .where(col(InboundMail.id) == inbound_id, col(InboundMail.attempts) >= w.owed)
                         .values(attempts=col(InboundMail.attempts) - w.owed, **freed))
        w.owed = 0

    def _remember_sender(self, inbound_id: int, w: Waiting) -> None:
        """Who to tell that the reply waits: a known player, never an automatic mail."""
        with self.ctx.session() as s:
            row = s.get_one(InboundMail, inbound_id)
            w.subject, w.message_id = row.subject, row.message_id
            w.noticed = row.delay_noticed_at is not None
            if filter_automatic(parse_headers(row.raw), self.own_addresses()):
                w.sender = ""
                return
            player = player_by_address(s, row.sender)
            w.sender = player.address if player is not None else ""
            if player is not None:
                w.lang, w.name = player.lang, player.name

    def delayed(self, older_than: float) -> list[tuple[int | None, Waiting]]:
        """Waiting mails of known players, not yet noticed, failing for ``older_than`` seconds
        (``None`` for a mail still in the inbox because it could not even be stored)."""
        now = time.monotonic()
        found: list[tuple[int | None, Waiting]] = [
            (i, w) for i, w in self.waiting.items() if w.sender and not w.noticed and now - w.since >= older_than]
        found += [(None, w) for w in self.unstored.values()
                  if w.sender and not w.noticed and now - w.since >= older_than]
        return found

    def not_stored(self, raw: bytes) -> None:
        """A fetched mail the database could not store: remember it (by Message-ID) so its
        sender, if a known player, is told when it waits long."""
        msg = parse_headers(raw)
        message_id = message_id_of(raw, msg)
        if message_id in self.unstored:
            return
        w = self.unstored[message_id] = Waiting(since=time.monotonic(), message_id=message_id, sender="",
                                                subject=header_text(msg, "Subject")[:500])
        if filter_automatic(msg, self.own_addresses()):
            return
        with contextlib.suppress(Exception), self.ctx.session() as s:
            player = player_by_address(s, sender_of(msg)[1])
            if player is not None:
                w.sender, w.lang, w.name = player.address, player.lang, player.name

    def stored(self, row: InboundMail | Stored) -> None:
        """A mail that could not be stored before now is: its waiting time goes on."""
        w = self.unstored.pop(row.message_id, None)
        if w is not None and row.id is not None:
            self.waiting.setdefault(row.id, w)

    def _quarantine(self, inbound_id: int, stage: str, error: str) -> str:
        with self.ctx.db.begin() as conn:
            conn.execute(update(InboundMail).where(col(InboundMail.id) == inbound_id, col(InboundMail.status) == "new")
                         .values(status="quarantined", stage=stage, error=error[:2000],
                                 processed_at=self.ctx.clock.now()))
        return "quarantined"

    def _run(self, inbound_id: int) -> str:
        from service.play.mailbox import handle_mailbox_mail
        from service.play.replies import answer_finished, answer_unconfirmed, handle_game_reply

        ctx = self.ctx
        with ctx.session() as s:
            # the columns this needs, as a Core row: the ORM object cost more than the query
            row = s.connection().execute(_LOAD_MAIL, {"inbound_id": inbound_id}).one()
            if row.status != "new":  # another worker finished it while we waited for the game
                return str(row.status)
            if row.claimed_by != self.owner:
                raise LostClaim(f"claimed by {row.claimed_by}")

            known: dict[str, Any] = {}  # game and seat, once the route names them (for the log line)

            def finish(status: str, error: str | None = None, stage: str | None = None) -> str:
                # Only while the claim is still ours: a worker whose lease ran out meanwhile
                # (another took the mail) rolls back everything this mail did.
                # (Core, on the session's connection: the ORM's bulk-update path cost more
                # than the statement; what the session holds is flushed by the commit)
                done = s.connection().execute(_FINISH, {
                    "inbound_id": inbound_id, "owner": self.owner, "new_status": status, "new_error": error,
                    "new_stage": stage, "now": ctx.clock.now()})
                if done.rowcount != 1:
                    s.rollback()
                    raise LostClaim("the claim ran out and another worker took the mail")
                s.commit()
                # one line per mail, after its commit: what an operator greps for
                log.info("mail %s %s from %s game=%s seat=%s: %s%s", inbound_id, row.message_id, row.sender,
                         known.get("game", "-"), known.get("seat", "-"), status,
                         f" [{stage}: {error}]" if error else "")
                return status

            self.stage = "parse"
            if len(row.raw) > ctx.settings.max_mail_bytes:
                return self._too_large(s, row.raw, finish)
            msg = parse_message(row.raw)
            display_name, sender = sender_of(msg)
            self.stage = "filter"
            reason = filter_automatic(msg, self.own_addresses())
            if reason:
                return finish("ignored", reason + record_bounces(s, ctx, msg), "filter")
            self.stage = "route"
            try:
                where = route(s, ctx, msg)
                if where.info is not None:
                    known.update(game=where.info.game_id, seat=where.info.seat)
            except Rejected as exc:
                self._answer_rejection(s, sender, exc)
                return finish("rejected", str(exc), "route")
            self.stage = "extract"
            from service.inbound.extract import TooLarge, Unreadable

            try:
                lines = split_commands(extract(msg, sent_for(s, msg, where.key), ctx.settings.max_text_chars))
            except Unreadable as exc:
                answered = self._answer_unreadable(s, sender, where, too_large=isinstance(exc, TooLarge))
                return finish("rejected" if answered else "ignored", f"unreadable: {exc}", "extract")
            if where.info is None:
                self.stage = "apply"
                status = handle_mailbox_mail(s, ctx, sender, display_name, player_by_address(s, sender), lines)
                return finish(status, None if status != "ignored" else "no reply key, not a command for us")
            self.stage = "authenticate"
            try:
                game, seat_row, player, seats = authenticate_seats(s, where.info, sender, msg)
            except Rejected as exc:
                if exc.kind != "forged":  # never answer a forged mail: the answer would be aimed at a victim
                    self._answer_rejection(s, sender, exc)
                return finish("rejected", str(exc), "authenticate")
            if game.status != "active":
                answer_finished(s, ctx, game, seat_row, player)
                return finish("rejected", "the game is over", "route")
            if where.via == "in-reply-to":
                answer_unconfirmed(s, ctx, game, seat_row, player)
                return finish("rejected", "routed by In-Reply-To only: no reply key, nothing applied", "authenticate")
            self.stage = "apply"
            status = handle_game_reply(s, ctx, game, where.info, seat_row, player, lines, row.id, seats=seats)
            return finish(status)

    def _too_large(self, session: Session, raw: bytes, finish: Callable[..., str]) -> str:
        """A mail over ``max_mail_bytes``: only its header block is parsed (never the body or
        its attachments), automatic mail is dropped, a known sender gets a short answer."""
        msg = parse_headers(raw)
        _name, sender = sender_of(msg)
        reason = filter_automatic(msg, self.own_addresses())
        if reason:
            return finish("ignored", reason, "filter")
        try:
            where = route(session, self.ctx, msg)
        except Rejected:
            where = Route(None, None, "none")
        answered = self._answer_unreadable(session, sender, where, too_large=True)
        return finish("rejected" if answered else "ignored", f"too large: {len(raw)} bytes", "parse")

    def _answer_unreadable(self, session: Session, sender: str, where: Route, *, too_large: bool = False) -> bool:
        """Tell a known player we could not read their mail (their seat's mail when the key
        is theirs, so the answer carries the menu again). False when nobody is told."""
        from service.play.replies import TOO_LARGE, UNREADABLE, answer_problem

        why_text = TOO_LARGE if too_large else UNREADABLE

        if where.info is not None and where.via != "in-reply-to":
            try:
                game, seat_row, player = authenticate(session, where.info, sender)
            except Rejected:
                return False
            if game.status == "active":
                answer_problem(session, self.ctx, game, seat_row, player, why_text)
                return True
        known = player_by_address(session, sender)
        if known is None:
            return False
        from service.outbound.outbox import queue_mail

        rendered = self.ctx.renderer.render("rejected", known.lang, player=known.name,
                                            why=why_text.get(known.lang))
        queue_mail(session, self.ctx, to=known.address, kind="rejected",
                   subject=f"{SERVICE_TAG} {rendered.subject}", rendered=rendered)
        return True

    def _answer_rejection(self, session: Session, sender: str, exc: Rejected) -> None:
        """Answer a bad key or a foreign sender only when the sender is a known player."""
        from service.outbound.outbox import queue_mail

        player = player_by_address(session, sender)
        if player is None:
            return
        why = {
            "unknown_key": tr("The reply address of your mail is not one of ours (or too old to use)."),
            "wrong_sender": tr("This reply address belongs to another player's seat; nothing changed."),
        }[exc.kind][player.lang]
        rendered = self.ctx.renderer.render("rejected", player.lang, player=player.name, why=why)
        queue_mail(session, self.ctx, to=player.address, kind="rejected", subject=f"{SERVICE_TAG} {rendered.subject}",
                   rendered=rendered)


#: what ``_run`` reads of a stored mail
_LOAD_MAIL = sa_select(col(InboundMail.id), col(InboundMail.status), col(InboundMail.claimed_by), col(InboundMail.raw),
                    col(InboundMail.message_id), col(InboundMail.sender)).where(
                        col(InboundMail.id) == bindparam("inbound_id"))

#: ``finish``'s UPDATE, only while the mail is still ``new`` and claimed by this worker
_FINISH = (
    update(InboundMail)
    .where(col(InboundMail.id) == bindparam("inbound_id"), col(InboundMail.status) == "new",
           col(InboundMail.claimed_by) == bindparam("owner"))
    .values(status=bindparam("new_status"), error=bindparam("new_error"), stage=bindparam("new_stage"),
            processed_at=bindparam("now"))
)


def record_bounces(session: Session, ctx: AppContext, msg: Message) -> str:
    """Mark the players a hard bounce of one of our mails names as unreachable (in the mail's
    transaction); returns a note for the stored reason ("" when it was no such bounce)."""
    from service.inbound.bounces import hard_bounces
    from service.play.seats import mark_unreachable

    found = hard_bounces(session, msg)
    for bounce in found:
        mark_unreachable(session, ctx, bounce.address)
    return "".join(f"; hard bounce {b.status} for {b.address}: marked unreachable" for b in found)


def _one_line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


def requeue_transient_quarantine(session: Session) -> list[int]:
    """Put back mails quarantined for a transient cause (a database that was full, locked or
    gone, per ``TRANSIENT_TEXT_RE``) — called once the database takes writes again. Mails held
    for a repeated error while the service was healthy stay where they are."""
    rows = session.exec(select(InboundMail).where(InboundMail.status == "quarantined",
                                                  InboundMail.stage != "crashed")).all()
    back = [r for r in rows if TRANSIENT_TEXT_RE.search(r.error or "")
            and not (r.error or "").startswith("repeated ")]
    for row in back:
        row.status, row.attempts, row.stage, row.error = "new", 0, None, None
        row.claimed_by, row.claimed_at = None, None
        session.add(row)
    session.commit()
    return [r.id for r in back if r.id is not None]


def pending_ids(session: Session) -> list[int]:
    """Mails stored but not processed yet (also those a crash left behind)."""
    return [i for i in session.exec(select(InboundMail.id).where(InboundMail.status == "new")
                                    .order_by(col(InboundMail.id))).all() if i is not None]
