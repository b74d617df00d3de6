"""``pbem admin export GAME`` and ``pbem game replay FILE``.

An export is everything that determines a game — engine, resolved options, seed, the names it
was created with and every logged action — plus a fingerprint of the stored state (SHA-256 of
its canonical JSON). Replaying rebuilds the game from the seed and compares fingerprints: a
bug report, an engine upgrade or a restored backup can be checked move for move. The export
is operator material (it holds every secret choice); it is never mailed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import engines
from engines.contract import Action
from service.admin.errors import BadArgument, NotFound
from service.admin.operations import open_game
from service.admin.undo import logged_moves, original_names, replay
from service.context import AppContext
from service.store.games import load, seats_of
from service.store.models import MoveLog

FORMAT = "pbem-export/1"


def fingerprint(state_json: str) -> str:
    canonical = json.dumps(json.loads(state_json), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _move(row: MoveLog) -> dict[str, Any]:
    return {"seat": row.seat, "command": row.command, "action": json.loads(row.action or "null"),
            "state_version": row.state_version, "at": row.created_at.isoformat()}


def export_game(ctx: AppContext, game_id: int) -> dict[str, Any]:
    with ctx.session() as s:
        game = open_game(s, game_id)
        engine, state = load(game)
        return {
            "format": FORMAT,
            "game": game.id,
            "engine": game.engine,
            "status": game.status,
            "options": json.loads(game.options),
            "seed": game.seed,
            "players": original_names(s, game),
            "seats": [{"seat": r.seat, "name": p.name} for r, p in seats_of(s, game_id)],
            "moves": [_move(r) for r in logged_moves(s, game_id)],
            "final": {"state_version": engine.state_version(state), "state_sha256": fingerprint(game.state)},
        }


def read_export(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise NotFound(f"no file {path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadArgument(f"{path} is not a JSON export: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadArgument(f"{path} is not a pbem export (format {FORMAT!r})")
    return data


def replay_export(data: dict[str, Any]) -> tuple[bool, str]:
    """Rebuild the exported game; ``(same state?, one-line verdict)``."""
    try:
        engine = engines.get(str(data["engine"]))
    except KeyError:
        raise BadArgument(f"unknown engine {data.get('engine')!r}") from None
    try:
        moves = [(int(m["seat"]), Action.from_json(m["action"])) for m in data["moves"]]
        names, options, seed = list(data["players"]), dict(data["options"]), int(data["seed"])
        expected = data["final"]["state_sha256"]
    except (KeyError, TypeError, ValueError) as exc:
        raise BadArgument(f"export is missing or has a bad field: {exc}") from None
    try:
        state = replay(engine, names, options, seed, moves)
    except Exception as exc:
        return False, f"MISMATCH: game #{data.get('game')} does not replay: {exc}"
    got = fingerprint(engine.to_json(state))
    if got != expected:
        return False, (f"MISMATCH: game #{data.get('game')} ({engine.id}, {len(moves)} moves) reaches state "
                       f"{got[:12]}, the export says {expected[:12]}")
    return True, (f"OK: game #{data.get('game')} ({engine.id}, seed {seed}, {len(moves)} moves) "
                  f"reaches the same state (version {engine.state_version(state)}, {got[:12]})")
