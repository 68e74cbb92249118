"""Leagues, teams and rosters, match days at venues, confirming, closing a season."""

import datetime

import pytest

from tests.factories import PlayerFactory
from tests.tournaments.leagues.helpers import play_series
from tournaments.errors import UserError
from tournaments.leagues.selectors import match_day_table, season_tables
from tournaments.leagues.services import (
    MatchDayError,
    MatchDayPlayed,
    TeamError,
    VenuePlayed,
    match_day_confirm,
    match_day_create,
    match_day_substitute,
    match_days_restore,
    roster_add,
    roster_remove,
    rosters_restore,
    season_close,
    season_update,
    team_create,
    teams_restore,
    venue_create,
)
from tournaments.models import MatchDayConfirmation, Registration, RosterEntry, Season, Team

pytestmark = pytest.mark.django_db


class TestRosters:
    def test_a_player_on_two_rosters_is_refused_and_nothing_changes(self, teams):
        player = teams["Altenburg I"].roster.first().player
        before = RosterEntry.objects.count()
        with pytest.raises(UserError, match="already on the roster of Altenburg I"):
            roster_add(team=teams["Altenburg II"], player=player, substitute=True)
        assert RosterEntry.objects.count() == before

    def test_a_player_plays_for_a_team_of_their_own_club(self, teams, zeitz):
        with pytest.raises(UserError, match="not a member of Skatfreunde Altenburg"):
            roster_add(team=teams["Altenburg I"], player=PlayerFactory(club=zeitz))

    def test_the_roster_keeps_the_seasons_limits(self, teams, club):
        team = teams["Altenburg I"]
        with pytest.raises(UserError, match="4 regular players"):
            roster_add(team=team, player=PlayerFactory(club=club))
        roster_add(team=team, player=PlayerFactory(club=club), substitute=True)
        with pytest.raises(UserError, match="2 substitutes"):
            roster_add(team=team, player=PlayerFactory(club=club), substitute=True)

    def test_the_database_keeps_a_player_in_one_team_per_season(self, teams):
        from django.db import IntegrityError, transaction

        entry = teams["Altenburg I"].roster.first()
        with pytest.raises(IntegrityError), transaction.atomic():
            RosterEntry.objects.create(
                team=teams["Altenburg II"], season=entry.season, player=entry.player
            )

    def test_a_club_outside_the_league_has_no_team_in_it(self, league_season):
        from tests.factories import ClubFactory

        with pytest.raises(UserError, match="not a member club"):
            team_create(season=league_season, club=ClubFactory(), name="Gäste")
        assert not Team.objects.filter(name="Gäste").exists()

    def test_a_player_who_played_stays_on_the_roster(self, match_day, teams):
        play_series(match_day, close=False)
        entry = teams["Zeitz I"].roster.filter(substitute=False).first()
        with pytest.raises(UserError, match="has played for Zeitz I"):
            roster_remove(entry=entry)
        roster_remove(entry=teams["Zeitz I"].roster.get(substitute=True))


class TestVenuesAndTheDraw:
    def test_a_team_plays_at_one_venue_of_a_match_day(self, match_day, teams):
        with pytest.raises(UserError, match="already plays at Altenburg"):
            venue_create(tournament=match_day, name="Gera", teams=[teams["Altenburg I"]])

    def test_the_venues_register_the_regular_players(self, match_day, teams):
        registered = set(match_day.registrations.values_list("player__name", flat=True))
        assert len(registered) == 16
        assert not any(name.endswith("Ersatz") for name in registered)

    def test_each_venue_plays_its_own_teams_at_its_own_tables(self, match_day, teams):
        series = play_series(match_day, close=False)
        for table in series.tables.select_related("venue"):
            assert table.venue is not None
            venue_teams = set(table.venue.teams.values_list("name", flat=True))
            players_teams = {
                seat.player.roster_entries.get().team.name
                for seat in table.seats.select_related("player")
            }
            assert players_teams <= venue_teams
        assert series.tables.filter(venue__name="Altenburg").count() == 2
        assert series.tables.filter(venue__name="Zeitz").count() == 2

    def test_teams_are_kept_apart_at_a_venue_of_four_teams(self, league_season, club, zeitz):
        teams = []
        for n in range(4):
            team_club = club if n < 2 else zeitz
            team = team_create(season=league_season, club=team_club, name=f"T{n}")
            for _ in range(4):
                roster_add(team=team, player=PlayerFactory(club=team_club))
            teams.append(team)
        day = match_day_create(
            season=league_season, name="Tag", date=datetime.date(2026, 10, 1), club=club
        )
        venue_create(tournament=day, name="Halle", teams=teams)
        series = play_series(day, close=False)
        for table in series.tables.all():
            names = [s.player.roster_entries.get().team_id for s in table.seats.all()]
            assert len(set(names)) == 4

    def test_a_registered_player_of_no_venue_team_is_named(self, match_day, club):
        Registration.objects.create(
            tournament=match_day, player=PlayerFactory(club=club, name="Gast")
        )
        with pytest.raises(UserError, match="Gast plays for no team of a venue"):
            play_series(match_day)
        assert not match_day.series.exists()

    def test_a_substitute_plays_for_a_regular_of_the_same_team(self, match_day, teams):
        team = teams["Zeitz II"]
        regular = team.roster.filter(substitute=False).first().player
        substitute = team.roster.get(substitute=True).player
        other = teams["Zeitz I"].roster.get(substitute=True).player
        with pytest.raises(UserError, match="only for their own team"):
            match_day_substitute(tournament=match_day, out=regular, replacement=other)
        match_day_substitute(tournament=match_day, out=regular, replacement=substitute)
        names = set(match_day.registrations.values_list("player_id", flat=True))
        assert substitute.pk in names and regular.pk not in names


