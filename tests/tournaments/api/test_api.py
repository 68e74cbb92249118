"""The read-only JSON API (`/api/v1/`) and `/t/<slug>/standings.json`: every endpoint as
the public and as a secretary (drafts hidden from the public), the standings JSON equal to
the command's, conditional GETs (304) on an unchanged version, CORS, pagination."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from ninja.responses import NinjaJSONEncoder
from pydantic import TypeAdapter

from tests.factories import TournamentFactory
from tests.tournaments.helpers import GRAND
from tournaments.api import schemas
from tournaments.models import Game, Season, Tournament
from tournaments.registry.services import tournament_update
from tournaments.sheets.selectors import games_since, table_sheet
from tournaments.sheets.services import game_record
from tournaments.standings.selectors import standings_json

pytestmark = pytest.mark.django_db


def endpoints(tournament: Tournament) -> list[str]:
    slug = tournament.slug
    player = tournament.registrations.first().player_id
    season = tournament.season.slug
    return [
        f"/api/v1/tournaments/{slug}",
        f"/api/v1/tournaments/{slug}/standings",
        f"/api/v1/tournaments/{slug}/standings?category=ladies",
        f"/api/v1/tournaments/{slug}/teams",
        f"/api/v1/tournaments/{slug}/games?since=0",
        f"/api/v1/tournaments/{slug}/series/1",
        f"/api/v1/tournaments/{slug}/series/1/standings",
        f"/api/v1/tournaments/{slug}/series/1/tables/1",
        f"/api/v1/seasons/{season}",
        f"/api/v1/players/{player}",
        f"/t/{slug}/standings.json",
    ]


def test_every_endpoint_answers_the_public_for_a_published_tournament(played, client_for):
    client = client_for(None)
    for url in endpoints(played):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("application/json"), url
        assert response["ETag"] and response["Last-Modified"], url
        assert response["Access-Control-Allow-Origin"] == "*", url


@pytest.mark.parametrize("user", ["anonymous", "player", "other_club_secretary"])
def test_a_draft_is_404_on_every_endpoint_to_everyone_but_its_clubs_secretaries(
    played, user, as_user
):
    urls = endpoints(played)
    tournament_update(tournament=played, published=False)
    client = as_user(user)
    for url in urls:
        if "/seasons/" in url or "/players/" in url:
            continue  # they hide the draft's figures instead (below)
        assert client.get(url).status_code == 404, url
    # A season whose only match day is a draft, and a player seen only there, are unknown.
    assert client.get(urls[-3]).status_code == 404
    assert client.get(urls[-2]).status_code == 404
    listed = client.get("/api/v1/tournaments").json()
    assert listed == {"items": [], "count": 0}


def test_a_draft_is_shown_on_every_endpoint_to_its_clubs_secretary(played, as_user):
    urls = endpoints(played)
    tournament_update(tournament=played, published=False)
    client = as_user("secretary")
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Cookie" in response["Vary"] and "private" in response["Cache-Control"], url
    listed = client.get("/api/v1/tournaments").json()
    assert [t["slug"] for t in listed["items"]] == [played.slug]
    assert listed["items"][0]["published"] is False
    seasons = client.get("/api/v1/seasons").json()
    assert [s["slug"] for s in seasons["items"]] == [played.season.slug]


def test_standings_json_is_what_the_command_prints(played, client_for):
    out = StringIO()
    call_command("standings", played.slug, "--format", "json", stdout=out)
    printed = json.loads(out.getvalue())
    served = client_for(None).get(f"/t/{played.slug}/standings.json").json()
    assert served == printed
    assert [list(row) for row in served] == [list(row) for row in printed]
    assert [list(s) for row in served for s in row["series"]] == [
        list(s) for row in printed for s in row["series"]
    ]
    assert [row["list_points"] for row in served] == [1332, 1320, 1308, 108]


@pytest.mark.parametrize("query", ["", "?category=ladies"])
def test_the_standings_are_the_bytes_django_ninja_would_validate_and_render(
    played, client_for, query
):
    """The tournament standings are rendered without validating every row again (speed):
    the layout must be exactly what StandingOut gives, no field more or less, every type
    and the key order the same."""
    body = client_for(None).get(f"/api/v1/tournaments/{played.slug}/standings{query}").content
    served = json.loads(body)
    assert served and all(row["series"] for row in served)
    validated = TypeAdapter(list[schemas.StandingOut]).dump_python(
        TypeAdapter(list[schemas.StandingOut]).validate_python(served, strict=True)
    )
    assert json.dumps(validated, cls=NinjaJSONEncoder).encode() == body


def test_standings_json_is_the_bytes_of_the_rows_dumped_as_a_list(played, client_for):
    """standings.json is written row by row (each row's text kept): the same bytes as the
    command's rows dumped at once, before and after a game changes some rows."""
    client = client_for(None)
    served = []
    for write in (True, False):
        body = client.get(f"/t/{played.slug}/standings.json").content
        rows = standings_json(Tournament.objects.get(pk=played.pk))
        assert len(rows) == 4
        assert body == (json.dumps(rows, ensure_ascii=False) + "\n").encode()
        served.append(body)
        if write:
            tournament_update(tournament=played, games_per_series_4=50)
            game_record(table=played.series.get().tables.get(), data=GRAND | {"declarer": 2})
    assert served[0] != served[1]


def test_an_unchanged_version_is_304_and_a_new_game_is_a_new_answer(played, client_for):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}/standings"
    first = client.get(url)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    since = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304

    table = played.series.get().tables.get()
    tournament_update(tournament=played, games_per_series_4=50)
    game_record(table=table, data=GRAND | {"declarer": 2})
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_the_live_feed_gives_the_games_written_after_a_version(played, client_for):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}/games"
    everything = client.get(url, {"since": 0}).json()
    assert len(everything["games"]) == 48
    assert everything["sheets"] == [{"series": 1, "table": 1, "games": 48}]
    version = everything["version"]
    assert client.get(url, {"since": version}).json()["games"] == []

    table = played.series.get().tables.get()
    tournament_update(tournament=played, games_per_series_4=50)
    game = game_record(table=table, data=GRAND | {"declarer": 2})
    newer = client.get(url, {"since": version}).json()
    assert [(g["number"], g["value"], g["score"]) for g in newer["games"]] == [
        (49, game.value, game.score)
    ]
    assert newer["version"] > version
    assert newer["sheets"][0]["games"] == 49
    assert client.get(url, {"since": -1}).status_code == 422


