"""Score sheets (blank or filled in) and the table assignment list of a series, as PDF.

A *score sheet* is one A4 page per table laid out like a DSkV list: one numbered row per
game (36 at a 3-table, 48 at a 4-table, or the tournament's setting) with the dealer's cell
shaded and marked, the game, its value and score, one column per seat for the running
totals, and the Seeger-Fabian summary block at the foot (game points, won × 50,
lost × −50, others' lost × 40/30, total; rules §2) with the tournament's own bonus numbers.
Without list scoring (or under `na`) the foot is a plain block: won, lost, total.

A *blank* sheet is pre-filled with the tournament, series, table and the seats' names. A
*filled* sheet adds the entered games and the summary from `sheets.selectors.table_sheet`; nothing
here computes a score. As on the HTML sheet, a game entered at the table and not yet
confirmed is marked "*" (*provisional*), and one the two copies of a double-entry sheet
disagree on "≠" (*disputed*): its score is printed in brackets and in no running total,
because it counts nowhere until the director settles it. A legend explains the marks.

Everything that is the same on every sheet of a table size (grid, row numbers, dealer marks,
labels) is drawn once as a PDF form and reused, so that the 500 sheets of a 2,000-player
series render in a few seconds.

The *assignment list* is what a hall needs: every table with its seats and players (and,
given `standings_url`, the public standings' QR code), and every player A–Z by surname with
their table and seat.

Given `link_url` (token → absolute address, from the view's request), a blank sheet also
prints its table's *link* for entry on a phone as a QR code (two under double entry) at the
left of the summary block, as does the director's copy of the assignment list (a page of
codes per table; the hall's list never does). The codes are drawn as vector squares and
carry the address as a clickable link too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, PageBreak

from tournaments.exporters.base_pdf import PdfDocument
from tournaments.exporters.pdf_styles import (
    FONT,
    FONT_BOLD,
    GREY,
    HEAD_FILL,
    ROUND,
    THIN,
    fit,
    shrink,
)
from tournaments.exporters.qr import draw_qr
from tournaments.formats import describe, public_player_name
from tournaments.models import RuleSet, Seat, Series, Table, Tournament
from tournaments.sheets.selectors import SeatSummary, SheetRow, table_sheet

DEALER_FILL = colors.Color(0.86, 0.86, 0.86)

# Vertical budget of a sheet; the game rows share what is left (up to ROW_MAX each).
HEAD = 8 * mm
COLUMN_HEAD = 8.5 * mm
GAP = 1.5 * mm
SUMMARY_ROW = 4.6 * mm
SIGNATURE_ROW = 6.5 * mm
# The notes under the signature row of a filled sheet (penalties, why it closed short).
NOTE_SIZE = 6.5
NOTE_LINE = 3 * mm
ROW_MAX = 6.5 * mm
# Column widths; the game description takes the rest.
NUMBER_W = 7 * mm
VALUE_W = 10 * mm
SCORE_W = 12 * mm
SEAT_W = {3: 29 * mm, 4: 25 * mm, 5: 21 * mm}
# rules §3.6: the mark of the second seat without cards at a 5-table.
OUT_MARK = "–"
# rules §3.4 (NA law 15 read literally), printed on every NA sheet.
NULL_OVERBID_NOTE = _lazy(
    "Overbid null: charged at the next multiple of its value that reaches the bid "
    "(bid 30 on a null of 20: −40; rules §3.4)"
)


@dataclass
class SheetPage:
    """What one page shows: the table and its seats, and for a filled sheet its games."""

    series_number: int
    table: Table
    names: dict[int, str]
    length: int
    rows: list[SheetRow] = field(default_factory=list)
    summary: dict[int, SeatSummary] | None = None
    # (label, address) of the table's phone links, printed as QR codes on a blank sheet.
    links: list[tuple[str, str]] = field(default_factory=list)
    # Paragraphs under the signature row of a filled sheet, each wrapped to the full width.
    notes: list[str] = field(default_factory=list)

    @property
    def filled(self) -> bool:
        return self.summary is not None


@dataclass(frozen=True)
class _Layout:
    """Where everything of a sheet is, for one table size and length (points, bottom-left)."""

    width: float
    height: float
    size: int
    length: int
    summary_rows: int
    note_lines: int = 0

    @property
    def seat_w(self) -> float:
        return SEAT_W[self.size]

    @property
    def x_game(self) -> float:
        return NUMBER_W

    @property
    def x_value(self) -> float:
        return self.width - self.size * self.seat_w - SCORE_W - VALUE_W

    @property
    def x_score(self) -> float:
        return self.x_value + VALUE_W

    def x_seat(self, seat: int) -> float:
        return self.x_score + SCORE_W + (seat - 1) * self.seat_w

    @property
    def y_rows(self) -> float:
        """Top of the first game row."""
        return self.height - HEAD - COLUMN_HEAD

    @property
    def summary_height(self) -> float:
        return self.summary_rows * SUMMARY_ROW + SIGNATURE_ROW + self.notes_height

    @property
    def notes_height(self) -> float:
        return self.note_lines * NOTE_LINE + (1.5 * mm if self.note_lines else 0)

    @property
    def row_h(self) -> float:
        room = self.y_rows - GAP - self.summary_height
        return min(ROW_MAX, room / self.length)

    def y_row(self, number: int) -> float:
        """Bottom of game row `number`."""
        return self.y_rows - number * self.row_h

    @property
    def y_summary(self) -> float:
        """Top of the summary block."""
        return self.y_row(self.length) - GAP


def table_links(table: Table, link_url: Callable[[str], str] | None) -> list[tuple[str, str]]:
    """(label, address) of a table's phone links: the second keeper's under double entry."""
    if link_url is None:
        return []
    tokens = [(_("List keeper"), table.entry_token)]
    if table.series.tournament.double_entry:
        tokens = [
            (_("List keeper 1"), table.entry_token),
            (_("List keeper 2"), table.entry_token_2),
        ]
    return [(label, link_url(token)) for label, token in tokens if token]


class _SheetFlowable(Flowable):
    """One sheet: fills the frame, so that each sheet is one page."""

    def __init__(self, document: ScoreSheetsPdf, page: SheetPage):
        super().__init__()
        self.document = document
        self.page = page

    def wrap(self, available_width, available_height):
        # A hair under the frame's height so that the frame never rejects it for rounding.
        self.width, self.height = available_width, available_height - 0.01
        return self.width, self.height

    def draw(self):
        self.document.draw_sheet(self.canv, self.page, self.width, self.height)


class ScoreSheetsPdf(PdfDocument):
    """Score sheets of one or more tables, one page each (`blank` or `filled`)."""

    margin = 8 * mm

    def __init__(self, tournament: Tournament, pages: list[SheetPage], *, filename: str):
        super().__init__(tournament)
        self.pages = pages
        self.filename = filename
        self._forms: dict[tuple, str] = {}

    @classmethod
    def blank(
        cls,
        series: Series,
        *,
        link_url: Callable[[str], str] | None = None,
        tables: QuerySet[Table] | None = None,
        filename: str = "",
    ) -> ScoreSheetsPdf:
        """A blank sheet for every table of the series (or only `tables`, some of them: one
        table's, a venue's), with its seats' names (and the QR codes of its phone links,
        given `link_url`)."""
        tournament = series.tournament
        seats = Seat.objects.select_related("player").order_by("number")
        tables = series.tables.all() if tables is None else tables.filter(series=series)
        tables = tables.order_by("number").prefetch_related(Prefetch("seats", seats))
        pages = [
            SheetPage(
                series_number=series.number,
                table=table,
                names={seat.number: seat.player.name for seat in table.seats.all()},
                length=tournament.games_per_series(table.size),
                links=table_links(table, link_url),
            )
            for table in tables
        ]
        return cls(
            tournament,
            pages,
            filename=filename or f"{tournament.slug}-series-{series.number}-sheets.pdf",
        )

    @classmethod
    def filled(cls, table: Table, *, initials: bool = False) -> ScoreSheetsPdf:
        """The sheet of one table as entered, with the summary block filled in; `initials`:
        the public's copy where the club shows players not listed by initials."""
        sheet = table_sheet(table)
        page = SheetPage(
            series_number=table.series.number,
            table=table,
            names={
                seat.number: public_player_name(seat.player, initials=initials)
                for seat in sheet.seats
            },
            length=len(sheet.rows),
            rows=sheet.rows,
            summary={line.seat: line for line in sheet.summary},
        )
        page.notes = cls.notes(page)
        tournament = table.series.tournament
        filename = f"{tournament.slug}-series-{table.series.number}-table-{table.number}.pdf"
        return cls(tournament, [page], filename=filename)

    @staticmethod
    def notes(page: SheetPage) -> list[str]:
        """What a filled sheet states under its signature row: each seat's penalties (in
        its game points) and, for a sheet closed short, after how many games and why."""
        notes = []
        penalties = "; ".join(
            _("seat %(seat)s: %(points)s") % {"seat": seat, "points": line.penalties}
            for seat, line in sorted(page.summary.items())
            if line.penalties
        )
        if penalties:
            notes.append(_("Penalties (in the game points): %(list)s") % {"list": penalties})
        table = page.table
        if table.closed and table.closed_short:
            played = sum(1 for row in page.rows if row.game is not None)
            notes.append(
                _("Closed short after %(played)s of %(n)s games: %(reason)s")
                % {"played": played, "n": page.length, "reason": table.closed_short}
            )
        return notes

    @property
    def title(self) -> str:
        return _("Score sheet") if len(self.pages) == 1 else _("Score sheets")

    def story(self) -> list:
        self._forms = {}  # forms belong to one PDF: a second render draws them again
        story = []
        for page in self.pages:
            if story:
                story.append(PageBreak())
            story.append(_SheetFlowable(self, page))
        return story

    # ----------------------------------------------------------------------------------
    # Drawing
    # ----------------------------------------------------------------------------------

    @property
    def list_scoring(self) -> bool:
        return self.tournament.uses_list_points

    def rule_notes(self) -> list[str]:
        """The rules every sheet of the tournament states in its head (a ramsch variant is
        in every PDF's subtitle, `base_pdf.PdfDocument.subtitle`)."""
        return [str(NULL_OVERBID_NOTE)] if self.tournament.rules == RuleSet.NA else []

    def others_bonus(self, size: int) -> int:
        t = self.tournament
        return t.bonus_others_4 if size == 4 else t.bonus_others_3

    def summary_labels(self, size: int) -> list[tuple[str, bool]]:
        """(label, split cell for count and points) per row of the foot, total last."""
        t = self.tournament
        if self.list_scoring:
            return [
                (_("Game points"), False),
                (_("Won games × %(bonus)s") % {"bonus": t.bonus_won}, True),
                (_("Lost games × −%(bonus)s") % {"bonus": t.bonus_lost}, True),
                (
                    _("Games lost by the others × %(bonus)s") % {"bonus": self.others_bonus(size)},
                    True,
                ),
                (_("Total (list points)"), False),
            ]
        return [(_("Won games"), False), (_("Lost games"), False), (_("Total"), False)]

    def draw_sheet(self, canvas, page: SheetPage, width: float, height: float):
        table = page.table
        labels = self.summary_labels(table.size)
        notes = [line for note in page.notes for line in simpleSplit(note, FONT, NOTE_SIZE, width)]
        layout = _Layout(width, height, table.size, page.length, len(labels), len(notes))
        key = (layout, tuple(labels))
        name = self._forms.get(key)
        if name is None:
            name = self._forms[key] = f"sheet{len(self._forms)}"
            canvas.beginForm(name, 0, 0, width, height)
            self._draw_grid(canvas, layout, table, labels)
            canvas.endForm()
        canvas.doForm(name)
        self._draw_names(canvas, layout, page)
        if page.filled:
            self._draw_games(canvas, layout, page)
            self._draw_summary(canvas, layout, page)
            self._draw_legend(canvas, layout, page)
            self._draw_notes(canvas, layout, notes)
        elif page.links:
            self._draw_links(canvas, layout, page, labels)

    def _draw_links(self, canvas, layout: _Layout, page: SheetPage, labels):
        """The phone links' QR codes in the free corner left of the summary labels."""
        widest = max(pdfmetrics.stringWidth(label, FONT_BOLD, 7) for label, _split in labels)
        room = layout.x_seat(1) - 1.5 * mm - widest - 4 * mm
        caption = 3 * mm
        gap = 2 * mm
        count = len(page.links)
        size = min(layout.summary_height - caption - 1 * mm, (room - gap * (count - 1)) / count)
        if size < 12 * mm:
            return  # no room for a code that a phone can read
        top = layout.y_summary - 0.5 * mm
        canvas.setFont(FONT, 5.5)
        canvas.setFillColor(GREY)
        for index, (label, url) in enumerate(page.links):
            x = index * (size + gap)
            draw_qr(canvas, url, x, top - size, size)
            canvas.setFillColor(GREY)
            canvas.drawString(
                x, top - size - caption + 0.8 * mm, fit(label + " · " + _("phone"), size, size=5.5)
            )

    def _draw_grid(self, canvas, layout: _Layout, table: Table, labels):
        """Everything that every sheet of this size and length has in common."""
        w, size, rh = layout.width, layout.size, layout.row_h
        top_rows, bottom_rows = layout.y_rows, layout.y_row(layout.length)
        head_top = layout.height - HEAD
        x_seats = layout.x_seat(1)
        mark = pgettext("dealer mark on the score sheet", "D")

        # The head: series and table are per page; the legend is the same everywhere.
        canvas.setFont(FONT, 6.5)
        canvas.setFillColor(GREY)
        canvas.drawRightString(
            w,
            head_top + 2.4 * mm,
            _("%(mark)s = dealer · seat 1 deals first") % {"mark": mark}
            + (" · " + _("at a 4-table the dealer sits out") if size == 4 else "")
            + (
                " · "
                + _("at a 5-table the dealer and the seat marked %(out)s sit out (rules §3.6)")
                % {"out": OUT_MARK}
                if size == 5
                else ""
            ),
        )
        notes = self.rule_notes()
        if notes:
            title_w = pdfmetrics.stringWidth("Series 99 · Table 999", FONT_BOLD, 12) + 4 * mm
            canvas.drawRightString(
                w, head_top + 5.3 * mm, fit(" · ".join(notes), w - title_w, size=6.5)
            )

        # Column heads.
        canvas.setFillColor(HEAD_FILL)
        canvas.rect(0, top_rows, w, COLUMN_HEAD, stroke=0, fill=1)
        canvas.setFillColor(colors.black)
        canvas.setFont(FONT_BOLD, 7)
        text_y = top_rows + COLUMN_HEAD / 2 - 2.5
        canvas.drawCentredString(NUMBER_W / 2, text_y, _("No."))
        canvas.drawString(layout.x_game + 1.5 * mm, text_y, _("Game"))
        canvas.drawCentredString(layout.x_value + VALUE_W / 2, text_y, _("Value"))
        canvas.drawCentredString(layout.x_score + SCORE_W / 2, text_y, _("Score"))
        canvas.setFont(FONT, 6)
        canvas.setFillColor(GREY)
        for seat in range(1, size + 1):
            canvas.drawString(
                layout.x_seat(seat) + 1.2 * mm,
                top_rows + COLUMN_HEAD - 2.6 * mm,
                _("Seat %(seat)s") % {"seat": seat},
            )

        # Dealer marks: the dealer's cell of each row is shaded and marked.
        canvas.setFillColor(DEALER_FILL)
        for number in range(1, layout.length + 1):
            x = layout.x_seat(table.dealer_of(number))
            canvas.rect(x, layout.y_row(number), layout.seat_w, rh, stroke=0, fill=1)
            # rules §3.6: at a 5-table a second seat has no cards.
            for seat in table.sitting_out(number) - {table.dealer_of(number)}:
                x = layout.x_seat(seat)
                canvas.rect(x, layout.y_row(number), layout.seat_w, rh, stroke=0, fill=1)
        canvas.setFillColor(GREY)
        canvas.setFont(FONT, 5.5)
        for number in range(1, layout.length + 1):
            x = layout.x_seat(table.dealer_of(number))
            canvas.drawString(x + 0.8 * mm, layout.y_row(number) + rh / 2 - 2, mark)
            for seat in table.sitting_out(number) - {table.dealer_of(number)}:
                x = layout.x_seat(seat)
                canvas.drawString(x + 0.8 * mm, layout.y_row(number) + rh / 2 - 2, OUT_MARK)

        # Row numbers.
        canvas.setFillColor(colors.black)
        canvas.setFont(FONT, min(7, rh / mm * 1.6))
        for number in range(1, layout.length + 1):
            canvas.drawCentredString(
                NUMBER_W / 2, layout.y_row(number) + rh / 2 - 2.3, str(number)
            )

        # Row lines, darker after each round of deals.
        canvas.setLineWidth(0.25)
        canvas.setStrokeColor(THIN)
        for number in range(1, layout.length):
            if number % size:
                y = layout.y_row(number)
                canvas.line(0, y, w, y)
        canvas.setLineWidth(0.6)
        canvas.setStrokeColor(ROUND)
        for number in range(size, layout.length, size):
            y = layout.y_row(number)
            canvas.line(0, y, w, y)
        canvas.line(0, top_rows, w, top_rows)

        # Column lines and the frame around the rows.
        canvas.setLineWidth(0.4)
        for x in (layout.x_game, layout.x_value, layout.x_score, x_seats):
            canvas.line(x, bottom_rows, x, top_rows + COLUMN_HEAD)
        canvas.setLineWidth(0.6)
        for seat in range(2, size + 1):
            x = layout.x_seat(seat)
            canvas.line(x, bottom_rows, x, top_rows + COLUMN_HEAD)
        canvas.setLineWidth(0.9)
        canvas.rect(0, bottom_rows, w, top_rows + COLUMN_HEAD - bottom_rows, stroke=1, fill=0)

        # The summary block at the foot.
        y = layout.y_summary
        canvas.setFont(FONT, 7)
        canvas.setFillColor(colors.black)
        canvas.setStrokeColor(ROUND)
        for index, (label, split) in enumerate(labels):
            last = index == len(labels) - 1
            bottom = y - SUMMARY_ROW
            if last:
                canvas.setFillColor(HEAD_FILL)
                canvas.rect(0, bottom, w, SUMMARY_ROW, stroke=0, fill=1)
                canvas.setFillColor(colors.black)
                canvas.setFont(FONT_BOLD, 7)
            canvas.drawRightString(x_seats - 1.5 * mm, bottom + SUMMARY_ROW / 2 - 2.3, label)
            if split:
                canvas.setLineWidth(0.25)
                canvas.setStrokeColor(THIN)
                for seat in range(1, size + 1):
                    x = layout.x_seat(seat) + layout.seat_w * 0.35
                    canvas.line(x, bottom + 0.8 * mm, x, y - 0.8 * mm)
                canvas.setStrokeColor(ROUND)
            canvas.setLineWidth(0.4 if not last else 0.9)
            canvas.line(x_seats, bottom, w, bottom)
            y = bottom
        canvas.setFont(FONT, 7)
        canvas.drawRightString(x_seats - 1.5 * mm, y - SIGNATURE_ROW / 2 - 2.3, _("Signature"))
        y -= SIGNATURE_ROW
        canvas.setLineWidth(0.4)
        canvas.line(x_seats, y, w, y)
        for seat in range(1, size + 1):
            x = layout.x_seat(seat)
            canvas.line(x, y, x, layout.y_summary)
        canvas.line(w, y, w, layout.y_summary)
        canvas.setLineWidth(0.9)
        canvas.line(x_seats, layout.y_summary, w, layout.y_summary)

    def _draw_names(self, canvas, layout: _Layout, page: SheetPage):
        head_top = layout.height - HEAD
        canvas.setFillColor(colors.black)
        canvas.setFont(FONT_BOLD, 12)
        canvas.drawString(
            0,
            head_top + 2.2 * mm,
            _("Series %(series)s · Table %(table)s")
            % {"series": page.series_number, "table": page.table.number},
        )
        name_y = layout.y_rows + 1.6 * mm
        for seat in range(1, layout.size + 1):
            text, size = shrink(
                page.names.get(seat, ""),
                layout.seat_w - 2 * mm,
                font=FONT_BOLD,
                size=7.5,
                smallest=5,
            )
            canvas.setFont(FONT_BOLD, size)
            canvas.drawString(layout.x_seat(seat) + 1.2 * mm, name_y, text)

    def _draw_games(self, canvas, layout: _Layout, page: SheetPage):
        rh = layout.row_h
        description_w = layout.x_value - layout.x_game - 2.5 * mm
        for row in page.rows:
            game = row.game
            if game is None or row.number > layout.length:
                continue
            middle = layout.y_row(row.number) + rh / 2
            base = middle - 2.3
            canvas.setFillColor(GREY if row.disputed else colors.black)
            mark = self.row_mark(row)
            self._draw_description(
                canvas,
                f"{mark} {describe(game)}" if mark else describe(game),
                layout.x_game + 1.2 * mm,
                middle,
                description_w,
            )
            if game.declarer is None:
                continue
            canvas.setFont(FONT, 7)
            canvas.drawRightString(layout.x_score - 1.2 * mm, base, str(game.value))
            if row.disputed:
                # Counts nowhere until settled: no running total takes it.
                canvas.drawRightString(layout.x_seat(1) - 1.2 * mm, base, f"({game.score})")
                continue
            canvas.drawRightString(layout.x_seat(1) - 1.2 * mm, base, str(game.score))
            canvas.setFont(FONT_BOLD, 7)
            for seat in (game.declarer, game.ramsch_tie):  # a ramsch tie: both seats score
                total = row.running.get(seat) if seat is not None else None
                if total is not None:
                    canvas.drawRightString(
                        layout.x_seat(seat) + layout.seat_w - 1.5 * mm, base, str(total)
                    )

    @staticmethod
    def row_mark(row: SheetRow) -> str:
        if row.disputed:
            return "≠"
        if row.game is not None and row.game.provisional:
            return "*"
        return ""

    def _draw_legend(self, canvas, layout: _Layout, page: SheetPage):
        """What "*" and "≠" mean, in the free corner left of the summary labels."""
        if not any(self.row_mark(row) for row in page.rows):
            return
        labels = self.summary_labels(layout.size)
        widest = max(pdfmetrics.stringWidth(label, FONT_BOLD, 7) for label, _split in labels)
        width = layout.x_seat(1) - 1.5 * mm - widest - 4 * mm
        text = _(
            "Games marked * were entered at the table and are provisional until the director "
            "confirms the sheet; games marked ≠ differ between the two copies and do not count "
            "yet."
        )
        size = 6
        lines = simpleSplit(text, FONT, size, width)
        canvas.setFont(FONT, size)
        canvas.setFillColor(colors.black)
        y = layout.y_summary - 2.5 * mm
        for line in lines:
            canvas.drawString(0, y, line)
            y -= size * 1.2

    @staticmethod
    def _draw_description(canvas, text: str, x: float, middle: float, width: float):
        """One line if it fits at 6 pt or more, else two smaller lines (cut if need be)."""
        line, size = shrink(text, width, size=7, smallest=6)
        if pdfmetrics.stringWidth(line, FONT, size) <= width and not line.endswith("…"):
            canvas.setFont(FONT, size)
            canvas.drawString(x, middle - 2.3, line)
            return
        lines = simpleSplit(text, FONT, 5.2, width)
        if len(lines) > 2:
            lines = [lines[0], fit(" ".join(lines[1:]), width, size=5.2)]
        canvas.setFont(FONT, 5.2)
        canvas.drawString(x, middle + 0.6, lines[0])
        if len(lines) > 1:
            canvas.drawString(x, middle - 5.0, lines[1])

    def _draw_summary(self, canvas, layout: _Layout, page: SheetPage):
        y = layout.y_summary
        canvas.setFillColor(colors.black)
        for seat in range(1, layout.size + 1):
            line = page.summary.get(seat)
            if line is None:
                continue
            if self.list_scoring:
                cells = [
                    (None, line.game_points),
                    (line.won, line.won_bonus),
                    (line.lost, line.lost_bonus),
                    (line.others_lost, line.others_bonus),
                    (None, line.list_points),
                ]
            else:
                cells = [(None, line.won), (None, line.lost), (None, line.list_points)]
            x = layout.x_seat(seat)
            right = x + layout.seat_w - 1.5 * mm
            for index, (count, points) in enumerate(cells):
                base = y - (index + 1) * SUMMARY_ROW + SUMMARY_ROW / 2 - 2.3
                last = index == len(cells) - 1
                canvas.setFont(FONT_BOLD if last else FONT, 7.5 if last else 7)
                if count is not None:
                    canvas.drawCentredString(x + layout.seat_w * 0.175, base, str(count))
                canvas.drawRightString(right, base, str(points))

    @staticmethod
    def _draw_notes(canvas, layout: _Layout, lines: list[str]):
        """The notes' lines under the signature row, across the whole width: nothing cut
        (the rows above are made lower to leave them room)."""
        if not lines:
            return
        canvas.setFont(FONT, NOTE_SIZE)
        canvas.setFillColor(colors.black)
        y = layout.y_summary - layout.summary_height + layout.notes_height - 1.5 * mm
        for line in lines:
            y -= NOTE_LINE
            canvas.drawString(0, y + 0.8 * mm, line)
