"""QR codes: in the PDFs drawn as vector squares, each also a clickable link, and on the
pages as SVG.

`draw_qr` draws one on a canvas (the score sheets' phone links), `QrFlowable` is one in a
story (the table list's page of links), and `standings_link` is the public standings'
address with its caption, at the end of the results list and of the hall's table list:
whoever scans it follows the standings live on a phone. Codes are made by
`tournaments.qr` (the pages' SVG too).
"""

from __future__ import annotations

import html

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, LongTable, Paragraph, TableStyle

from tournaments.exporters.pdf_styles import BODY
from tournaments.qr import qr_modules

STANDINGS_QR = 30 * mm
CAPTION = ParagraphStyle("qr-caption", parent=BODY, fontSize=7.5, leading=9)


def draw_qr(canvas, url: str, x: float, y: float, size: float):
    """A QR code of `url`, `size` wide with its bottom-left corner at (x, y), clickable.

    The dark runs of each row (`tournaments.qr.qr_modules`) are drawn in module units
    under one transform, so the path holds small integers."""
    modules, rows = qr_modules(url)
    cell = size / modules
    path = canvas.beginPath()
    for row, line in enumerate(rows):
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
