"""A season's workbook (Excel) and results PDF, from `leagues.selectors.season_tables`.

Workbook sheets: *Teams* (the team table), *Players* (the player table), one sheet per
played match day (its table across the venues, then its players' standings) and *Games*
(every game of every match day, with its match day and venue, in the columns of the
tournament workbook). The PDF holds the team table, each match day's table and the player
table. Both lay out the figures of the season pages; nothing here computes a score.
"""

from __future__ import annotations

import html
from types import SimpleNamespace

from django.utils.translation import gettext as _
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, Spacer, TableStyle

from tournaments.exporters import XLSX, Export
from tournaments.exporters.base_pdf import PdfDocument
from tournaments.exporters.pdf_styles import BODY, FONT, FONT_BOLD, HEAD_FILL, HEADING, ROUND, THIN
from tournaments.exporters.workbook import POINTS, Column, TournamentWorkbook, workbook_save
from tournaments.formats import format_match_points, public_name
from tournaments.leagues.selectors import SeasonTables, day_standings, season_tables
from tournaments.models import Season, Table


def _points(value) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


class SeasonWorkbook(TournamentWorkbook):
    """`SeasonWorkbook(season, viewer=...).render()` → the season's .xlsx as bytes."""

    def __init__(self, season: Season, *, viewer=None, initials: bool = False):
        self.season = season
        self.viewer = viewer
        self.filename = f"{season.slug}.xlsx"
        self.money = False
        self.initials = initials  # `TournamentWorkbook.shown`

    def export(self) -> Export:
        return Export(self.filename, XLSX, self.render())

    @property
    def print_heading(self) -> tuple[str, str]:
        return self.season.name, ""

    def save(self, target) -> None:
        from openpyxl import Workbook

        self.workbook = Workbook(write_only=True)
        tables = season_tables(self.season, viewer=self.viewer)
        counted = tables.counted_days
        self.write_team_table(tables, counted)
        self.write_player_table(tables, counted)
        for number, day in enumerate(tables.day_tables, start=1):
            self.write_match_day(number, day)
        self.write_season_games(tables)
        workbook_save(self.workbook, target)

    def write_team_table(self, tables: SeasonTables, counted):
        columns = [
            Column(_("Rank"), 7),
            Column(_("Team"), 24),
            Column(_("Club"), 24),
            *(Column(_("Day %(n)s") % {"n": n}, 9, POINTS) for n in range(1, len(counted) + 1)),
            Column(_("Match points"), 11),
            Column(_("Match points won"), 10),
            Column(_("Match points lost"), 10),
            Column(_("Points"), 10, POINTS),
        ]
        ws = self.sheet(_("Teams"), columns)
        for row in tables.teams:
            days = [
                row.days[day.slug].list_points if day.slug in row.days else None for day in counted
            ]
            values = (
                row.rank,
                row.team,
                row.club,
                *days,
                format_match_points(row.match_points_won, row.match_points_lost),
                _points(row.match_points_won),
                _points(row.match_points_lost),
                row.list_points,
            )
            ws.append(self.formatted(ws, columns, values))
        self.finish(ws, columns, len(tables.teams))

    def write_player_table(self, tables: SeasonTables, counted):
        columns = [
            Column(_("Rank"), 7),
            Column(_("Player"), 26),
            Column(_("Club"), 24),
            Column(_("Team"), 20),
            Column(_("Category"), 10),
            *(Column(_("Day %(n)s") % {"n": n}, 9, POINTS) for n in range(1, len(counted) + 1)),
            Column(_("Series played"), 9),
            Column(_("Series counted"), 9),
            Column(_("Won"), 7),
            Column(_("Lost"), 7),
            Column(_("Points"), 10, POINTS),
        ]
        ws = self.sheet(_("Players"), columns)
        for row in tables.players:
            values = (
                row.rank,
                self.shown(row.name, row.listed),
                row.club,
                row.team,
                row.category,
                *(row.days.get(day.slug) for day in counted),
                row.series_played,
                row.series_counted,
                row.won,
                row.lost,
                row.list_points,
            )
            ws.append(self.formatted(ws, columns, values))
        self.finish(ws, columns, len(tables.players))

    def write_match_day(self, number: int, day):
        columns = [
            Column(_("Rank"), 7),
            Column(_("Team"), 24),
            Column(_("Venue"), 18),
            Column(_("Points"), 10, POINTS),
            Column(_("Match points"), 11),
            Column(_("Status"), 14),
        ]
        ws = self.sheet(_("Day %(n)s") % {"n": number}, columns)
        status = _("provisional") if day.provisional else _("confirmed")
        for result in day.teams:
            values = (
                result.rank,
                result.team,
                result.venue,
                result.list_points,
                format_match_points(result.match_points_won, result.match_points_lost),
                status,
            )
            ws.append(self.formatted(ws, columns, values))
        ws.append([])
        players = [
            Column(_("Rank"), 7),
            Column(_("Player"), 24),
            Column(_("Team"), 18),
            Column(_("Points"), 10, POINTS),
        ]
        ws.append(self.header(ws, players))
        standings = day.standings if day.standings is not None else day_standings(day.tournament)
        for row in standings:
            name = self.shown(row.player_name, row.player_listed)
            values = (row.rank, name, row.team, row.list_points)
            ws.append(self.formatted(ws, players, values))

    def write_season_games(self, tables: SeasonTables):
        columns = [Column(_("Match day"), 22), Column(_("Venue"), 16)]
        columns += self.game_columns()
        self.write_game_rows(_("Games"), columns, self.season_game_rows(tables))

    def season_game_rows(self, tables: SeasonTables):
        """Every game of every played match day (`game_rows`), after its match day and
        venue."""
        days = [day.tournament for day in tables.day_tables]
        names = {day.pk: day.name for day in days}
        venues = dict(
            Table.objects.filter(series__tournament__in=days).values_list("pk", "venue__name")
        )
        return self.game_rows(
            days, lead=lambda table: (names[table.series.tournament_id], venues.get(table.pk))
        )


