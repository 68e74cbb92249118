"""The workbook (exporters/workbook.py) opened again with openpyxl: standings, series, teams,
every game and the penalties, names kept as text, provisional and disputed games marked.

The figures in the files must be those of the selectors that the HTML pages show.
"""

import io
import re
import zipfile
import zlib
from unittest import mock

import pytest
from openpyxl import Workbook, load_workbook

from tests.tournaments.exporters.helpers import NAMES
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.exporters.workbook import COMPRESS_LEVEL, TournamentWorkbook, text_cell
from tournaments.models import Game
from tournaments.sheets.selectors import table_sheet
from tournaments.standings.selectors import series_standings, team_standings, tournament_standings

pytestmark = pytest.mark.django_db


def open_workbook(tournament):
    return load_workbook(io.BytesIO(TournamentWorkbook(tournament).render()))


def data_rows(ws):
    return list(ws.iter_rows(min_row=2, values_only=True))


def test_workbook_standings_are_the_selectors_totals(tournament, worked_table):
    book = open_workbook(tournament)
    assert book.sheetnames == ["Standings", "Series 1", "Teams", "Games"]
    ws = book["Standings"]
    header = next(ws.iter_rows(max_row=1, values_only=True))
    assert header == (
        "Rank",
        "Player",
        "Club",
        "Team",
        "S1",
        "Won",
        "Lost",
        "Others' lost",
        "Game points",
        "Points",
        "Provisional",
        "Closed short",
    )
    expected = [
        (
            r.rank,
            r.player_name,
            r.club,
            r.team,
            r.series[1].list_points,
            r.won,
            r.lost,
            r.others_lost,
            r.game_points,
            r.list_points,
            None,
            None,
        )
        for r in tournament_standings(tournament)
    ]
    assert data_rows(ws) == expected
    assert [row[-3] for row in data_rows(ws)] == [1332, 1320, 1308, 108]
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == "A1:L5"
    assert ws["J2"].number_format == "#,##0;-#,##0;0"


def test_workbook_series_and_team_sheets(tournament, worked_table):
    book = open_workbook(tournament)
    series = [(row[1], row[-3]) for row in data_rows(book["Series 1"])]
    assert series == [
        (r.player_name, r.list_points) for r in series_standings(worked_table.series)
    ]
    teams = {row[1]: row[-1] for row in data_rows(book["Teams"])}
    assert teams == {t.team: t.list_points for t in team_standings(tournament)}
    assert book["Teams"].freeze_panes == "A2"


def test_workbook_has_one_row_per_game_with_its_stored_values(tournament, worked_table):
    ws = open_workbook(tournament)["Games"]
    rows = data_rows(ws)
    games = list(Game.objects.filter(table=worked_table).order_by("number"))
    assert len(rows) == len(games) == 48
    header = next(ws.iter_rows(max_row=1, values_only=True))
    col = {title: index for index, title in enumerate(header)}
    names = {s.number: s.player.name for s in worked_table.seats.select_related("player")}
    for row, game in zip(rows, games, strict=True):
        assert row[col["Game no."]] == game.number
        assert row[col["Dealer"]] == worked_table.dealer_of(game.number)
        assert row[col["Declarer"]] == game.declarer
        assert row[col["Declarer's name"]] == names[game.declarer]
        assert (row[col["Value"]], row[col["Score"]]) == (game.value, game.score)
        assert row[col["List points declarer"]] == game.list_declarer
        assert row[col["Result"]] == ("won" if game.is_won else "lost")
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == f"A1:AE{len(games) + 1}"
    assert {row[col["Status"]] for row in rows} == {None}
    # Per declarer the scores add up to the game points of the summary block.
    sheet = table_sheet(worked_table)
    for line in sheet.summary:
        assert line.game_points == sum(
            r[col["Score"]] for r in rows if r[col["Declarer"]] == line.seat
        )


