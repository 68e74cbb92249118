"""The score sheets and the table list (exporters/sheets.py) read back through a text extract
(pypdf): blank and filled sheets, the assignments by table and by name, the QR code.

The figures in the files must be those of the selectors that the HTML pages show.
"""

import io
import re

import pytest
import segno
from reportlab.pdfgen.canvas import Canvas

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.exporters.helpers import NAMES, pdf_pages
from tests.tournaments.helpers import enter
from tournaments.draw.services import series_draw
from tournaments.exporters.assignments import AssignmentsPdf
from tournaments.exporters.sheets import ScoreSheetsPdf, draw_qr
from tournaments.formats import surname_key
from tournaments.models import Tournament
from tournaments.sheets.selectors import table_sheet
from tournaments.sheets.services import table_close

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<![\d−-])\d+(?!\d)", text)}


# --------------------------------------------------------------------------------------
# Blank score sheets
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


# --------------------------------------------------------------------------------------
# Filled score sheets
# --------------------------------------------------------------------------------------


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


def test_the_five_table_sheet_prints_its_whole_penalty_line(na_five_table):
    """Issue 27, 3: at a 5-table the penalty line was cut after the second seat ("seat…")."""
    (text,) = pdf_pages(ScoreSheetsPdf.filled(na_five_table).render())
    flat = " ".join(text.split())
    assert (
        "Penalties (in the game points): seat 1: -10; seat 2: -20; seat 3: -30; "
        "seat 4: -40; seat 5: -50" in flat
    )
    assert "…" not in text


def test_a_sheet_closed_short_gives_its_reason(na_five_table):
    """Issue 27, 3: the PDF of a sheet closed before its length says so, and why."""
    reason = "Table 1 stopped early: a player was taken ill and the hall closed at midnight"
    table_close(table=na_five_table, short_reason=reason)
    na_five_table.refresh_from_db()
    (text,) = pdf_pages(ScoreSheetsPdf.filled(na_five_table).render())
    assert f"Closed short after 10 of 60 games: {reason}" in " ".join(text.split())


# --------------------------------------------------------------------------------------
# The table list (assignments)
# --------------------------------------------------------------------------------------


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
    # A–Z by surname, as a hall looks itself up ("Zoë Fuchs" before "Jörg Łukasz").
    positions = [by_name.index(name) for name in sorted(NAMES, key=surname_key)]
    assert positions == sorted(positions)
    assert sorted(NAMES, key=surname_key) != sorted(NAMES, key=str.casefold)
    for seat in series.seats.select_related("player", "table"):
        line = next(x for x in by_name.splitlines() if seat.player.name in x)
        assert line.split()[-2:] == [str(seat.table.number), str(seat.number)]


# --------------------------------------------------------------------------------------
# The QR code of a link
# --------------------------------------------------------------------------------------


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
