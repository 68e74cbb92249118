"""Public pages are never stale: ETags and shared renders keyed on the tournament's version.

Every write through a service bumps the version in its transaction (`versions`), so the next
request sees a new state: a new ETag, a fresh render. The shared cache (`page_cache`
fixture) serves anonymous visitors only, with their own form token.
"""

import re
import threading
import time
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.tournaments.helpers import GRAND
from tournaments.draw.services import seat_swap, series_close, series_draw
from tournaments.entry.services import game_record_at_table
from tournaments.models import Season, Tournament
from tournaments.registry.services import (
    player_update,
    registration_add,
    registration_set_lots,
    tournament_set_status,
    tournament_update,
)
from tournaments.sheets.services import game_correct, game_record, penalty_record, table_close

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def standings_url(tournament):
    return reverse("tournament_detail", kwargs={"tournament": tournament.slug})


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def test_an_unchanged_page_answers_304_and_a_write_changes_its_etag(client, table):
    tournament = table.series.tournament
    url = standings_url(tournament)
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    assert "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    game_record(table=table, data=GRAND)
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after["ETag"] != etag


@pytest.mark.parametrize(
    "name", ["tournament_detail", "team_standings", "tournament_projector", "series_detail"]
)
def test_every_tournament_page_is_shared_and_never_stale(name, page_cache, table):
    tournament = table.series.tournament
    kwargs = {"tournament": tournament.slug}
    if name == "series_detail":
        kwargs["series"] = 1
    url = reverse(name, kwargs=kwargs)
    assert Client().get(url)["X-Page-Cache"] == "miss"
    with CaptureQueriesContext(connection) as queries:
        hit = Client().get(url)
    assert hit["X-Page-Cache"] == "hit"
    assert len(queries) == 1  # the tournament and its version; nothing rendered
    game_record(table=table, data=GRAND)
    fresh = Client().get(url)
    assert fresh["X-Page-Cache"] == "miss"
    assert fresh["ETag"] != hit["ETag"]
    assert f'data-version="{version(tournament)}"' in fresh.content.decode() or (
        name == "team_standings"
    )


def test_a_phone_row_is_seen_at_once(page_cache, table):
    url = standings_url(table.series.tournament)
    Client().get(url)
    game_record_at_table(table=table, data=GRAND, client_id=uuid.uuid4())
    response = Client().get(url)
    assert response["X-Page-Cache"] == "miss"
    assert response.context["table"].data.data[0].provisional


