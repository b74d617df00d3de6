"""Rotating the reply-key secret (``PBEM_SECRET`` → new, old one in ``PBEM_SECRET_PREVIOUS``)
keeps open games playable: a reply to a mail sent under the old secret is still applied, new
mails are keyed with the new secret and stay in the game's thread, and a key made under a
secret the service no longer knows is refused like any unknown key."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from service.config import ConfigError, load_settings
from service.outbound.keys import key_matches, make_key
from service.store.games import load

from .world import World, make_settings

OLD = "old-secret-0123456789abcdef"
NEW = "new-secret-fedcba9876543210"
OTHER = "other-secret-00000000000000"


def _rotate(world: World, tmp: Path, secret: str, previous: str = "") -> None:
    """Restart the service on the same database and mailbox with other secrets."""
    same_database = world.service.settings.database_url  # (a new one per call on PostgreSQL)
    world.restart(make_settings(world.stack, tmp, secret=secret, secret_previous=previous,
                                database_url=same_database))


def _key_of(mail: Any) -> str:
    reply_to = str(mail["Reply-To"])
    return reply_to.split("+", 1)[1].split("@", 1)[0]


def test_a_reply_to_a_mail_sent_before_the_rotation_is_applied(mail_stack: Any, tmp_path: Path) -> None:
    world = World.create(mail_stack, tmp_path, secret=OLD)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.step())
    before = world.last(ann)
    root = str(before["In-Reply-To"] or before["Message-ID"])
    old_key = _key_of(before)

    _rotate(world, tmp_path, NEW, OLD)
    ctx = world.service.ctx
    assert key_matches(ctx.key_secrets, old_key, game_id, 0, _decision(world, game_id, 0))
    assert not key_matches(ctx.key_secret, old_key, game_id, 0, _decision(world, game_id, 0))
    world.reply(ann, "high", to=before)
    asyncio.run(world.step())
    assert [m.command for m in world.moves(game_id)] == ["high"]
    assert [m.status for m in world.inbound()] == ["applied"]

    after = world.last(ann)  # the next mail: new key, same conversation
    assert after is not before and _key_of(after) != old_key
    new_key = _key_of(after)
    decision = _decision(world, game_id, 0)
    assert new_key == make_key(ctx.key_secret, game_id, 0, decision)
    assert str(after["In-Reply-To"]) == root


def test_a_key_under_a_forgotten_secret_is_refused(mail_stack: Any, tmp_path: Path) -> None:
    world = World.create(mail_stack, tmp_path, secret=OLD)
    ann, bob = world.player("ann@pbem.test", "Ann"), world.player("bob@pbem.test", "Bob")
    game_id = world.game("toy", [ann, bob], seed=1)
    asyncio.run(world.step())
    before = world.last(ann)

    _rotate(world, tmp_path, NEW, OTHER)  # the old secret is neither current nor previous
    world.reply(ann, "high", to=before)
    asyncio.run(world.step())
    assert world.moves(game_id) == []
    [mail] = world.inbound()
    assert mail.status == "rejected" and "not one we issued" in (mail.error or "")


def test_previous_secrets_come_from_the_environment_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    leaked = tmp_path / "pbem.toml"
    leaked.write_text(f'secret_previous = "{OLD}"\n')
    monkeypatch.setenv("PBEM_SECRET", NEW)
    with pytest.raises(ConfigError, match="secret_previous must come from the environment"):
        load_settings(leaked)
    monkeypatch.setenv("PBEM_SECRET_PREVIOUS", f"{OLD}, {OTHER}")
    assert load_settings(tmp_path / "absent.toml").previous_secrets == [OLD, OTHER]
    monkeypatch.setenv("PBEM_SECRET_PREVIOUS", "short")
    with pytest.raises(ConfigError, match="PBEM_SECRET_PREVIOUS"):
        load_settings(tmp_path / "absent.toml")


def _decision(world: World, game_id: int, seat: int) -> str:
    engine, state = load(world.game_row(game_id))
    return str(engine.decision_key(state, seat))
