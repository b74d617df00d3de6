"""The demo's mail archive: every mail as an ``.eml`` file and an ``index.html`` to browse them.

Mail is read back over IMAP from each mailbox — the players' (what the service sent them)
and the service's (what the players sent) — so the archive shows exactly what was delivered.
"""

from __future__ import annotations

import email.utils
import html
import re
from collections import defaultdict
from collections.abc import Sequence
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any, Protocol

from service.demo.outcome import outcome_line
from service.inbound.imapconn import open_imap

GAME_TAG = re.compile(r"\[([A-Z0-9_-]+) #(\d+)\]")


class _Stack(Protocol):
    host: str
    imap_port: int


def _fetch(stack: _Stack, address: str, password: str) -> list[bytes]:
    client = open_imap(stack.host, stack.imap_port, address, password)
    try:
        client.select_folder("INBOX", readonly=True)
        uids = sorted(client.search("ALL"))
        out: list[bytes] = []
        for start in range(0, len(uids), 200):
            chunk = uids[start : start + 200]
            data = client.fetch(chunk, ["BODY.PEEK[]"])
            out += [bytes(data[u][b"BODY[]"]) for u in chunk if u in data]
        return out
    finally:
        client.logout()


def _decoded(value: object) -> str:
    try:
        return str(make_header(decode_header(str(value))))
    except (UnicodeError, LookupError, ValueError):
        return str(value)


def write_archive(
    out_dir: Path,
    stack: _Stack,
    service_address: str,
    service_password: str,
    games: Sequence[Any],
    bots: Sequence[Any],
    standings: Sequence[str] = (),
    league: Sequence[dict[str, Any]] = (),
) -> tuple[Path, Path, int]:
    """Write ``out_dir/mail/<address>/NNNN.eml`` and ``out_dir/index.html``; returns paths and count."""
    mail_dir = out_dir / "mail"
    # entries[game tag][player address] -> list of (direction, subject, relative path)
    entries: dict[str, dict[str, list[tuple[str, str, str]]]] = defaultdict(lambda: defaultdict(list))
    count = 0
    mailboxes = [(bot.address, bot.password) for bot in bots] + [(service_address, service_password)]
    for address, password in mailboxes:
        folder = mail_dir / address
        folder.mkdir(parents=True, exist_ok=True)
        for n, raw in enumerate(_fetch(stack, address, password), start=1):
            path = folder / f"{n:04d}.eml"
            path.write_bytes(raw)
            count += 1
            # Headers only, with the fast compat32 parser: thousands of mails, two fields each.
            msg = BytesHeaderParser().parsebytes(raw)
            subject = _decoded(msg.get("Subject", ""))
            tag = GAME_TAG.search(subject)
            game = f"{tag.group(1)} #{tag.group(2)}" if tag else "other"
            if address == service_address:
                sender = email.utils.parseaddr(str(msg.get("From", "")))[1].lower()
                entries[game][sender].append(("sent", subject, path.relative_to(out_dir).as_posix()))
            else:
                entries[game][address].append(("received", subject, path.relative_to(out_dir).as_posix()))
    pictures = _last_pictures(out_dir, entries)
    index = out_dir / "index.html"
    index.write_text(_index_html(entries, games, pictures, standings, league), encoding="utf-8")
    return index, mail_dir, count


def _last_pictures(out_dir: Path, entries: dict[str, dict[str, list[tuple[str, str, str]]]]) -> dict[str, str]:
    """Per game, the board picture of the last mail a player received that carries one."""
    found: dict[str, str] = {}
    folder = out_dir / "pictures"
    for tag, players in entries.items():
        if tag == "other":
            continue
        for _, mails in sorted(players.items()):
            for direction, _, path in reversed(mails):
                if direction != "received":
                    continue
                msg = email.message_from_bytes((out_dir / path).read_bytes())
                png = next((part.get_payload(decode=True) for part in msg.walk()
                            if part.get_content_type() == "image/png"), None)
                if isinstance(png, bytes):
                    folder.mkdir(parents=True, exist_ok=True)
                    name = f"{tag.replace(' #', '-').lower()}.png"
                    (folder / name).write_bytes(png)
                    found[tag] = f"pictures/{name}"
                    break
            if tag in found:
                break
    return found


def _index_html(entries: dict[str, dict[str, list[tuple[str, str, str]]]], games: Sequence[Any],
                pictures: dict[str, str] | None = None, standings: Sequence[str] = (),
                league: Sequence[dict[str, Any]] = ()) -> str:
    rows: list[str] = [
        "<!doctype html><meta charset='utf-8'><title>pbem demo mail</title>",
        "<style>body{font-family:sans-serif;max-width:70em;margin:auto}details{margin:.3em 0}"
        "td{padding:0 .6em}.sent{color:#06c}table.league{border-collapse:collapse}"
        "table.league th,table.league td{border-bottom:1px solid #ccc;padding:.2em .6em;text-align:right}"
        "table.league .name{text-align:left}</style>",
        "<h1>pbem demo: every mail, per game and player</h1>",
        "<p>Open a <code>.eml</code> file with any mail client, or read it as text.</p>",
    ]
    if league:
        rows += _league_html(league)
    elif standings:
        rows.append("<h2>League standings</h2><pre>" + html.escape("\n".join(standings)) + "</pre>")
    by_tag = {f"{g.engine_id.upper()} #{g.game_id}": g for g in games}
    for tag in sorted(entries, key=lambda t: (t == "other", t)):
        game = by_tag.get(tag)
        summary = f" — {html.escape(game.status)}, {game.moves} moves" if game else ""
        anchor = f" id='game-{game.game_id}'" if game else ""
        rows.append(f"<h2{anchor}>{html.escape(tag)}{summary}</h2>")
        if game and game.outcome:
            rows.append(f"<p>Outcome: {html.escape(outcome_line(game))}</p>")
        if pictures and tag in pictures:
            rows.append(f"<p><img src='{html.escape(pictures[tag])}' alt='{html.escape(tag)}: the last board a player "
                        "saw' style='max-width:100%;height:auto;border:1px solid #ccc'></p>")
        for player, mails in sorted(entries[tag].items()):
            rows.append(f"<details><summary>{html.escape(player)} — {len(mails)} mails</summary><table>")
            for direction, subject, path in mails:
                rows.append(
                    f"<tr class='{direction}'><td>{direction}</td>"
                    f"<td><a href='{html.escape(path)}'>{html.escape(subject)}</a></td></tr>"
                )
            rows.append("</table></details>")
    return "\n".join(rows) + "\n"


def _league_html(sections: Sequence[dict[str, Any]]) -> list[str]:
    """The league part of the index: each round's games and results, then the standings table
    (the sections of ``service.leagues.report``; game numbers link to the game's mails below)."""
    out = ["<h2>League</h2>"]
    for section in sections:
        out.append(f"<h3>{html.escape(section['title'])}</h3>")
        if section.get("items"):
            items = [re.sub(r"^#(\d+)", lambda m: f"<a href='#game-{m.group(1)}'>#{m.group(1)}</a>", html.escape(i))
                     for i in section["items"]]
            out.append("<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
        grid = section.get("table")
        if grid:
            head = "".join(f"<th class='{'' if n else 'name'}'>{html.escape(h)}</th>"
                           for h, n in zip(grid["head"], grid["numeric"], strict=True))
            body = "".join("<tr>" + "".join(f"<td class='{'' if n else 'name'}'>{html.escape(c)}</td>"
                                            for c, n in zip(row, grid["numeric"], strict=True)) + "</tr>"
                           for row in grid["rows"])
            out.append(f"<table class='league'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return out
