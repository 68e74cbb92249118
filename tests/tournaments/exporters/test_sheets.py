"""Exports open again: the workbook with openpyxl, the PDFs through a text extract (pypdf).

The figures in the files must be those of the selectors that the HTML pages show.
"""

import io
import re
import uuid
from decimal import Decimal

import pytest
import segno
from django.urls import reverse
from openpyxl import Workbook, load_workbook
from openpyxl.cell import WriteOnlyCell
from reportlab.pdfgen.canvas import Canvas

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.entry.services import game_record_at_table, sheet_copy_record
from tournaments.exporters.results import ResultsPdf
from tournaments.exporters.sheets import AssignmentsPdf, ScoreSheetsPdf, draw_qr
from tournaments.exporters.workbook import LeanRows, TournamentWorkbook, text_cell
from tournaments.models import Game, Series, Tournament
from tournaments.sheets.selectors import table_sheet
from tournaments.sheets.services import penalty_record
from tournaments.standings.selectors import series_standings, team_standings, tournament_standings

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db

# Every name needs a glyph beyond Latin-1 or an accent: ä ö ü ß ł é.
NAMES = [
    "Jörg Łukasz",
    "Renée Weiß",
    "Günter Voß",
    "Käthe Möller",
    "Zoë Fuchs",
    "Małgorzata Nowak",
    "François Lefèvre",
    "Rüdiger Strauß",
    "Sören Jäger",
    "Agnieszka Dąbrowska",
    "Heike Lößnitz",
]
TEAMS = ["Kreuz Bube", "Grand Hand"]


def pdf_pages(content: bytes, *, layout: bool = False) -> list[str]:
    """The text of each page (`layout`: a table row stays on one line)."""
    assert content.startswith(b"%PDF-")
    mode = "layout" if layout else "plain"
    return [
        page.extract_text(extraction_mode=mode)
        for page in pypdf.PdfReader(io.BytesIO(content)).pages
    ]


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<![\d−-])\d+(?!\d)", text)}


@pytest.fixture
def named_series(tournament, club):
    """Register players with the given names (teams alternate) and draw series 1."""

    def make(names, *, target=None):
        target = target or tournament
        for index, name in enumerate(names):
            player = PlayerFactory(club=club, name=name, team=TEAMS[index % 2])
            RegistrationFactory(tournament=target, player=player)
        return series_draw(tournament=target, seed=1)

    return make


@pytest.fixture
def worked_table(named_series):
    """rules §2 worked 4-table series, seats 1–4 = A, B, C, D (1332, 1308, 1320, 108)."""
    table = named_series(NAMES[:4]).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    return table


# --------------------------------------------------------------------------------------
# Workbook
# --------------------------------------------------------------------------------------


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
        )
        for r in tournament_standings(tournament)
    ]
    assert data_rows(ws) == expected
    assert [row[-2] for row in data_rows(ws)] == [1332, 1320, 1308, 108]
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == "A1:K5"
    assert ws["J2"].number_format == "#,##0;-#,##0;0"


def test_workbook_series_and_team_sheets(tournament, worked_table):
    book = open_workbook(tournament)
    series = [(row[1], row[-2]) for row in data_rows(book["Series 1"])]
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
    assert ws.auto_filter.ref == f"A1:AC{len(games) + 1}"
    assert {row[col["Status"]] for row in rows} == {None}
    # Per declarer the scores add up to the game points of the summary block.
    sheet = table_sheet(worked_table)
    for line in sheet.summary:
        assert line.game_points == sum(
            r[col["Score"]] for r in rows if r[col["Declarer"]] == line.seat
        )


def test_workbook_of_a_tournament_without_games(tournament):
    book = open_workbook(tournament)
    assert book.sheetnames == ["Standings", "Teams", "Games"]
    assert data_rows(book["Games"]) == []


