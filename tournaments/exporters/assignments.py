"""The table assignment list of a series, as PDF (moved out of `exporters.sheets`).

What a hall needs: every table with its seats and players, and every player A–Z by surname
with their table and seat; given `standings_url`, the public standings' QR code.

The *hall's list* is posted where everyone reads it, so it never carries a table's private
entry link: whoever scans one can key games for that table. The *director's copy*
(`director=True`) adds, given `link_url` (token → absolute address, from the view's
request), a page of QR codes per table for entry on a phone (two under double entry).
"""

from __future__ import annotations

import html
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, PageBreak, Paragraph, TableStyle

from tournaments.exporters.base_pdf import PdfDocument
from tournaments.exporters.pdf_styles import (
    BODY,
    FONT,
    FONT_BOLD,
    HEAD_ROW,
    HEADING,
    SMALL,
    SUBHEADING,
    THIN,
    fit,
    shrink,
)
from tournaments.exporters.qr import QrFlowable as _QrFlowable
from tournaments.exporters.qr import standings_link
from tournaments.exporters.sheets import table_links
from tournaments.formats import surname_key
from tournaments.models import Seat, Series, Table

# --------------------------------------------------------------------------------------
# Table assignment list
# --------------------------------------------------------------------------------------


class AssignmentsPdf(PdfDocument):
    """Tables of a series with their seats, then every player alphabetically."""

    QR = 34 * mm

    def __init__(
        self,
        series: Series,
        *,
        link_url: Callable[[str], str] | None = None,
        standings_url=None,
        director: bool = False,
    ):
        super().__init__(series.tournament)
        self.series, self.standings_url, self.director = series, standings_url, director
        # The private links only ever reach the director's copy.
        self.link_url = link_url if director else None

    @property
    def title(self) -> str:
        if self.director:
            return _("Table assignments (director's copy, not for the hall)")
        return _("Table assignments")

    @property
    def filename(self) -> str:
        copy = "-director" if self.director else ""
        return f"{self.tournament.slug}-series-{self.series.number}-tables{copy}.pdf"

    def _seats(self) -> list[Seat]:
        return list(
            Seat.objects.filter(series=self.series)
            .select_related("table", "player__club")
            .order_by("table__number", "number")
        )

    def _table_style(self, *, banded_by: list[int], numbers: tuple[int, int]) -> TableStyle:
        commands = [
            ("FONT", (0, 0), (-1, -1), FONT, 9),
            ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8.5),
            *HEAD_ROW,
            ("ALIGN", (numbers[0], 0), (numbers[1], -1), "RIGHT"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.6),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ]
        for row in banded_by:
            commands.append(("LINEABOVE", (0, row), (-1, row), 0.6, THIN))
        return TableStyle(commands)

    def story(self) -> list:
        seats = self._seats()
        width = self.frame_width
        heading = _("Series %(series)s") % {"series": self.series.number}
        tables_title = _("Tables")
        story = [Paragraph(f"{heading} — {tables_title}", HEADING)]
        if not seats:
            return [*story, Paragraph(_("The series has not been drawn yet."), BODY)]

        # By table: the table number on its first seat only, a line between tables. Names,
        # clubs and teams share the width after the two number columns; a long one is set
        # smaller (down to 6.5 pt) before it is cut.
        rest = width - 28 * mm
        text_w = (rest * 0.37, rest * 0.33, rest * 0.30)
        rows = [[_("Table"), _("Seat"), _("Player"), _("Club"), _("Team")]]
        starts = []
        smaller = []
        previous = None
        for seat in seats:
            first = seat.table_id != previous
            if first and previous is not None:
                starts.append(len(rows))
            previous = seat.table_id
            texts = (
                seat.player.name,
                seat.player.club.name if seat.player.club else "",
                seat.player.team,
            )
            cells = []
            for column, (text, text_width) in enumerate(zip(texts, text_w, strict=True), 2):
                text, size = shrink(text, text_width - 8, size=9, smallest=6.5)
                if size < 9:
                    smaller.append(("FONTSIZE", (column, len(rows)), (column, len(rows)), size))
                cells.append(text)
            rows.append([str(seat.table.number) if first else "", str(seat.number), *cells])
        table = LongTable(rows, colWidths=[14 * mm, 14 * mm, *text_w], repeatRows=1)
        style = self._table_style(banded_by=starts, numbers=(0, 1))
        style.add("FONT", (0, 1), (0, -1), FONT_BOLD, 10)
        for command in smaller:
            style.add(*command)
        table.setStyle(style)
        story += [table, *standings_link(self.standings_url)]

        # By player, A–Z by surname: where do I sit?
        by_name_title = _("Players A–Z")
        story += [PageBreak(), Paragraph(f"{heading} — {by_name_title}", HEADING)]
        by_name = sorted(seats, key=lambda s: (surname_key(s.player.name), s.player_id))
        name_w, club_w = width * 0.45, width * 0.55 - 32 * mm
        rows = [[_("Player"), _("Club"), _("Table"), _("Seat")]]
        starts = []
        initial = None
        for seat in by_name:
            letter = surname_key(seat.player.name)[0][:1]
            if initial is not None and letter != initial:
                starts.append(len(rows))
            initial = letter
            rows.append(
                [
                    fit(seat.player.name, name_w - 8, font=FONT_BOLD, size=9),
                    fit(seat.player.club.name if seat.player.club else "", club_w - 8, size=9),
                    str(seat.table.number),
                    str(seat.number),
                ]
            )
        table = LongTable(rows, colWidths=[name_w, club_w, 16 * mm, 16 * mm], repeatRows=1)
        style = self._table_style(banded_by=starts, numbers=(2, 3))
        style.add("FONT", (0, 1), (0, -1), FONT_BOLD, 9)
        style.add("FONT", (2, 1), (2, -1), FONT_BOLD, 10)
        table.setStyle(style)
        story.append(table)
        return story + self._links_story(seats, heading)

    def _links_story(self, seats: list[Seat], heading: str) -> list:
        """A page of QR codes, one cell per table: its number, players and phone link(s)."""
        links_title = _("Links for the phones")
        tables: dict[int, Table] = {}
        names: dict[int, list[str]] = {}
        for seat in seats:
            tables.setdefault(seat.table_id, seat.table)
            names.setdefault(seat.table_id, []).append(seat.player.name)
        for table in tables.values():
            table.series = self.series
        cells = []
        for table_id, table in tables.items():
            links = table_links(table, self.link_url)
            if not links:
                continue
            size = self.QR if len(links) == 1 else self.QR * 0.78
            codes = LongTable(
                [
                    [_QrFlowable(url, size) for _label, url in links],
                    [Paragraph(label, SMALL) for label, _url in links] if len(links) > 1 else [""],
                ],
                colWidths=[size + 2 * mm] * len(links),
            )
            codes.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0)]))
            cells.append(
                [
                    Paragraph(_("Table %(table)s") % {"table": table.number}, SUBHEADING),
                    codes,
                    Paragraph(html.escape(", ".join(names[table_id])), SMALL),
                ]
            )
        if not cells:
            return []
        columns = 3
        width = self.frame_width / columns
        grid = [cells[i : i + columns] for i in range(0, len(cells), columns)]
        grid[-1] += [""] * (columns - len(grid[-1]))
        table = LongTable(grid, colWidths=[width] * columns)
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.4, THIN),
                    ("TOPPADDING", (0, 0), (-1, -1), 4),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
                ]
            )
        )
        intro = _(
            "Whoever keeps the list at a table scans its code with a phone and enters the games "
            "there; no account is needed. Games entered so are provisional until the sheet is "
            "confirmed."
        )
        return [
            PageBreak(),
            Paragraph(f"{heading} — {links_title}", HEADING),
            Paragraph(intro, BODY),
            table,
        ]
