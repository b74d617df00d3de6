"""Invitation mails: "X invites you to a game of Y", sent to every invited address.

Here, not in ``play.mailbox``: the ``new`` player command queues them and the mailbox
module runs player commands, so keeping them there made an import circle.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from engines.contract import Engine
from service.context import AppContext
from service.outbound.outbox import queue_mail
from service.outbound.render import SERVICE_TAG
from service.store.games import player_by_address
from service.store.models import Invitation, Player


def invitation_subject(invitation_id: int, text: str) -> str:
    return f"{SERVICE_TAG} {text} · invitation #{invitation_id}"


def queue_invitations(session: Session, ctx: AppContext, invitation: Invitation, host: Player,
                      engine: Engine[Any]) -> None:
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