def test_lean_rows_read_back_as_openpyxls_own_rows():
    """LeanRows writes below openpyxl's API: every cell must read back as if appended."""
    rows = [
        (1, -72, 0, None, "Jörg Łukasz", "=1+1", "+1", "-x", "@sum", "a & b <c> \"d\" 'e'"),
        (None, None, None, None, None, None, None, None, None, None),
        (2, 10**9, -(10**9), 7, " lead", "trail ", "ß\tü", "x", None, "Grand"),
    ]
    workbook = Workbook(write_only=True)
    plain = workbook.create_sheet("plain")
    header = [f"h{n}" for n in range(len(rows[0]))]
    plain.append(header)
    for row in rows:
        plain.append([text_cell(plain, v) if isinstance(v, str) else v for v in row])
    lean_ws = workbook.create_sheet("lean")
    lean = LeanRows(lean_ws, [WriteOnlyCell(lean_ws, value=title) for title in header])
    for row in rows:
        lean.append(row)
    assert lean.count == len(rows)
    lean.close()
    buffer = io.BytesIO()
    workbook.save(buffer)
    book = load_workbook(buffer)
    expected = list(book["plain"].iter_rows(values_only=True))
    assert expected[1][5] == "=1+1" and book["plain"]["F2"].data_type == "s"
    assert list(book["lean"].iter_rows(values_only=True)) == expected
    assert book["lean"]["F2"].data_type == "s"
    assert book["lean"].max_row == 4


def test_lean_rows_refuse_a_value_they_cannot_write():
    for value in (1.5, True, Decimal("1.00")):
        with pytest.raises(TypeError, match=type(value).__name__):
            LeanRows.cell("A2", value)


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


@pytest.fixture
def double_entry_table(tournament, named_series):
    """A 3-table under double entry: game 1 keyed alike on both phones (provisional), game 2
    keyed differently (disputed: clubs won +24 on one, lost on the other)."""
    tournament.double_entry = True
    tournament.save()
    table = named_series(NAMES[:3]).tables.get()
    grand = {"declarer": 2, "game": "grand", "matadors": 2, "won": True, "bid": 20}
    clubs = {"declarer": 3, "game": "clubs", "matadors": 1, "card_points": 70, "bid": 18}
    for number, first, second in ((1, grand, grand), (2, clubs, {**clubs, "card_points": 50})):
        game_record_at_table(table=table, data=first, client_id=uuid.uuid4(), number=number)
        sheet_copy_record(table=table, data=second, client_id=uuid.uuid4(), number=number)
    penalty_record(table=table, seat=1, points=-10, reason="looked at the skat")
    return table


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
    assert ws.auto_filter.ref == "A1:K4"
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
    assert penalties == [(1, 1, 1, seat_1, -10, "looked at the skat")]
    for row in standings:
        seat = double_entry_table.seats.get(player_id=row.player_id).number
        scores = sum(r[g["Score"]] or 0 for r in data_rows(games) if r[g["Declarer"]] == seat)
        fines = sum(p[4] for p in penalties if p[2] == seat)
        assert row.game_points == scores + fines, row.player_name


# --------------------------------------------------------------------------------------
# Score sheets
# --------------------------------------------------------------------------------------


def test_blank_sheets_one_page_per_table_with_names_rows_and_bonus_labels(named_series):
    series = named_series(NAMES)  # 11 players: two 4-tables and one 3-table (rules §4)
    tables = list(series.tables.order_by("number").prefetch_related("seats__player"))
    pages = pdf_pages(ScoreSheetsPdf.blank(series).render())
    assert len(pages) == len(tables) == 3
    for table, text in zip(tables, pages, strict=True):
        assert f"Series 1 · Table {table.number}" in text
        for seat in table.seats.all():
            assert seat.player.name in text
        rows = 48 if table.size == 4 else 36
        assert set(range(1, rows + 1)) <= numbers_in(text)
        assert rows + 1 not in numbers_in(text)
        others = 30 if table.size == 4 else 40
        for label in (
            "Game points",
            "Won games × 50",
            "Lost games × −50",
            f"Games lost by the others × {others}",
            "Total (list points)",
        ):
            assert label in text
    assert "Herbstpreisskat" in pages[0] and "Skatfreunde Altenburg" in pages[0]
    assert "Page 3 of 3" in pages[2]


