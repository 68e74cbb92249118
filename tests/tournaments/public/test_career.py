"""The player's career page and the head-to-head pages (issue 29): the figures of the
hand-built history (tests/tournaments/careers/history.py), what the public may see, the
cache, and a page whose queries do not grow with the player's tournaments."""

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.careers.history import build_history, seat_table
from tests.tournaments.helpers import GRAND
from tournaments.models import Player, Tournament
from tournaments.sheets.services import game_record


@pytest.fixture
def history(club):
    return build_history(club)


def page(client, name, **kwargs):
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200
    return response, re.sub(r"\s+", " ", response.content.decode())


def test_the_career_page_shows_clubs_places_averages_form_and_mates(client, history):
    response, text = page(client, "player_detail", pk=history.p.pk)
    assert "Skatfreunde Altenburg" in text and "Skatclub Zeitz" in text
    assert "place 2 of 4" in text  # Frühjahr, finished
    assert "Geheim" not in text  # the draft
    assert 'id="average-48">1020.0<' in text
    assert '<td>2025</td><td class="num">2</td><td class="num">1050.0</td>' in text
    assert "Form: points per series, scaled to 48 games" in text
    assert text.count("<rect") == 3  # one bar per series with games
    mates = reverse("head_to_head", kwargs={"pk": history.p.pk, "other": history.q.pk})
    assert f'href="{mates}"' in text
    assert response.context["career"].average == 1020.0


def test_the_career_page_in_german(client, history):
    _response, text = page(client, "player_detail", pk=history.p.pk)
    german = client.get(f"/de{reverse('player_detail', kwargs={'pk': history.p.pk})}")
    text = german.content.decode()
    assert german.status_code == 200
    assert "Platz 2 von 4" in text and "Form" in text
    assert "1020,0" in text  # a German decimal comma


def test_head_to_head_page_counts_a_tie_apart(client, history):
    _response, text = page(client, "head_to_head", pk=history.p.pk, other=history.q.pk)
    assert "At the same table 3 times; ranked above 1 time, below 1 time, equal 1 time." in text
    assert text.count('<tr class="tied">') == 1
    assert "Geheim" not in text


def test_head_to_head_counts_the_draft_for_its_secretary(client_for, secretary, history):
    _response, text = page(
        client_for(secretary), "head_to_head", pk=history.p.pk, other=history.q.pk
    )
    assert 'id="h2h-together">4<' in text and 'id="h2h-above">2<' in text


@pytest.mark.parametrize(("who", "status"), [("anonymous", 404), ("secretary", 200)])
def test_head_to_head_with_a_player_of_drafts_only_is_hidden(who, status, as_user, history):
    hidden = PlayerFactory(club=history.p.club)
    seat_table(history.secret, 2, [(history.p, 10), (hidden, 20), (history.q, 0)], 36)
    url = reverse("head_to_head", kwargs={"pk": history.p.pk, "other": hidden.pk})
    assert as_user(who).get(url).status_code == status


def test_head_to_head_with_oneself_is_not_a_page(client, history):
    url = reverse("head_to_head", kwargs={"pk": history.p.pk, "other": history.p.pk})
    assert client.get(url).status_code == 404


def test_the_search_finds_players_seen_at_a_table(client, history):
    hidden = PlayerFactory(club=history.p.club, name="Quentin Geheim")
    seat_table(history.secret, 2, [(history.p, 10), (hidden, 20), (history.q, 0)], 36)
    url = reverse("player_search", kwargs={"pk": history.p.pk})
    text = client.get(url, {"q": "qu"}).content.decode()
    assert "Quirin Quast" in text and "Quentin Geheim" not in text
    assert reverse("head_to_head", kwargs={"pk": history.p.pk, "other": history.q.pk}) in text
    assert "No player of that name." in client.get(url, {"q": "zz"}).content.decode()


