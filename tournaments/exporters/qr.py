"""QR codes: in the PDFs drawn as vector squares, each also a clickable link, and on the
pages as SVG.

`draw_qr` draws one on a canvas (the score sheets' phone links), `QrFlowable` is one in a
story (the table list's page of links), and `standings_link` is the public standings'
address with its caption, at the end of the results list and of the hall's table list:
whoever scans it follows the standings live on a phone. `qr_svg` is the one SVG of a code
(the projector's link to the standings, the tables' links on the series page and as an
image of their own).
"""

from __future__ import annotations

import html
import io
from functools import lru_cache

import segno
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, LongTable, Paragraph, TableStyle

from tournaments.exporters.pdf_styles import BODY

STANDINGS_QR = 30 * mm
CAPTION = ParagraphStyle("qr-caption", parent=BODY, fontSize=7.5, leading=9)


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


def draw_qr(canvas, url: str, x: float, y: float, size: float):
    """A QR code of `url`, `size` wide with its bottom-left corner at (x, y), clickable.

    The data mask is fixed (pattern 0, which any reader decodes: ISO/IEC 18004 §7.8)
    rather than chosen by scoring all eight: the scoring took most of the time of the 500
    blank sheets of a large series. The dark runs of each row are drawn in module units
    under one transform, so the path holds small integers."""
    code = segno.make(url, error="m", mask=0)
    modules = code.symbol_size(scale=1, border=0)[0]
    cell = size / modules
    path = canvas.beginPath()
    for row, line in enumerate(code.matrix_iter(scale=1, border=0)):
        start = None
        for column, dark in enumerate([*line, 0]):
            if dark and start is None:
                start = column
            elif not dark and start is not None:
                path.rect(start, row, column - start, 1)
                start = None
    canvas.saveState()
    canvas.transform(cell, 0, 0, -cell, x, y + size)  # module units, rows downwards
    canvas.setFillColor(colors.black)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
    canvas.linkURL(url, (x, y, x + size, y + size), relative=1)


class QrFlowable(Flowable):
    """A QR code of `url`, `size` square, as a platypus flowable."""

    def __init__(self, url: str, size: float):
        super().__init__()
        self.url, self.size = url, size

    def wrap(self, available_width, available_height):
        return self.size, self.size

    def draw(self):
        draw_qr(self.canv, self.url, 0, 0, self.size)


def standings_link(url: str | None) -> list:
    """Flowables: the code beside "The standings, live on your phone" and the address;
    nothing without `url`."""
    if not url:
        return []
    caption = [
        Paragraph(html.escape(_("The standings, live on your phone")), BODY),
        Paragraph(html.escape(url), CAPTION),
    ]
    size = STANDINGS_QR
    table = LongTable([[QrFlowable(url, size), caption]], colWidths=[size + 4 * mm, None])
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (0, 0), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 6 * mm),
            ]
        )
    )
    return [KeepTogether([table])]