def test_sheet_labels_use_the_tournaments_bonus_numbers(named_series, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        bonus_won=60, bonus_lost=40, bonus_others_4=25, games_per_series_4=32
    )
    tournament.refresh_from_db()
    series = named_series(NAMES[:4])
    series.tournament = tournament
    (text,) = pdf_pages(ScoreSheetsPdf.blank(series).render())
    assert "Won games × 60" in text and "Lost games × −40" in text
    assert "Games lost by the others × 25" in text
    assert 32 in numbers_in(text) and 33 not in numbers_in(text)


def test_sheet_without_list_scoring_has_a_plain_totals_block(named_series, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(list_scoring=False)
    tournament.refresh_from_db()
    (text,) = pdf_pages(ScoreSheetsPdf.blank(named_series(NAMES[:3])).render())
    assert "Won games" in text and "Total" in text
    assert "×" not in text


FIGURE = re.compile(r"[-−]?\d+")


def figures(tokens: list[str]) -> list[int]:
    return [int(token.replace("−", "-")) for token in tokens]


def sheet_lines(table) -> list[str]:
    """The filled sheet's text, a row per line (the form's labels and row numbers are not
    extracted: the game rows are the lines with a description, the summary the last lines
    of figures only)."""
    (text,) = pdf_pages(ScoreSheetsPdf.filled(table).render(), layout=True)
    return text.splitlines()


def game_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if " — " in line or "Passed" in line]


def seat_columns(lines: list[str], table) -> list[int]:
    """Where each seat's column starts in the extracted text (its name in the head)."""
    names = [s.player.name for s in table.seats.select_related("player").order_by("number")]
    (head,) = [line for line in lines if all(name in line for name in names)]
    return [head.index(name) for name in names]


def test_filled_sheet_shows_the_summary_of_the_selector(worked_table):
    lines = sheet_lines(worked_table)
    only_figures = [
        figures(line.split())
        for line in lines
        if line.split() and all(FIGURE.fullmatch(token) for token in line.split())
    ]
    summary = only_figures[-5:]
    seats = sorted(table_sheet(worked_table).summary, key=lambda line: line.seat)
    # By position: game points; won, won × 50; lost, lost × −50; others' lost, × 30; total.
    assert summary == [
        [line.game_points for line in seats],
        [figure for line in seats for figure in (line.won, line.won_bonus)],
        [figure for line in seats for figure in (line.lost, line.lost_bonus)],
        [figure for line in seats for figure in (line.others_lost, line.others_bonus)],
        [line.list_points for line in seats],
    ]
    # rules §2 worked series, seats 1–4 = A, B, C, D.
    assert summary[0] == [492, 628, 660, -32]
    assert summary[2] == [0, 0, 2, -100, 1, -50, 5, -250]
    assert summary[-1] == [1332, 1308, 1320, 108]


def test_filled_sheet_running_totals_are_the_sums_of_the_scores(worked_table):
    lines = sheet_lines(worked_table)
    columns = seat_columns(lines, worked_table)
    rows = game_lines(lines)
    games = list(worked_table.games.order_by("number"))
    assert len(rows) == len(games) == 48
    running = dict.fromkeys(range(1, 5), 0)
    for line, game in zip(rows, games, strict=True):
        running[game.declarer] += game.score
        value, score, total = figures(line.split()[-3:])
        assert (value, score, total) == (game.value, game.score, running[game.declarer])
        end = line.rindex(line.split()[-1]) + len(line.split()[-1])
        assert max(i for i, start in enumerate(columns, 1) if start < end) == game.declarer
    assert "Grand, with 2" in "\n".join(rows)


def test_filled_sheet_marks_provisional_and_disputed_rows(double_entry_table):
    lines = sheet_lines(double_entry_table)
    text = "\n".join(lines)
    first, second = game_lines(lines)
    # Game 1: provisional, counts; game 2: disputed, its score in brackets, in no total.
    assert first.split()[0] == "*" and figures(first.split()[-3:]) == [72, 72, 72]
    assert second.split()[0] == "≠" and second.split()[-1] == "(24)"
    assert "Games marked * were entered at the table" in text.replace("\n", " ")
    summary = {line.seat: line for line in table_sheet(double_entry_table).summary}
    assert summary[3].game_points == 0


