"""League fixtures (imported by leagues/conftest.py and the permissions matrix): two member
clubs, four teams, a match day at two venues.

- `league`: "Ostthüringer Liga" of `club` (the secretary's) and "Skatclub Zeitz"
  (`zeitz_secretary`); `other_club_secretary`'s club is not a member;
- `league_director`, `venue_secretary` (venue "Altenburg"), `venue_secretary_2` ("Zeitz");
- `league_season`: its season 2026/27; `teams`: Altenburg I, Altenburg II, Zeitz I,
  Zeitz II, each of four regulars and one substitute;
- `match_day`: a match day of 4-game series (short sheets) at two venues, Altenburg I and
  Zeitz I at "Altenburg", Altenburg II and Zeitz II at "Zeitz", regulars registered.
"""

import datetime

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.leagues.services import (
    league_create,
    league_season_create,
    match_day_create,
    roster_add,
    team_create,
    venue_create,
)


@pytest.fixture
def league_director(db):
    return UserFactory(username="director")


@pytest.fixture
def venue_secretary(db):
    return UserFactory(username="venue1")


@pytest.fixture
def venue_secretary_2(db):
    return UserFactory(username="venue2")


@pytest.fixture
def zeitz(db):
    return ClubFactory(name="Skatclub Zeitz")


@pytest.fixture
def zeitz_secretary(zeitz):
    user = UserFactory(username="zeitz")
    zeitz.secretaries.add(user)
    return user


@pytest.fixture
def league(club, zeitz, league_director):
    return league_create(
        name="Ostthüringer Liga", directors=[league_director], clubs=[club, zeitz]
    )


@pytest.fixture
def league_season(league):
    return league_season_create(league=league, name="Liga 2026/27", slug="liga-2026-27")


@pytest.fixture
def teams(league_season, club, zeitz):
    made = {}
    for team_club, prefix in ((club, "Altenburg"), (zeitz, "Zeitz")):
        for numeral in ("I", "II"):
            team = team_create(season=league_season, club=team_club, name=f"{prefix} {numeral}")
            for n in range(4):
                roster_add(
                    team=team, player=PlayerFactory(club=team_club, name=f"{team.name} P{n + 1}")
                )
            roster_add(
                team=team,
                player=PlayerFactory(club=team_club, name=f"{team.name} Ersatz"),
                substitute=True,
            )
            made[team.name] = team
    return made


@pytest.fixture
def match_day(league_season, teams, club, venue_secretary, venue_secretary_2):
    day = match_day_create(
        season=league_season,
        name="1. Spieltag",
        date=datetime.date(2026, 9, 19),
        club=club,
        slug="liga-1",
        published=True,
        games_per_series_4=4,
        games_per_series_3=3,
    )
    venue_create(
        tournament=day,
        name="Altenburg",
        teams=[teams["Altenburg I"], teams["Zeitz I"]],
        secretary=venue_secretary,
    )
    venue_create(
        tournament=day,
        name="Zeitz",
        teams=[teams["Altenburg II"], teams["Zeitz II"]],
        secretary=venue_secretary_2,
    )
    return day
