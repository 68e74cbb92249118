"""What every PDF looks like: the fonts, colours, paragraph styles and the head row of a
table, shared by `base_pdf` and every PDF exporter.

The bundled DejaVu Sans (tournaments/fonts, Bitstream Vera licence) is registered once,
when the first PDF is made or measured (`register_fonts`), so that every name prints:
ä ö ü ß ł é; a command that makes no PDF does not pay for reading the fonts. `fit` and
`shrink` measure a text in those fonts to fit a width.

Colours: `GREY` for secondary text, `LINE` for the header and footer rules, `HEAD_FILL` for
a table's head row, `THIN` for the faint lines between rows, `ROUND` for the strong ones
(under a head row, between rounds of a sheet).
"""

from __future__ import annotations

import functools
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"


@functools.cache
def register_fonts():
    """Register the bundled fonts with reportlab (once per process)."""
    pdfmetrics.registerFont(TTFont(FONT, FONT_DIR / "DejaVuSans.ttf"))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, FONT_DIR / "DejaVuSans-Bold.ttf"))
    pdfmetrics.registerFontFamily(
        FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD
    )


GREY = colors.Color(0.45, 0.45, 0.45)
LINE = colors.Color(0.55, 0.55, 0.55)

HEADING = ParagraphStyle("heading", fontName=FONT_BOLD, fontSize=13, leading=16, spaceAfter=6)
SUBHEADING = ParagraphStyle(
    "subheading", fontName=FONT_BOLD, fontSize=10.5, leading=13, spaceBefore=8, spaceAfter=4
)
BODY = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=7.5, leading=9)

HEAD_FILL = colors.Color(0.93, 0.93, 0.93)
THIN = colors.Color(0.62, 0.62, 0.62)
ROUND = colors.Color(0.25, 0.25, 0.25)

# A table's head row (TableStyle commands): shaded, with a strong line under it.
HEAD_ROW = (
    ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, ROUND),
)


def fit(text: str, width: float, *, font: str = FONT, size: float = 8) -> str:
    """`text` cut with an ellipsis so that it is at most `width` points wide at `size`."""
    register_fonts()
    text = str(text)
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def shrink(
    text: str, width: float, *, font: str = FONT, size: float = 8, smallest: float = 5.5
) -> tuple[str, float]:
    """A font size at which `text` fits `width` (down to `smallest`, then cut)."""
    register_fonts()
    text = str(text)
    natural = pdfmetrics.stringWidth(text, font, size)
    if natural <= width:
        return text, size
    fitting = size * width / natural
    if fitting >= smallest:
        return text, fitting
    return fit(text, width, font=font, size=smallest), smallest