def test_a_sheet_gives_every_game_with_its_stored_values(played, client_for):
    table = played.series.get().tables.get()
    sheet = table_sheet(table, blank_rows=False)
    served = client_for(None).get(f"/api/v1/tournaments/{played.slug}/series/1/tables/1").json()
    assert [r["game"]["score"] for r in served["rows"]] == [r.game.score for r in sheet.rows]
    assert [r["running"] for r in served["rows"]] == [
        {str(k): v for k, v in r.running.items()} for r in sheet.rows
    ]
    assert [s["list_points"] for s in served["summary"]] == [1332, 1308, 1320, 108]
    assert served["rows"][0]["game"]["declarer"] == sheet.rows[0].game.declarer


def test_standings_teams_seasons_and_players_read_the_selectors(played, client_for):
    client = client_for(None)
    slug = played.slug
    standings = client.get(f"/api/v1/tournaments/{slug}/standings").json()
    assert [(r["rank"], r["list_points"], r["won"]) for r in standings][:2] == [
        (1, 1332, 12),
        (2, 1320, 10),
    ]
    assert standings[0]["series"][0]["table"] == 1
    ladies = client.get(f"/api/v1/tournaments/{slug}/standings", {"category": "ladies"}).json()
    assert len(ladies) == 1 and ladies[0]["category"] == "ladies"
    assert client.get(f"/api/v1/tournaments/{slug}/standings?category=kings").status_code == 404
    teams = client.get(f"/api/v1/tournaments/{slug}/teams").json()
    assert sorted(t["team"] for t in teams) == ["Altenburg I", "Altenburg II"]
    assert sum(t["list_points"] for t in teams) == 1332 + 1308 + 1320 + 108
    season = client.get(f"/api/v1/seasons/{played.season.slug}").json()
    assert season["match_days"][0]["tournament"] == slug
    assert season["teams"][0]["match_points_won"] == 1.0
    player = standings[0]["player_id"]
    page = client.get(f"/api/v1/players/{player}").json()
    assert page["history"][0]["list_points"] == 1332 and page["series_played"] == 1
    assert client.get("/api/v1/players/999999").status_code == 404
    assert client.get(f"/api/v1/tournaments/{slug}/series/9").status_code == 404