class TestMatchDayAndSeason:
    def test_the_match_day_ranks_all_teams_across_venues(self, match_day):
        play_series(match_day)
        table = match_day_table(match_day)
        assert [t.rank for t in table.teams] == sorted(t.rank for t in table.teams)
        assert {t.venue for t in table.teams} == {"Altenburg", "Zeitz"}
        points = [t.list_points for t in table.teams]
        assert points == sorted(points, reverse=True)
        # rules §4: four teams 3:0, 2:1, 1:2, 0:3 (no ties with these games)
        assert [(t.match_points_won, t.match_points_lost) for t in table.teams] == [
            (3, 0),
            (2, 1),
            (1, 2),
            (0, 3),
        ]
        assert table.provisional

    def test_provisional_until_the_director_confirms(self, match_day, league_director):
        play_series(match_day)
        before = season_tables(match_day.season)
        assert all(row.match_points_won == 0 for row in before.teams)
        assert before.day_tables[0].provisional
        match_day_confirm(tournament=match_day, user=league_director)
        after = season_tables(match_day.season)
        day = match_day_table(match_day)
        assert not day.provisional
        assert {r.team: r.match_points_won for r in after.teams} == {
            t.team: t.match_points_won for t in day.teams
        }
        assert [r.rank for r in after.teams] == [1, 2, 3, 4]

    def test_a_match_day_with_open_sheets_cannot_be_confirmed(self, match_day):
        play_series(match_day, close=False)
        with pytest.raises(UserError, match="still open: series 1 table 1 \\(Altenburg\\)"):
            match_day_confirm(tournament=match_day)
        assert not MatchDayConfirmation.objects.exists()

    def test_the_player_table_counts_the_best_series_above_the_minimum(self, match_day):
        play_series(match_day, seed=1)
        play_series(match_day, seed=2)
        match_day_confirm(tournament=match_day)
        season = season_update(season=match_day.season, best_series=1, min_series=2)
        tables = season_tables(season)
        for row in tables.players:
            assert row.series_played == 2 and row.series_counted == 1
        assert [r.rank for r in tables.players] == list(range(1, 17))
        season = season_update(season=season, min_series=3, best_series=None)
        tables = season_tables(season)
        assert {r.rank for r in tables.players} == {None}
        assert all(r.series_counted == 2 for r in tables.players)

    def test_closing_archives_the_final_tables_and_freezes_the_season(
        self, match_day, teams, club
    ):
        play_series(match_day)
        with pytest.raises(UserError, match="must confirm every match day"):
            season_close(season=match_day.season)
        match_day_confirm(tournament=match_day)
        live = season_tables(match_day.season)
        season = season_close(season=match_day.season)
        assert season.is_closed
        archived = season_tables(Season.objects.get(pk=season.pk))
        assert archived.archived
        assert [(r.team, r.match_points_won, r.list_points) for r in archived.teams] == [
            (r.team, r.match_points_won, r.list_points) for r in live.teams
        ]
        assert [(r.name, r.rank, r.list_points) for r in archived.players] == [
            (r.name, r.rank, r.list_points) for r in live.players
        ]
        before = RosterEntry.objects.count()
        for write in (
            lambda: roster_add(team=teams["Altenburg I"], player=PlayerFactory(club=club)),
            lambda: team_create(season=season, club=club, name="Neu"),
            lambda: season_update(season=season, min_series=1),
            lambda: season_close(season=season),
        ):
            with pytest.raises(UserError, match="is closed"):
                write()
        assert RosterEntry.objects.count() == before
        assert not Team.objects.filter(name="Neu").exists()


