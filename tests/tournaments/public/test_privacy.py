"""A player not listed publicly (issue 29): no public page, never linked from a public
output, and shown by initials in the public standings of a club that chose them (else by
name); the manage pages keep the name.

The cast: the worked example's table, its seat 1 "Hans Müller", not listed publicly.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.models import Tournament
from tournaments.registry.clubs import club_settings_update
from tournaments.registry.services import player_update

pytestmark = pytest.mark.django_db

NAME, INITIALS, SURNAME = "Hans Müller", "H. M.", "Müller"


@pytest.fixture
def hidden(table):
    """Seat 1 of the worked example: Hans Müller of team Altenburg I, not listed."""
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    player = table.seats.get(number=1).player
    player_update(player=player, name=NAME, team="Altenburg I", listed=False)
    player.refresh_from_db()
    return player


def initials_chosen(club, chosen=True):
    club_settings_update(club=club, initials_in_standings=chosen)


def page_urls(tournament):
    slug = tournament.slug
    return {
        "standings": reverse("tournament_detail", kwargs={"tournament": slug}),
        "series": reverse("series_detail", kwargs={"tournament": slug, "series": 1}),
        "sheet": reverse("table_detail", kwargs={"tournament": slug, "series": 1, "table": 1}),
        "teams": reverse("team_standings", kwargs={"tournament": slug}),
        "projector": reverse("tournament_projector", kwargs={"tournament": slug}),
    }


def player_link(player) -> str:
    return f'href="{reverse("player_detail", kwargs={"pk": player.pk})}"'


@pytest.mark.parametrize("page", ["standings", "series", "sheet", "teams", "projector"])
def test_a_club_that_chose_initials_shows_them_on_every_public_page(page, client, hidden):
    tournament = Tournament.objects.get(pk=hidden.registrations.get().tournament_id)
    initials_chosen(tournament.club)
    text = client.get(page_urls(tournament)[page]).content.decode()
    assert INITIALS in text
    assert SURNAME not in text
    assert player_link(hidden) not in text


@pytest.mark.parametrize("page", ["standings", "series", "sheet", "teams", "projector"])
def test_without_initials_the_name_shows_but_never_links(page, client, hidden):
    tournament = Tournament.objects.get(pk=hidden.registrations.get().tournament_id)
    text = client.get(page_urls(tournament)[page]).content.decode()
    assert NAME in text
    assert INITIALS not in text
    assert player_link(hidden) not in text


@pytest.mark.parametrize("page", ["standings", "series"])
def test_a_listed_player_is_still_linked(page, client, hidden, table):
    listed = table.seats.get(number=2).player
    tournament = table.series.tournament
    initials_chosen(tournament.club)
    text = client.get(page_urls(tournament)[page]).content.decode()
    assert player_link(listed) in text and listed.name in text


def test_the_projector_names_the_declarer_by_initials(client, hidden, table):
    initials_chosen(table.series.tournament.club)
    response = client.get(page_urls(table.series.tournament)["projector"])
    declarers = {game.declarer_public_name for game in response.context["latest"]}
    assert INITIALS in declarers and NAME not in declarers


def test_sorting_by_name_sorts_by_the_initials_shown(client, hidden, table):
    """ "H. M." sorts before "Player …" by what is shown; by the hidden name "Hans Müller"
    it would sort the same, so the listed players are renamed to fall between the two."""
    initials_chosen(table.series.tournament.club)
    for seat, name in ((2, "Hb Listed"), (3, "Hz Listed"), (4, "Ha Listed")):
        player_update(player=table.seats.get(number=seat).player, name=name)
    url = page_urls(table.series.tournament)["standings"] + "?sort=player_name"
    rows = Client().get(url).context["table"].rows
    shown = [row.get_cell_value("player_name") for row in rows]
    assert shown == ["H. M.", "Ha Listed", "Hb Listed", "Hz Listed"]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 404), ("player", 404), ("other_club_secretary", 404), ("secretary", 200)],
)
def test_the_player_page_is_closed_to_all_but_who_manages_the_player(who, status, as_user, hidden):
    url = reverse("player_detail", kwargs={"pk": hidden.pk})
    assert as_user(who).get(url).status_code == status


def test_listing_the_player_again_opens_the_page(client, hidden):
    url = reverse("player_detail", kwargs={"pk": hidden.pk})
    assert client.get(url).status_code == 404
    player_update(player=hidden, listed=True)
    assert client.get(url).status_code == 200


def test_the_cached_page_changes_with_the_flag(page_cache, hidden, table):
    tournament = table.series.tournament
    initials_chosen(tournament.club)
    url = page_urls(tournament)["standings"]
    assert Client().get(url)["X-Page-Cache"] == "miss"
    hit = Client().get(url)
    assert hit["X-Page-Cache"] == "hit" and INITIALS in hit.content.decode()
    player_update(player=hidden, listed=True)
    fresh = Client().get(url)
    text = fresh.content.decode()
    assert fresh["X-Page-Cache"] == "miss"
    assert NAME in text and INITIALS not in text and player_link(hidden) in text


def test_the_cached_page_changes_with_the_clubs_option(page_cache, hidden, table):
    tournament = table.series.tournament
    url = page_urls(tournament)["series"]
    first = Client().get(url)
    assert NAME in first.content.decode()
    assert Client().get(url)["X-Page-Cache"] == "hit"
    initials_chosen(tournament.club)
    after = Client().get(url)
    text = after.content.decode()
    assert after["X-Page-Cache"] == "miss"
    assert INITIALS in text and SURNAME not in text


def test_the_cached_player_page_closes_with_the_flag(page_cache, table):
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    player = table.seats.get(number=1).player
    url = reverse("player_detail", kwargs={"pk": player.pk})
    assert Client().get(url).status_code == 200
    assert Client().get(url)["X-Page-Cache"] == "hit"
    player_update(player=player, listed=False)
    assert Client().get(url).status_code == 404


def test_the_club_season_page_shows_initials_and_no_link(client, hidden, table, club):
    from tournaments.registry.services import season_create, tournament_update

    season = season_create(club=club, name="Jahreswertung 2026")
    tournament_update(tournament=table.series.tournament, season=season)
    url = reverse("season_detail", kwargs={"season": season.slug})
    text = client.get(url).content.decode()
    assert NAME in text and player_link(hidden) not in text
    initials_chosen(club)
    text = client.get(url).content.decode()
    assert INITIALS in text and SURNAME not in text


@pytest.mark.parametrize(
    "name", ["manage:tournament", "manage:sheet", "manage:money"], ids=lambda n: n[7:]
)
def test_manage_pages_keep_the_full_name(name, as_user, hidden, table):
    initials_chosen(table.series.tournament.club)
    kwargs = {"tournament": table.series.tournament.slug}
    if name == "manage:sheet":
        kwargs.update(series=1, table=1)
    text = as_user("secretary").get(reverse(name, kwargs=kwargs)).content.decode()
    assert NAME in text


def test_a_closed_seasons_archive_keeps_the_player_unlisted(client, hidden, table, club):
    from tournaments.leagues.services import season_close
    from tournaments.models import Season
    from tournaments.registry.services import season_create, tournament_update
    from tournaments.sheets.services import table_close

    season = season_create(club=club, name="Jahreswertung 2026")
    tournament_update(tournament=table.series.tournament, season=season)
    table_close(table=table)
    initials_chosen(club)
    season_close(season=Season.objects.get(pk=season.pk))
    assert Season.objects.get(pk=season.pk).is_closed
    text = client.get(reverse("season_detail", kwargs={"season": season.slug})).content.decode()
    assert INITIALS in text and SURNAME not in text


def test_a_league_match_day_shows_names_as_its_season_does(client, match_day, teams, club):
    """A league's match day belongs to the league, not to the host club that chose
    initials: its pages show names (unlinked), as the league's season page does."""
    member = teams["Altenburg I"].roster.first().player
    player_update(player=member, name=NAME, listed=False)
    initials_chosen(club)
    assert match_day.club == club and match_day.registrations.filter(player=member).exists()
    url = reverse("tournament_detail", kwargs={"tournament": match_day.slug})
    text = client.get(url).content.decode()
    assert NAME in text and INITIALS not in text
    assert player_link(member) not in text