@pytest.mark.parametrize(
    ("rules", "card_points", "schneider"),
    [
        ("ispa", 95, "x"),  # rules §1.3: schneider by card points, no box ticked
        ("ispa", 20, "x"),  # rules §1.3: the declarer schneider himself
        ("ispa", 75, None),
        ("na", 90, None),  # rules §3.3: no schneider at exactly 90 in NA
        ("na", 91, "x"),
    ],
)
def test_workbook_schneider_column_shows_the_outcome_by_card_points(
    tournament, named_series, rules, card_points, schneider
):
    """Issue 27, 3: the Schneider column showed the entry's checkbox, empty for a game
    that card points made schneider."""
    tournament.rules = rules
    tournament.save()
    table = named_series(NAMES[:3]).tables.get()
    game = (
        {"game": "clubs", "matadors": 1}
        if rules == "ispa"
        else {"game": "solo", "trump": "clubs", "matadors": 1}
    )
    enter(table, [{"declarer": 2, **game, "card_points": card_points}])
    ws = open_workbook(tournament)["Games"]
    header = next(ws.iter_rows(max_row=1, values_only=True))
    (row,) = data_rows(ws)
    assert row[header.index("Schneider")] == schneider
    assert row[header.index("Card points")] == card_points


def test_every_workbook_sheet_prints_with_title_date_and_repeated_header(tournament, worked_table):
    """Issue 27, 3: the workbook had no print setup."""
    tournament.name = "Herbst & Winter"
    tournament.save()
    book = open_workbook(tournament)
    for ws in book.worksheets:
        assert ws.print_title_rows == "$1:$1", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage is True
        assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0)
        assert ws.page_setup.paperSize == 9  # A4
        assert ws.oddHeader.left.text == "Herbst && Winter"  # "&" doubled: not a code
        assert ws.oddHeader.center.text == ws.title
        assert ws.oddHeader.right.text == tournament.date.strftime("%m/%d/%Y")
        assert ws.oddFooter.center.text == "Page &P of &N"
    assert book["Games"].page_setup.orientation == "landscape"
    assert book["Standings"].page_setup.orientation == "landscape"


def test_workbook_of_a_tournament_without_games(tournament):
    book = open_workbook(tournament)
    assert book.sheetnames == ["Standings", "Teams", "Games"]
    assert data_rows(book["Games"]) == []


def test_workbook_games_sheet_reads_back_cell_by_cell(tournament, worked_table):
    """The Games sheet (LeanRows) equals the same rows appended through openpyxl's API."""
    exporter = TournamentWorkbook(tournament)
    games = open_workbook(tournament)["Games"]
    workbook = Workbook(write_only=True)
    ws = workbook.create_sheet("Games")
    ws.append([column.title for column in exporter.game_columns()])
    for values in exporter.game_rows():
        ws.append([text_cell(ws, v) if isinstance(v, str) else v for v in values])
    buffer = io.BytesIO()
    workbook.save(buffer)
    expected = list(load_workbook(buffer)["Games"].iter_rows(values_only=True))
    assert len(expected) == 49
    assert list(games.iter_rows(values_only=True)) == expected


