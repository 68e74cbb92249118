"""JSON answers kept per state (`tournaments.caching.answers`): the same bytes as a fresh
computation, gzip-compressed once for the clients that accept it, never stale after a
write, never shared between the public and a signed-in secretary (drafts)."""

import gzip

import pytest
from django.conf import settings
from django.test import Client

from tests.tournaments.helpers import GRAND
from tournaments.caching.states import season_state, tournament_state_of
from tournaments.leagues.models import MatchDayConfirmation
from tournaments.models import Season, Tournament
from tournaments.registry.services import season_create, tournament_update
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


def json_urls(tournament: Tournament) -> list[str]:
    slug = tournament.slug
    return [
        f"/t/{slug}/standings.json",
        f"/api/v1/tournaments/{slug}/standings",
        f"/api/v1/tournaments/{slug}/standings?category=ladies",
        f"/api/v1/tournaments/{slug}/series/1/standings",
        f"/api/v1/tournaments/{slug}/teams",
        f"/api/v1/tournaments/{slug}",
    ]


@pytest.fixture
def played(tournament, worked_table):
    """The rules §2 worked sheet, its players in two teams, one of them a lady."""
    tournament_update(tournament=tournament, team_best_n=2)
    for index, seat in enumerate(worked_table.seats.select_related("player")):
        seat.player.team = "Altenburg I" if index < 2 else "Altenburg II"
        seat.player.category = "ladies" if index == 1 else ""
        seat.player.save()
    return Tournament.objects.get(pk=tournament.pk)


def fresh(url: str, **headers) -> bytes:
    """The answer computed afresh: nothing kept, nothing shared."""
    previous = settings.PAGE_CACHE
    settings.PAGE_CACHE = False
    try:
        response = Client().get(url, **headers)
    finally:
        settings.PAGE_CACHE = previous
    assert response.status_code == 200 and "Content-Encoding" not in response
    return response.content


def test_a_kept_answer_is_the_bytes_of_a_fresh_computation(page_cache, played):
    for url in json_urls(played):
        first = Client().get(url)
        kept = Client().get(url)
        assert first["X-Page-Cache"] == "miss" and kept["X-Page-Cache"] == "hit", url
        assert kept.content == first.content == fresh(url), url
        assert kept["Content-Type"] == first["Content-Type"], url
        assert kept["ETag"] == first["ETag"], url


def test_gzip_for_the_clients_that_accept_it_the_same_bytes_inside(page_cache, played):
    url = f"/t/{played.slug}/standings.json"
    plain = Client().get(url)
    packed = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["X-Page-Cache"] == "hit"
    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(packed.content) == plain.content == fresh(url)
    assert len(packed.content) < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    assert packed["ETag"] == plain["ETag"]
    # Computed afresh (nothing kept) the answer is compressed the same way.
    assert gzip.decompress(Client().get(url, HTTP_ACCEPT_ENCODING="gzip").content) == (
        plain.content
    )


def test_a_write_changes_the_etag_and_the_body_never_a_stale_answer(page_cache, played):
    table = played.series.get().tables.get()
    before = {url: Client().get(url) for url in json_urls(played)}
    tournament_update(tournament=played, games_per_series_4=50)
    game_record(table=table, data=GRAND | {"declarer": 2})
    for url, first in before.items():
        again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 200, url
        assert again["ETag"] != first["ETag"], url
        assert again["X-Page-Cache"] == "miss", url
        assert again.content == fresh(url), url
        assert again["X-Version"] == str(Tournament.objects.get(pk=played.pk).version), url
        if "category" not in url:  # the lady did not play the new game's part
            assert again.content != first.content, url


def test_an_unchanged_state_is_304_with_its_etag(page_cache, played):
    for url in json_urls(played):
        first = Client().get(url)
        again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again.content == b"", url
        assert again["ETag"] == first["ETag"], url
        assert again["Last-Modified"] == first["Last-Modified"], url


def test_the_public_and_a_secretary_never_share_an_answer(
    page_cache, played, client_for, secretary
):
    url = f"/t/{played.slug}/standings.json"
    public = Client().get(url)
    signed_in = client_for(secretary).get(url)
    assert "X-Page-Cache" not in signed_in  # computed for them, not kept
    assert signed_in["ETag"] != public["ETag"]
    # A draft: the secretary's answer is never given to the public, nor kept for it.
    tournament_update(tournament=played, published=False)
    assert client_for(secretary).get(url).status_code == 200
    assert Client().get(url).status_code == 404
    assert (
        client_for(secretary).get(f"/api/v1/tournaments/{played.slug}/standings").status_code
        == 200
    )
    assert Client().get(f"/api/v1/tournaments/{played.slug}/standings").status_code == 404


def test_a_season_state_moves_with_its_settings_and_a_confirmed_match_day(club, played):
    season = season_create(club=club, name="Liga 2026")
    tournament_update(tournament=played, season=season)
    states = [season_state(season.slug).key]
    for field, value in [("min_series", 2), ("best_series", 1), ("teams_best_n", 3)]:
        Season.objects.filter(pk=season.pk).update(**{field: value})
        states.append(season_state(season.slug).key)
    MatchDayConfirmation.objects.create(tournament=played)  # bumps no version
    states.append(season_state(season.slug).key)
    Season.objects.filter(pk=season.pk).update(name="Liga 2026/27")
    states.append(season_state(season.slug).key)
    assert len(set(states)) == len(states)
    assert season_state("leer") is None


def test_a_tournament_state_moves_with_an_edit_of_its_row(played, anonymous_user):
    before = tournament_state_of(anonymous_user, played.slug)
    assert before.changed == played.changed and before.version == played.version
    Tournament.objects.filter(pk=played.pk).update(name="Renamed without a version")
    after = tournament_state_of(anonymous_user, played.slug)
    assert after.key != before.key and after.changed == before.changed
    Tournament.objects.filter(pk=played.pk).update(published=False)
    assert tournament_state_of(anonymous_user, played.slug) is None
    assert tournament_state_of(anonymous_user, "no-such-tournament") is None


@pytest.fixture
def anonymous_user():
    from django.contrib.auth.models import AnonymousUser

    return AnonymousUser()
