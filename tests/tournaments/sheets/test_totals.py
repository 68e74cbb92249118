"""The seats' stored totals always equal a recomputation from the games.

Random sequences of every kind of sheet write (desk entry, corrections, deletions,
penalties, phone rows, a second keeper's copy, settlements, confirmations, a change of the
scoring settings) on a 4-table and a 3-table under double entry; after each write the
stored totals are compared with `seat_lines_from_games`. The one computation of a seat's
figures (`seat_figures`) is checked against the rules restated seat by seat, and the
second keeper's sheet against the desk's.
"""

import contextlib
import uuid
from types import SimpleNamespace

import pytest
from django.db import transaction
from django.db.models import Count, Q
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.entry.selectors import copy_sheet
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
from tournaments.sheets.selectors import TOTAL_FIELDS, disputed_games, seat_lines, table_sheet
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_record,
)
from tournaments.sheets.totals import (
    SeatFigures,
    seat_figures,
    seat_lines_from_games,
    seat_totals_rebuild,
)

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
    assert_declared_counted(seats)


def declared_counted(seats) -> dict[int, dict[str, list[int]]]:
    """Seat id → its declared games by type counted from the games in SQL, apart from
    `seat_figures`: the games at its table with it as the declarer, neither passed in nor
    ramsch, and not disputed under double entry."""
    disputed = disputed_games(seats.values("table_id"))
    counted: dict[int, dict[str, list[int]]] = {seat.pk: {} for seat in seats}
    for seat in seats:
        rows = (
            Game.objects.filter(table_id=seat.table_id, declarer=seat.number)
            .exclude(game__in=["passed", "ramsch"])
            .exclude(pk__in=disputed.get(seat.table_id, set()))
            .values("game")
            .annotate(n=Count("id"), won=Count("id", filter=Q(is_won=True)))
            .annotate(lost=Count("id", filter=Q(is_lost=True)))
            .order_by()
        )
        counted[seat.pk] = {r["game"]: [r["n"], r["won"], r["lost"]] for r in rows}
    return counted


def assert_declared_counted(seats):
    stored = dict(seats.values_list("pk", "declared"))
    assert stored == declared_counted(seats)


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


# -- one computation of a seat's figures (`totals.seat_figures`) -------------------------

game_figures = st.builds(
    lambda declarer, tie, won, score, list_declarer, list_others, provisional, game: (
        SimpleNamespace(
            game="passed" if declarer is None else game,
            declarer=declarer,
            ramsch_tie=tie if declarer is not None and tie != declarer else None,
            score=score,
            is_won=won is True,
            is_lost=won is False,
            list_declarer=list_declarer,
            list_others=list_others,
            provisional=provisional,
        )
    ),
    st.none() | st.integers(1, 4),
    st.none() | st.integers(1, 4),
    st.none() | st.booleans(),  # None: a passed-in deal, neither won nor lost
    st.integers(-600, 600),
    st.integers(-700, 700),
    st.sampled_from([0, 30, 40]),
    st.booleans(),
    st.sampled_from(["grand", "clubs", "null", "ramsch"]),
)
fines = st.lists(
    st.builds(SimpleNamespace, seat=st.integers(1, 4), points=st.integers(-50, 50)), max_size=4
)


@settings(max_examples=300, deadline=None, database=None)
@given(games=st.lists(game_figures, max_size=48), penalties=fines)
def test_seat_figures_are_each_seats_own_sums_and_the_others_losses(games, penalties):
    """The seat's figures restated seat by seat (rules §2): its own games (declared, or
    tied in a ramsch) give their declarer figures, the others' games their `list_others`."""
    figures = seat_figures(size=4, games=games, penalties=penalties)
    for seat in range(1, 5):
        own = [g for g in games if seat in (g.declarer, g.ramsch_tie)]
        others = [g for g in games if seat not in (g.declarer, g.ramsch_tie)]
        fine = sum(p.points for p in penalties if p.seat == seat)
        assert figures[seat] == SeatFigures(
            game_points=sum(g.score for g in own) + fine,
            won=sum(g.is_won for g in own),
            lost=sum(g.is_lost for g in own),
            others_lost=sum(g.is_lost for g in others),
            list_points=sum(g.list_declarer for g in own)
            + sum(g.list_others for g in others)
            + fine,
            penalties=fine,
            games_played=len(games),
            provisional=any(g.provisional for g in games),
            declared={
                kind: [
                    len(mine := [g for g in games if g.declarer == seat and g.game == kind]),
                    sum(g.is_won for g in mine),
                    sum(g.is_lost for g in mine),
                ]
                for kind in {g.game for g in games if g.declarer == seat}
                if kind not in ("passed", "ramsch")
            },
        )


def test_seat_figures_come_in_the_order_of_the_stored_totals():
    assert SeatFigures._fields == TOTAL_FIELDS


def test_the_second_copys_summary_is_the_desks_for_the_same_rows(double):
    """Both copies keyed alike: the second keeper's sheet shows the desk's running totals
    and Seeger-Fabian block (one layout, `sheets.selectors.sheet_of`)."""
    rows = [
        {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78},
        {"declarer": 3, "game": "hearts", "matadors": 1, "won": False},
        {"game": "passed"},
        {"declarer": 1, "game": "null", "won": True},
    ]
    for data in rows:
        game_record(table=double, data=data)
        sheet_copy_record(table=double, data=data, client_id=uuid.uuid4())
    penalty_record(table=double, seat=3, points=-10)
    desk, copy = table_sheet(double, blank_rows=False), copy_sheet(double)
    assert copy.summary == desk.summary
    assert [r.running for r in copy.rows] == [r.running for r in desk.rows]
    assert [r.sitting_out for r in copy.rows] == [r.sitting_out for r in desk.rows]
    lines = {line.seat: line for line in seat_lines(Seat.objects.filter(table=double))}
    assert {s.seat: s.list_points for s in copy.summary} == {
        seat: line.list_points for seat, line in lines.items()
    }
