"""Standings, sheets, teams and seasons from stored games."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments import selectors, services
from tournaments.models import Registration, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def worked_table(seated_series):
    """rules §2 worked 4-table series, seats 1–4 = A, B, C, D."""
    table = seated_series(4).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    return table


def test_worked_example_of_rules_2(worked_table):
    totals = {t.seat: t for t in selectors.table_seat_totals(worked_table)}
    figures = {s: (t.game_points, t.won, t.lost, t.list_points) for s, t in totals.items()}
    assert figures == {
        1: (492, 12, 0, 1332),
        2: (628, 12, 2, 1308),
        3: (660, 10, 1, 1320),
        4: (-32, 6, 5, 108),
    }


def test_standings_rank_by_list_points(worked_table):
    seat_of = {s.player_id: s.number for s in worked_table.seats.all()}
    standings = selectors.tournament_standings(worked_table.series.tournament)
    assert [seat_of[r.player_id] for r in standings] == [1, 3, 2, 4]
    assert [r.rank for r in standings] == [1, 2, 3, 4]
    assert standings[0].others_lost == 8 and standings[0].series[1].list_points == 1332


def test_ties_break_by_won_then_lost_then_lot_then_name(tournament, club):
    players = [PlayerFactory(club=club, name=n) for n in ("Dora", "Carl", "Bert", "Anna")]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    series = services.series_draw(tournament=tournament, seed=1)
    table = series.tables.get()
    seat = {s.player.name: s.number for s in table.seats.select_related("player")}
    # Nobody declares at all: everyone 0; then only the lot and the name decide.
    Registration.objects.filter(player__name="Dora").update(lot=1)
    names = [r.player_name for r in selectors.tournament_standings(tournament)]
    assert names == ["Dora", "Anna", "Bert", "Carl"]
    assert seat  # seated


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
    sheet = selectors.table_sheet(table)
    assert len(sheet.rows) == 36 and sheet.rows[0].running[1] == 48
    assert sheet.rows[2].running[1] == 8 and sheet.rows[3].game is None
    summary = {s.seat: s for s in sheet.summary}
    assert (summary[1].won_bonus, summary[1].lost_bonus) == (50, -50)
    assert summary[2].others_bonus == 40 and summary[2].list_points == 40  # rules §2: 3-table
    assert summary[1].list_points == 8 + 50 - 50


def test_category_filter(worked_table):
    worked_table.seats.get(number=4).player.__class__.objects.filter(
        seats__table=worked_table, seats__number=4
    ).update(category="ladies")
    rows = selectors.tournament_standings(worked_table.series.tournament, category="ladies")
    assert len(rows) == 1 and rows[0].list_points == 108


def test_team_standings_sum_or_best_n(worked_table):
    seats = {s.number: s.player for s in worked_table.seats.select_related("player")}
    for n, team in ((1, "Eins"), (2, "Eins"), (3, "Zwei"), (4, "Zwei")):
        seats[n].team = team
        seats[n].save()
    teams = selectors.team_standings(worked_table.series.tournament)
    assert [(t.team, t.list_points) for t in teams] == [("Eins", 2640), ("Zwei", 1428)]
    best = selectors.team_standings(worked_table.series.tournament, best_n=1)
    assert [(t.team, t.list_points) for t in best] == [("Eins", 1332), ("Zwei", 1320)]


def test_match_day_points_of_four_teams():
    # rules §4: four teams rank 3:0, 2:1, 1:2, 0:3.
    assert [selectors.match_day_points(r, 4) for r in (1, 2, 3, 4)] == [
        (3, 0),
        (2, 1),
        (1, 2),
        (0, 3),
    ]


def test_season_adds_match_days(club, seated_series):
    season = Season.objects.create(club=club, name="Liga 2026", slug="liga-2026")
    day = TournamentFactory(club=club, season=season)
    table = seated_series(4, target=day).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    for seat in table.seats.select_related("player"):
        seat.player.team = "A" if seat.number <= 2 else "B"
        seat.player.save()
    days, players, teams = selectors.season_standings(season)
    assert days == [day]
    assert [p.list_points for p in players] == [1332, 1320, 1308, 108]
    assert [(t.team, t.match_points_won, t.match_points_lost) for t in teams] == [
        ("A", 1, 0),
        ("B", 0, 1),
    ]


def test_standings_take_a_fixed_number_of_queries(
    django_assert_max_num_queries, tournament, roster
):
    for p in roster(40):
        RegistrationFactory(tournament=tournament, player=p)
    series = services.series_draw(tournament=tournament, seed=2)
    for table in series.tables.all():
        services.game_record(
            table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True}
        )
    with django_assert_max_num_queries(6):
        assert len(selectors.tournament_standings(tournament)) == 40