def test_filled_sheet_of_a_north_american_table(na_tournament, named_series):
    table = named_series(NAMES[:3], target=na_tournament).tables.get()
    enter(table, [{"declarer": 2, "game": "solo", "trump": "hearts", "matadors": 3, "won": True}])
    (text,) = pdf_pages(ScoreSheetsPdf.filled(table).render())
    line = {s.seat: s for s in table_sheet(table).summary}[2]
    assert line.list_points in numbers_in(text) and "Total" in text and "×" not in text


# --------------------------------------------------------------------------------------
# Results list and assignments
# --------------------------------------------------------------------------------------


def test_results_list_has_every_player_in_order_and_page_numbers(tournament, club):
    names = [f"{n} Spieler {i:02d}" for i, n in enumerate(NAMES * 8)]
    for name in names:
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    series = series_draw(tournament=tournament, seed=3)
    table = series.tables.order_by("number").first()
    enter(table, sheet_rows(WORKED_EXAMPLE, table.size)[:10])
    pages = pdf_pages(ResultsPdf(tournament).render())
    assert len(pages) == 2
    assert "Page 1 of 2" in pages[0] and "Page 2 of 2" in pages[1]
    assert all("Player" in page and "Points" in page for page in pages)  # repeated header
    text = "\n".join(pages)
    standings = tournament_standings(tournament)
    positions = [text.index(row.player_name) for row in standings]
    assert positions == sorted(positions) and len(standings) == len(names)
    lines = "\n".join(pdf_pages(ResultsPdf(tournament).render(), layout=True)).splitlines()
    for row in standings[:12]:
        (line,) = [x for x in lines if row.player_name in x]
        cells = line.split()
        assert cells[0] == str(row.rank) and cells[-1] == str(row.list_points)
        assert cells[-3:-1] == [str(row.won), str(row.lost)]


def test_results_list_of_a_category(worked_table, tournament):
    seat = worked_table.seats.select_related("player").get(number=4)
    seat.player.category = "ladies"
    seat.player.save()
    (text,) = pdf_pages(ResultsPdf(tournament, category="ladies").render())
    assert "Results – Ladies" in text and seat.player.name in text
    others = [s.player.name for s in worked_table.seats.exclude(number=4)]
    assert not any(name in text for name in others)


def test_results_list_marks_provisional_rows(tournament, double_entry_table):
    text = "\n".join(pdf_pages(ResultsPdf(tournament).render(), layout=True))
    lines = text.splitlines()
    for row in tournament_standings(tournament):
        (line,) = [x for x in lines if row.player_name in x]
        assert line.split()[-1] == f"{row.list_points}*"
    assert "* provisional: includes games entered at the table, not yet confirmed" in text


def test_results_heading_counts_closed_series(tournament, worked_table):
    def heading():
        return pdf_pages(ResultsPdf(tournament).render())[0].splitlines()

    assert "Results (series 1 in play)" in heading()
    Series.objects.filter(pk=worked_table.series_id).update(status=Series.Status.CLOSED)
    assert "Results after 1 series" in heading()
    series_draw(tournament=tournament, seed=2)
    assert "Results after 1 series (series 2 in play)" in heading()


def test_assignment_list_fits_long_team_names(tournament, club):
    team = "Skatfreunde Kreuz Bube Altenburg"
    for name in NAMES[:4]:
        player = PlayerFactory(club=club, name=name, team=team)
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, seed=1)
    text = pdf_pages(AssignmentsPdf(series).render())[0]
    assert text.count(team) == 4


def test_assignment_list_by_table_and_by_name(named_series):
    series = named_series(NAMES)
    text = "\n".join(pdf_pages(AssignmentsPdf(series).render(), layout=True))
    assert "Series 1 — Tables" in text and "Series 1 — Players A–Z" in text
    by_name = text[text.index("Players A–Z") :]
    positions = [by_name.index(name) for name in sorted(NAMES, key=str.casefold)]
    assert positions == sorted(positions)
    for seat in series.seats.select_related("player", "table"):
        line = next(x for x in by_name.splitlines() if seat.player.name in x)
        assert line.split()[-2:] == [str(seat.table.number), str(seat.number)]


