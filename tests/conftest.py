"""The named cast of fixtures shared by every test (STYLE.md habit 12).

- `secretary`: signed-in-able user who manages `club`;
- `other_club_secretary`: manages another club;
- `player`: a user without any club to manage;
- `anonymous`: nobody signed in.
`club`, `tournament` (ISPA, published, list scoring) and `players` (a roster) belong to the
secretary's club. `seated_series(n)` registers n players and draws series 1.
"""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import translation

from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.draw.services import series_draw


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Users are created with a one-round hash: the site's PBKDF2 (a million rounds) took
    0.4–0.5 s a user, which was 65 of the 81 s of tests/tournaments/test_permissions.py.
    Django's documentation recommends this for tests ("Speeding up the tests"); signing in
    works the same. Processes the tests start (manage.py) keep the site's hashers."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the default language (a /de/ request leaves German active)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def no_page_cache(settings):
    """Tests write rows directly (factories, `.save()`), past the services that bump a
    tournament's version: the shared page cache is off unless a test asks for `page_cache`
    (tests/tournaments/standings/test_caching.py). ETags stay on."""
    settings.PAGE_CACHE = False


@pytest.fixture
def page_cache(settings):
    """The shared page cache on, empty (each test's database counts versions from 0)."""
    settings.PAGE_CACHE = True
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club(db):
    return ClubFactory(name="Skatfreunde Altenburg")


@pytest.fixture
def secretary(club):
    user = UserFactory(username="secretary")
    club.secretaries.add(user)
    return user


@pytest.fixture
def other_club_secretary(db):
    user = UserFactory(username="other")
    ClubFactory(name="Skatclub Leipzig").secretaries.add(user)
    return user


@pytest.fixture
def player(db):
    return UserFactory(username="player")


@pytest.fixture
def anonymous():
    return None


@pytest.fixture
def client_for(db):
    """`client_for(user)`: a test client signed in as that user (None: anonymous)."""

    def make(user):
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def tournament(club):
    return TournamentFactory(club=club, name="Herbstpreisskat", slug="herbstpreisskat")


@pytest.fixture
def na_tournament(club):
    return TournamentFactory(club=club, name="Tournée evening", slug="tournee", rules="na")


@pytest.fixture
def roster(club):
    def make(n, **kwargs):
        return [PlayerFactory(club=club, **kwargs) for _ in range(n)]

    return make


@pytest.fixture
def seated_series(tournament, roster):
    """Register n players and draw series 1 with a fixed seed."""

    def make(n=4, *, target=None, seed=1):
        target = target or tournament
        for p in roster(n):
            RegistrationFactory(tournament=target, player=p)
        return series_draw(tournament=target, seed=seed)

    return make
