"""The tournament workbook (Excel): standings, each series, teams and every game.

Sheets: *Standings* (`selectors.tournament_standings`), *Series n* (`series_standings`),
*Teams* (`team_standings`) and *Games* (`games_of_tournament`: one row per game with its
declared fields and the values `services` stored). The same selectors feed the HTML pages
and the PDFs, so the totals agree everywhere; nothing here computes a score.

With `money=True` (the secretaries' download) and a fee or prize set, a *Money* sheet
follows the standings: one row per player with the figures of `selectors.tournament_money`,
its totals row and the pot. Amounts are written as exact Decimals in the format '#,##0.00'.

The workbook is written in openpyxl's write-only mode and the games are streamed from the
database in chunks, so memory does not grow with the number of games. Write-only sheets take
their frozen panes and column widths before the first row and their auto filter at the end.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from tournaments import selectors, services
from tournaments.models import (
    Category,
    GameType,
    RamschResult,
    Seat,
    Series,
    Table,
    Tournament,
    Trump,
)

# Points get a thousands separator; counts and the games' figures stay in Excel's General
# format, which shows integers as they are (and costs nothing per cell).
POINTS = "#,##0;-#,##0;0"
MONEY = "#,##0.00"
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="E8E8E8")
HEADER_ALIGNMENT = Alignment(vertical="center", wrap_text=True)


@dataclass(frozen=True)
class Column:
    title: str
    width: float
    number_format: str | None = None


class TournamentWorkbook:
    """`TournamentWorkbook(tournament).render()` → the .xlsx file as bytes."""

    chunk_size = 2000

    def __init__(self, tournament: Tournament, *, money: bool = False):
        self.tournament = tournament
        self.money = money

    def render(self) -> bytes:
        self.workbook = Workbook(write_only=True)
        standings = selectors.tournament_standings(self.tournament)
        series = list(self.tournament.series.order_by("number"))
        self.write_standings(standings, [s.number for s in series])
        if self.money:
            money = selectors.tournament_money(self.tournament)
            if money.has_money:
                self.write_money(money)
        for one in series:
            self.write_series(one)
        self.write_teams(selectors.team_standings(self.tournament, standings=standings))
        self.write_games()
        buffer = io.BytesIO()
        self.workbook.save(buffer)
        return buffer.getvalue()

    # ----------------------------------------------------------------------------------

    def sheet(self, title: str, columns: Sequence[Column]):
        """A write-only sheet with its header row, widths and frozen header."""
        ws = self.workbook.create_sheet(title=title[:31])
        for index, column in enumerate(columns, start=1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        ws.freeze_panes = "A2"
        header = []
        for column in columns:
            cell = WriteOnlyCell(ws, value=column.title)
            cell.font = HEADER_FONT
            cell.fill = HEADER_FILL
            cell.alignment = HEADER_ALIGNMENT
            header.append(cell)
        ws.append(header)
        return ws

    @staticmethod
    def finish(ws, columns: Sequence[Column], rows: int):
        """The auto filter over the header and `rows` data rows (written at the sheet's end)."""
        ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{rows + 1}"

    @staticmethod
    def formatted(ws, columns: Sequence[Column], values: Iterable) -> list:
        row = []
        for column, value in zip(columns, values, strict=True):
            if value == "":
                value = None  # an empty cell, not an empty string
            if column.number_format and value is not None:
                cell = WriteOnlyCell(ws, value=value)
                cell.number_format = column.number_format
                row.append(cell)
            else:
                row.append(value)
        return row

    # ----------------------------------------------------------------------------------

    def standing_columns(self, series_numbers: Sequence[int]) -> list[Column]:
        return [
            Column(_("Rank"), 7),
            Column(_("Player"), 28),
            Column(_("Club"), 26),
            Column(_("Team"), 18),
            *(Column(_("S%(n)s") % {"n": n}, 9, POINTS) for n in series_numbers),
            Column(_("Won"), 8),
            Column(_("Lost"), 8),
            Column(_("Others' lost"), 10),
            Column(_("Game points"), 11, POINTS),
            Column(_("Points"), 10, POINTS),
        ]

    def write_standings(self, standings, series_numbers: Sequence[int]):
        columns = self.standing_columns(series_numbers)
        ws = self.sheet(_("Standings"), columns)
        for row in standings:
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [
                        row.rank,
                        row.player_name,
                        row.club,
                        row.team,
                        *(
                            row.series[n].list_points if n in row.series else None
                            for n in series_numbers
                        ),
                        row.won,
                        row.lost,
                        row.others_lost,
                        row.game_points,
                        row.list_points,
                    ],
                )
            )
        self.finish(ws, columns, len(standings))

    def write_series(self, series: Series):
        columns = [
            Column(_("Rank"), 7),
            Column(_("Player"), 28),
            Column(_("Club"), 26),
            Column(_("Team"), 18),
            Column(_("Table"), 8),
            Column(_("Won"), 8),
            Column(_("Lost"), 8),
            Column(_("Others' lost"), 10),
            Column(_("Game points"), 11, POINTS),
            Column(_("Points"), 10, POINTS),
        ]
        ws = self.sheet(_("Series %(number)s") % {"number": series.number}, columns)
        standings = selectors.series_standings(series)
        for row in standings:
            result = row.series.get(series.number)
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [
                        row.rank,
                        row.player_name,
                        row.club,
                        row.team,
                        result.table if result else None,
                        row.won,
                        row.lost,
                        row.others_lost,
                        row.game_points,
                        row.list_points,
                    ],
                )
            )
        self.finish(ws, columns, len(standings))

    def write_teams(self, teams):
        columns = [
            Column(_("Rank"), 7),
            Column(_("Team"), 24),
            Column(_("Members"), 60),
            Column(_("Counted"), 9),
            Column(_("Won"), 8),
            Column(_("Lost"), 8),
            Column(_("Game points"), 11, POINTS),
            Column(_("Points"), 10, POINTS),
        ]
        ws = self.sheet(_("Teams"), columns)
        for team in teams:
            members = ", ".join(f"{m.player_name} ({m.list_points})" for m in team.members)
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [
                        team.rank,
                        team.team,
                        members,
                        team.counted,
                        team.won,
                        team.lost,
                        team.game_points,
                        team.list_points,
                    ],
                )
            )
        self.finish(ws, columns, len(teams))

    def money_columns(self) -> list[Column]:
        currency = self.tournament.currency
        return [
            Column(_("Player"), 28),
            Column(_("Club"), 24),
            Column(_("Category"), 11),
            Column(_("Series played"), 9),
            Column(_("Lost games"), 9),
            Column(_("Entry fee (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Table fees (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Lost-game fees (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Total due (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Paid (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Prizes won (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Prizes paid out (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Balance (%(c)s)") % {"c": currency}, 11, MONEY),
            Column(_("Prizes"), 30),
        ]

    def write_money(self, money: selectors.TournamentMoney):
        """Balance: positive, the player owes the club; negative, the club owes the player."""
        columns = self.money_columns()
        ws = self.sheet(_("Money"), columns)
        categories = dict(Category.choices)
        for row in money.rows:
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [
                        row.player_name,
                        row.club,
                        str(categories.get(row.category, "")) if row.category else "",
                        row.series_played,
                        row.lost_games,
                        row.entry_fee,
                        row.table_fees,
                        row.lost_game_fees,
                        row.total_due,
                        row.paid,
                        row.prizes_won,
                        row.prizes_paid,
                        row.balance,
                        ", ".join(p.title for p in row.prizes),
                    ],
                )
            )
        self.finish(ws, columns, len(money.rows))
        total = money.summary
        bold = [
            _("Total"),
            "",
            "",
            "",
            total.lost_games,
            total.entry_fees,
            total.table_fees,
            total.lost_game_fees,
            total.total_due,
            total.paid,
            total.prizes_won,
            total.prizes_paid,
            total.balance,
            "",
        ]
        cells = []
        for column, value in zip(columns, bold, strict=True):
            cell = WriteOnlyCell(ws, value=None if value == "" else value)
            cell.font = HEADER_FONT
            if column.number_format:
                cell.number_format = column.number_format
            cells.append(cell)
        ws.append(cells)
        ws.append([])
        for label, value in (
            (_("Pot (entry fees + lost-game fees)"), money.pot),
            (_("Prize plan"), money.prizes_planned),
            (_("Remainder for the club"), money.remainder),
            (_("Cash in the box"), total.cash),
            (_("Outstanding fees"), total.outstanding),
            (_("Prizes still to pay"), total.prizes_to_pay),
        ):
            cell = WriteOnlyCell(ws, value=value)
            cell.number_format = MONEY
            ws.append([label, None, None, None, None, cell])

    # ----------------------------------------------------------------------------------

    # The sheet row's declared fields (services.DECLARED_FIELDS) between its place and its
    # computed values; the unpacking in write_games follows this order.
    GAME_FIELDS = (
        "table_id",
        "number",
        "declarer",
        *services.DECLARED_FIELDS,
        "ramsch",
        "value",
        "score",
        "is_won",
        "is_lost",
        "overbid",
        "list_declarer",
        "list_others",
    )

    def game_columns(self) -> list[Column]:
        return [
            Column(_("Series"), 7),
            Column(_("Table"), 7),
            Column(_("Game no."), 8),
            Column(_("Dealer"), 7),
            Column(_("Declarer"), 8),
            Column(_("Declarer's name"), 26),
            Column(_("Game"), 13),
            Column(_("Trump"), 10),
            Column(_("Matadors"), 9),
            Column(_("Without"), 8),
            Column(_("Hand"), 7),
            Column(_("Schneider announced"), 11),
            Column(_("Schwarz announced"), 11),
            Column(_("Ouvert"), 7),
            Column(_("Won (declared)"), 9),
            Column(_("Schneider"), 9),
            Column(_("Schwarz"), 9),
            Column(_("Card points"), 8),
            Column(_("Bid"), 7),
            Column("Kontra", 7),
            Column("Re", 6),
            Column(_("Ramsch"), 14),
            Column(_("Value"), 8),
            Column(_("Score"), 8),
            Column(_("Result"), 8),
            Column(_("Overbid"), 8),
            Column(_("List points declarer"), 10),
            Column(_("List points others"), 10),
        ]

    def write_games(self):
        columns = self.game_columns()
        ws = self.sheet(_("Games"), columns)
        tables = {
            table.pk: table
            for table in Table.objects.filter(series__tournament=self.tournament).select_related(
                "series"
            )
        }
        names = {
            (table_id, seat): name
            for table_id, seat, name in Seat.objects.filter(
                series__tournament=self.tournament
            ).values_list("table_id", "number", "player__name")
        }
        labels = {
            **{value: str(label) for value, label in GameType.choices},
            **{f"trump:{value}": str(label) for value, label in Trump.choices},
            **{f"ramsch:{value}": str(label) for value, label in RamschResult.choices},
            "won": _("won"),
            "lost": _("lost"),
        }
        # Flags print as "x" and stay empty when off: empty cells cost nothing to write.
        games = (
            selectors.games_of_tournament(self.tournament)
            .values_list(*self.GAME_FIELDS)
            .iterator(chunk_size=self.chunk_size)
        )
        count = 0
        for (
            table_id,
            number,
            declarer,
            game,
            trump,
            matadors,
            without,
            hand,
            schneider_announced,
            schwarz_announced,
            ouvert,
            won,
            schneider,
            schwarz,
            card_points,
            bid,
            kontra,
            re,
            ramsch,
            value,
            score,
            is_won,
            is_lost,
            overbid,
            list_declarer,
            list_others,
        ) in games:
            table = tables[table_id]
            ws.append(
                (
                    table.series.number,
                    table.number,
                    number,
                    table.dealer_of(number),
                    declarer,
                    names.get((table_id, declarer)) if declarer else None,
                    labels.get(game, game),
                    labels[f"trump:{trump}"] if trump else None,
                    matadors,
                    "x" if without else None,
                    "x" if hand else None,
                    "x" if schneider_announced else None,
                    "x" if schwarz_announced else None,
                    "x" if ouvert else None,
                    None if won is None else labels["won" if won else "lost"],
                    "x" if schneider else None,
                    "x" if schwarz else None,
                    card_points,
                    bid,
                    "x" if kontra else None,
                    "x" if re else None,
                    labels[f"ramsch:{ramsch}"] if ramsch else None,
                    value,
                    score,
                    labels["won"] if is_won else labels["lost"] if is_lost else None,
                    "x" if overbid else None,
                    list_declarer,
                    list_others,
                )
            )
            count += 1
        self.finish(ws, columns, count)