def test_long_lists_come_in_pages(club, client_for):
    for _ in range(5):
        TournamentFactory(club=club)
    client = client_for(None)
    page = client.get("/api/v1/tournaments", {"limit": 2, "offset": 2}).json()
    assert page["count"] == 5 and len(page["items"]) == 2
    everything = client.get("/api/v1/tournaments").json()["items"]
    assert [t["slug"] for t in everything[2:4]] == [t["slug"] for t in page["items"]]
    # At most 500 a page (settings.NINJA_PAGINATION_MAX_LIMIT): more is a clear 422.
    huge = client.get("/api/v1/tournaments", {"limit": 10_000})
    assert huge.status_code == 422 and "less than or equal to 500" in huge.content.decode()


def test_the_list_etag_moves_when_a_tournament_is_published(club, client_for):
    draft = TournamentFactory(club=club, published=False)
    client = client_for(None)
    first = client.get("/api/v1/tournaments")
    assert client.get("/api/v1/tournaments", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    tournament_update(tournament=draft, published=True)
    answer = client.get("/api/v1/tournaments", HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 200 and answer.json()["count"] == 1


def test_cors_preflight_allows_get_only_and_no_credentials(client_for):
    response = client_for(None).options(
        "/api/v1/tournaments",
        HTTP_ORIGIN="https://skatclub.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert "Access-Control-Allow-Credentials" not in response
    assert "Access-Control-Allow-Origin" not in client_for(None).get("/")


def test_the_api_writes_nothing(played, as_user):
    client = as_user("secretary")
    for url in endpoints(played):
        assert client.post(url, {}).status_code == 405, url


def test_openapi_description_and_documentation_pages(client_for):
    client = client_for(None)
    described = client.get("/api/v1/openapi.json").json()
    paths = set(described["paths"])
    assert {
        "/api/v1/tournaments",
        "/api/v1/tournaments/{slug}",
        "/api/v1/tournaments/{slug}/standings",
        "/api/v1/tournaments/{slug}/teams",
        "/api/v1/tournaments/{slug}/games",
        "/api/v1/tournaments/{slug}/series/{number}",
        "/api/v1/tournaments/{slug}/series/{number}/standings",
        "/api/v1/tournaments/{slug}/series/{number}/tables/{table}",
        "/api/v1/seasons",
        "/api/v1/seasons/{slug}",
        "/api/v1/players/{player_id}",
        "/api/v1/ratings",
        "/api/v1/clubs/{club_id}/ratings",
        "/api/v1/leagues/{league}/ratings",
        "/api/v1/players/{player_id}/rating",
    } == paths
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    # django-ninja's bundled Swagger UI, served by the site: nothing from a CDN.
    html = docs.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html and "cdn" not in html.lower()
    page = client.get("/api/").content.decode()
    assert "/api/v1/openapi.json" in page and "standings.json" in page


def test_a_season_without_a_visible_match_day_is_unknown(club, client_for):
    season = Season.objects.create(club=club, name="Leer", slug="leer")
    TournamentFactory(club=club, season=season, published=False)
    assert client_for(None).get("/api/v1/seasons/leer").status_code == 404
    assert client_for(None).get("/api/v1/seasons").json()["count"] == 0


def test_an_edit_of_the_tournament_itself_is_a_new_answer(played, client_for):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}"
    first = client.get(url)
    tournament_update(tournament=played, name="Herbstpreisskat 2026")
    answer = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 200 and answer.json()["name"] == "Herbstpreisskat 2026"


def test_a_304_costs_one_query_whatever_the_size_of_the_answer(
    played, client_for, django_assert_max_num_queries
):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}/series/1/tables/1"
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_the_live_feed_comes_in_whole_versions_and_misses_nothing(played, client_for):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}/games"
    since, seen, answers = 0, [], 0
    while True:
        answer = client.get(url, {"since": since, "limit": 10}).json()
        answers += 1
        seen += [game["number"] for game in answer["games"]]
        assert answer["version"] >= since
        since = answer["version"]
        if not answer["more"]:
            break
    assert sorted(seen) == list(range(1, 49)) and answers == 5
    assert client.get(url, {"limit": 5001}).status_code == 422


def test_a_version_with_more_games_than_the_limit_comes_whole(played):
    games = Game.objects.filter(table__series__tournament=played).order_by("number")
    games.filter(number__lte=30).update(version=1)  # one bulk write of 30 games
    games.filter(number__gt=30).update(version=2)
    first = games_since(played, version=0, limit=10)
    assert (len(first.games), first.version, first.more) == (30, 1, True)
    second = games_since(played, version=first.version, limit=10)
    assert (len(second.games), second.more) == (18, True)
    assert games_since(played, version=2, limit=10).games == []
