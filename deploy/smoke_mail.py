"""A player's side of deploy/check-image.sh, by plain IMAP and SMTP (standard library only, so
it runs in the image with nothing added): wait for Alice's first mail of a new game, reply ``1``
(the first menu line) to its reply address, and wait for pbem's answer to that reply.

Exit 0 when the answer came, 1 (with the reason) when any step times out."""

from __future__ import annotations

import argparse
import contextlib
import email
import email.policy
import imaplib
import smtplib
import sys
import time
from email.message import EmailMessage, Message


def inbox(host: str, port: int, user: str, password: str) -> list[Message]:
    """Every mail in the user's INBOX, oldest first, without marking any read."""
    imap = imaplib.IMAP4(host, port, timeout=10)
    try:
        imap.login(user, password)
        imap.select("INBOX", readonly=True)
        _, found = imap.search(None, "ALL")
        mails: list[Message] = []
        for number in found[0].split():
            _, data = imap.fetch(number, "(BODY.PEEK[])")
            raw = data[0]
            assert isinstance(raw, tuple)
            mails.append(email.message_from_bytes(raw[1], policy=email.policy.default))
        return mails
    except (imaplib.IMAP4.error, OSError):  # no mailbox yet: the server makes it on first mail
        return []
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            imap.logout()


def wait_for(args: argparse.Namespace, count: int, what: str) -> list[Message]:
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        mails = inbox(args.host, args.imap_port, args.player, args.password)
        if len(mails) >= count:
            return mails
        time.sleep(0.5)
    print(f"smoke_mail: no {what} for {args.player} within {args.timeout:.0f} s", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--imap-port", type=int, required=True)
    parser.add_argument("--smtp-port", type=int, required=True)
    parser.add_argument("--player", default="alice@pbem.test")
    parser.add_argument("--password", default="pbem", help="the trial mail server's password for players")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()

    first = wait_for(args, 1, "first mail of the game")[0]
    reply_to = first["Reply-To"]
    if not reply_to or "+" not in reply_to:
        print(f"smoke_mail: the first mail has no reply address (Reply-To: {reply_to!r})", file=sys.stderr)
        sys.exit(1)
    print(f"first mail: {first['Subject']!r}, reply to {reply_to}")

    reply = EmailMessage()
    reply["From"] = args.player
    reply["To"] = reply_to
    reply["Subject"] = f"Re: {first['Subject']}"
    reply["In-Reply-To"] = first["Message-ID"]
    reply.set_content("1\n")
    with smtplib.SMTP(args.host, args.smtp_port, timeout=10) as smtp:
        smtp.send_message(reply)
    print("replied: 1")

    answer = wait_for(args, 2, "answer to the reply")[1]
    print(f"answer: {answer['Subject']!r}")


if __name__ == "__main__":
    main()
