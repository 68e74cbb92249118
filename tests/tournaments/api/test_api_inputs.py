"""Issue 27, defect 8: the API answers every input it may be sent with a documented
status (never a server error), describes those answers in its OpenAPI document, shows an
NA tournament's own settings, and `/t/<slug>/standings.json` is the command's bytes."""

from io import StringIO

import pytest
from django.core.management import call_command

from tests.factories import TournamentFactory
from tournaments.registry.services import tournament_update

pytestmark = pytest.mark.django_db

BIG = str(2**63)


@pytest.fixture
def anonymous_client(client_for):
    client = client_for(None)
    client.raise_request_exception = False
    return client


def bad_urls(slug: str) -> list[str]:
    return [
        "/api/v1/tournaments/a%00b",
        "/api/v1/tournaments/a%00b/standings",
        "/api/v1/tournaments/a%00b/games",
        "/api/v1/seasons/a%00b",
        "/t/a%00b/standings.json",
        "/api/v1/tournaments?season=%00",
        "/api/v1/tournaments?club=a%00",
        f"/api/v1/tournaments/{slug}/standings?category=%00",
        f"/api/v1/seasons?offset={BIG}",
        f"/api/v1/tournaments?offset={BIG}",
        f"/api/v1/tournaments?offset={2**64}",
        f"/api/v1/tournaments/{slug}/games?since={BIG}",
        f"/api/v1/tournaments/{slug}/series/{BIG}",
        f"/api/v1/tournaments/{slug}/series/1/tables/{BIG}",
        f"/api/v1/tournaments/{slug}/series/{BIG}/standings",
        "/api/v1/players/abc",
        "/api/v1/players/%C2%B2",  # "²": a digit to str.isdigit, not to int()
        "/api/v1/players/%D9%A1",  # "١", an Arabic-Indic one
        f"/api/v1/players/{BIG}",
        "/api/v1/players/-1",
    ]


def test_no_input_is_a_server_error(played, anonymous_client):
    answers = {url: anonymous_client.get(url).status_code for url in bad_urls(played.slug)}
    # A filter naming nothing lists nothing (200); an address naming nothing is 404.
    assert {url: status for url, status in answers.items() if status not in (200, 404, 422)} == {}
    assert all(status != 200 for url, status in answers.items() if "?" not in url)


def test_a_value_out_of_range_is_a_clear_422(played, anonymous_client):
    response = anonymous_client.get(f"/api/v1/tournaments?offset={BIG}")
    assert response.status_code == 422
    assert "offset" in response.content.decode()
    response = anonymous_client.get("/api/v1/players/abc")
    assert response.status_code == 422


def _responses(described, path):
    return described["paths"][path]["get"]["responses"]


def test_the_openapi_document_declares_every_status_the_api_gives(client_for):
    described = client_for(None).get("/api/v1/openapi.json").json()
    for path, operations in described["paths"].items():
        responses = operations["get"]["responses"]
        assert {"200", "304", "422"} <= set(responses), path
        assert responses["422"]["content"]["application/json"]["schema"], path
        if "{" in path:
            assert "404" in responses, path
            assert responses["404"]["content"]["application/json"]["schema"], path


def test_a_404_has_the_declared_shape(client_for):
    response = client_for(None).get("/api/v1/tournaments/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


def test_an_na_tournament_shows_its_own_settings_not_seeger_fabian_bonuses(club, client_for):
    na = TournamentFactory(club=club, rules="na", five_tables=True, ramsch_rule="hoyle")
    ispa = TournamentFactory(club=club)
    client = client_for(None)
    detail = client.get(f"/api/v1/tournaments/{na.slug}").json()
    assert detail["rules"] == "na"
    for name in ("bonus_won", "bonus_lost", "bonus_others_3", "bonus_others_4"):
        assert detail[name] is None, name
    assert detail["five_tables"] is True
    assert detail["games_per_series_5"] == 60
    assert detail["ramsch"] == "hoyle"
    assert detail["ramsch_tie_both_win"] is False
    tournament_update(tournament=na, ramsch_rule="")
    assert client.get(f"/api/v1/tournaments/{na.slug}").json()["ramsch"] == "league"

    shown = client.get(f"/api/v1/tournaments/{ispa.slug}").json()
    assert (shown["bonus_won"], shown["bonus_others_4"]) == (50, 30)
    assert shown["five_tables"] is False and shown["games_per_series_5"] is None
    assert shown["ramsch"] == ""


def test_standings_json_is_byte_for_byte_what_the_command_prints(played, client_for):
    out = StringIO()
    call_command("standings", played.slug, "--format", "json", stdout=out)
    served = client_for(None).get(f"/t/{played.slug}/standings.json").content
    assert served == out.getvalue().encode()


def test_no_team_is_null_in_standings_json_and_in_the_api(played, client_for):
    player = played.registrations.first().player
    player.team = ""
    player.save()
    tournament_update(tournament=played, name=played.name + " ")  # a new version
    client = client_for(None)
    served = {r["player"]: r for r in client.get(f"/t/{played.slug}/standings.json").json()}
    api = {
        r["player"]: r for r in client.get(f"/api/v1/tournaments/{played.slug}/standings").json()
    }
    assert served[player.name]["team"] is None
    assert api[player.name]["team"] is None
    assert [served[name]["team"] for name in served] == [api[name]["team"] for name in served]
