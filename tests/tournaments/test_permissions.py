"""Who may open and post the secretaries' pages of every subject (permissions.py, mixins.py).

Outsiders are sent to sign in (anonymous) or refused (403) by a page that says why, and nothing
changes.
"""

import pytest
from django.urls import reverse

from tournaments.models import Registration, Series, Tournament

pytestmark = pytest.mark.django_db


def manage_get_urls(tournament, series, club):
    return [
        reverse("manage:tournament", kwargs={"tournament": tournament.slug}),
        reverse("manage:tournament_settings", kwargs={"tournament": tournament.slug}),
        reverse("manage:series", kwargs={"tournament": tournament.slug, "series": 1}),
        reverse("manage:club_players", kwargs={"club": club.pk}),
        reverse("manage:tournament_new", kwargs={"club": club.pk}),
        reverse("manage:season_new", kwargs={"club": club.pk}),
    ]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", 200)],
)
def test_secretary_pages_are_for_the_clubs_secretaries(
    who, status, as_user, tournament, series, club
):
    client = as_user(who)
    for url in manage_get_urls(tournament, series, club):
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(reverse("login"))


def manage_posts(tournament, club):
    registration = tournament.registrations.first()
    return [
        (
            reverse("manage:tournament_action", kwargs={"tournament": tournament.slug}),
            {"action": "unpublish"},
        ),
        (
            reverse("manage:registration_quick_add", kwargs={"tournament": tournament.slug}),
            {"name": "Neue Spielerin"},
        ),
        (
            reverse(
                "manage:registration_remove",
                kwargs={"tournament": tournament.slug, "pk": registration.pk},
            ),
            {},
        ),
        (
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team"},
        ),
        (
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "redraw", "keep_apart": "team", "seed": "5"},
        ),
        (reverse("manage:club_players", kwargs={"club": club.pk}), {"name": "Jörg Łukasz"}),
    ]


@pytest.mark.parametrize("who", ["anonymous", "player", "other_club_secretary"])
def test_outsiders_cannot_change_anything(who, as_user, tournament, series, club):
    client = as_user(who)
    before = (
        Registration.objects.count(),
        Series.objects.get().draw_seed,
        Tournament.objects.get().published,
    )
    for url, data in manage_posts(tournament, club):
        response = client.post(url, data)
        assert response.status_code in (302, 403), url
        if who != "anonymous":
            assert response.status_code == 403, url
    after = (
        Registration.objects.count(),
        Series.objects.get().draw_seed,
        Tournament.objects.get().published,
    )
    assert before == after


def test_forbidden_page_explains(client_for, other_club_secretary, tournament, settings):
    settings.DEBUG = False
    url = reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    response = client_for(other_club_secretary).get(url)
    assert response.status_code == 403
