"""The people tests' cast: the site administrator, plus the league fixtures (a league of
`club` and Zeitz directed by `league_director`, a match day at two venues)."""

import pytest

from tests.factories import UserFactory
from tests.tournaments.leagues.fixtures import (  # noqa: F401 (fixtures)
    league,
    league_director,
    league_season,
    match_day,
    teams,
    venue_secretary,
    venue_secretary_2,
    zeitz,
    zeitz_secretary,
)


@pytest.fixture
def admin(db):
    return UserFactory(username="admin", is_superuser=True, is_staff=True)


@pytest.fixture
def altenburg_venue(request):
    return request.getfixturevalue("match_day").venues.get(name="Altenburg")