def test_the_pages_come_from_the_cache_until_a_game_at_the_players_table(
    page_cache, history, seated_series, tournament
):
    table = seated_series(4).tables.get()
    player, other = (seat.player for seat in table.seats.order_by("number")[:2])
    urls = [
        reverse("player_detail", kwargs={"pk": player.pk}),
        reverse("head_to_head", kwargs={"pk": player.pk, "other": other.pk}),
    ]
    for url in urls:
        assert Client().get(url)["X-Page-Cache"] == "miss"
        assert Client().get(url)["X-Page-Cache"] == "hit"
    game_record(table=table, data=GRAND)
    for url in urls:
        response = Client().get(url)
        assert response["X-Page-Cache"] == "miss", url
    assert "At the same table 1 time;" in Client().get(urls[1]).content.decode()


def test_the_career_page_changes_with_a_game_of_its_season_elsewhere(
    client, match_day, league_director
):
    from tests.tournaments.leagues.helpers import play_series

    play_series(match_day)
    series = match_day.series.get()
    mine, *others = series.tables.order_by("number")
    player = mine.seats.first().player
    url = reverse("player_detail", kwargs={"pk": player.pk})
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # Another venue's table: the player's place in the season's table may move.
    from tournaments.sheets.services import table_reopen

    table_reopen(table=others[-1])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def _tournaments(club, player, mates, count):
    for n in range(count):
        tournament = TournamentFactory(
            club=club,
            date=datetime.date(2024, 1, 1) + datetime.timedelta(days=n),
            status=Tournament.Status.FINISHED,
        )
        for one in (player, *mates):
            RegistrationFactory(tournament=tournament, player=one)
        seat_table(
            tournament, 1, [(player, 100 + n), *((m, 50 * i) for i, m in enumerate(mates))], 48
        )
        seat_table(tournament, 2, [(player, 200), *((m, 10) for m in mates[:2])], 36)


@pytest.mark.parametrize("url_name", ["player_detail", "api"])
def test_the_queries_do_not_grow_with_the_tournaments(
    url_name, client, club, roster, django_assert_max_num_queries
):
    player, *mates = roster(4)

    def url():
        if url_name == "api":
            return f"/api/v1/players/{player.pk}"
        return reverse("player_detail", kwargs={"pk": player.pk})

    _tournaments(club, player, mates, 5)
    with CaptureQueriesContext(connection) as five:
        assert client.get(url()).status_code == 200
    _tournaments(club, player, mates, 45)
    with django_assert_max_num_queries(len(five.captured_queries)):
        response = client.get(url())
    assert response.status_code == 200
    if url_name == "player_detail":
        assert len(response.context["career"].tournaments) == 50


def test_a_long_career_is_listed_a_page_at_a_time(client, club, roster):
    player, *mates = roster(4)
    _tournaments(club, player, mates, 60)
    url = reverse("player_detail", kwargs={"pk": player.pk})
    first = client.get(url)
    assert len(first.context["tournaments_page"]) == 50
    assert first.context["career"].average is not None
    assert len(first.context["career"].tournaments) == 60
    text = first.content.decode()
    assert '?tournaments=2#career-tournaments">Older<' in text
    second = client.get(url, {"tournaments": 2})
    shown = [t.tournament.pk for t in second.context["tournaments_page"]]
    oldest = [t.tournament.pk for t in first.context["career"].tournaments[50:]]
    assert shown == oldest
    # Series newest first: the first page starts with the last tournament's series 2.
    newest = first.context["series_page"][0]
    assert (newest.tournament.date, newest.line.series_number) == (
        datetime.date(2024, 1, 1) + datetime.timedelta(days=59),
        2,
    )


def test_a_player_not_listed_is_no_table_mate_no_search_result_and_no_head_to_head(
    client, history
):
    Player.objects.filter(pk=history.q.pk).update(listed=False)
    _response, text = page(client, "player_detail", pk=history.p.pk)
    versus_q = reverse("head_to_head", kwargs={"pk": history.p.pk, "other": history.q.pk})
    assert versus_q not in text and "Quirin Quast" not in text
    found = client.get(reverse("player_search", kwargs={"pk": history.p.pk}), {"q": "qu"})
    assert "Quirin Quast" not in found.content.decode()
    assert client.get(versus_q).status_code == 404
    assert client.get(f"/api/v1/players/{history.p.pk}/vs/{history.q.pk}").status_code == 404
