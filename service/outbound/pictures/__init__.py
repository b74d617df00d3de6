"""Board pictures for the HTML part of a mail: one PNG per engine, drawn from a seat's view only.

Why Pillow: mail clients do not show SVG, so a raster is needed anyway; Pillow draws and encodes
PNG in-process with no system libraries beyond what its wheel ships (cairosvg would need Cairo
from Debian and a second drawing model). Each engine has one module here with
``draw(view, lang) -> Picture``; it receives the *view* the seat's text mail is rendered from,
never the state, so a picture can show nothing the text does not.

Pictures are cached by the view's content (``picture_for``): the seats of one move whose views
are equal (observers, public boards) share one drawing, and a resend of the same position draws
nothing. Colours come from the Okabe-Ito colour-blind-safe palette and every coloured mark also
carries a letter or a word, never colour alone.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt: str
    width: int
    height: int


Drawer = Callable[[Mapping[str, Any], str], Picture]

#: engine id -> module under service.outbound.pictures with a ``draw(view, lang)``
DRAWERS = {"tac": "tac", "tagteam": "tagteam", "grizzled": "grizzled", "barcadia": "barcadia"}
_CACHE: OrderedDict[str, Picture] = OrderedDict()
_CACHE_SIZE = 256


def drawer_for(engine_id: str) -> Drawer | None:
    name = DRAWERS.get(engine_id)
    if name is None:
        return None
    module = import_module(f"{__name__}.{name}")
    draw: Drawer = module.draw
    return draw


def picture_for(engine_id: str, view: Mapping[str, Any], lang: str) -> Picture | None:
    """The picture of ``view`` (cached by content), or None for an engine without one."""
    draw = drawer_for(engine_id)
    if draw is None:
        return None
    key = hashlib.blake2b(json.dumps([engine_id, lang, view], sort_keys=True, default=str,
                                     ensure_ascii=False).encode(), digest_size=16).hexdigest()
    cached = _CACHE.get(key)
    if cached is not None:
        _CACHE.move_to_end(key)
        return cached
    picture = draw(view, lang)
    _CACHE[key] = picture
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return picture
