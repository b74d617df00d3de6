"""``render.header_line`` writes every header byte for byte as the email package (compat32) does.

The fast path skips the package's folding for short ASCII values; these tests compare it with
``compat32.fold_binary`` and with ``Message.as_bytes`` (what ``build_message`` used before),
so a value the shortcut would write differently fails here."""

from __future__ import annotations

from datetime import UTC, datetime
from email.errors import HeaderParseError
from email.message import Message
from email.policy import compat32

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.outbound.render import Rendered, build_message, header_line, subject_header

#: ASCII with the characters that matter to folding: spaces, tabs, line breaks of every kind.
_ASCII = st.text(alphabet=st.sampled_from([chr(c) for c in range(128)] + [" "] * 20 + ["\t", "<", "@", ","]),
                 max_size=100)


@settings(max_examples=3000, deadline=None)
@given(name=st.sampled_from(["To", "From", "Reply-To", "Message-ID", "In-Reply-To", "X-PBEM-Loop", "Auto-Submitted"]),
       value=_ASCII | st.text(max_size=90))
@example(name="To", value="")
@example(name="To", value="ann@x.test ")
@example(name="To", value=" ann@x.test")
@example(name="X-PBEM-Loop", value="a" * 63)
@example(name="X-PBEM-Loop", value="a" * 64)
@example(name="To", value="a\x1cb")
@example(name="To", value="a b" * 30)
def test_a_header_is_written_as_compat32_writes_it(name: str, value: str) -> None:
    try:
        expected = compat32.fold_binary(name, value)
    except HeaderParseError:  # a value that smuggles in a header line is refused, as before
        with pytest.raises(HeaderParseError):
            header_line(name, value)
        return
    assert header_line(name, value) == expected


def test_short_ascii_values_take_the_fast_path_and_the_rest_do_not() -> None:
    """The shortcut is taken for the everyday headers (else it saves nothing)."""
    assert header_line("To", "ann@pbem.test") == b"To: ann@pbem.test\n"
    assert header_line("X", "y" * 80) == compat32.fold_binary("X", "y" * 80)
    assert b"\n " in header_line("X", "y " * 50)  # folded by the email package


def _old_head(headers: list[tuple[str, object]]) -> bytes:
    head = Message()
    for name, value in headers:
        head[name] = value
    return head.as_bytes().rstrip(b"\n") + b"\n"


@settings(max_examples=300, deadline=None)
@given(to=st.emails(), subject=st.text(max_size=120).filter(lambda s: "\r" not in s and "\n" not in s),
       name=st.text(max_size=30).filter(lambda s: "\r" not in s and "\n" not in s),
       in_reply_to=st.none() | st.just("<abc.start@pbem.test>"))
def test_build_message_headers_match_the_email_package(to: str, subject: str, name: str,
                                                       in_reply_to: str | None) -> None:
    from email.utils import format_datetime, formataddr
    date = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    raw = build_message(from_name=name, from_address="play@pbem.test", to=to, reply_to="play+k@pbem.test",
                        subject=subject, rendered=Rendered("s", "text", "<p>html</p>"), message_id="<m1@pbem.test>",
                        date=date, in_reply_to=in_reply_to)
    headers: list[tuple[str, object]] = [
        ("From", formataddr((name, "play@pbem.test"), charset="utf-8")), ("To", to),
        ("Reply-To", "play+k@pbem.test"), ("Subject", subject_header(subject)), ("Message-ID", "<m1@pbem.test>"),
        ("Date", format_datetime(date))]
    if in_reply_to:
        headers += [("In-Reply-To", in_reply_to), ("References", in_reply_to)]
    headers += [("Auto-Submitted", "auto-generated"), ("X-PBEM-Loop", "play@pbem.test")]
    head = raw.split(b"\n", 3)[3]  # after MIME-Version and the two Content-Type lines
    assert head.startswith(_old_head(headers))
    assert head[len(_old_head(headers)):].startswith(b"\n--=_pbem_")
