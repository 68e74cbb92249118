"""Who sees which tournament: one rule (`permissions.visible_tournaments`) for the home
page, the API's list and detail, the tournament's pages, the season's tables and the
player page. For each role the lists show exactly what the details open.

The cast: a league season with a draft match day hosted by `club` at the venue of
`venue_secretary`, and a draft club evening of `club`.
"""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.factories import TournamentFactory, UserFactory
from tournaments import permissions
from tournaments.leagues.selectors import season_tables
from tournaments.leagues.services import match_day_create, venue_create
from tournaments.models import Tournament

# role → (sees the league's draft match day, sees the club's draft evening)
ROLES = {
    "anonymous": (False, False),
    "player": (False, False),
    "other_club_secretary": (False, False),
    # The club that hosts the league's match day: the day belongs to the league.
    "secretary": (False, True),
    "zeitz_secretary": (False, False),
    "league_director": (True, False),
    "venue_secretary": (True, False),  # the draft's venue
    "venue_secretary_2": (False, False),  # a venue of another day
    "superuser": (True, True),
}


@pytest.fixture
def drafts(league_season, teams, club, venue_secretary, match_day):
    day = match_day_create(
        season=league_season,
        name="2. Spieltag (Entwurf)",
        date=datetime.date(2026, 10, 17),
        club=club,
        slug="liga-2-entwurf",
        published=False,
        games_per_series_4=4,
        games_per_series_3=3,
    )
    venue_create(
        tournament=day,
        name="Altenburg",
        teams=[teams["Altenburg I"], teams["Zeitz I"]],
        secretary=venue_secretary,
    )
    evening = TournamentFactory(
        club=club, name="Clubabend (Entwurf)", slug="clubabend-entwurf", published=False
    )
    return day, evening


def _user(request, role):
    if role == "superuser":
        return UserFactory(username="root", is_superuser=True, is_staff=True)
    return request.getfixturevalue(role)


@pytest.mark.parametrize("role", list(ROLES))
def test_lists_and_details_agree_for_each_role(request, role, drafts, client_for, match_day):
    user = _user(request, role)
    client = client_for(user)
    expected = ROLES[role]
    for draft, sees in zip(drafts, expected, strict=True):
        # The one rule.
        assert permissions.can_view_tournament(user or AnonymousUser(), draft) is sees
        # The home page's list.
        home = client.get("/").content.decode()
        assert (draft.name in home) is sees, f"home page, {draft.name}"
        # The API's list and detail.
        slugs = [t["slug"] for t in client.get("/api/v1/tournaments").json()["items"]]
        assert (draft.slug in slugs) is sees, "API list"
        detail = client.get(f"/api/v1/tournaments/{draft.slug}")
        assert detail.status_code == (200 if sees else 404), "API detail"
        # The tournament's own page.
        page = client.get(draft.get_absolute_url())
        assert page.status_code == (200 if sees else 404), "tournament page"
    # The published match day: everyone.
    assert client.get(match_day.get_absolute_url()).status_code == 200
    # The season's tables count the days the viewer may see, the same in the API.
    day = drafts[0]
    viewer = user
    counted = season_tables(match_day.season, viewer=viewer).match_days
    assert (day in counted) is expected[0]
    season = client.get(f"/api/v1/seasons/{match_day.season.slug}").json()
    assert (day.slug in [d["tournament"] for d in season["match_days"]]) is expected[0]


def test_a_draft_match_day_never_counts_in_the_public_season_tables(drafts, match_day):
    day = drafts[0]
    assert day not in season_tables(match_day.season).match_days
    assert Tournament.objects.filter(published=False).count() == 2


def test_the_season_of_a_draft_day_is_listed_where_its_page_opens(
    client_for, league_director, venue_secretary, drafts, match_day
):
    Tournament.objects.filter(pk=match_day.pk).update(published=False)
    season = match_day.season
    for user, sees in ((None, False), (league_director, True), (venue_secretary, True)):
        client = client_for(user)
        listed = season.slug in [s["slug"] for s in client.get("/api/v1/seasons").json()["items"]]
        opens = client.get(season.get_absolute_url(), follow=True).status_code == 200
        assert (listed, opens) == (sees, sees), user


@pytest.mark.parametrize("role", list(ROLES))
def test_the_one_rule_lists_what_it_lets_open(request, role, drafts):
    user = _user(request, role)
    listed = set(permissions.visible_tournaments(user))
    for tournament in Tournament.objects.all():
        assert (tournament in listed) is permissions.can_view_tournament(user, tournament)
