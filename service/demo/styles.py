"""How the demo's players write their replies: like the mail clients people use.

Each style puts the answer where its client puts it and quotes our mail the way that client
does, so the demo runs the same reply extraction real players need (tests/fixtures/mail has
the exact shapes). Some answer with the menu number, some with the command's text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.demo.reading import MenuItem, ServiceMail

DATE = "Mon, 30 Nov 2026 at 10:00"


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.rstrip("\n").split("\n"))


def gmail_number_quote_all(mail: ServiceMail, item: MenuItem, name: str) -> str:
    """Gmail, top-posting the menu number, the whole mail quoted below."""
    return f"{item.number}\n\nOn {DATE}, pbem <{mail.reply_to}> wrote:\n{_quoted(mail.text)}\n"


def outlook_text(mail: ServiceMail, item: MenuItem, name: str) -> str:
    """Outlook: the command in words, a header block, the original unquoted below."""
    return (
        f"{item.command}\n\nRegards,\n{name}\n\n{'_' * 32}\nFrom: pbem <{mail.reply_to}>\n"
        f"Sent: Monday, November 30, 2026 10:00 AM\nTo: {name}\nSubject: {mail.subject}\n\n{mail.text}"
    )


def iphone_vietnamese(mail: ServiceMail, item: MenuItem, name: str) -> str:
    """iPhone Mail in Vietnamese: the command, the phone footer, a quoted Vietnamese attribution."""
    return (
        f"{item.command}\n\nGửi từ iPhone của tôi\n\n"
        f"> Vào 10:00, ngày 30 thg 11, 2026, pbem <{mail.reply_to}> đã viết:\n>\n{_quoted(mail.text)}\n"
    )


def thunderbird_bottom(mail: ServiceMail, item: MenuItem, name: str) -> str:
    """Thunderbird, bottom-posting the number under the quote, with a signature."""
    return f"On 30/11/2026 10:00, pbem wrote:\n{_quoted(mail.text)}\n\n{item.number}\n\n-- \n{name}\n"


Style = Callable[[ServiceMail, MenuItem, str], str]


@dataclass(frozen=True)
class Persona:
    """A style and the language the player reads its mail in."""

    name: str
    write: Style
    lang: str


PERSONAS = (
    Persona("Gmail, menu number, whole mail quoted", gmail_number_quote_all, "en"),
    Persona("iPhone in Vietnamese, command text", iphone_vietnamese, "vi"),
    Persona("Outlook, command text", outlook_text, "en"),
    Persona("Thunderbird, number below the quote", thunderbird_bottom, "vi"),
)