# --------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def public_downloads(slug):
    return [
        (reverse("export_standings_pdf", kwargs={"tournament": slug}), PDF, f"{slug}-results.pdf"),
        (reverse("export_workbook", kwargs={"tournament": slug}), XLSX, f"{slug}.xlsx"),
        (
            reverse("export_table_sheet", kwargs={"tournament": slug, "series": 1, "table": 1}),
            PDF,
            f"{slug}-series-1-table-1.pdf",
        ),
    ]


def manage_downloads(slug):
    kwargs = {"tournament": slug, "series": 1}
    return [
        (
            reverse("manage:export_blank_sheets", kwargs=kwargs),
            PDF,
            f"{slug}-series-1-sheets.pdf",
        ),
        (reverse("manage:export_assignments", kwargs=kwargs), PDF, f"{slug}-series-1-tables.pdf"),
    ]


def test_public_downloads(client, tournament, worked_table):
    for url, content_type, filename in public_downloads(tournament.slug):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == content_type
        assert response["Content-Disposition"] == f'attachment; filename="{filename}"'


def test_results_pdf_view_takes_the_category(client, tournament, worked_table):
    url = reverse("export_standings_pdf", kwargs={"tournament": tournament.slug})
    response = client.get(url, {"category": "ladies"})
    assert response["Content-Disposition"].endswith('-results-ladies.pdf"')
    assert client.get(url, {"category": "bogus"}).status_code == 200


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 404), ("player", 404), ("other_club_secretary", 404), ("secretary", 200)],
)
def test_downloads_of_an_unpublished_tournament(who, status, request, client_for, tournament):
    tournament.published = False
    tournament.save()
    request.getfixturevalue("worked_table")
    client = client_for(request.getfixturevalue(who))
    for url, _type, _name in public_downloads(tournament.slug):
        assert client.get(url).status_code == status, url


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", 200)],
)
def test_blank_sheets_and_assignments_are_for_the_secretaries(
    who, status, request, client_for, tournament, worked_table
):
    client = client_for(request.getfixturevalue(who))
    for url, content_type, filename in manage_downloads(tournament.slug):
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(reverse("login"))
        if status == 200:
            assert response["Content-Type"] == content_type
            assert filename in response["Content-Disposition"]


def test_downloads_of_an_unknown_series_or_table_are_404(client, tournament, worked_table):
    slug = tournament.slug
    url = reverse("export_table_sheet", kwargs={"tournament": slug, "series": 1, "table": 9})
    assert client.get(url).status_code == 404
    url = reverse("export_table_sheet", kwargs={"tournament": slug, "series": 2, "table": 1})
    assert client.get(url).status_code == 404


def test_the_qr_code_is_drawn_module_by_module():
    """draw_qr's rectangles, in module units, rebuild segno's matrix of the link (read by a
    phone: checked by hand with zbarimg; here the drawing is checked against the symbol)."""
    url = "https://x.test/entry/abcdefghijklmnopqrstuvwxyz012345/"
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.setPageCompression(0)
    draw_qr(canvas, url, 20, 30, 100)
    canvas.save()
    content = pypdf.PdfReader(buffer).pages[0].get_contents().get_data().decode()
    drawn = set()
    for start, row, length in re.findall(r"(\d+) (\d+) (\d+) 1 re", content):
        drawn |= {(int(row), int(start) + n) for n in range(int(length))}
    matrix = list(segno.make(url, error="m", mask=0).matrix_iter(scale=1, border=0))
    dark = {(r, c) for r, line in enumerate(matrix) for c, on in enumerate(line) if on}
    assert drawn == dark
    modules = len(matrix)
    # Module units scaled to 100 pt, rows downwards from the top-left corner (20, 130).
    assert re.search(rf"{100 / modules:.6g}\S* 0 0 -{100 / modules:.6g}\S* 20 130 cm", content)
