"""Both local mail stacks behave like a real mail host: delivery, plus-addresses, 550, IDLE."""

from __future__ import annotations

import email
import smtplib
import threading
import time
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest
from imapclient.exceptions import LoginError

from service.inbound.imapconn import open_imap
from service.localmail.dovecot import DovecotStack
from service.localmail.stack import LocalMailStack
from service.localmail.stackprocess import SubprocessMailStack
from tests.support.mailservers import MailStack, fetch_all, send_mail

SERVICE = "play@pbem.test"
PASSWORD = "secret"


def _message(subject: str, to: str, body: str = "hello\n") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "ann@example.test"
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


def test_delivered_mail_is_fetched_intact(any_stack: MailStack) -> None:
    any_stack.add_user(SERVICE, PASSWORD)
    send_mail(
        any_stack,
        _message("Re: [TAC #1] move", SERVICE, "7 a4 c3\nXin chào — é\n"),
        "ann@example.test",
        SERVICE,
    )
    [raw] = fetch_all(any_stack, SERVICE, PASSWORD)
    msg = email.message_from_bytes(raw, policy=default_policy)
    assert msg["Subject"] == "Re: [TAC #1] move"
    assert msg.get_content().replace("\r\n", "\n") == "7 a4 c3\nXin chào — é\n"
    assert msg["Return-Path"] == "<ann@example.test>"


def test_plus_address_lands_in_base_inbox_with_headers_untouched(any_stack: MailStack) -> None:
    any_stack.add_user(SERVICE, PASSWORD)
    keyed = "play+Kx9_AbC@pbem.test"
    send_mail(any_stack, _message("keyed", keyed), "ann@example.test", keyed)
    [raw] = fetch_all(any_stack, SERVICE, PASSWORD)
    msg = email.message_from_bytes(raw, policy=default_policy)
    assert msg["To"] == keyed
    assert msg["Delivered-To"] == keyed  # the envelope recipient, key included


def test_unknown_user_is_refused_with_550(any_stack: MailStack) -> None:
    any_stack.add_user(SERVICE, PASSWORD)
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send_mail(any_stack, _message("lost", "nobody@pbem.test"), "ann@example.test", "nobody@pbem.test")
    assert refused.value.recipients["nobody@pbem.test"][0] == 550
    assert fetch_all(any_stack, SERVICE, PASSWORD) == []


def test_user_added_after_start_can_receive_and_log_in(any_stack: MailStack) -> None:
    any_stack.add_user(SERVICE, PASSWORD)
    any_stack.add_user("bob@example.test", "pw2")
    send_mail(any_stack, _message("hi bob", "bob@example.test"), SERVICE, "bob@example.test")
    assert len(fetch_all(any_stack, "bob@example.test", "pw2")) == 1
    assert fetch_all(any_stack, SERVICE, PASSWORD) == []


def test_wrong_password_is_refused(any_stack: MailStack) -> None:
    any_stack.add_user(SERVICE, PASSWORD)
    with pytest.raises(LoginError):
        open_imap(any_stack.host, any_stack.imap_port, SERVICE, "wrong")


def test_idle_wakes_on_new_mail(any_stack: MailStack) -> None:
    """IDLE must report a delivery (Dovecot wakes 0.5 s after the store, MAILSTACK.md)."""
    any_stack.add_user(SERVICE, PASSWORD)
    client = open_imap(any_stack.host, any_stack.imap_port, SERVICE, PASSWORD)
    try:
        client.select_folder("INBOX")
        assert b"IDLE" in client.capabilities()
        client.idle()
        sender = threading.Timer(
            0.2, send_mail, args=(any_stack, _message("wake", SERVICE), "ann@example.test", SERVICE)
        )
        started = time.monotonic()
        sender.start()
        responses = []
        while not any(r[1] == b"EXISTS" for r in responses if len(r) > 1) and time.monotonic() - started < 5:
            responses += client.idle_check(timeout=1)
        client.idle_done()
        sender.join()
        assert any(r[1] == b"EXISTS" for r in responses if len(r) > 1), responses
        assert time.monotonic() - started < 3
    finally:
        client.logout()


def test_auto_create_accepts_any_recipient() -> None:
    with LocalMailStack(auto_create=True) as stack:
        send_mail(stack, _message("welcome", "newbie@example.test"), SERVICE, "newbie@example.test")
        assert "newbie@example.test" in stack.users
        password = stack.users["newbie@example.test"]
        assert len(fetch_all(stack, "newbie@example.test", password)) == 1


def test_several_recipients_each_get_one_copy(any_stack: MailStack) -> None:
    for user in ("a@pbem.test", "b@pbem.test"):
        any_stack.add_user(user, PASSWORD)
    send_mail(
        any_stack, _message("both", "a@pbem.test, b@pbem.test"), SERVICE, ["a@pbem.test", "b+x@pbem.test"]
    )
    assert len(fetch_all(any_stack, "a@pbem.test", PASSWORD)) == 1
    assert len(fetch_all(any_stack, "b@pbem.test", PASSWORD)) == 1


