"""The API's rating lists and a player's rating: the rows of the rating pages (the same
selectors), the category filter, the scopes, 404s, 304 on an unchanged state, and a
player's history without the tournaments the viewer may not see."""

import datetime

import pytest
from django.test import Client
from pydantic import TypeAdapter

from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.ratings.helpers import mu_of, rated
from tournaments.api import schemas
from tournaments.models import Category, League, Membership, Rating, RatingChange, Season
from tournaments.ratings.method import SHOWN_FROM
from tournaments.ratings.selectors import rating_list

pytestmark = pytest.mark.django_db


def get(url, **headers):
    response = Client().get(url, **headers)
    assert response.status_code == 200, (url, response.content)
    return response.json()


def test_the_sites_list_is_the_pages_rows_with_the_documented_schema():
    club = ClubFactory(name="Kreuz Bube")
    best = rated(PlayerFactory(name="Best", club=club, category=Category.LADIES), 1650).player
    rated(PlayerFactory(name="Tied A"), 1480)
    rated(PlayerFactory(name="Tied B"), 1480)
    rated(PlayerFactory(name="Newcomer"), 1900, series=SHOWN_FROM - 1)
    answer = get("/api/v1/ratings")
    assert answer["count"] == 3
    items = TypeAdapter(list[schemas.RatingRowOut]).validate_python(answer["items"])
    assert [(i.rank, i.player, i.rating) for i in items] == [
        (row.rank, row.player.name, row.rating) for row in rating_list()
    ]
    assert [i.rank for i in items] == [1, 2, 2]
    first = answer["items"][0]
    assert first["player_id"] == best.pk and first["club"] == "Kreuz Bube"
    assert first["category"] == "ladies" and first["url"] == f"/players/{best.pk}/"
    assert get("/api/v1/ratings?category=ladies")["count"] == 1
    assert get("/api/v1/ratings?limit=1&offset=1")["items"][0]["player"] in ("Tied A", "Tied B")


def test_a_clubs_and_a_leagues_list_and_what_names_nothing(tournament, seated_series):
    club = ClubFactory()
    member = rated(PlayerFactory(club=ClubFactory()), 1500).player
    Membership.objects.create(player=member, club=club)
    rated(PlayerFactory(), 1600)
    assert [i["player_id"] for i in get(f"/api/v1/clubs/{club.pk}/ratings")["items"]] == [
        member.pk
    ]
    league = League.objects.create(name="Ostliga", slug="ostliga")
    tournament.season = Season.objects.create(name="Ostliga 2026", slug="ol-26", league=league)
    tournament.save()
    seated = seated_series(4).seats.first().player
    rated(seated, 1550)
    assert [i["player_id"] for i in get("/api/v1/leagues/ostliga/ratings")["items"]] == [seated.pk]
    client = Client()
    assert client.get("/api/v1/clubs/999999/ratings").status_code == 404
    assert client.get("/api/v1/leagues/nowhere/ratings").status_code == 404
    assert client.get("/api/v1/ratings?category=kings").status_code == 404
    assert client.get("/api/v1/clubs/x/ratings").status_code == 422


def test_an_unchanged_list_is_304_and_a_rating_write_a_new_answer():
    rating = rated(PlayerFactory(), 1500)
    first = Client().get("/api/v1/ratings")
    again = Client().get("/api/v1/ratings", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    Rating.objects.filter(pk=rating.pk).update(mu=mu_of(1522))
    moved = Client().get("/api/v1/ratings", HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved.json()["items"][0]["rating"] == 1522


def test_a_players_rating_and_history(seated_series, tournament):
    table = seated_series(4).tables.get()
    player = table.seats.first().player
    RatingChange.objects.create(
        player=player,
        table=table,
        played_on=datetime.date(2026, 11, 21),
        order="a",
        place=2,
        mu_before=mu_of(1500),
        sigma_before=2.0,
        mu=mu_of(1509),
        sigma=2.0,
    )
    answer = get(f"/api/v1/players/{player.pk}/rating")
    schemas.PlayerRatingOut.model_validate(answer)
    # One series rated: no rating shown yet.
    assert answer["rating"] is None and answer["series"] == 1
    assert answer["shown_from"] == SHOWN_FROM
    assert answer["history"] == [
        {
            "date": "2026-11-21",
            "tournament": tournament.slug,
            "series": 1,
            "table": table.number,
            "place": 2,
            "rating": 1509,
            "uncertainty": 160,
            "change": 9,
        }
    ]
    rated(player, 1509, series=SHOWN_FROM)
    answer = get(f"/api/v1/players/{player.pk}/rating")
    assert (answer["rating"], answer["uncertainty"]) == (1509, 160)


def test_a_player_only_in_a_draft_is_not_found(seated_series, tournament):
    player = seated_series(4).seats.first().player
    tournament.published = False
    tournament.save()
    assert Client().get(f"/api/v1/players/{player.pk}/rating").status_code == 404
