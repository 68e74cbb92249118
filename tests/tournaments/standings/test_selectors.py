"""Standings from stored games: a tournament's, its teams', a season's, and a player's figures."""

import random
import uuid
from fractions import Fraction

import pytest

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import (
    GRAND_1,
    HEARTS_1,
    HEARTS_LOST,
    WORKED_EXAMPLE,
    enter,
    sheet_rows,
)
from tournaments import demo
from tournaments.draw.services import series_draw
from tournaments.entry.services import game_record_at_table
from tournaments.formats import format_match_points
from tournaments.leagues.selectors import match_day_points, season_tables
from tournaments.models import Player, Registration, Season, Table, Tournament
from tournaments.sheets.services import game_record, penalty_record
from tournaments.standings.selectors import (
    player_statistics,
    series_standings,
    series_standings_from,
    team_standings,
    tournament_standings,
)

pytestmark = pytest.mark.django_db


def test_standings_rank_by_list_points(worked_table):
    seat_of = {s.player_id: s.number for s in worked_table.seats.all()}
    standings = tournament_standings(worked_table.series.tournament)
    assert [seat_of[r.player_id] for r in standings] == [1, 3, 2, 4]
    assert [r.rank for r in standings] == [1, 2, 3, 4]
    assert standings[0].others_lost == 8 and standings[0].series[1].list_points == 1332


# A 4-table whose players tie in pairs (rules §2, 4-table: +50 won, −50 lost, +30 for each
# game the others lose). Only seat 2 loses a game, so the others each get 30 once.
GRAND_3 = {"game": "grand", "matadors": 3, "won": True}  # 4 × 24 = 96
GRAND_4 = {"game": "grand", "matadors": 4, "won": True}  # 5 × 24 = 120
HEARTS_8 = {"game": "hearts", "matadors": 8, "won": True}  # 9 × 10 = 90
TIED_PAIRS = {
    1: [GRAND_1, GRAND_1],  # 96 + 100 + 30 = 226, won 2 lost 0
    2: [GRAND_4, GRAND_3, HEARTS_LOST],  # 176 + 50 + 0 = 226, won 2 lost 1
    3: [HEARTS_1, HEARTS_1],  # 40 + 100 + 30 = 170, won 2
    4: [HEARTS_8],  # 90 + 50 + 30 = 170, won 1
}


def test_ties_break_by_won_then_lost_then_lot_then_name(tournament, club):
    players = [PlayerFactory(club=club) for _ in range(8)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    series = series_draw(tournament=tournament, seed=1)
    playing = series.tables.get(number=1)
    enter(playing, sheet_rows(TIED_PAIRS, 4))
    # Names run against every tie-break, so dropping any key from the order breaks this.
    for seat, name in zip((1, 2, 3, 4), ("Zita", "Yann", "Xaver", "Wilma"), strict=True):
        Player.objects.filter(seats__table=playing, seats__number=seat).update(name=name)
    # The other table plays nothing: all 0, only the lot and then the name separate them;
    # registered in the reverse order of their names.
    idle = series.tables.get(number=2).seats.values_list("player_id", flat=True)
    by_registration = list(
        Registration.objects.filter(player_id__in=idle)
        .order_by("pk")
        .values_list("player_id", flat=True)
    )
    for player_id, name in zip(by_registration, ("Dora", "Carl", "Bert", "Anna"), strict=True):
        Player.objects.filter(pk=player_id).update(name=name)
    Registration.objects.filter(player__name="Dora").update(lot=1)
    rows = tournament_standings(tournament)
    assert [(r.player_name, r.list_points, r.won, r.lost) for r in rows[:4]] == [
        ("Zita", 226, 2, 0),
        ("Yann", 226, 2, 1),  # same points and won: fewer lost first
        ("Xaver", 170, 2, 0),  # same points: more won first
        ("Wilma", 170, 1, 0),
    ]
    assert [r.player_name for r in rows[4:]] == ["Dora", "Anna", "Bert", "Carl"]
    # Anna, Bert and Carl are equal on every tie-break (no lot drawn): they share 6th place.
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6, 6, 6]


def test_category_filter(worked_table):
    worked_table.seats.get(number=4).player.__class__.objects.filter(
        seats__table=worked_table, seats__number=4
    ).update(category="ladies")
    rows = tournament_standings(worked_table.series.tournament, category="ladies")
    assert len(rows) == 1 and rows[0].list_points == 108


def test_team_standings_sum_or_best_n(worked_table):
    seats = {s.number: s.player for s in worked_table.seats.select_related("player")}
    for n, team in ((1, "Eins"), (2, "Eins"), (3, "Zwei"), (4, "Zwei")):
        seats[n].team = team
        seats[n].save()
    teams = team_standings(worked_table.series.tournament)
    assert [(t.team, t.list_points) for t in teams] == [("Eins", 2640), ("Zwei", 1428)]
    best = team_standings(worked_table.series.tournament, best_n=1)
    assert [(t.team, t.list_points) for t in best] == [("Eins", 1332), ("Zwei", 1320)]


