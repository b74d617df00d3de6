"""``new_text`` reads exactly what the player wrote, whatever client wrote the reply."""

from __future__ import annotations

import copy
import email
from email.message import EmailMessage, Message
from pathlib import Path

import pytest

from service.inbound.extract import Unreadable, body_text, new_text, trim_reply, unflow
from tests.mail.corpus import MARKER, UNREADABLE, corpus_sent, expected_text, load, reply_cases

CASES = reply_cases()
SENT = corpus_sent()


def test_corpus_is_broad() -> None:
    """Every client family and encoding the issue names has fixtures."""
    names = " ".join(p.stem for p in CASES)
    for family in (
        "gmail",
        "outlook",
        "apple",
        "thunderbird",
        "yahoo",
        "samsung",
        "windows_1258",
        "html_only",
        "proton",
        "zimbra",
        "roundcube",
        "lotus_notes",
        "mutt",
        "tnef",
        "rewrapped_quote",
        "outlook_web",
        "outlook_mac",
    ):
        assert family in names
    for lang in ("de", "fr", "es", "it", "pt", "pl", "nl", "cs", "tr", "ru", "ja", "zh", "ko", "sv"):
        assert f"outlook_desktop_{lang}_header_block" in names
    raw = b"".join(p.read_bytes() for p in CASES)
    for needle in (
        b"quoted-printable",
        b"base64",
        b"windows-1258",
        b"iso-8859-1",
        b"format=flowed",
        b"text/html",
    ):
        assert needle in raw
    assert len(CASES) >= 93


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_new_text_matches_expected(path: Path) -> None:
    """Each reply, with the mail it answers known (as the pipeline reads it)."""
    if expected_text(path) == UNREADABLE:
        with pytest.raises(Unreadable):
            new_text(load(path), MARKER, SENT)
        return
    assert new_text(load(path), MARKER, SENT) == expected_text(path)


@pytest.mark.parametrize("path", CASES[:8], ids=[p.stem for p in CASES[:8]])
def test_new_text_works_with_the_compat32_parser_too(path: Path) -> None:
    msg = email.message_from_bytes(path.read_bytes())
    assert new_text(msg, MARKER) == expected_text(path)


def _without_plain(msg: EmailMessage) -> Message | None:
    """A copy whose multipart/alternative parts lost their text/plain: forces the HTML path."""
    msg = copy.deepcopy(msg)
    found = False
    for part in msg.walk():
        if part.get_content_type() == "multipart/alternative":
            payload = part.get_payload()
            assert isinstance(payload, list)
            kept = [p for p in payload if p.get_content_type() != "text/plain"]
            found = found or len(kept) < len(payload)
            part.set_payload(kept)
    return msg if found else None


ALTERNATIVES = [p for p in CASES if _without_plain(load(p)) is not None]


@pytest.mark.parametrize("path", ALTERNATIVES, ids=[p.stem for p in ALTERNATIVES])
def test_html_alternative_gives_the_same_lines(path: Path) -> None:
    """The HTML half of each multipart/alternative reads as the plain half (blank lines aside)."""
    html_only = _without_plain(load(path))
    assert html_only is not None
    got = [line for line in new_text(html_only, MARKER).splitlines() if line]
    assert got == [line for line in expected_text(path).splitlines() if line]


def test_plain_part_is_preferred_over_html() -> None:
    msg = EmailMessage()
    msg.set_content("plain says 1")
    msg.add_alternative("<p>html says 2</p>", subtype="html")
    assert body_text(msg).strip() == "plain says 1"


def test_windows_1258_tones_are_composed() -> None:
    """cp1258 writes 'đánh' as d-stroke, a, combining acute: the result is NFC like any client."""
    path = next(p for p in CASES if "1258" in p.stem)
    text = new_text(load(path), MARKER)
    assert text == "đánh 7 a4 c3"
    assert len(text.split()[0]) == 4


def test_marker_cut_when_original_is_not_quoted() -> None:
    assert trim_reply(f"2\nand 3\n{MARKER}\nYour turn\n  1. 7 a4 c3\n", MARKER) == "2\nand 3"


def test_marker_half_mangled_by_legacy_charset_still_cuts() -> None:
    mangled = "##- Please reply above this line · Vui l?ng tr? l?i ph?a tr?n d?ng n?y -##"
    assert trim_reply(f"help\n{mangled}\nYour turn", MARKER) == "help"


def test_marker_wrapped_over_two_lines_cuts_at_its_first_line() -> None:
    text = "K\n##- Please reply above this line · Vui lòng trả lời\nphía trên dòng này -##\nYour turn"
    assert trim_reply(text, MARKER) == "K"


def test_bottom_posted_reply_after_quote_is_kept() -> None:
    text = "On Mon, 30 Nov 2026, pbem <play@pbem.test> wrote:\n> Your turn\n> 1. K\n\n1\n"
    assert trim_reply(text, MARKER) == "1"


def test_attribution_followed_by_unquoted_original_cuts() -> None:
    text = "3\n\nOn Mon, 30 Nov 2026, pbem <play@pbem.test> wrote:\n\nYour turn\n1. K\n"
    assert trim_reply(text, MARKER) == "3"


def test_dash_list_in_reply_is_not_a_signature() -> None:
    """mail-parser-reply cuts at '- word'; a player's list of commands must survive."""
    assert trim_reply("- lang vi\n- state\n", MARKER) == "- lang vi\n- state"


def test_valediction_only_cut_at_the_end() -> None:
    assert trim_reply("thanks\n7 a4 c3\n", MARKER) == "thanks\n7 a4 c3"
    assert trim_reply("7 a4 c3\nThân,\nAnn\n", MARKER) == "7 a4 c3"


def test_unflow_joins_soft_breaks_per_quote_depth() -> None:
    flowed = "a long \nline\n> quoted \n> more\n-- \nsig"
    assert unflow(flowed) == "a long line\n> quoted more\n-- \nsig"
    assert unflow("ab \ncd", delsp=True) == "abcd"


def test_mail_parser_reply_evaluation() -> None:
    """Why mail-parser-reply is not used: measured on this corpus it gets far fewer exact."""
    from mailparser_reply import EmailReplyParser

    parser = EmailReplyParser(languages=["en", "de", "fr"])
    ours = theirs = 0
    readable = [p for p in CASES if expected_text(p) != UNREADABLE]
    for path in readable:
        msg = load(path)
        expected = expected_text(path)
        ours += new_text(msg, MARKER, SENT) == expected
        theirs += (parser.parse_reply(body_text(msg)) or "").strip() == expected
    print(f"exact new text: pbem {ours}/{len(readable)}, mail-parser-reply {theirs}/{len(readable)}")
    assert ours == len(readable)
    assert theirs < ours


def test_the_space_characters_trim_reply_maps_never_break_a_line() -> None:
    """``trim_reply`` translates the whole text before splitting it into lines: that is the
    same as translating each line only while no mapped character is a line boundary."""
    from service.inbound.extract import _SPACES

    for code in _SPACES:
        assert f"a{chr(code)}b".splitlines() == [f"a{chr(code)}b"], hex(code)
