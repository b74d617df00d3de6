"""Loading the mail corpus under tests/fixtures/mail (see build_corpus.py there)."""

from __future__ import annotations

import email
import tomllib
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.inbound.extract import SentText

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mail"
MARKER = "##- Please reply above this line · Vui lòng trả lời phía trên dòng này -##"
SERVICE_ADDRESSES = ("play@pbem.test",)


def load(path: Path) -> EmailMessage:
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def reply_cases() -> list[Path]:
    return sorted((CORPUS / "replies").glob("*.eml"))


def expected_text(path: Path) -> str:
    return path.with_suffix(".expected.txt").read_text(encoding="utf-8").rstrip("\n")


def auto_cases() -> dict[str, str]:
    table = tomllib.loads((CORPUS / "auto" / "expected.toml").read_text(encoding="utf-8"))
    return {name: str(word) for name, word in table.items()}


def human_cases() -> list[Path]:
    return sorted((CORPUS / "human").glob("*.eml"))


def corpus_sent() -> SentText:
    """What the corpus replies answer: the turn mail build_corpus.py quotes (subject, text,
    HTML part), as the pipeline would load it from the outbox."""
    from service.inbound.extract import SentText, html_to_text
    from tests.fixtures.mail.build_corpus import ORIGINAL, ORIGINAL_HTML, SUBJECT

    return SentText([SUBJECT, ORIGINAL, html_to_text(ORIGINAL_HTML)])


UNREADABLE = "#unreadable"
