"""``pbem mailserver`` prints working logins for a human's mail client."""

from __future__ import annotations

import re
import threading
import time

from service.localmail.mailserver import parse_user, run_mailserver
from tests.support.mailservers import fetch_all, send_mail


class _Printed:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        self.lines.append(text)


def test_parse_user_fills_domain_and_default_password() -> None:
    assert parse_user("ann", "pbem.test") == ("ann@pbem.test", "pbem")
    assert parse_user("Bob@X.test:s3cret", "pbem.test") == ("bob@x.test", "s3cret")


def test_mailserver_prints_ports_and_logins_that_work() -> None:
    printed, stop = _Printed(), threading.Event()
    runner = threading.Thread(
        target=run_mailserver, args=(["ann@x.test:pw"],), kwargs={"echo": printed, "stop": stop}
    )
    runner.start()
    try:
        deadline = time.monotonic() + 10
        while not printed.lines and time.monotonic() < deadline:
            time.sleep(0.05)
        text = printed.lines[0]
        imap_port = int(re.search(r"IMAP\s+127\.0\.0\.1:(\d+)", text).group(1))  # type: ignore[union-attr]
        smtp_port = int(re.search(r"SMTP\s+127\.0\.0\.1:(\d+)", text).group(1))  # type: ignore[union-attr]
        assert "ann@x.test  password: pw" in text

        class Where:
            host, domain = "127.0.0.1", "pbem.test"

        where = Where()
        where.imap_port, where.smtp_port = imap_port, smtp_port  # type: ignore[attr-defined]
        send_mail(where, b"Subject: hi\r\n\r\nhello\r\n", "bob@pbem.test", "ann@x.test")  # type: ignore[arg-type]
        assert len(fetch_all(where, "ann@x.test", "pw")) == 1  # type: ignore[arg-type]
    finally:
        stop.set()
        runner.join(10)
    assert printed.lines[-1] == "mail server stopped"
