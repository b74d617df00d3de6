"""Mail to the plain service address (no reply key): new games by mail, invitations, settings.

Only known players may start games; an invited address may ``accept`` before it is a
player (its display name is taken from its From header). Mail from strangers that is not
an acceptance is ignored without an answer, so forged senders cannot make us spam anyone.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from engines.contract import Engine
from service.context import AppContext
from service.models import Invitation, Player
from service.notify import Results
from service.outbox import queue_mail
from service.player_commands import MAILBOX_COMMANDS, CommandFailed, Mailbox, find_command, help_lines
from service.render import SERVICE_TAG


def invitation_subject(invitation_id: int, text: str) -> str:
    return f"{SERVICE_TAG} {text} · invitation #{invitation_id}"


def queue_invitations(session: Session, ctx: AppContext, invitation: Invitation, host: Player,
                      engine: Engine[Any]) -> None:
    from service.games import player_by_address

    assert invitation.id is not None
    addresses = json.loads(invitation.addresses)
    for address in addresses[1:]:
        invitee = player_by_address(session, address)
        lang = invitee.lang if invitee else host.lang
        names = [host.name] + [a.split("@")[0] for a in addresses[1:]]
        rendered = ctx.renderer.render("invite", lang, player=invitee.name if invitee else address,
                                       host=host.name, game_title=engine.title, players=names)
        queue_mail(session, ctx, to=address, kind="invite",
                   subject=invitation_subject(invitation.id, rendered.subject), rendered=rendered)


def handle_mailbox_mail(session: Session, ctx: AppContext, address: str, display_name: str,
                        player: Player | None, lines: list[str]) -> str:
    """Run the lines as mailbox commands; returns the inbound status."""
    box = Mailbox(session, ctx, address, display_name, player, Results())
    lang = player.lang if player else "en"
    for line in lines[:20]:
        found = find_command(MAILBOX_COMMANDS, line)
        if found is None:
            box.results.not_understood.append({"text": line, "why": {
                "en": "not a command; reply to a game mail to play", "vi": "không phải lệnh"}[lang]})
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
        "player": box.player.name, "results": results.as_context(), "lines": results.lines,
        "title": {"en": "Your request", "vi": "Yêu cầu của bạn"}[lang], "why": "",
    }
    if results.wants_help or not results.done:
        values["commands"] = help_lines(MAILBOX_COMMANDS, lang)
    rendered = ctx.renderer.render(purpose, lang, **values)
    queue_mail(session, ctx, to=box.player.address, kind=purpose, subject=f"{SERVICE_TAG} {rendered.subject}",
               rendered=rendered)
    return "applied" if results.done else "rejected"
