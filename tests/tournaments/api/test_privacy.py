"""The API follows the public pages' rule for a player not listed publicly (issue 29):
by initials in every answer of a tournament (and club season) whose club chose them, by
name where it did not, and no player answer but for those who manage the player. The
director's command keeps the name."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.registry.clubs import club_settings_update
from tournaments.registry.services import player_update

pytestmark = pytest.mark.django_db

NAME, INITIALS, SURNAME = "Hans Müller", "H. M.", "Müller"


@pytest.fixture
def hidden(played, worked_table):
    player = worked_table.seats.get(number=1).player
    player_update(player=player, name=NAME, listed=False)
    return player


def answers_with_names(tournament) -> list[str]:
    slug, season = tournament.slug, tournament.season.slug
    return [
        f"/api/v1/tournaments/{slug}/standings",
        f"/api/v1/tournaments/{slug}/teams",
        f"/api/v1/tournaments/{slug}/series/1",
        f"/api/v1/tournaments/{slug}/series/1/standings",
        f"/api/v1/tournaments/{slug}/series/1/tables/1",
        f"/api/v1/seasons/{season}",
        f"/t/{slug}/standings.json",
    ]


def text_of(response) -> str:
    assert response.status_code == 200, response.content
    return json.dumps(response.json(), ensure_ascii=False)


def test_every_answer_shows_initials_where_the_club_chose_them(played, hidden, client_for):
    club_settings_update(club=played.club, initials_in_standings=True)
    client = client_for(None)
    for url in answers_with_names(played):
        text = text_of(client.get(url))
        assert INITIALS in text, url
        assert SURNAME not in text, url


def test_every_answer_shows_the_name_where_the_club_did_not(played, hidden, client_for):
    client = client_for(None)
    for url in answers_with_names(played):
        text = text_of(client.get(url))
        assert NAME in text, url
        assert INITIALS not in text, url


def test_a_cached_answer_changes_with_the_clubs_option(played, hidden, client_for, page_cache):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}/standings"
    first = client.get(url)
    assert NAME in text_of(first)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    club_settings_update(club=played.club, initials_in_standings=True)
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert INITIALS in text_of(after) and SURNAME not in text_of(after)
    player_update(player=hidden, listed=True)
    assert NAME in text_of(client.get(url))


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 404), ("player", 404), ("other_club_secretary", 404), ("secretary", 200)],
)
def test_the_player_answer_is_closed_to_all_but_who_manages_the_player(
    who, status, as_user, hidden
):
    assert as_user(who).get(f"/api/v1/players/{hidden.pk}").status_code == status


def test_the_command_keeps_the_name(played, hidden):
    club_settings_update(club=played.club, initials_in_standings=True)
    out = StringIO()
    call_command("standings", played.slug, "--format", "json", stdout=out)
    assert NAME in out.getvalue() and INITIALS not in out.getvalue()
