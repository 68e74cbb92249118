"""Fixtures of the score-sheet tests: `closed_table`, the 4-table of tests/tournaments/conftest.py
(`table`) with two games and a penalty, closed."""

import pytest

from tournaments.registry.services import tournament_update
from tournaments.sheets.services import game_record, penalty_record, table_close


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
