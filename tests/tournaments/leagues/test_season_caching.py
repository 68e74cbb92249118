"""A season's pages and its API answer are never stale: the season's page, its tables page
and `/api/v1/seasons/SLUG` take their ETag from one state (`caching.states.season_state`)
that moves with everything their tables are computed from, the writes that move no match
day's version (rosters, confirmations, the season's settings) included."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tournaments.leagues.helpers import play_series
from tournaments.caching.states import season_state
from tournaments.leagues.services import match_day_confirm, roster_add, season_update
from tournaments.public.views import SeasonDetailView

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(match_day):
    play_series(match_day)
    return match_day


def _urls(season):
    return [
        reverse("league_season", kwargs={"season": season.slug}),
        f"/api/v1/seasons/{season.slug}",
    ]


def test_the_tables_page_answers_304_and_is_shared_with_anonymous_visitors(page_cache, played):
    url = reverse("league_season", kwargs={"season": played.season.slug})
    first = Client().get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["X-Page-Cache"] == "miss"
    assert "no-cache" in first["Cache-Control"]
    assert Client().get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    hit = Client().get(url)
    assert hit.status_code == 200 and hit["X-Page-Cache"] == "hit"


@pytest.mark.parametrize("write", ["roster", "confirm", "settings", "game"])
def test_the_season_pages_change_with_every_write_their_tables_read(
    client, played, teams, league_director, write
):
    season = played.season
    urls = _urls(season)
    etags = [client.get(url)["ETag"] for url in urls]
    unchanged = [client.get(u, HTTP_IF_NONE_MATCH=e) for u, e in zip(urls, etags, strict=True)]
    assert [r.status_code for r in unchanged] == [304, 304]
    if write == "roster":
        team = teams["Zeitz II"]
        roster_add(team=team, player=PlayerFactory(club=team.club), substitute=True)
    elif write == "confirm":
        match_day_confirm(tournament=played, user=league_director)
    elif write == "settings":
        season_update(season=season, min_series=2)
    else:
        play_series(played, seed=8, close=False)
    after = [client.get(u, HTTP_IF_NONE_MATCH=e) for u, e in zip(urls, etags, strict=True)]
    assert [r.status_code for r in after] == [200, 200]
    assert [r["ETag"] for r in after] != etags


def test_the_season_page_and_the_tables_page_share_one_state(played):
    from tournaments.leagues.views import SeasonTablesView

    slug = played.season.slug
    pages = []
    for view in (SeasonDetailView, SeasonTablesView):
        page = view()
        page.kwargs = {"season": slug}
        pages.append(page.page_state())
    assert pages == [season_state(slug)] * 2
