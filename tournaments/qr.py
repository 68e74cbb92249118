"""QR codes of addresses: the one place that makes them (segno).

`qr_svg` is a code as SVG for the pages (the projector's link to the standings, the
tables' links on the series page and as an image of their own); `qr_modules` its dark
modules, row by row, for the PDFs to draw as vector squares (`exporters.qr`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(url: str, *, scale: int = 4, title: str = "", standalone: bool = False) -> str:
    """A QR code of `url` as SVG: dark modules on white with a quiet zone of two, so that a
    phone reads it on a dark page too (the projector's). Inline in a page by default (no
    XML namespace, as HTML5 wants); `standalone`: an image file of its own. segno escapes
    the `title`. Made once per address (choosing the data mask is most of a projector
    page's render)."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=standalone,
        nl=False,
        scale=scale,
        border=2,
        dark="#000",
        light="#fff",
        title=title or None,
    )
    return out.getvalue().decode()


def qr_modules(url: str) -> tuple[int, Iterator]:
    """The code's size in modules and its rows of dark (truthy) and light modules, without
    the quiet zone. The data mask is fixed (pattern 0, which any reader decodes: ISO/IEC
    18004 §7.8) rather than chosen by scoring all eight: the scoring took most of the time
    of the 500 blank sheets of a large series."""
    code = segno.make(url, error="m", mask=0)
    return code.symbol_size(scale=1, border=0)[0], code.matrix_iter(scale=1, border=0)