def test_custom_keyword_survives_reconnect(any_stack: MailStack) -> None:
    """The service marks handled mail with a keyword; it must be stored, not session-only."""
    any_stack.add_user(SERVICE, PASSWORD)
    send_mail(any_stack, _message("one", SERVICE), "ann@example.test", SERVICE)
    first = open_imap(any_stack.host, any_stack.imap_port, SERVICE, PASSWORD)
    first.select_folder("INBOX")
    uids = first.search("ALL")
    first.add_flags(uids, [b"PbemDone"])
    first.logout()
    second = open_imap(any_stack.host, any_stack.imap_port, SERVICE, PASSWORD)
    second.select_folder("INBOX")
    try:
        assert second.search(["KEYWORD", "PbemDone"]) == uids
        assert second.search(["NOT", "KEYWORD", "PbemDone"]) == []
    finally:
        second.logout()


def test_search_after_noop_sees_mail_delivered_since_the_last_command(any_stack: MailStack) -> None:
    """IMAP only promises new mail to a selected session after a sync such as NOOP (Dovecot
    does not sync before SEARCH): a poller must NOOP before it searches."""
    any_stack.add_user(SERVICE, PASSWORD)
    client = open_imap(any_stack.host, any_stack.imap_port, SERVICE, PASSWORD)
    client.select_folder("INBOX")
    try:
        for n in range(1, 4):
            send_mail(any_stack, _message(f"m{n}", SERVICE), "ann@example.test", SERVICE)
            client.noop()
            assert len(client.search(["NOT", "KEYWORD", "PbemDone"])) == n
    finally:
        client.logout()


def test_local_stack_search_sees_new_mail_even_without_noop(mail_stack: LocalMailStack) -> None:
    mail_stack.add_user(SERVICE, PASSWORD)
    client = open_imap(mail_stack.host, mail_stack.imap_port, SERVICE, PASSWORD)
    client.select_folder("INBOX")
    try:
        for n in range(1, 4):
            send_mail(mail_stack, _message(f"m{n}", SERVICE), "ann@example.test", SERVICE)
            assert len(client.search(["NOT", "KEYWORD", "PbemDone"])) == n
    finally:
        client.logout()


def test_subprocess_stack_has_the_same_interface() -> None:
    with SubprocessMailStack() as stack:
        stack.add_user(SERVICE, PASSWORD)
        send_mail(stack, _message("via child", "play+k1@pbem.test"), "ann@example.test", "play+k1@pbem.test")
        assert stack.deliveries(SERVICE) == 1
        [raw] = fetch_all(stack, SERVICE, PASSWORD)
        assert b"Delivered-To: play+k1@pbem.test" in raw
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            send_mail(stack, _message("lost", "x@pbem.test"), "ann@example.test", "x@pbem.test")
        assert stack.users == {SERVICE: PASSWORD}


def test_dovecot_auto_create_delivers_to_many_new_users_at_once(dovecot_stack: DovecotStack) -> None:
    """Users created within the same second must all receive (Dovecot re-reads its
    passwd-file only about once a second)."""
    dovecot_stack.auto_create = True
    dovecot_stack.stop()
    dovecot_stack.start()
    dovecot_stack.add_user(SERVICE, PASSWORD)
    recipients = [f"new{n}@players.test" for n in range(8)]
    for rcpt in recipients:
        send_mail(dovecot_stack, _message("hello", rcpt), SERVICE, rcpt)
    assert dovecot_stack.delivered == len(recipients)


def test_queued_delivery_stores_every_mail_in_order() -> None:
    with LocalMailStack(queue_delivery=True) as stack:
        stack.add_user(SERVICE, PASSWORD)
        for n in range(5):
            send_mail(stack, _message(f"m{n}", SERVICE), "ann@example.test", SERVICE)
        deadline = time.monotonic() + 5
        while stack.deliveries(SERVICE) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        subjects = [email.message_from_bytes(raw)["Subject"] for raw in fetch_all(stack, SERVICE, PASSWORD)]
        assert subjects == [f"m{n}" for n in range(5)]


@pytest.mark.parametrize("in_child", [False, True], ids=["in-process", "subprocess"])
def test_wait_deliveries_returns_when_mail_is_stored_and_not_before(in_child: bool) -> None:
    """The demo's players sleep in ``wait_deliveries`` instead of asking every few ms."""
    stack: LocalMailStack | SubprocessMailStack = SubprocessMailStack() if in_child else LocalMailStack()
    with stack:
        stack.add_user(SERVICE, PASSWORD)
        started = time.monotonic()
        assert stack.wait_deliveries(0, 0.3) == {}
        assert time.monotonic() - started >= 0.25  # nothing new: it waited the timeout
        timer = threading.Timer(0.2, send_mail, (stack, _message("late", SERVICE), "ann@example.test", SERVICE))
        timer.start()
        try:
            started = time.monotonic()
            assert stack.wait_deliveries(0, 4.0) == {SERVICE: 1}
            assert time.monotonic() - started < 3.0  # woke on the delivery, not the timeout
        finally:
            timer.join()
        started = time.monotonic()
        assert stack.wait_deliveries(-1, 4.0) == {SERVICE: 1}  # a different count returns at once
        assert time.monotonic() - started < 1.0
