"""A table's sheet from its stored games: the seats' totals and the running sheet."""

import pytest

from tests.tournaments.helpers import enter
from tournaments.sheets.selectors import table_seat_totals, table_sheet

pytestmark = pytest.mark.django_db


def test_worked_example_of_rules_2(worked_table):
    totals = {t.seat: t for t in table_seat_totals(worked_table)}
    figures = {s: (t.game_points, t.won, t.lost, t.list_points) for s, t in totals.items()}
    assert figures == {
        1: (492, 12, 0, 1332),
        2: (628, 12, 2, 1308),
        3: (660, 10, 1, 1320),
        4: (-32, 6, 5, 108),
    }


def test_sheet_running_totals_and_summary(seated_series):
    table = seated_series(3).tables.get()
    enter(
        table,
        [
            {"declarer": 1, "game": "grand", "matadors": 1, "won": True},  # +48
            {"game": "passed"},
            {"declarer": 1, "game": "hearts", "matadors": 1, "won": False},  # −40
        ],
    )
    sheet = table_sheet(table)
    assert len(sheet.rows) == 36 and sheet.rows[0].running[1] == 48
    assert sheet.rows[2].running[1] == 8 and sheet.rows[3].game is None
    summary = {s.seat: s for s in sheet.summary}
    assert (summary[1].won_bonus, summary[1].lost_bonus) == (50, -50)
    assert summary[2].others_bonus == 40 and summary[2].list_points == 40  # rules §2: 3-table
    assert summary[1].list_points == 8 + 50 - 50
