"""A table's sheet from its stored games: the seats' totals and the running sheet."""

import pytest

from tests.factories import TournamentFactory
from tests.tournaments.helpers import enter
from tournaments.draw.services import series_draw
from tournaments.models import Game
from tournaments.sheets.selectors import games_of_tournament, table_seat_totals, table_sheet

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


def test_games_of_tournament_in_sheet_order_and_of_that_tournament_only(
    tournament, club, seated_series
):
    """Series, table, game number, whatever the order of entry; another tournament's
    games (entered in between) are not among them."""
    first = seated_series(7).tables.order_by("number")
    second = series_draw(tournament=tournament, seed=2).tables.order_by("number")
    other = TournamentFactory(club=club, name="Other", slug="other")
    elsewhere = seated_series(4, target=other).tables.get()
    assert [t.size for t in first] == [4, 3]
    for table in (second[1], elsewhere, first[1], second[0], first[0]):
        enter(table, [{"game": "passed"}] * 2)
    games = list(games_of_tournament(tournament))
    assert [(g.table.series.number, g.table.number, g.number) for g in games] == [
        (series, table, number) for series in (1, 2) for table in (1, 2) for number in (1, 2)
    ]
    assert {g.pk for g in games} == set(
        Game.objects.filter(table__series__tournament=tournament).values_list("pk", flat=True)
    )
