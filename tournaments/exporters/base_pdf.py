"""The base of every PDF: A4 pages with the tournament's header and a "page n of m" footer.

A subclass sets `title` and builds the `story()` (platypus flowables); `render()` returns the
PDF as bytes. Fonts, colours and paragraph styles are in `pdf_styles`.

Terms: the *header* is the band above the frame (tournament name, date and club on the
left, the document's title on the right); the *footer* is the band below it. "Page n of m"
needs the page count before the last page is known, so the canvas keeps every page until
the document is saved and only then draws the footers (`NumberedCanvas`).
"""

from __future__ import annotations

import io

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from tournaments.exporters import PDF, Export
from tournaments.exporters.pdf_styles import (
    FONT,
    FONT_BOLD,
    GREY,
    LINE,
    fit,
    register_fonts,
    shrink,
)
from tournaments.models import Tournament

HEADER = 13 * mm
FOOTER = 7 * mm


def _numbered_canvas(document: PdfDocument):
    """A canvas class that holds its pages back so that each footer can say "of m"."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._page_states = []

        def showPage(self):  # noqa: N802 (reportlab's name)
            self._page_states.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            pages = len(self._page_states)
            for state in self._page_states:
                self.__dict__.update(state)
                document.draw_footer(self, self._pageNumber, pages)
                super().showPage()
            super().save()

    return NumberedCanvas


class PdfDocument:
    """An A4 PDF of one tournament: subclasses set `title` and `filename` and implement
    `story()`."""

    landscape = False
    margin = 12 * mm

    def __init__(self, tournament: Tournament):
        self.tournament = tournament

    @property
    def title(self) -> str:
        raise NotImplementedError

    filename: str  # the download's file name: set, or a property, in each subclass

    def export(self) -> Export:
        return Export(self.filename, PDF, self.render())

    @property
    def pagesize(self) -> tuple[float, float]:
        return landscape(A4) if self.landscape else A4

    @property
    def frame_width(self) -> float:
        return self.pagesize[0] - 2 * self.margin

    @property
    def frame_height(self) -> float:
        return self.pagesize[1] - 2 * self.margin - HEADER - FOOTER

    def story(self) -> list:
        raise NotImplementedError

    def render(self) -> bytes:
        register_fonts()
        buffer = io.BytesIO()
        # An unpadded frame: the sheets need every millimetre of the page.
        frame = Frame(
            self.margin,
            self.margin + FOOTER,
            self.frame_width,
            self.frame_height,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        document = BaseDocTemplate(
            buffer,
            pagesize=self.pagesize,
            pageTemplates=[PageTemplate(frames=[frame], onPage=self.draw_header)],
            title=f"{self.tournament.name} – {self.title}",
            author=self.tournament.club.name,
            creator="skatclub",
        )
        document.build(self.story(), canvasmaker=_numbered_canvas(self))
        return buffer.getvalue()

    def subtitle(self) -> str:
        """Date and club under the tournament's name."""
        parts = [date_format(self.tournament.date, "SHORT_DATE_FORMAT"), self.tournament.club.name]
        if self.tournament.ramsch_variant_shown:
            # A ramsch variant that is on is shown on every output (issue 14).
            parts.append(_("Ramsch: %(rule)s") % {"rule": self.tournament.ramsch_variant_shown})
        return " · ".join(p for p in parts if p)

    def draw_header(self, canvas: Canvas, _doc=None):
        width, height = self.pagesize
        left = self.margin
        top = height - self.margin
        right = width - self.margin
        canvas.saveState()
        title_width = pdfmetrics.stringWidth(self.title, FONT_BOLD, 11)
        canvas.setFont(FONT_BOLD, 11)
        canvas.drawRightString(right, top - 11, self.title)
        name, size = shrink(
            self.tournament.name,
            right - left - title_width - 8 * mm,
            font=FONT_BOLD,
            size=12,
            smallest=8,
        )
        canvas.setFont(FONT_BOLD, size)
        canvas.drawString(left, top - 11, name)
        canvas.setFont(FONT, 8)
        canvas.setFillColor(GREY)
        canvas.drawString(left, top - 21, self.subtitle())
        canvas.setStrokeColor(LINE)
        canvas.setLineWidth(0.6)
        canvas.line(left, top - HEADER + 3, right, top - HEADER + 3)
        canvas.restoreState()

    def draw_footer(self, canvas: Canvas, page: int, pages: int):
        width, _height = self.pagesize
        left, right, y = self.margin, width - self.margin, self.margin
        canvas.saveState()
        canvas.setStrokeColor(LINE)
        canvas.setLineWidth(0.6)
        canvas.line(left, y + FOOTER - 5, right, y + FOOTER - 5)
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(GREY)
        canvas.drawString(left, y, fit(f"{self.tournament.name} · {self.title}", width / 2))
        canvas.drawRightString(
            right, y, _("Page %(page)s of %(pages)s") % {"page": page, "pages": pages}
        )
        canvas.restoreState()
