"""What every board picture shares: fonts with Vietnamese coverage, the palette, PNG encoding."""

from __future__ import annotations

import io
import math
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

# Okabe-Ito: distinguishable with every common colour-vision deficiency.
BLUE, ORANGE, GREEN, PURPLE = "#0072B2", "#E69F00", "#009E73", "#CC79A7"
VERMILLION, SKY, YELLOW, INK = "#D55E00", "#56B4E9", "#F0E442", "#1A1A1A"
PAPER, LINE, MUTED, FIELD = "#FBFAF6", "#8A8A8A", "#5F5F5F", "#E8E6DF"
SEAT_COLOURS = (BLUE, ORANGE, GREEN, PURPLE, VERMILLION, SKY)

_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/noto",
              "/usr/share/fonts/noto", "/usr/share/fonts/dejavu")
_REGULAR = ("DejaVuSans.ttf", "NotoSans-Regular.ttf")
_BOLD = ("DejaVuSans-Bold.ttf", "NotoSans-Bold.ttf")


def _find(names: tuple[str, ...]) -> str | None:
    for folder in _FONT_DIRS:
        for name in names:
            path = Path(folder) / name
            if path.is_file():
                return str(path)
    return None


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A font with Vietnamese diacritics and the marks we draw (DejaVu Sans, else Noto Sans)."""
    path = _find(_BOLD if bold else _REGULAR) or _find(_REGULAR)
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An opaque light canvas: dark-mode clients that invert or dim keep it readable."""
    image = Image.new("RGB", (width, height), PAPER)
    return image, CachedTextDraw(image)


class CachedTextDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` whose one-line ``text`` reuses the glyph mask of a text drawn before.

    Why: a board carries dozens of labels (hole numbers, names, counts), mostly the same from
    one picture to the next, and FreeType rendering each one afresh was a fifth of a picture's
    drawing. The mask depends only on the font, the text, the anchor, the fractional part of
    the position and the ink, so it is cached under exactly those; it is then placed as
    Pillow's own ``text`` places it (``ImageDraw.text``: ``getmask2`` + ``draw_bitmap``), and
    the pictures are byte-identical to Pillow's (tested). Anything else (several lines,
    strokes, features, a bitmap font) goes to Pillow's ``text`` unchanged.
    """

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,
             anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
        if (args or kwargs or not isinstance(text, str) or "\n" in text
                or not isinstance(font, ImageFont.FreeTypeFont) or self.fontmode != "L"):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is None:
            return
        x, y = xy
        mask, offset = _text_mask(font, text, anchor or "la", (math.modf(x)[0], math.modf(y)[0]), ink)
        self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


@lru_cache(maxsize=4096)
def _text_mask(face: ImageFont.FreeTypeFont, text: str, anchor: str, start: tuple[float, float],
               ink: int) -> tuple[Any, tuple[int, int]]:
    """FreeType's mask of one line of text, as ``ImageDraw.text`` asks for it (mode "L")."""
    return face.getmask2(text, "L", None, None, None, 0, anchor, ink, start, stroke_filled=True)


def text_colour_on(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` (WCAG relative luminance)."""
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return INK if lum > 0.22 else "#FFFFFF"


def centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
            fill: str = INK, bold: bool = False) -> None:
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def png(image: Image.Image) -> bytes:
    """Palette PNG: board pictures have few colours, so 64 keep a mail small (~12 KB).

    Fast octree quantizing and zlib level 6 cost about a third of median-cut + ``optimize``
    for a PNG ~15 % larger (measured on the TAC board: 35 ms vs 166 ms, 12.3 KB vs 10.6 KB).
    """
    out = io.BytesIO()
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=6)
    return out.getvalue()
