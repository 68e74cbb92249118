"""The results list (tournament standings) as PDF.

One row per player in the order of `standings.selectors.tournament_standings` — the figures of the
HTML standings page and the workbook — with a column per series, the header row repeated on
every page and "page n of m" in the footer. Without list scoring the points are the plain
game points, as the selector gives them.

As on the HTML standings, a row that counts games entered at a table and not yet confirmed
(or has a disputed game, which counts nowhere yet) is *provisional*: its points carry a "*"
and the legend follows the list. Given `standings_url`, the list ends with the public
standings' QR code (`qr.standings_link`). The heading counts the closed series and names
those still in play.
"""

from __future__ import annotations

import html

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, TableStyle

from tournaments.exporters.base_pdf import PdfDocument
from tournaments.exporters.pdf_styles import BODY, FONT, FONT_BOLD, HEAD_ROW, HEADING, THIN, fit
from tournaments.exporters.qr import standings_link
from tournaments.formats import (
    CLOSED_SHORT_LEGEND,
    FINAL_RESULTS,
    PROVISIONAL_LEGEND,
    public_name,
)
from tournaments.models import Category, Series, Tournament
from tournaments.standings.selectors import (
    CLOSED_SHORT_MARK,
    closed_short_notes,
    tournament_standings,
)

RANK_W = 9 * mm
SERIES_W = 13 * mm
COUNT_W = 11 * mm
POINTS_W = 16 * mm
SIZE = 8.5


class ResultsPdf(PdfDocument):
    """Tournament standings: rank, player, club, team, per series, won, lost, points."""

    def __init__(
        self,
        tournament: Tournament,
        *,
        category: str | None = None,
        standings_url: str | None = None,
        initials: bool = False,
    ):
        super().__init__(tournament)
        # The public's copy where the club shows players not listed by initials.
        self.initials = initials
        self.category = category or None
        self.standings_url = standings_url
        series = list(tournament.series.order_by("number").values_list("number", "status"))
        self.series_numbers = [number for number, _status in series]
        self.in_play = [number for number, status in series if status == Series.Status.OPEN]
        # Wide tournaments turn the page rather than squeeze the names.
        self.landscape = len(self.series_numbers) > 5

    @property
    def filename(self) -> str:
        suffix = f"-{self.category}" if self.category else ""
        return f"{self.tournament.slug}-results{suffix}.pdf"

    @property
    def title(self) -> str:
        if self.category:
            return _("Results – %(category)s") % {"category": Category(self.category).label}
        return _("Results")

    def story(self) -> list:
        standings = tournament_standings(self.tournament, category=self.category)
        story = [Paragraph(self.heading(), HEADING)]
        if not standings:
            return [*story, Paragraph(_("No results yet."), BODY), *self.link()]
        with_team = any(row.team for row in standings)
        numbers = self.series_numbers
        fixed = RANK_W + len(numbers) * SERIES_W + 2 * COUNT_W + POINTS_W
        rest = self.frame_width - fixed
        shares = (0.45, 0.32, 0.23) if with_team else (0.55, 0.45)
        text_w = [rest * share for share in shares]

        header = [
            "#",
            _("Player"),
            _("Club"),
            *([_("Team")] if with_team else []),
            *(_("S%(n)s") % {"n": n} for n in numbers),
            _("Won"),
            _("Lost"),
            _("Points"),
        ]
        rows = [header]
        for row in standings:
            name = public_name(row.player_name, listed=row.player_listed, initials=self.initials)
            texts = [name, row.club, *([row.team] if with_team else [])]
            rows.append(
                [
                    str(row.rank),
                    *(
                        fit(text, width - 6, font=FONT_BOLD if i == 0 else FONT, size=SIZE)
                        for i, (text, width) in enumerate(zip(texts, text_w, strict=True))
                    ),
                    *(str(row.series[n].list_points) if n in row.series else "–" for n in numbers),
                    str(row.won),
                    str(row.lost),
                    str(row.list_points)
                    + ("*" if row.provisional else "")
                    + (f" {CLOSED_SHORT_MARK}" if row.closed_short else ""),
                ]
            )
        widths = [
            RANK_W,
            *text_w,
            *([SERIES_W] * len(numbers)),
            COUNT_W,
            COUNT_W,
            POINTS_W,
        ]
        first_number = 1 + len(text_w)
        table = LongTable(rows, colWidths=widths, repeatRows=1)
        style = TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, SIZE),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
                ("FONT", (1, 1), (1, -1), FONT_BOLD, SIZE),
                ("FONT", (-1, 1), (-1, -1), FONT_BOLD, SIZE),
                *HEAD_ROW,
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ALIGN", (first_number, 0), (-1, -1), "RIGHT"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.0),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
        # A faint line every five places helps the eye along a long list.
        for index in range(5, len(rows), 5):
            style.add("LINEBELOW", (0, index), (-1, index), 0.3, THIN)
        table.setStyle(style)
        story.append(table)
        if any(row.provisional for row in standings):
            story.append(Paragraph(html.escape(str(PROVISIONAL_LEGEND)), BODY))
        story += closed_short_legend(standings)
        return story + self.link()

    def link(self) -> list:
        return standings_link(self.standings_url)

    def heading(self) -> str:
        closed = len(self.series_numbers) - len(self.in_play)
        if self.tournament.status == Tournament.Status.FINISHED:
            text = str(FINAL_RESULTS)
        elif not self.in_play:
            text = _("Results after %(count)s series") % {"count": closed}
        elif closed:
            text = _("Results after %(count)s series (series %(numbers)s in play)") % {
                "count": closed,
                "numbers": ", ".join(map(str, self.in_play)),
            }
        else:
            text = _("Results (series %(numbers)s in play)") % {
                "numbers": ", ".join(map(str, self.in_play))
            }
        if not self.tournament.uses_list_points:
            text += " · " + _("game points")
        return text


def closed_short_legend(standings) -> list:
    """Paragraphs: what the mark of a row with a sheet closed short means, and each such
    sheet's note (`standings.selectors.closed_short_notes`); nothing without one."""
    notes = closed_short_notes(standings)
    if not notes:
        return []
    return [
        Paragraph(html.escape(str(CLOSED_SHORT_LEGEND)), BODY),
        *(Paragraph(html.escape(note.text), BODY) for note in notes),
    ]
