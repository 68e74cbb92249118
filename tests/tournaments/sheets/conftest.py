"""Fixtures of the score-sheet tests: a 4-table (`table`) and the same table with two games
and a penalty, closed (`closed_table`)."""

import pytest

from tournaments.models import Table
from tournaments.registry.services import tournament_update
from tournaments.sheets.services import game_record, penalty_record, table_close


@pytest.fixture
def table(seated_series) -> Table:
    """Series 1 with one 4-table: seat 1 deals game 1 and sits out."""
    return seated_series(4).tables.get()


@pytest.fixture
def closed_table(table):
    tournament = table.series.tournament
    tournament_update(tournament=tournament, games_per_series_4=2)
    grand = {"game": "grand", "matadors": 2, "card_points": 78}
    game_record(table=table, data={"declarer": 2, **grand})
    game_record(table=table, data={"declarer": 3, **grand})
    penalty_record(table=table, seat=1, points=-10)
    table_close(table=table)
    table.refresh_from_db()
    assert table.closed
    return table
