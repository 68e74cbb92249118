"""The people tests' cast: the site administrator (the league fixtures, a league of `club`
and Zeitz directed by `league_director` with a match day at two venues, come from
tests/tournaments/conftest.py)."""

import pytest

from tests.factories import UserFactory


@pytest.fixture
def admin(db):
    return UserFactory(username="admin", is_superuser=True, is_staff=True)


@pytest.fixture
def altenburg_venue(request):
    return request.getfixturevalue("match_day").venues.get(name="Altenburg")
