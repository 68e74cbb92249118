"""The seats' stored totals always equal a recomputation from the games.

Random sequences of every kind of sheet write (desk entry, corrections, deletions,
penalties, phone rows, a second keeper's copy, settlements, confirmations, a change of the
scoring settings) on a 4-table and a 3-table under double entry; after each write the
stored totals are compared with `seat_lines_from_games`.
"""

import contextlib
import uuid

import pytest
from django.db import transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.entry.services import (
    game_record_at_table,
    sheet_confirm,
    sheet_copy_record,
    sheet_settle,
)
from tournaments.errors import UserError
from tournaments.games import scores_recompute
from tournaments.models import Game, Penalty, Seat, Tournament
from tournaments.registry.services import tournament_update
from tournaments.sheets.selectors import seat_lines
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_record,
)
from tournaments.sheets.totals import seat_lines_from_games, seat_totals_rebuild

GAMES = [
    {"game": "grand", "matadors": 2, "card_points": 78},
    {"game": "grand", "matadors": 1, "card_points": 40},
    {"game": "hearts", "matadors": 1, "won": False},
    {"game": "clubs", "matadors": 3, "card_points": 95, "schneider": True},
    {"game": "null", "won": True},
    {"game": "diamonds", "matadors": 1, "card_points": 61, "bid": 30},  # overbid
    {"game": "passed"},
]

row = st.builds(
    lambda declarer, game: {
        **game,
        **({} if game["game"] == "passed" else {"declarer": declarer}),
    },
    st.integers(1, 4),
    st.sampled_from(GAMES),
)
operation = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 1), row),
    st.tuples(st.just("phone"), st.integers(0, 1), row),
    st.tuples(st.just("copy"), st.integers(0, 1), row),
    st.tuples(st.just("correct"), st.integers(0, 1), row),
    st.tuples(st.just("delete"), st.integers(0, 1), st.none()),
    st.tuples(st.just("penalty"), st.integers(0, 1), st.integers(-30, 30)),
    st.tuples(st.just("unpenalty"), st.integers(0, 1), st.none()),
    st.tuples(st.just("confirm"), st.integers(0, 1), st.none()),
    st.tuples(st.just("settle"), st.integers(0, 1), st.sampled_from(["first", "second"])),
    st.tuples(st.just("settings"), st.just(0), st.booleans()),
)


def _apply(op, tables, tournament):
    kind, index, arg = op
    table = tables[index]
    last = Game.objects.filter(table=table).order_by("-number").first()
    if kind == "record":
        game_record(table=table, data=arg)
    elif kind == "phone":
        game_record_at_table(table=table, data=arg, client_id=uuid.uuid4())
    elif kind == "copy":
        sheet_copy_record(table=table, data=arg, client_id=uuid.uuid4())
    elif kind == "correct" and last is not None:
        game_correct(game=last, data=arg, reason="test")
    elif kind == "delete" and last is not None:
        game_delete(game=last)
    elif kind == "penalty":
        penalty_record(table=table, seat=1 + abs(arg) % table.size, points=arg)
    elif kind == "unpenalty":
        penalty = Penalty.objects.filter(table=table).first()
        if penalty is not None:
            penalty_delete(penalty=penalty)
    elif kind == "confirm":
        sheet_confirm(table=table)
    elif kind == "settle":
        sheet_settle(table=table, choose=arg)
    elif kind == "settings":
        tournament_update(tournament=tournament, list_scoring=arg, bonus_won=40 if arg else 50)


def _assert_totals_agree(tournament):
    seats = Seat.objects.filter(series__tournament=tournament)
    assert seat_lines(seats) == seat_lines_from_games(seats)


@pytest.fixture
def two_tables(seated_series, tournament):
    tournament.double_entry = True
    tournament.save()
    series = seated_series(7)  # a 4-table and a 3-table
    return tournament, list(series.tables.order_by("-size"))


@settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation, min_size=1, max_size=25))
@pytest.mark.django_db
def test_stored_totals_equal_a_recomputation_after_random_writes(two_tables, operations):
    tournament, tables = two_tables
    with transaction.atomic():
        for op in operations:
            # A refused write changes nothing: the totals still agree.
            with contextlib.suppress(UserError):
                _apply(op, tables, tournament)
            _assert_totals_agree(tournament)
        transaction.set_rollback(True)


def test_rebuild_restores_totals_written_wrong(worked_table):
    tournament = worked_table.series.tournament
    expected = seat_lines(Seat.objects.filter(table=worked_table))
    Seat.objects.filter(table=worked_table).update(list_points=0, won=0, provisional=True)
    assert seat_totals_rebuild(tournament=tournament) == 4
    assert seat_lines(Seat.objects.filter(table=worked_table)) == expected


def test_recompute_scores_rebuilds_the_totals(worked_table):
    """The command recomputes the games and the totals in one go (a bonus changed behind
    the services' back, as a rules fix would)."""
    import io

    from django.core.management import call_command

    tournament = worked_table.series.tournament
    Tournament.objects.filter(pk=tournament.pk).update(bonus_won=40)
    call_command("recompute_scores", tournament.slug, stdout=io.StringIO())
    seats = Seat.objects.filter(table=worked_table)
    assert seat_lines(seats) == seat_lines_from_games(seats)
    # A: 492 game points, 12 won at 40, 0 lost, others lost 8 at 30.
    assert {line.seat: line.list_points for line in seat_lines(seats)}[1] == 492 + 12 * 40 + 8 * 30


def test_standings_read_no_games(worked_table):
    """The standings query the seats, never the games: a constant number of queries (the
    registrations, the series' and tables' numbers, the seats; each found through its
    index, so that the plan does not depend on the size of the database)."""
    from django.db import connection

    from tournaments.standings.selectors import tournament_standings

    tournament = worked_table.series.tournament
    with CaptureQueriesContext(connection) as queries:
        tournament_standings(tournament)
    assert len(queries) <= 4
    assert not any('"tournaments_game"' in q["sql"] for q in queries.captured_queries)


def test_scores_recompute_alone_leaves_totals_to_the_caller(worked_table):
    """`games.scores_recompute` rebuilds values only; its callers rebuild the totals in the
    same transaction (`recompute_scores`, `registry.services.tournament_update`)."""
    tournament = worked_table.series.tournament
    tournament_update(tournament=tournament, bonus_won=40)
    _assert_totals_agree(tournament)
    assert scores_recompute(tournament=tournament) == 48
    _assert_totals_agree(tournament)
