"""The demo league: eight teams of four clubs, three match days, one at two venues."""

import pytest

from tournaments import demo
from tournaments.leagues.selectors import season_tables
from tournaments.models import Club, League, Season, Tournament, Venue

pytestmark = pytest.mark.django_db


def test_the_demo_league_plays_a_match_day_at_two_venues():
    result = demo.demo_create()["league"]
    season = result["season"]
    assert season.teams.count() == 8
    assert season.teams.values("club").distinct().count() == 4
    days = list(season.tournaments.order_by("date"))
    assert len(days) == 3
    assert [d.venues.count() for d in days] == [1, 2, 1]
    second = days[1]
    for venue in second.venues.all():
        teams = set(venue.teams.values_list("pk", flat=True))
        for table in venue.tables.all():
            seated = {s.player.roster_entries.get().team_id for s in table.seats.all()}
            assert seated == teams  # four teams at the venue, one of each at every table
    tables = season_tables(season)
    assert [t.provisional for t in tables.day_tables] == [False, True]
    assert sum(t.match_points_won for t in tables.teams) == 28  # one counted day of 8 teams
    assert season.league.directors.filter(username="director").exists()
    assert second.venues.get(name="Gera").secretary.username == "venue-gera"


def test_removing_the_demo_removes_the_league():
    demo.demo_create()
    assert demo.demo_delete()
    assert not League.objects.exists() and not Season.objects.exists()
    assert not Tournament.objects.exists() and not Venue.objects.exists()
    assert not Club.objects.exists()
