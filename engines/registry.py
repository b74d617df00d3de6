"""The engine registry: ``engines.get("tac")``, ``engines.names()``.

Engines register lazily by module path so importing ``engines`` stays cheap and an engine
that has not landed yet is simply absent.
"""

from __future__ import annotations

import importlib
from typing import Any

from engines.contract import Engine

# engine id -> "module:attribute" of an Engine instance
_KNOWN: dict[str, str] = {
    "tac": "engines.tac.engine:ENGINE",
    "tagteam": "engines.tagteam.engine:ENGINE",
    "grizzled": "engines.grizzled.engine:ENGINE",
    "barcadia": "engines.barcadia.engine:ENGINE",
}
_extra: dict[str, Engine[Any]] = {}
_cache: dict[str, Engine[Any]] = {}


def register(engine: Engine[Any]) -> None:
    """Add an engine at run time (tests use this for a toy game)."""
    _extra[engine.id] = engine


def unregister(engine_id: str) -> None:
    _extra.pop(engine_id, None)


def _load(engine_id: str) -> Engine[Any] | None:
    if engine_id in _extra:
        return _extra[engine_id]
    if engine_id in _cache:
        return _cache[engine_id]
    target = _KNOWN.get(engine_id)
    if target is None:
        return None
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return None  # this engine has not landed
        raise
    engine: Engine[Any] = getattr(module, attr)
    _cache[engine_id] = engine
    return engine


def names(include_extra: bool = True) -> list[str]:
    """Ids of the engines that are installed, in a stable order."""
    found = [name for name in _KNOWN if _load(name) is not None]
    if include_extra:
        found += [name for name in _extra if name not in found]
    return found


def get(engine_id: str) -> Engine[Any]:
    engine = _load(engine_id)
    if engine is None:
        raise KeyError(f"no engine {engine_id!r}; installed: {', '.join(names())}")
    return engine
