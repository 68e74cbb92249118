"""Each seat's stored declared games by type (`Seat.declared`, written with the seat's
totals by `sheets.totals`) equal a count of its table's games in SQL after every kind of
write: entry, correction, deletion, a sheet reopened and corrected, a series reopened, an
import, and the migration that adds them. (Random sequences of sheet writes check the same
in test_totals.py.)"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tests.tournaments.interchange.documents import contract_example
from tests.tournaments.sheets.test_totals import assert_declared_counted, declared_counted
from tournaments.draw.services import series_close, series_reopen
from tournaments.interchange import import_document
from tournaments.models import Game, Seat
from tournaments.sheets.services import game_correct, game_delete, table_close, table_reopen

pytestmark = pytest.mark.django_db


def _seats(table):
    return Seat.objects.filter(table=table)


def test_the_worked_example_stores_each_seats_declared_games(worked_table):
    declared = dict(_seats(worked_table).values_list("number", "declared"))
    # rules §2 worked example: A declared 9 grands and 3 hearts, all won.
    assert declared[1] == {"grand": [9, 9, 0], "hearts": [3, 3, 0]}
    assert sum(n for n, _won, _lost in declared[2].values()) == 14
    assert_declared_counted(_seats(worked_table))


def test_a_correction_and_a_deletion_move_the_declared_games(worked_table):
    grand = Game.objects.filter(table=worked_table, declarer=1, game="grand").first()
    game_correct(
        game=grand,
        data={"declarer": 1, "game": "clubs", "matadors": 1, "card_points": 70},
        reason="test",
    )
    declared = _seats(worked_table).get(number=1).declared
    assert declared["grand"] == [8, 8, 0] and declared["clubs"] == [1, 1, 0]
    assert_declared_counted(_seats(worked_table))
    game_delete(game=Game.objects.filter(table=worked_table).order_by("-number").first())
    assert_declared_counted(_seats(worked_table))


def test_a_reopened_sheet_and_series_keep_the_declared_games(table):
    rows = sheet_rows(WORKED_EXAMPLE, 4)
    enter(table, rows[:12])
    series = table.series
    table_close(table=table, short_reason="the hall closed")
    table_reopen(table=table, reason="more games")
    enter(table, rows[12:24])
    assert_declared_counted(_seats(table))
    table_close(
        table=table,
        short_reason="the hall closed",
        paper_totals={1: 0},
        accept_differences=True,
    )
    series_close(series=series)
    series_reopen(series=series, reason="late correction")
    table_reopen(table=table, reason="late correction")
    game_delete(game=Game.objects.filter(table=table).order_by("-number").first())
    assert_declared_counted(_seats(table))
    assert sum(n for seat in _seats(table) for n, _w, _l in seat.declared.values()) == 23


def test_an_import_stores_the_declared_games():
    tournament = import_document(contract_example())
    seats = Seat.objects.filter(series__tournament=tournament)
    # The contract's example: a grand won by seat 2, a passed-in deal, a null ouvert lost.
    assert dict(seats.values_list("number", "declared"))[2] == {"grand": [1, 1, 0]}
    assert_declared_counted(seats)


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_declared_games(worked_table):
    seats = Seat.objects.filter(table=worked_table)
    counted = declared_counted(seats)
    assert any(counted.values())
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    graph = executor.loader.graph
    # The migration that adds the column, found by name (later ones renumber nothing here).
    ours = next(
        node
        for node in graph.nodes
        if node[0] == "tournaments" and node[1].endswith("_careerspeed")
    )
    before = graph.node_map[ours].parents
    executor.migrate([next(iter(before)).key])  # the column is dropped
    executor = MigrationExecutor(connection)
    executor.migrate(latest)
    assert dict(seats.values_list("pk", "declared")) == counted