SIZE = 8.5
# A name cell wraps within its column (a long club or team name never runs into the
# figures beside it); the head row keeps BODY.
CELL = ParagraphStyle("season-cell", parent=BODY, fontSize=SIZE, leading=SIZE + 1.5)
RANK_WIDTH = 10 * mm
FIGURE_WIDTH = 22 * mm


class SeasonResultsPdf(PdfDocument):
    """The season's results: team table, each match day's table, player table."""

    def __init__(self, season: Season, *, viewer=None, initials: bool = False):
        # The page header and footer name the season where a tournament's PDF names the
        # tournament: they read `name`, `club.name` and `date` of this stand-in.
        owner = SimpleNamespace(name=str(season.owner))
        super().__init__(SimpleNamespace(name=season.name, club=owner, date=None))
        self.season = season
        self.viewer = viewer
        self.initials = initials  # `permissions.names_by_initials`, for the public's copy
        self.filename = f"{season.slug}-results.pdf"

    @property
    def title(self) -> str:
        return _("Season results")

    def subtitle(self) -> str:
        return str(self.season.owner)

    def _widths(self, names: int) -> list[float]:
        """The rank, `names` columns of names sharing what is left, two of figures."""
        name = (self.frame_width - RANK_WIDTH - 2 * FIGURE_WIDTH) / names
        return [RANK_WIDTH, *([name] * names), FIGURE_WIDTH, FIGURE_WIDTH]

    def _table(self, header: list[str], rows: list[list], widths: list[float]) -> LongTable:
        """Rank, names (wrapped in their columns), then two figures (right-aligned)."""
        cells = [[Paragraph(html.escape(str(h)), BODY) for h in header]]
        names = range(1, len(header) - 2)
        cells += [
            [
                Paragraph(html.escape(str(v)), CELL)
                if i in names and v
                else ("" if v is None else str(v))
                for i, v in enumerate(row)
            ]
            for row in rows
        ]
        table = LongTable(cells, colWidths=widths, repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, 0), FONT_BOLD, SIZE),
                    ("FONT", (0, 1), (-1, -1), FONT, SIZE),
                    ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.8, ROUND),
                    ("LINEBELOW", (0, 1), (-1, -1), 0.3, THIN),
                    ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                    ("ALIGN", (-2, 1), (-1, -1), "RIGHT"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        return table

    def story(self) -> list:
        tables = season_tables(self.season, viewer=self.viewer)
        story = [Paragraph(html.escape(_("Teams")), HEADING)]
        story.append(
            self._table(
                ["#", _("Team"), _("Club"), _("Match points"), _("Points")],
                [
                    [
                        row.rank,
                        row.team,
                        row.club,
                        format_match_points(row.match_points_won, row.match_points_lost),
                        row.list_points,
                    ]
                    for row in tables.teams
                ],
                self._widths(2),
            )
        )
        for day in tables.day_tables:
            label = day.tournament.name
            if day.provisional:
                label += " – " + _("provisional")
            story += [Spacer(1, 4 * mm), Paragraph(html.escape(label), HEADING)]
            story.append(
                self._table(
                    ["#", _("Team"), _("Venue"), _("Points"), _("Match points")],
                    [
                        [
                            r.rank,
                            r.team,
                            r.venue,
                            r.list_points,
                            format_match_points(r.match_points_won, r.match_points_lost),
                        ]
                        for r in day.teams
                    ],
                    self._widths(2),
                )
            )
        story += [Spacer(1, 4 * mm), Paragraph(html.escape(_("Players")), HEADING)]
        story.append(
            self._table(
                ["#", _("Player"), _("Team"), _("Series"), _("Points")],
                [
                    [
                        row.rank if row.rank is not None else "–",
                        public_name(row.name, listed=row.listed, initials=self.initials),
                        row.team,
                        row.series,
                        row.list_points,
                    ]
                    for row in tables.players
                ],
                self._widths(2),
            )
        )
        return story