def test_todays_free_text_teams_become_team_entities(club, seated_series, tournament):
    """The data migration: a season's players' text teams become teams with rosters."""
    import importlib

    from django.apps import apps

    from tests.factories import TournamentFactory
    from tournaments.models import Player

    season = Season.objects.create(club=club, name="Liga", slug="liga")
    day = TournamentFactory(club=club, season=season)
    players = [PlayerFactory(club=club, team="Asse" if n < 2 else "Buben") for n in range(4)]
    for p in players:
        Registration.objects.create(tournament=day, player=p)
    PlayerFactory(club=club, team="Nicht dabei")
    migration = importlib.import_module("tournaments.migrations.0005_i11_teams_from_player_team")
    migration.teams_from_player_team(apps, None)
    assert sorted(season.teams.values_list("name", flat=True)) == ["Asse", "Buben"]
    asse = season.teams.get(name="Asse")
    assert set(asse.roster.values_list("player_id", flat=True)) == {p.pk for p in players[:2]}
    assert Player.objects.filter(team="Asse").count() == 2  # the text stays


def test_match_days_restore_names_the_day_and_venue_of_its_first_problem(match_day):
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    season = match_day.season
    taken = MatchDayPlayed(match_day, [VenuePlayed(name=" Zeitz ", teams=[], tables=[])], False)
    with pytest.raises(MatchDayError, match="Venue with this Tournament and Name") as caught:
        match_days_restore(season=season, days=[taken])
    assert (caught.value.day, caught.value.venue) == (0, 0)
    again = MatchDayPlayed(match_day, [], True)
    with pytest.raises(MatchDayError, match="already confirmed") as caught:
        match_days_restore(season=season, days=[MatchDayPlayed(match_day, [], False), again])
    assert (caught.value.day, caught.value.venue) == (1, None)


def test_teams_and_rosters_restored_together_name_the_team_of_their_first_problem(
    league_season, club, zeitz
):
    """A season document's teams: checked as `team_create` and `roster_add` check one, in
    order, the first problem naming its team's place; nothing written when refused."""
    with pytest.raises(TeamError, match="A team named Zeitz I already") as caught:
        teams_restore(
            season=league_season,
            teams=[(club, "Altenburg I"), (zeitz, "Zeitz I"), (zeitz, " Zeitz I ")],
        )
    assert caught.value.index == 2
    assert not Team.objects.filter(season=league_season).exists()
    made = teams_restore(
        season=league_season,
        teams=[(club, "Altenburg I"), (zeitz, "Zeitz I"), (club, "Altenburg II")],
    )
    assert [t.name for t in made] == ["Altenburg I", "Zeitz I", "Altenburg II"]
    assert all(t.pk is not None for t in made)
    anna, bert, carl = (PlayerFactory(club=club) for _ in range(3))
    zora = PlayerFactory(club=zeitz)
    with pytest.raises(TeamError, match="already on the roster of Altenburg I") as caught:
        rosters_restore(
            season=league_season,
            rosters=[(made[0], [(anna, False), (bert, True)]), (made[2], [(anna, False)])],
        )
    assert caught.value.index == 1
    with pytest.raises(TeamError, match="not a member of Skatclub Zeitz") as caught:
        rosters_restore(season=league_season, rosters=[(made[1], [(zora, False), (carl, False)])])
    assert caught.value.index == 0
    assert not RosterEntry.objects.filter(season=league_season).exists()
    rosters_restore(
        season=league_season,
        rosters=[(made[0], [(anna, False), (carl, True)]), (made[1], [(zora, False)])],
    )
    assert sorted(RosterEntry.objects.values_list("team__name", "player_id", "substitute")) == [
        ("Altenburg I", anna.pk, False),
        ("Altenburg I", carl.pk, True),
        ("Zeitz I", zora.pk, False),
    ]
