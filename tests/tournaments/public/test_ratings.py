"""The public rating pages: the site's, a club's and a league's list, the method page, the
player page's rating block; served from their state, never stale after a rating write."""

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.ratings.helpers import mu_of, rated
from tournaments.formats import format_rating
from tournaments.models import Category, League, Rating, RatingChange, Season
from tournaments.public.charts import rating_chart
from tournaments.ratings.method import SHOWN_FROM

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def page(url, **kwargs) -> str:
    response = Client().get(url, **kwargs)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_sites_list_shows_rank_player_club_and_rating_with_its_uncertainty():
    player = rated(PlayerFactory(name="Erika Muster"), 1530, sigma=84 / 80).player
    html = page(reverse("rating_list"))
    assert "Erika Muster" in html and player.club.name in html
    assert "1,530\u00a0±\u00a084" in html
    assert reverse("player_detail", kwargs={"pk": player.pk}) in html
    assert reverse("club_ratings", kwargs={"club": player.club.pk}) in html
    assert reverse("rating_method") in html


def test_in_german_the_figures_are_grouped_the_german_way():
    rated(PlayerFactory(), 1530, sigma=84 / 80)
    html = page("/de" + reverse("rating_list"), HTTP_ACCEPT_LANGUAGE="de")
    assert "1.530\u00a0±\u00a084" in html


def test_the_category_filter_and_the_unlisted_newcomer():
    rated(PlayerFactory(name="Lady Listed", category=Category.LADIES), 1500)
    rated(PlayerFactory(name="Senior Listed", category=Category.SENIORS), 1500)
    rated(PlayerFactory(name="Newcomer", category=Category.LADIES), 1800, series=SHOWN_FROM - 1)
    html = page(reverse("rating_list") + "?category=ladies")
    assert "Lady Listed" in html
    assert "Senior Listed" not in html and "Newcomer" not in html


def test_a_clubs_and_a_leagues_list(tournament, seated_series):
    club = ClubFactory(name="Grand Hand Altenburg")
    rated(PlayerFactory(name="Member", club=club), 1500)
    rated(PlayerFactory(name="Outsider"), 1500)
    html = page(reverse("club_ratings", kwargs={"club": club.pk}))
    assert "Grand Hand Altenburg" in html and "Member" in html and "Outsider" not in html

    league = League.objects.create(name="Ostliga", slug="ostliga")
    tournament.season = Season.objects.create(name="Ostliga 2026", slug="ol-26", league=league)
    tournament.save()
    seated = seated_series(4).seats.first().player
    rated(seated, 1600)
    html = page(reverse("league_ratings", kwargs={"league": "ostliga"}))
    assert seated.name in html and "Member" not in html
    # The site's list names the leagues' lists.
    assert reverse("league_ratings", kwargs={"league": "ostliga"}) in page(reverse("rating_list"))


def test_an_unknown_club_or_league_is_not_found():
    assert Client().get(reverse("club_ratings", kwargs={"club": 999})).status_code == 404
    assert Client().get(reverse("league_ratings", kwargs={"league": "none"})).status_code == 404


def test_the_method_page_in_english_and_german():
    html = page(reverse("rating_method"))
    assert "Plackett-Luce" in html and f"from {SHOWN_FROM} rated series on" in html
    german = page("/de" + reverse("rating_method"), HTTP_ACCEPT_LANGUAGE="de")
    assert "Gleichstand" in german and "Wie die Wertungszahlen berechnet werden" in german


def test_a_rating_write_changes_what_is_served(page_cache):
    rating = rated(PlayerFactory(name="Moving"), 1500)
    url = reverse("rating_list")
    first = Client().get(url)
    assert Client().get(url)["X-Page-Cache"] == "hit"
    # As the rating services write it: the row itself, nothing bumped.
    Rating.objects.filter(pk=rating.pk).update(mu=mu_of(1620))
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "1,620" in again.content.decode() and "1,620" not in first.content.decode()


def test_a_renamed_player_is_served_renamed(page_cache):
    player = rated(PlayerFactory(name="Old Name"), 1500).player
    url = reverse("rating_list")
    Client().get(url)
    player.name = "New Name"
    player.save()
    assert "New Name" in page(url)


def change(player, table, rating, *, before, order, place=1, sigma=2.0):
    return RatingChange.objects.create(
        player=player,
        table=table,
        played_on=datetime.date(2026, 11, 21),
        order=order,
        place=place,
        mu_before=mu_of(before),
        sigma_before=sigma,
        mu=mu_of(rating),
        sigma=sigma,
    )


def test_the_player_page_before_a_rating_shows_says_how_many_series_so_far(seated_series):
    table = seated_series(4).tables.get()
    player = table.seats.first().player
    change(player, table, 1512, before=1500, order="a")
    html = page(reverse("player_detail", kwargs={"pk": player.pk}))
    assert f"Rated after {SHOWN_FROM} series: 1 so far." in html
    assert 'class="chart rating-chart"' in html


def test_the_player_page_shows_the_rating_its_chart_and_last_changes(seated_series, page_cache):
    table = seated_series(4).tables.get()
    player = table.seats.first().player
    change(player, table, 1530, before=1544, order="a", place=3, sigma=84 / 80)
    rated(player, 1530, sigma=84 / 80)
    url = reverse("player_detail", kwargs={"pk": player.pk})
    html = page(url)
    assert "1,530\u00a0±\u00a084" in html
    assert "<circle" in html and ": 1530 ± 84</title>" in html
    assert ">-14<" in html  # the step at that table
    # A rating write (a table before theirs corrected) changes the player's page.
    Rating.objects.filter(player=player).update(mu=mu_of(1560))
    RatingChange.objects.filter(player=player).update(mu=mu_of(1560))
    assert "1,560\u00a0±\u00a084" in page(url)


def test_the_rating_chart_lays_out_the_figures_it_is_given():
    svg = ET.fromstring(rating_chart([("1/1", 1500, 600), ("1/8", 1540, 500), ("<b>", 1525, 400)]))
    points = svg.findall(f"{SVG}circle")
    assert [p.find(f"{SVG}title").text for p in points] == [
        "1/1: 1500 ± 600",
        "1/8: 1540 ± 500",
        "<b>: 1525 ± 400",
    ]
    # Higher ratings higher up; the band around the line.
    heights = [float(p.get("cy")) for p in points]
    assert heights[1] < heights[2] < heights[0]
    assert svg.find(f"{SVG}polygon").get("class") == "band"
    assert rating_chart([]) == ""


@pytest.mark.parametrize(
    ("language", "rating", "uncertainty", "expected"),
    [
        ("en", 1530, 84, "1,530\u00a0±\u00a084"),
        ("de", 1530, 84, "1.530\u00a0±\u00a084"),
        ("en", 987, 1200, "987\u00a0±\u00a01,200"),
    ],
)
def test_a_rating_reads_with_its_uncertainty_in_each_language(
    language, rating, uncertainty, expected
):
    with translation.override(language):
        assert format_rating(rating, uncertainty) == expected
