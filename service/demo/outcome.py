"""A finished game's outcome in one line, from the outcome the service stored (JSON)."""

from __future__ import annotations

import json
from typing import Any


def outcome_line(game: Any) -> str:
    """'Bình wins (Bass Reeves knocked out)' from the stored outcome JSON."""
    if game.status == "active":
        return "unfinished"
    if not game.outcome:
        return str(game.status)
    try:
        data = json.loads(game.outcome)
    except ValueError:
        return str(game.outcome)
    reason = data.get("reason") or {}
    why = reason.get("en", "") if isinstance(reason, dict) else str(reason)
    winners = [game.names[w] for w in data.get("winners", []) if isinstance(w, int) and w < len(game.names)]
    if data.get("draw") or not winners:
        head = "draw" if data.get("draw") else "nobody wins"
    else:
        head = " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    return f"{head} ({why})" if why else head