# --------------------------------------------------------------------------------------
# Rating lists: initials always (the issue), whatever the club chose
# --------------------------------------------------------------------------------------


def test_a_rating_list_shows_a_player_not_listed_by_initials_always(page_cache):
    from tests.factories import PlayerFactory
    from tests.tournaments.ratings.helpers import rated

    player = rated(PlayerFactory(name=NAME), 1530).player
    listed = rated(PlayerFactory(name="Erika Muster"), 1500).player
    url = reverse("rating_list")
    text = Client().get(url).content.decode()
    assert NAME in text and player_link(player) in text
    assert Client().get(url)["X-Page-Cache"] == "hit"
    player_update(player=player, listed=False)
    after = Client().get(url)
    text = after.content.decode()
    assert after["X-Page-Cache"] == "miss"
    assert INITIALS in text and SURNAME not in text
    assert player_link(player) not in text
    assert player_link(listed) in text and "Erika Muster" in text


def test_the_rating_api_shows_initials_and_no_page(client_for):
    from tests.factories import PlayerFactory
    from tests.tournaments.ratings.helpers import rated

    player = rated(PlayerFactory(name=NAME), 1530).player
    player_update(player=player, listed=False)
    client = client_for(None)
    (row,) = client.get("/api/v1/ratings").json()["items"]
    assert row["player"] == INITIALS and row["url"] is None
    assert client.get(f"/api/v1/players/{player.pk}/rating").status_code == 404
