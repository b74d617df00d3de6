"""``automatic_reason``: auto-replies, bounces, list mail and our own mail are never answered."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from service.inbound.autoreply import automatic_reason
from tests.mail.corpus import CORPUS, SERVICE_ADDRESSES, auto_cases, human_cases, load, reply_cases

AUTO = auto_cases()
HUMAN = human_cases() + reply_cases()


def test_every_auto_fixture_has_an_expectation() -> None:
    assert {p.stem for p in (CORPUS / "auto").glob("*.eml")} == set(AUTO)


@pytest.mark.parametrize("name", sorted(AUTO))
def test_automatic_mail_is_recognised(name: str) -> None:
    reason = automatic_reason(load(CORPUS / "auto" / f"{name}.eml"), SERVICE_ADDRESSES)
    assert reason is not None
    assert AUTO[name] in reason.lower()


@pytest.mark.parametrize("path", HUMAN, ids=[p.stem for p in HUMAN])
def test_a_persons_reply_is_not_automatic(path: Path) -> None:
    assert automatic_reason(load(path), SERVICE_ADDRESSES) is None


def _mail(**headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "Ann <ann@example.test>")
    msg["To"] = "play+k@pbem.test"
    msg["Subject"] = headers.pop("Subject", "Re: [TAC #42] Your turn")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content("3")
    return msg


def test_auto_submitted_no_is_a_person() -> None:
    assert automatic_reason(_mail(Auto_Submitted="no"), SERVICE_ADDRESSES) is None


@pytest.mark.parametrize("value", ["auto-generated", "auto-replied", "auto-notified; owner-email=x@y"])
def test_any_other_auto_submitted_is_automatic(value: str) -> None:
    assert automatic_reason(_mail(Auto_Submitted=value), SERVICE_ADDRESSES) is not None


@pytest.mark.parametrize("value", ["bulk", "list", "junk", "auto_reply", "BULK"])
def test_precedence_values(value: str) -> None:
    assert automatic_reason(_mail(Precedence=value), SERVICE_ADDRESSES) is not None


@pytest.mark.parametrize(
    "sender",
    [
        "MAILER-DAEMON@mx.example.test",
        "postmaster@example.test",
        "noreply@x.test",
        "no-reply@x.test",
        "do-not-reply@x.test",
    ],
)
def test_automatic_senders(sender: str) -> None:
    assert "sender" in (automatic_reason(_mail(From=sender), SERVICE_ADDRESSES) or "")


@pytest.mark.parametrize(
    "subject",
    [
        "Out of Office: [TAC #42]",
        "Automatic reply: hi",
        "Trả lời tự động: [TAC #42]",
        "Vắng mặt đến 7/12",
        "AUTO-REPLY",
    ],
)
def test_out_of_office_subjects(subject: str) -> None:
    assert "subject" in (automatic_reason(_mail(Subject=subject), SERVICE_ADDRESSES) or "")


def test_own_address_with_any_plus_detail_is_ours() -> None:
    assert automatic_reason(_mail(From="pbem <PLAY+abc@pbem.test>"), ["play@pbem.test"]) is not None
    assert automatic_reason(_mail(From="pbem <play@pbem.test>"), ["other@pbem.test"]) is None
