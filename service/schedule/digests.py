"""The daily digest of players who chose ``mail daily``: one mail a day per game with news.

Why: a ``daily`` player gets no receipt for a reply (``outbound.notify``), so what their own
moves caused and what the others did reaches them here — or in their next turn mail, if that
comes first (the digest only shows events no mail has shown yet: ``GameSeat.last_log_id``).
The hour is ``DIGEST_HOUR`` in the player's own time zone (``tz``; UTC when unknown), and
``Player.last_digest_at`` keeps it to one a day across restarts. A game with nothing new
gets no mail. Turn mails are not held back for daily players: a turn game would stall.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from engines.contract import tr
from service.context import AppContext
from service.outbound.notify import mail_to_seat
from service.store.games import events_since, load, seats_of
from service.store.models import Game, GameSeat, Player

#: The local hour the digest goes out.
DIGEST_HOUR = 18

TITLE = tr("Today in your game")


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except Exception:  # an unknown zone stored long ago: UTC rather than no digest
        return ZoneInfo("UTC")


def last_digest_time(now: datetime, tz: str) -> datetime:
    """The most recent ``DIGEST_HOUR`` o'clock in ``tz`` at or before ``now``."""
    local = now.astimezone(_zone(tz))
    at = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    if at > local:
        at -= timedelta(days=1)
    return at


def digest_due(player: Player, now: datetime) -> bool:
    """Due once the player's digest hour has passed since the last digest (or ever)."""
    due_at = last_digest_time(now, player.tz)
    return player.last_digest_at is None or player.last_digest_at < due_at


def send_daily_digests(session: Session, ctx: AppContext) -> int:
    """Queue the due digests (no commit); returns how many mails were queued."""
    now = ctx.clock.now()
    players = session.exec(select(Player).where(Player.mail_mode == "daily",
                                                col(Player.unreachable).is_(False))).all()
    sent = 0
    for player in players:
        if not digest_due(player, now):
            continue
        rows = session.exec(select(Game, GameSeat).where(
            GameSeat.game_id == Game.id, GameSeat.player_id == player.id, Game.status == "active",
            col(GameSeat.bot).is_(False)).order_by(col(Game.id))).all()
        for game, seat_row in rows:
            assert game.id is not None
            news, _ = events_since(session, game.id, seat_row.seat, seat_row.last_log_id)
            if not news:
                continue
            engine, state = load(game)
            names = [p.name for _, p in seats_of(session, game.id)]
            mail_to_seat(session, ctx, game, engine, state, seat_row, player, "info", names=names, kind="digest",
                         short=True, extra={"title": TITLE.get(player.lang)})
            sent += 1
        player.last_digest_at = now
    return sent