def test_match_day_points_of_four_teams():
    # rules §4: four teams rank 3:0, 2:1, 1:2, 0:3.
    assert [match_day_points(r, 4) for r in (1, 2, 3, 4)] == [
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
    tables = season_tables(season)
    players, teams = tables.players, tables.teams
    assert tables.match_days == [day]
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
    series = series_draw(tournament=tournament, seed=2)
    for table in series.tables.all():
        game_record(table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    # The series, the registrations, the tables and the seats.
    with django_assert_max_num_queries(4):
        assert len(tournament_standings(tournament)) == 40


@pytest.mark.parametrize(
    ("rank", "teams", "tied", "points"),
    [
        # rules §4: four teams rank 3:0, 2:1, 1:2, 0:3.
        (1, 4, 1, (3, 0)),
        (4, 4, 1, (0, 3)),
        # Teams with equal points share the places they occupy (the average).
        (1, 4, 2, (Fraction(5, 2), Fraction(1, 2))),
        (3, 4, 2, (Fraction(1, 2), Fraction(5, 2))),
        (2, 4, 3, (1, 2)),
        (1, 4, 4, (Fraction(3, 2), Fraction(3, 2))),
        # Our generalisation of §4 to n teams: place r of n gets (n − r):(r − 1).
        (1, 3, 1, (2, 0)),
        (2, 5, 1, (3, 1)),
    ],
)
def test_match_day_points_share_tied_places(rank, teams, tied, points):
    assert match_day_points(rank, teams, tied=tied) == points


def _match_day(season, seated_series, per_seat, *, name, published=True):
    """A match day of four one-player teams T1–T4 (the team is the seat at table 1)."""
    day = TournamentFactory(club=season.club, season=season, name=name, published=published)
    table = seated_series(4, target=day).tables.get()
    enter(table, sheet_rows(per_seat, 4))
    for seat in table.seats.select_related("player"):
        seat.player.team = f"T{seat.number}"
        seat.player.save()
    return day


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="Liga 2026", slug="liga-2026")


def test_season_of_four_teams_ranks_3_0_to_0_3(season, seated_series):
    day = _match_day(season, seated_series, WORKED_EXAMPLE, name="1. Spieltag")
    standings = season_tables(season)
    # Worked example: seat 1 1332, seat 3 1320, seat 2 1308, seat 4 108.
    assert [
        (t.team, t.match_points_won, t.match_points_lost, t.list_points) for t in standings.teams
    ] == [("T1", 3, 0, 1332), ("T3", 2, 1, 1320), ("T2", 1, 2, 1308), ("T4", 0, 3, 108)]
    assert [d.tournament for d in standings.day_tables] == [day]
    assert [(r.rank, r.team) for r in standings.day_tables[0].teams] == [
        (1, "T1"),
        (2, "T3"),
        (3, "T2"),
        (4, "T4"),
    ]


def test_season_teams_tied_on_a_match_day_share_its_points(season, seated_series):
    plain = _match_day(season, seated_series, WORKED_EXAMPLE, name="1. Spieltag")
    tied = _match_day(season, seated_series, TIED_PAIRS, name="2. Spieltag")
    standings = season_tables(season)
    day_teams = {d.tournament.pk: d.teams for d in standings.day_tables}
    # Seats 1 and 2 tie at 226 (won 2:2, lost 0:1 do not split them), 3 and 4 at 170.
    assert [
        (
            r.rank,
            r.team,
            r.list_points,
            format_match_points(r.match_points_won, r.match_points_lost),
        )
        for r in day_teams[tied.pk]
    ] == [
        (1, "T1", 226, "2½:½"),
        (1, "T2", 226, "2½:½"),
        (3, "T3", 170, "½:2½"),
        (3, "T4", 170, "½:2½"),
    ]
    assert [
        (t.rank, t.team, format_match_points(t.match_points_won, t.match_points_lost))
        for t in standings.teams
    ] == [(1, "T1", "5½:½"), (2, "T2", "3½:2½"), (3, "T3", "2½:3½"), (4, "T4", "½:5½")]
    assert standings.teams[1].days[plain.slug].match_points_won == 1
    assert sum(t.match_points_won + t.match_points_lost for t in standings.teams) == 2 * 4 * 3


def test_season_counts_only_the_match_days_the_viewer_may_see(season, seated_series, secretary):
    shown = _match_day(season, seated_series, WORKED_EXAMPLE, name="1. Spieltag")
    hidden = _match_day(season, seated_series, WORKED_EXAMPLE, name="2. Spieltag", published=False)
    public = season_tables(season)
    assert public.match_days == [shown] and public.counted_days == [shown]
    assert len(public.players) == 4 and public.teams[0].match_points_won == 3
    club_view = season_tables(season, viewer=secretary)
    assert club_view.match_days == [shown, hidden]
    assert len(club_view.players) == 8 and club_view.teams[0].match_points_won == 6


def test_season_category_filters_players_not_teams(season, seated_series):
    day = TournamentFactory(club=season.club, season=season)
    table = seated_series(4, target=day).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    for seat in table.seats.select_related("player"):
        seat.player.team = "A" if seat.number <= 2 else "B"
        seat.player.category = "ladies" if seat.number == 4 else ""
        seat.player.save()
    everyone = season_tables(season)
    ladies = season_tables(season, category="ladies")
    assert [(p.name, p.list_points) for p in ladies.players] == [
        (table.seats.get(number=4).player.name, 108)
    ]
    team_figures = [
        (t.team, t.match_points_won, t.match_points_lost, t.list_points) for t in ladies.teams
    ]
    assert team_figures == [("A", 1, 0, 2640), ("B", 0, 1, 1428)]
    assert team_figures == [
        (t.team, t.match_points_won, t.match_points_lost, t.list_points) for t in everyone.teams
    ]


def test_season_players_rank_names_regardless_of_case(season, seated_series, club):
    day = TournamentFactory(club=club, season=season)
    table = seated_series(4, target=day).tables.get()
    # Seats 1 and 2 win a game each; seats 3 and 4 play the series without a game of their
    # own and end equal on every key (0 points, none won, none lost): the name orders them.
    # (A player registered but never seated has played no series: the season lists only
    # players with a series played.)
    enter(table, sheet_rows({1: [GRAND_1], 2: [GRAND_1]}, 4))
    for number, name in ((3, "Bert"), (4, "anna")):
        Player.objects.filter(pk=table.seats.get(number=number).player_id).update(name=name)
    players = season_tables(season).players
    assert [(p.name, p.list_points, p.won, p.lost) for p in players[-2:]] == [
        ("anna", 0, 0, 0),
        ("Bert", 0, 0, 0),
    ]


def test_seated_players_no_longer_registered_cost_no_extra_queries(
    django_assert_max_num_queries, tournament, roster
):
    for p in roster(40):
        RegistrationFactory(tournament=tournament, player=p)
    series = series_draw(tournament=tournament, seed=2)
    for table in series.tables.all():
        game_record(table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    Registration.objects.filter(tournament=tournament).delete()
    with django_assert_max_num_queries(7):
        rows = tournament_standings(tournament)
    assert len(rows) == 40 and sum(r.won for r in rows) == 10


def test_player_statistics_count_only_series_with_games(seated_series, tournament):
    table = seated_series(4).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    player = table.seats.get(number=1).player
    series_draw(tournament=tournament, seed=3)  # series 2: seated, nothing played
    stats = player_statistics(player)
    assert len(stats.history) == 2 and [h.line.series_number for h in stats.played] == [1]
    assert (stats.series_played, stats.games_played) == (1, 48)
    assert stats.average_list_points == 1332  # not (1332 + 0) / 2
    assert (stats.games_declared, stats.won, stats.lost) == (12, 12, 0)
    assert [(code, n, won, lost) for code, _label, n, won, lost in stats.by_type] == [
        ("grand", 9, 9, 0),
        ("hearts", 3, 3, 0),
    ]


def test_player_statistics_leave_out_unpublished_tournaments(
    seated_series, club, secretary, roster
):
    table = seated_series(4).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    player = table.seats.get(number=1).player
    draft = TournamentFactory(club=club, published=False)
    for p in (player, *roster(3)):
        RegistrationFactory(tournament=draft, player=p)
    draft_table = series_draw(tournament=draft, seed=1).tables.get()
    enter(draft_table, sheet_rows({draft_table.seats.get(player=player).number: [HEARTS_LOST]}, 4))
    public = player_statistics(player)
    assert (public.tournaments, public.series_played, public.list_points) == (1, 1, 1332)
    club_view = player_statistics(player, viewer=secretary)
    assert (club_view.tournaments, club_view.series_played) == (2, 2)
    assert Tournament.objects.count() == 2


@pytest.mark.parametrize("category", [None, "senior"])
def test_a_series_standings_taken_from_the_tournaments_are_the_series_own(club, category):
    """The series page takes its rows from the tournament's standings of the same version
    (`series_standings_from`): every field, rank and order as `series_standings` has them,
    with a provisional row, a penalty, a player seated but no longer registered, and a
    category."""
    tournament = demo.generate_tournament(
        club=club, players=14, series=3, seed=5, name="Derived", complete=False
    )
    for player in Player.objects.filter(registrations__tournament=tournament)[::3]:
        player.category = "senior"
        player.save(update_fields=["category"])
    open_table = Table.objects.filter(series__tournament=tournament, series__number=3).first()
    row = demo.random_game(
        random.Random(3),
        rules=tournament.rules,
        table_size=open_table.size,
        number=open_table.games.count() + 1,
    )
    game_record_at_table(table=open_table, data=row, client_id=uuid.uuid4())
    penalty_record(table=open_table, seat=2, points=-25, reason="Reizfehler")
    Registration.objects.filter(tournament=tournament).order_by("pk").first().delete()
    standings = tournament_standings(tournament, category=category)
    provisional = 0
    for series in tournament.series.order_by("number"):
        direct = series_standings(series, category=category)
        assert series_standings_from(standings, series.number) == direct
        provisional += sum(row.provisional for row in direct)
    assert provisional > 0
