"""Mail to the plain service address (no reply key): new games by mail, invitations, settings.

Only known players may start games; an invited address may ``accept`` before it is a
player (its display name is taken from its From header). Mail from strangers that is not
an acceptance is ignored without an answer, so forged senders cannot make us spam anyone.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from engines.contract import tr
from service.context import AppContext
from service.outbound.notify import Results
from service.outbound.outbox import queue_mail
from service.outbound.render import SERVICE_TAG
from service.play.player_commands import MAILBOX_COMMANDS, CommandFailed, Mailbox, find_command, help_lines
from service.store.models import Player


def handle_mailbox_mail(session: Session, ctx: AppContext, address: str, display_name: str,
                        player: Player | None, lines: list[str]) -> str:
    """Run the lines as mailbox commands; returns the inbound status."""
    box = Mailbox(session, ctx, address, display_name, player, Results())
    lang = player.lang if player else "en"
    for line in lines[:20]:
        found = find_command(MAILBOX_COMMANDS, line)
        if found is None:
            box.results.not_understood.append({"text": line, "why": tr("not a command; reply to a game mail to play")[lang]})
            continue
        command, args = found
        try:
            command.run(box, args)
        except CommandFailed as exc:
            box.results.not_understood.append({"text": line, "why": exc.message.get(lang)})
    if box.player is None:
        return "ignored"  # a stranger's mail: never answered
    lang = box.player.lang
    results = box.results
    purpose = "rejected" if not results.done else "info"
    values: dict[str, Any] = {
        "player": box.player.name, "results": results.as_context(lang), "lines": results.lines,
        "sections": results.sections,
        "title": tr("Your request")[lang], "why": "",
    }
    if results.wants_help or not results.done:
        values["commands"] = help_lines(MAILBOX_COMMANDS, lang)
    rendered = ctx.renderer.render(purpose, lang, **values)
    queue_mail(session, ctx, to=box.player.address, kind=purpose, subject=f"{SERVICE_TAG} {rendered.subject}",
               rendered=rendered)
    return "applied" if results.done else "rejected"
