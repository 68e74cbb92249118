"""The tournament workbook (Excel): standings, each series, teams and every game.

Sheets: *Standings* (`standings.selectors.tournament_standings`), *Series n* (taken from
them, `series_standings_from`), *Teams* (`team_standings`) and *Games*
(`games_of_tournament`: one row per game with its declared fields and the values `games`
stored; its Schneider column is the play's outcome, `games.schneider_of`, also when the
card points made it schneider without the box ticked). The same selectors feed the HTML
pages and the PDFs, so the totals agree everywhere; nothing here computes a score.

With `money=True` (the secretaries' download) and a fee or prize set, a *Money* sheet
follows the standings: one row per player with the figures of `money.selectors.tournament_money`,
its totals row and the pot. Amounts are written as exact Decimals in the format '#,##0.00'.

The workbook is written in openpyxl's write-only mode and the games are streamed from the
database in chunks, so memory does not grow with the number of games. Write-only sheets take
their frozen panes and column widths before the first row and their auto filter at the end.

The *Games* sheet holds about 17 filled cells per game (1.6 million at 96,000 games): its data
rows go through the workbooks' one fast row writer, `exporters.xlsx_rows.LeanRows` (its
measurement and what it relies on are there); the season workbook's Games sheet uses the
same `write_game_rows` and `game_rows` (its match days' tables, names and disputed games
read once for the season). Every other sheet uses openpyxl's public API. The file's parts
are deflated at zlib level 1 (`workbook_save`, through openpyxl's public `ExcelWriter`;
measured at `COMPRESS_LEVEL`).

Text is always text: a name such as "=1+1" is written as a string, never as a formula.

*Provisional* (entered at a table, not yet confirmed) and *disputed* (double entry: the two
copies differ) are the selectors' terms. The Standings and Series sheets mark provisional rows
as the HTML does; on the Games sheet a disputed game keeps its declared fields but not its
computed values, because it counts nowhere until the director settles it, so the Score and
list-points columns add up to the Standings sheet (with the penalties, listed on their own
sheet).
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from zipfile import ZIP_DEFLATED, ZipFile

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

from tournaments.exporters import XLSX, Export
from tournaments.exporters.sheets import NULL_OVERBID_NOTE
from tournaments.exporters.xlsx_rows import LeanRows
from tournaments.formats import CLOSED_SHORT_LEGEND, PROVISIONAL_LEGEND, public_name
from tournaments.games import COMPUTED_FIELDS, DECLARED_FIELDS, schneider_of
from tournaments.log.selectors import tournament_log
from tournaments.models import (
    Category,
    GameType,
    Penalty,
    RamschResult,
    RuleSet,
    Seat,
    Series,
    Table,
    Tournament,
    Trump,
)
from tournaments.money.selectors import TournamentMoney, tournament_money
from tournaments.phrases import shown_text
from tournaments.sheets.selectors import disputed_games, games_of_tournament
from tournaments.standings.selectors import (
    CLOSED_SHORT_MARK,
    StandingRow,
    closed_short_notes,
    series_standings_from,
    team_standings,
    tournament_standings,
)

# Points get a thousands separator; counts and the games' figures stay in Excel's General
# format, which shows integers as they are (and costs nothing per cell).
POINTS = "#,##0;-#,##0;0"
MONEY = "#,##0.00"
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="E8E8E8")
HEADER_ALIGNMENT = Alignment(vertical="center", wrap_text=True)
# zlib's level for the file's parts (`workbook_save`; openpyxl's `Workbook.save` deflates at
# zlib's default, 6). The league season's Games sheet (28.8 MB of XML) deflates in 0.19 s
# to 3.9 MB at level 1, in 0.79 s to 3.0 MB at level 6 (medians of 5, openpyxl 3.1.5): a
# third larger file for a quarter of the time.
COMPRESS_LEVEL = 1


# A sheet whose columns are wider than this (Excel's character widths) prints across A4.
PORTRAIT_WIDTH = 100


def _header_text(text: str) -> str:
    """`text` for a page header: "&" starts a code there, so a literal one is doubled."""
    return ILLEGAL_CHARACTERS_RE.sub("", text).replace("&", "&&")


@dataclass(frozen=True)
class Column:
    title: str
    width: float
    number_format: str | None = None


def text_cell(ws, value: str) -> WriteOnlyCell:
    """A cell that holds `value` as text even when it starts with "=" (openpyxl would store
    a formula); "+", "-" and "@" are stored as text anyway."""
    # A control character stored before inputs were checked must not break the file.
    cell = WriteOnlyCell(ws, value=ILLEGAL_CHARACTERS_RE.sub("", value))
    cell.data_type = "s"
    return cell


def workbook_save(workbook: Workbook, target) -> None:
    """`workbook.save(target)` with the parts deflated at `COMPRESS_LEVEL`.

    openpyxl's `save_workbook` opens the zip archive at zlib's default level; this opens it
    itself and hands it to openpyxl's public `ExcelWriter(workbook, archive)`, setting the
    modification time as `save_workbook` does. The parts (and so every cell) are the same
    bytes; only their compression differs.
    """
    archive = ZipFile(target, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=COMPRESS_LEVEL)
    workbook.properties.modified = datetime.datetime.now(tz=datetime.UTC).replace(tzinfo=None)
    ExcelWriter(workbook, archive).save()


class TournamentWorkbook:
    """`TournamentWorkbook(tournament).render()` → the .xlsx file as bytes; `money` adds the
    Money sheet (for the club's secretaries); `initials`: the public's download where the
    club shows players not listed publicly by initials (`permissions.names_by_initials`)."""

    chunk_size = 2000

    def __init__(self, tournament: Tournament, *, money=False, filename=None, initials=False):
        self.tournament = tournament
        self.money = money
        self.filename = filename or f"{tournament.slug}.xlsx"
        self.initials = initials

    def shown(self, name: str, listed: bool) -> str:
        """A player's name as this workbook shows it (`formats.public_name`)."""
        return public_name(name, listed=listed, initials=self.initials)

    def export(self) -> Export:
        return Export(self.filename, XLSX, self.render())

    def render(self) -> bytes:
        buffer = io.BytesIO()
        self.save(buffer)
        return buffer.getvalue()

    def save(self, target) -> None:
        """Write the workbook to `target` (a path or a binary file)."""
        self.workbook = Workbook(write_only=True)
        standings = tournament_standings(self.tournament)
        series = list(self.tournament.series.order_by("number"))
        self.write_standings(standings, [s.number for s in series])
        if self.money:
            money = tournament_money(self.tournament, standings=standings)
            if money.has_money:
                self.write_money(money)
        for one in series:
            self.write_series(one, series_standings_from(standings, one.number))
        self.write_teams(team_standings(self.tournament, standings=standings))
        self.write_games()
        self.write_penalties()
        self.write_rules()
        if self.money:  # the secretaries' workbook: who did what is not for the public
            self.write_log()
        workbook_save(self.workbook, target)

    def write_log(self):
        """The action log (`log.selectors.tournament_log`), oldest first."""
        lines = list(reversed(tournament_log(self.tournament)))
        if not lines:
            return
        columns = [
            Column(_("When"), 18, "yyyy-mm-dd hh:mm"),
            Column(_("Who"), 20),
            Column(_("Action"), 26),
            Column(_("Series"), 7),
            Column(_("Table"), 7),
            Column(_("What"), 60),
            Column(_("Why"), 40),
        ]
        ws = self.sheet(_("Log"), columns)
        for line in lines:
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [
                        timezone.localtime(line.at).replace(tzinfo=None),
                        line.by,
                        line.kind_label,
                        line.series_number,
                        line.table_number,
                        "; ".join(line.what),
                        line.reason,
                    ],
                )
            )
        self.finish(ws, columns, len(lines))

    # ----------------------------------------------------------------------------------

    @property
    def print_heading(self) -> tuple[str, str]:
        """(title, date) at the head of every printed page."""
        return self.tournament.name, date_format(self.tournament.date, "SHORT_DATE_FORMAT")

    def sheet(self, title: str, columns: Sequence[Column], *, header: bool = True):
        """A write-only sheet with its widths, frozen header, print setup (`print_setup`)
        and (`header`) header row."""
        ws = self.workbook.create_sheet(title=title[:31])
        for index, column in enumerate(columns, start=1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        ws.freeze_panes = "A2"
        self.print_setup(ws, columns)
        if header:
            ws.append(self.header(ws, columns))
        return ws

    def print_setup(self, ws, columns: Sequence[Column]):
        """How a sheet prints (openpyxl's public API; a write-only sheet takes it before its
        first row): A4, across when wide, every column on the page's width (as many pages
        down as it takes), the header row repeated on each page, the title, date and sheet
        name at the head and the page number at the foot."""
        ws.page_setup.paperSize = Worksheet.PAPERSIZE_A4
        wide = sum(column.width for column in columns) > PORTRAIT_WIDTH
        ws.page_setup.orientation = (
            Worksheet.ORIENTATION_LANDSCAPE if wide else Worksheet.ORIENTATION_PORTRAIT
        )
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0  # as many pages down as the rows need
        ws.print_title_rows = "1:1"
        ws.print_options.gridLines = True
        title, date = self.print_heading
        ws.oddHeader.left.text = _header_text(title)
        ws.oddHeader.center.text = _header_text(ws.title)
        ws.oddHeader.right.text = _header_text(date)
        ws.oddFooter.center.text = _("Page &P of &N")
        ws.oddFooter.right.text = _("Printed &D")

    @staticmethod
    def header(ws, columns: Sequence[Column]) -> list[WriteOnlyCell]:
        cells = []
        for column in columns:
            cell = WriteOnlyCell(ws, value=column.title)
            cell.font = HEADER_FONT
            cell.fill = HEADER_FILL
            cell.alignment = HEADER_ALIGNMENT
            cells.append(cell)
        return cells

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
            if isinstance(value, str):
                value = ILLEGAL_CHARACTERS_RE.sub("", value)
            if column.number_format and value is not None:
                cell = WriteOnlyCell(ws, value=value)
                cell.number_format = column.number_format
                row.append(cell)
            elif isinstance(value, str):
                row.append(text_cell(ws, value))
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
            Column(_("Provisional"), 11),
            Column(_("Closed short"), 11),
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
                        self.shown(row.player_name, row.player_listed),
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
                        self.provisional_mark(row),
                        self.closed_short_mark(row),
                    ],
                )
            )
        self.finish(ws, columns, len(standings))
        self.provisional_legend(ws, standings)
        self.closed_short_legend(ws, standings)

    def write_series(self, series: Series, standings: list[StandingRow]):
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
            Column(_("Provisional"), 11),
            Column(_("Closed short"), 11),
        ]
        ws = self.sheet(_("Series %(number)s") % {"number": series.number}, columns)
        for row in standings:
            result = row.series.get(series.number)
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [
                        row.rank,
                        self.shown(row.player_name, row.player_listed),
                        row.club,
                        row.team,
                        result.table if result else None,
                        row.won,
                        row.lost,
                        row.others_lost,
                        row.game_points,
                        row.list_points,
                        self.provisional_mark(row),
                        self.closed_short_mark(row),
                    ],
                )
            )
        self.finish(ws, columns, len(standings))
        self.provisional_legend(ws, standings)
        self.closed_short_legend(ws, standings)

    @staticmethod
    def provisional_mark(row: StandingRow) -> str:
        """As the HTML tables: the row counts games entered at a table, not yet confirmed
        (or has a disputed game, which counts nowhere yet)."""
        return "*" if row.provisional else ""

    @staticmethod
    def closed_short_mark(row: StandingRow) -> str:
        """As the HTML tables: the mark and the series of the row's sheets closed short."""
        numbers = sorted(result.number for result in row.closed_short)
        if not numbers:
            return ""
        return f"{CLOSED_SHORT_MARK} " + ", ".join(_("S%(n)s") % {"n": n} for n in numbers)

    @staticmethod
    def closed_short_legend(ws, standings: Sequence[StandingRow]):
        """Below the rows (and outside the auto filter): each sheet closed short, why."""
        notes = closed_short_notes(standings)
        if notes:
            ws.append([])
            ws.append([str(CLOSED_SHORT_LEGEND)])
            for note in notes:
                ws.append([text_cell(ws, note.text)])

    @staticmethod
    def provisional_legend(ws, standings: Sequence[StandingRow]):
        """Below the rows (and outside the auto filter), if any row is marked."""
        if any(row.provisional for row in standings):
            ws.append([])
            ws.append([str(PROVISIONAL_LEGEND)])

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
            shown = self.shown
            members = ", ".join(
                f"{shown(m.player_name, m.player_listed)} ({m.list_points})" for m in team.members
            )
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

    def write_money(self, money: TournamentMoney):
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

    # The sheet row's declared fields (games.DECLARED_FIELDS) between its place and its
    # computed values; the unpacking in write_games follows this order.
    GAME_FIELDS = (
        "table_id",
        "number",
        "declarer",
        *DECLARED_FIELDS,
        "ramsch",
        *COMPUTED_FIELDS,
        "provisional",
        "pk",
        "ramsch_tie",
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
            Column(_("Status"), 16),
            Column(_("Seats without cards"), 10),
            # A ramsch tie for the fewest points: this seat scores what the declarer does.
            Column(_("Tied seat"), 8),
        ]

    def seat_names(
        self, tournaments: Sequence[Tournament] | None = None
    ) -> dict[tuple[int, int], str]:
        """(table id, seat) → the player's name shown, at `tournaments` (default: this one)."""
        return {
            (table_id, seat): self.shown(name, listed)
            for table_id, seat, name, listed in Seat.objects.filter(
                series__tournament__in=[self.tournament] if tournaments is None else tournaments
            ).values_list("table_id", "number", "player__name", "player__listed")
        }

    def write_games(self):
        self.write_game_rows(_("Games"), self.game_columns(), self.game_rows())

    def write_game_rows(self, title: str, columns: Sequence[Column], rows: Iterable) -> None:
        """A sheet of every game, its data rows through the workbooks' fast row writer
        (`xlsx_rows.LeanRows`: ints, texts and None only, no number formats)."""
        ws = self.sheet(title, columns, header=False)
        lean = LeanRows(ws, self.header(ws, columns))
        for values in rows:
            lean.append(values)
        self.finish(ws, columns, lean.count)
        lean.close()

    def game_rows(
        self,
        tournaments: Sequence[Tournament] | None = None,
        lead: Callable[[Table], tuple] | None = None,
    ) -> Iterator[tuple[int | str | None, ...]]:
        """One row per game of `tournaments` (default: this workbook's tournament), one after
        the other. A disputed game shows what was entered but no computed values: it counts
        nowhere until settled (sheets.selectors.disputed_games), so that the Score and
        list-points columns add up to the Standings sheet.

        `lead(table)`: cells that go before each game of that table (the season workbook's
        match day and venue). The tables, the players' names and the disputed games of all
        `tournaments` are read at once; the games are streamed tournament by tournament."""
        tournaments = [self.tournament] if tournaments is None else tournaments
        at = Table.objects.filter(series__tournament__in=tournaments)
        tables = {table.pk: table for table in at.select_related("series")}
        # Per table, the cells its every row starts with (built once, not per game).
        places = {
            pk: (*(lead(table) if lead else ()), table.series.number, table.number)
            for pk, table in tables.items()
        }
        names = self.seat_names(tournaments)
        disputed = {pk for pks in disputed_games(at.values("id")).values() for pk in pks}
        game_labels = {value: str(label) for value, label in GameType.choices}
        trump_labels = {value: str(label) for value, label in Trump.choices}
        ramsch_labels = {value: str(label) for value, label in RamschResult.choices}
        won_label, lost_label = _("won"), _("lost")
        provisional_label = _("provisional")
        disputed_label = _("disputed: does not count")
        # rules §4, §3.6: the dealer and the seats without cards of a deal. The same few
        # dozen recur on every sheet: kept once per (table size, game number).
        deals: dict[tuple[int, int], tuple[int, str | None]] = {}
        for tournament in tournaments:
            rules = tournament.rules
            games = (
                games_of_tournament(tournament)
                .values_list(*self.GAME_FIELDS)
                .iterator(chunk_size=self.chunk_size)
            )
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
                provisional,
                pk,
                tie,
            ) in games:
                table = tables[table_id]
                deal = deals.get((table.size, number))
                if deal is None:
                    out = ", ".join(map(str, sorted(table.sitting_out(number)))) or None
                    deal = deals[table.size, number] = (table.dealer_of(number), out)
                # Flags print as "x" and stay empty when off: empty cells cost nothing.
                row = (
                    *places[table_id],
                    number,
                    deal[0],
                    declarer,
                    names.get((table_id, declarer)) if declarer else None,
                    game_labels.get(game, game),
                    trump_labels[trump] if trump else None,
                    matadors,
                    "x" if without else None,
                    "x" if hand else None,
                    "x" if schneider_announced else None,
                    "x" if schwarz_announced else None,
                    "x" if ouvert else None,
                    None if won is None else won_label if won else lost_label,
                    # The outcome, also when the card points made it schneider.
                    "x"
                    if schneider_of(
                        rules=rules, card_points=card_points, schneider=schneider, schwarz=schwarz
                    )
                    else None,
                    "x" if schwarz else None,
                    card_points,
                    bid,
                    "x" if kontra else None,
                    "x" if re else None,
                    ramsch_labels[ramsch] if ramsch else None,
                    value,
                    score,
                    won_label if is_won else lost_label if is_lost else None,
                    "x" if overbid else None,
                    list_declarer,
                    list_others,
                    provisional_label if provisional else None,
                    deal[1],
                    tie,
                )
                if pk in disputed:  # no computed values: the 7 cells before the last 2
                    row = (*row[:-9], *[None] * 6, disputed_label, *row[-2:])
                yield row

    def write_penalties(self):
        """The penalties, which the game points of the Standings sheet include (rules §3.6)."""
        penalties = list(
            Penalty.objects.filter(table__series__tournament=self.tournament)
            .order_by("table__series__number", "table__number", "seat", "id")
            .values_list(
                "table__series__number",
                "table__number",
                "seat",
                "table_id",
                "points",
                "reason",
                "phrases",
                "game__number",
                "law",
            )
        )
        if not penalties:
            return
        columns = [
            Column(_("Series"), 7),
            Column(_("Table"), 7),
            Column(_("Seat"), 7),
            Column(_("Player"), 28),
            Column(_("Points"), 9, POINTS),
            Column(_("Reason"), 40),
            # A penalty charged at a game's value (NA laws of 1908): the game and the law.
            Column(_("Game no."), 8),
            Column(_("Law"), 6),
        ]
        ws = self.sheet(_("Penalties"), columns)
        names = self.seat_names()
        for series, table, seat, table_id, points, reason, phrases, game, law in penalties:
            reason = shown_text(reason, (phrases or {}).get("reason"))
            ws.append(
                self.formatted(
                    ws,
                    columns,
                    [series, table, seat, names.get((table_id, seat), ""), points, reason]
                    + [game, law],
                )
            )
        self.finish(ws, columns, len(penalties))

    def write_rules(self):
        """The rules every North American sheet states, and a ramsch variant that is on
        (issue 14): how a null overbid is charged (rules §3.4), who sits out at a table of
        five (rules §3.6), the series lengths. Not written for an ISPA tournament without
        a variant."""
        t = self.tournament
        lines = []
        if t.rules == RuleSet.NA:
            lines.append((_("Rule set"), str(RuleSet(t.rules).label)))
            lines.append((_("Overbid null"), str(NULL_OVERBID_NOTE)))
            sizes = "3, 4, 5" if t.five_tables else "3, 4"
            lengths = ", ".join(
                f"{size}: {t.games_per_series(int(size))}" for size in sizes.split(", ")
            )
            lines.append((_("Games per series (players: games)"), lengths))
            if t.five_tables:
                lines.append(
                    (
                        _("Tables of five"),
                        _("The dealer and the third seat after him sit out (rules §3.6)."),
                    )
                )
        if t.ramsch_variant_shown:
            lines.append((_("Ramsch"), t.ramsch_variant_shown))
        if not lines:
            return
        columns = [Column(_("Rule"), 30), Column(_("Setting"), 90)]
        ws = self.sheet(_("Rules"), columns)
        for name, text in lines:
            ws.append(self.formatted(ws, columns, [name, text]))
        self.finish(ws, columns, len(lines))