def parts(data: bytes) -> dict[str, bytes]:
    """The file's parts, uncompressed; the core properties without their time stamps."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    found = {name: archive.read(name) for name in archive.namelist()}
    found["docProps/core.xml"] = re.sub(
        rb"<dcterms:(created|modified)[^<]*</dcterms:\1>", b"", found["docProps/core.xml"]
    )
    return found


def test_workbook_parts_are_openpyxls_own_deflated_at_the_workbooks_level(
    tournament, worked_table
):
    """`workbook_save` writes the parts openpyxl's `Workbook.save` writes, byte for byte;
    only their compression (zlib level COMPRESS_LEVEL) differs."""
    ours = TournamentWorkbook(tournament).render()
    with mock.patch(
        "tournaments.exporters.workbook.workbook_save",
        lambda workbook, target: workbook.save(target),
    ):
        openpyxls = TournamentWorkbook(tournament).render()
    assert parts(ours) == parts(openpyxls)
    assert b"<dcterms:modified" in zipfile.ZipFile(io.BytesIO(ours)).read("docProps/core.xml")
    for info in zipfile.ZipFile(io.BytesIO(ours)).infolist():
        data = zipfile.ZipFile(io.BytesIO(ours)).read(info.filename)
        deflate = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
        assert info.compress_type == zipfile.ZIP_DEFLATED, info.filename
        assert info.compress_size == len(deflate.compress(data) + deflate.flush()), info.filename
    assert len(ours) > len(openpyxls)  # level 1 against openpyxl's (zlib's default, 6)


def test_names_that_look_like_formulas_stay_text(tournament, named_series):
    table = named_series(["=1+1", "+2", "-3", "@SUM(A1)"]).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    book = open_workbook(tournament)
    for sheet in ("Standings", "Series 1", "Games"):
        ws = book[sheet]
        texts = {c.value for row in ws.iter_rows(min_row=2) for c in row if c.data_type == "s"}
        assert {"=1+1", "+2", "-3"} <= texts, sheet
        assert not [c for row in ws.iter_rows() for c in row if c.data_type == "f"], sheet
    members = data_rows(book["Teams"])
    assert any("=1+1" in row[2] for row in members)


def test_workbook_marks_provisional_rows_and_leaves_disputed_games_out_of_the_sums(
    tournament, double_entry_table
):
    book = open_workbook(tournament)
    assert book.sheetnames == ["Standings", "Series 1", "Teams", "Games", "Penalties"]
    standings = tournament_standings(tournament)
    ws = book["Standings"]
    header = next(ws.iter_rows(max_row=1, values_only=True))
    col = {title: index for index, title in enumerate(header)}
    rows = data_rows(ws)
    assert len(standings) == 3 and all(r.provisional for r in standings)
    assert [row[col["Provisional"]] for row in rows[:3]] == ["*"] * 3
    assert rows[-1][0] == "* provisional: includes games entered at the table, not yet confirmed"
    assert ws.auto_filter.ref == "A1:L4"
    assert [row[col["Provisional"]] for row in data_rows(book["Series 1"])[:3]] == ["*"] * 3

    games = book["Games"]
    header = next(games.iter_rows(max_row=1, values_only=True))
    g = {title: index for index, title in enumerate(header)}
    first, second = data_rows(games)
    assert first[g["Status"]] == "provisional" and first[g["Score"]] == 72
    assert second[g["Status"]] == "disputed: does not count"
    assert second[g["Game"]] == "Clubs" or second[g["Trump"]] == "Clubs"
    assert second[g["Score"]] is None and second[g["List points declarer"]] is None
    # The Games sheet and the Penalties sheet add up to the Standings sheet's game points.
    penalties = data_rows(book["Penalties"])
    seat_1 = double_entry_table.seats.get(number=1).player.name
    assert penalties == [(1, 1, 1, seat_1, -10, "looked at the skat", None, None)]
    for row in standings:
        seat = double_entry_table.seats.get(player_id=row.player_id).number
        scores = sum(r[g["Score"]] or 0 for r in data_rows(games) if r[g["Declarer"]] == seat)
        fines = sum(p[4] for p in penalties if p[2] == seat)
        assert row.game_points == scores + fines, row.player_name


def test_workbook_series_sheet_is_the_series_standings_column_by_column(tournament, worked_table):
    """Every cell of a series sheet against its series' standings and against the rules §2
    worked sheet (seats 1–4 = A, B, C, D; game points, won, lost as in tests/helpers):
    others' lost = the table's 8 lost games less the player's own; list points = game
    points + 50 × won − 50 × lost + 30 × others' lost:
    A 492 + 600 − 0 + 240 = 1332; C 660 + 500 − 50 + 210 = 1320;
    B 628 + 600 − 100 + 180 = 1308; D −32 + 300 − 250 + 90 = 108."""
    book = open_workbook(tournament)
    ws = book["Series 1"]
    header = next(ws.iter_rows(max_row=1, values_only=True))
    column = {name: index for index, name in enumerate(header)}
    names = ("Rank", "Player", "Table", "Won", "Lost", "Others' lost", "Game points", "Points")
    shown = [tuple(row[column[name]] for name in names) for row in data_rows(ws)]
    computed = [
        (
            r.rank,
            r.player_name,
            r.series[1].table,
            r.won,
            r.lost,
            r.others_lost,
            r.game_points,
            r.list_points,
        )
        for r in series_standings(worked_table.series)
    ]
    assert shown == computed
    seat = {s.number: s.player.name for s in worked_table.seats.select_related("player")}
    assert shown == [
        (1, seat[1], 1, 12, 0, 8, 492, 1332),
        (2, seat[3], 1, 10, 1, 7, 660, 1320),
        (3, seat[2], 1, 12, 2, 6, 628, 1308),
        (4, seat[4], 1, 6, 5, 3, -32, 108),
    ]
