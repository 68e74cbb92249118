"""The prize list as PDF: per ranking (overall, each series, each category) the prize lines
with rank, winner, points and amount, then the pot and what remains for the club.

Every figure is `money.selectors.tournament_money` (which defines the pot and rounds the shares);
this module only lays it out. A prize whose rank has no player yet reads "no winner". Until
the tournament is finished the list says that it is provisional.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from tournaments.exporters.base_pdf import PdfDocument
from tournaments.exporters.pdf_styles import (
    BODY,
    FONT,
    FONT_BOLD,
    GREY,
    HEAD_ROW,
    HEADING,
    ROUND,
    SUBHEADING,
    THIN,
    fit,
)
from tournaments.formats import format_money, percent
from tournaments.models import Tournament
from tournaments.money.selectors import PrizeLine, tournament_money

RANK_W = 12 * mm
POINTS_W = 20 * mm
SHARE_W = 30 * mm
AMOUNT_W = 28 * mm
SIZE = 9.5


class PrizeListPdf(PdfDocument):
    """`PrizeListPdf(tournament).render()` → the prize list as PDF bytes."""

    def __init__(self, tournament: Tournament):
        super().__init__(tournament)
        self.money = tournament_money(tournament)

    @property
    def title(self) -> str:
        return _("Prize list")

    @property
    def filename(self) -> str:
        return f"{self.tournament.slug}-prizes.pdf"

    def amount(self, value) -> str:
        return format_money(value, self.tournament.currency)

    def story(self) -> list:
        money = self.money
        story = [Paragraph(_("Prizes"), HEADING)]
        if self.tournament.status != Tournament.Status.FINISHED:
            story.append(
                Paragraph(
                    _("Provisional: the tournament is not finished yet."),
                    BODY,
                )
            )
            story.append(Spacer(0, 2 * mm))
        if not money.prizes:
            story.append(Paragraph(_("No prize plan has been set."), BODY))
        for label, lines in money.prize_groups():
            story.append(KeepTogether([Paragraph(label, SUBHEADING), self.prize_table(lines)]))
        story.append(Spacer(0, 5 * mm))
        story.append(KeepTogether(self.totals()))
        return story

    def prize_table(self, lines: list[PrizeLine]) -> Table:
        name_w = self.frame_width - RANK_W - POINTS_W - SHARE_W - AMOUNT_W
        rows = [["#", _("Player"), _("Points"), _("Share of the pot"), _("Amount")]]
        for line in lines:
            rows.append(
                [
                    f"{line.rank}.",
                    fit(line.status, name_w - 6, font=FONT_BOLD, size=SIZE)
                    if line.awarded or line.tied
                    else _("no winner"),
                    "" if line.points is None else str(line.points),
                    percent(line.share) if line.share is not None else "",
                    self.amount(line.amount),
                ]
            )
        table = Table(rows, colWidths=[RANK_W, name_w, POINTS_W, SHARE_W, AMOUNT_W])
        style = TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, SIZE),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
                ("FONT", (1, 1), (1, -1), FONT_BOLD, SIZE),
                ("FONT", (-1, 1), (-1, -1), FONT_BOLD, SIZE),
                *HEAD_ROW,
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, THIN),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
        for index, line in enumerate(lines, start=1):
            if not line.awarded:
                style.add("TEXTCOLOR", (1, index), (1, index), GREY)
                style.add("FONT", (1, index), (1, index), FONT, SIZE)
        table.setStyle(style)
        return table

    def totals(self) -> list:
        money = self.money
        summary = money.summary
        rows = [
            [_("Entry fees"), self.amount(summary.entry_fees)],
            [_("Lost-game fees"), self.amount(summary.lost_game_fees)],
            [_("Pot"), self.amount(money.pot)],
            [_("Prize plan"), self.amount(money.prizes_planned)],
            [_("Remainder for the club"), self.amount(money.remainder)],
        ]
        label_w = 70 * mm
        table = Table(rows, colWidths=[label_w, AMOUNT_W], hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), FONT, SIZE),
                    ("FONT", (0, 2), (-1, 2), FONT_BOLD, SIZE),
                    ("FONT", (0, 4), (-1, 4), FONT_BOLD, SIZE),
                    ("LINEABOVE", (0, 2), (-1, 2), 0.6, ROUND),
                    ("LINEABOVE", (0, 4), (-1, 4), 0.6, ROUND),
                    ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                ]
            )
        )
        notes = [
            _(
                "The pot is every entry fee and every lost-game fee; table and card fees stay "
                "with the club. Shares of the pot are in whole cents; a cent left over by "
                "rounding goes to the higher-placed prize, so the shares never exceed the pot."
            )
        ]
        if money.remainder < 0:
            notes.append(
                _("The prizes exceed the pot by %(amount)s.")
                % {"amount": self.amount(-money.remainder)}
            )
        if money.unawarded:
            notes.append(
                _("%(amount)s of prizes have no winner and stay with the club.")
                % {"amount": self.amount(money.unawarded)}
            )
        return [
            Paragraph(_("Pot and prizes"), SUBHEADING),
            table,
            Spacer(0, 2 * mm),
            *(Paragraph(note, BODY) for note in notes),
        ]