def test_a_shared_page_carries_each_visitors_own_form_token(page_cache, tournament):
    url = standings_url(tournament)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.get(url)
    response = second.get(url)
    assert response["X-Page-Cache"] == "hit"
    token = TOKEN.search(response.content.decode()).group(1)
    assert "\x00" not in response.content.decode()
    # The language form of the shared page works with the second visitor's own cookie.
    switched = second.post(
        reverse("set_language"), {"language": "de", "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302


def test_each_language_has_its_own_copy(page_cache, tournament):
    url = standings_url(tournament)
    english = Client().get(url)
    with translation.override("de"):
        german_url = standings_url(tournament)
    german = Client().get(german_url)
    assert german_url.startswith("/de/") and german["X-Page-Cache"] == "miss"
    assert 'lang="de"' in german.content.decode() and 'lang="en"' in english.content.decode()
    assert "Accept-Language" in german["Vary"] and "Cookie" in german["Vary"]


def test_signed_in_pages_are_never_shared(page_cache, client, secretary, tournament):
    client.force_login(secretary)
    url = standings_url(tournament)
    Client().get(url)  # an anonymous copy in the cache
    response = client.get(url)
    assert "X-Page-Cache" not in response
    assert "private" in response["Cache-Control"]
    assert response.context["can_manage"]


def test_the_version_endpoint(client, table, tournament):
    url = reverse("tournament_version", kwargs={"tournament": tournament.slug})
    before = client.get(url).json()["version"]
    game_record(table=table, data=GRAND)
    assert client.get(url).json() == {"version": before + 1}
    assert "no-store" in client.get(url)["Cache-Control"]
    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    assert client.get(url).status_code == 404


def test_player_and_season_pages_change_with_any_of_their_tournaments(client, club, table):
    tournament = table.series.tournament
    season = Season.objects.create(club=club, name="Liga", slug="liga")
    tournament_update(tournament=tournament, season=season)
    player = table.seats.get(number=2).player
    urls = [
        reverse("player_detail", kwargs={"pk": player.pk}),
        reverse("season_detail", kwargs={"season": season.slug}),
    ]
    etags = [client.get(url)["ETag"] for url in urls]

    def statuses():
        return [
            client.get(url, HTTP_IF_NONE_MATCH=etag).status_code
            for url, etag in zip(urls, etags, strict=True)
        ]

    assert statuses() == [304, 304]
    game_record(table=table, data=GRAND)
    assert statuses() == [200, 200]


def _writes(tournament, table, roster):
    """Each public change to a tournament through its service."""
    seats = list(table.seats.order_by("number"))
    return {
        "registration": lambda: registration_add(tournament=tournament, players=roster(1)),
        "lots": lambda: registration_set_lots(tournament=tournament, lots={}),
        "swap": lambda: seat_swap(seat_a=seats[0], seat_b=seats[1]),
        "player": lambda: player_update(player=seats[0].player, name="Renamed"),
        "publish": lambda: tournament_update(tournament=tournament, published=False),
        "settings": lambda: tournament_update(tournament=tournament, team_best_n=2),
        "penalty": lambda: penalty_record(table=table, seat=1, points=-10),
        "draw": lambda: series_draw(tournament=tournament, seed=5),
        # Reopening a finished tournament (finishing needs every series closed first).
        "status": lambda: tournament_set_status(
            tournament=_finished(tournament), status=Tournament.Status.RUNNING
        ),
    }


@pytest.mark.parametrize(
    "write",
    ["registration", "lots", "swap", "player", "publish", "settings", "penalty", "draw", "status"],
)
def test_every_public_change_bumps_the_version(write, table, roster):
    tournament = table.series.tournament
    before = version(tournament)
    _writes(tournament, table, roster)[write]()
    assert version(tournament) > before


def test_closing_a_series_bumps_the_version(table):
    tournament = table.series.tournament
    tournament_update(tournament=tournament, games_per_series_4=1)
    game_record(table=table, data=GRAND)
    table_close(table=table)
    before = version(tournament)
    series_close(series=table.series)
    assert version(tournament) == before + 1


def _finished(tournament):
    """The tournament marked finished without a version bump (as the test's starting point)."""
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    return tournament


def test_a_tournament_replaced_under_the_same_id_is_never_served_from_the_old_one(
    page_cache, table, roster
):
    """SQLite may give a new tournament the id of a deleted one, and its version starts
    again: neither the rendered page nor the standings computed in this process may come
    from the old tournament."""
    old = table.series.tournament
    game_record(table=table, data=GRAND)
    url = standings_url(old)
    first = Client().get(url)
    before = first.content.decode()
    old_names = [row.player_name for row in first.context["table"].data.data]
    old_pk, old_slug, old_version = old.pk, old.slug, version(old)
    old.delete()
    new = Tournament.objects.create(
        pk=old_pk,
        club=old.club,
        name="Winterpreisskat",
        slug=old_slug,
        date=old.date,
        published=True,
    )
    registration_add(tournament=new, players=roster(3))
    while version(new) < old_version:  # the same id and the same version as the old one
        tournament_update(tournament=new, name=f"Winterpreisskat {version(new)}")
    assert version(new) == old_version
    after = Client().get(url)
    assert after["X-Page-Cache"] == "miss"
    names = [row.player_name for row in after.context["table"].data.data]
    assert after.content.decode() != before
    assert len(names) == 3 and not set(names) & set(old_names)


def test_a_page_being_rendered_is_waited_for_not_rendered_again(page_cache, table):
    """After a write, every visitor asks for the new state at once: while one request
    renders a page, the others of the same state wait for that render."""
    url = standings_url(table.series.tournament)
    first = Client().get(url)
    key = f"answer:{first['ETag'].strip(chr(34))}"
    cache.delete(key)
    assert cache.add(f"{key}:computing", 1)  # another request is rendering it

    def render_elsewhere():
        time.sleep(0.1)
        cache.set(key, ("text/html; charset=utf-8", b"rendered by the other request", None))

    other = threading.Thread(target=render_elsewhere)
    other.start()
    waited = Client().get(url)
    other.join()
    assert waited["X-Page-Cache"] == "hit"
    assert waited.content == b"rendered by the other request"


def test_a_render_that_ended_without_a_page_is_not_waited_for(page_cache, table):
    url = standings_url(table.series.tournament)
    key = f"answer:{Client().get(url)['ETag'].strip(chr(34))}"
    cache.delete(key)
    cache.add(f"{key}:computing", 1)
    threading.Timer(0.05, cache.delete, args=[f"{key}:computing"]).start()
    started = time.monotonic()
    response = Client().get(url)
    assert response["X-Page-Cache"] == "miss" and response.status_code == 200
    assert time.monotonic() - started < 1.5  # did not wait for the whole RENDER_WAIT
    assert cache.get(f"{key}:computing") is None


def test_a_player_page_changes_with_the_players_own_tables_only(client, tournament, roster):
    """A phone following its own player page is answered 304 while games are entered at
    other tables, and gets the new page with every change at the player's own table:
    a game, a correction that keeps the score (a diamonds game with 3 corrected to a clubs
    game with 2: 36 either way, but the games by type change), a penalty, a rename."""
    for player in roster(8):
        registration_add(tournament=tournament, players=[player])
    series = series_draw(tournament=tournament, seed=2)
    mine, other = series.tables.order_by("number")
    player = mine.seats.get(number=2).player
    url = reverse("player_detail", kwargs={"pk": player.pk})
    etag = client.get(url)["ETag"]

    def changed() -> bool:
        nonlocal etag
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
        etag = response["ETag"]
        return response.status_code == 200

    game_record(table=other, data=GRAND)
    assert not changed()
    diamonds = {"declarer": 2, "game": "diamonds", "matadors": 3, "card_points": 70, "bid": 18}
    game = game_record(table=mine, data=diamonds)
    assert changed()
    assert "Diamonds" in client.get(url).content.decode()
    game_correct(game=game, data={**diamonds, "game": "clubs", "matadors": 2})
    assert changed()
    page = client.get(url).content.decode()
    assert "Clubs" in page and "Diamonds" not in page
    penalty_record(table=mine, seat=2, points=-10)
    assert changed()
    game_record(table=other, data={**GRAND, "declarer": 3})  # seat 2 deals game 2
    assert not changed()
    tournament_update(tournament=tournament, name="Renamed evening")
    assert changed()
