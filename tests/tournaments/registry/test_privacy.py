"""Whether a player is listed publicly (on the player's form) and whether the club's public
standings show such players by initials (the club's settings page): who may change them,
the log lines they leave, and the versions they move (issue 29)."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import USERS
from tournaments.accounts.selectors import people_log
from tournaments.log.services import Kind
from tournaments.models import ActionLog, Club, Player, Tournament
from tournaments.registry.clubs import club_settings_update
from tournaments.registry.services import player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def ida(club, tournament):
    player = PlayerFactory(club=club, name="Ida Alt", team="Altenburg I")
    RegistrationFactory(tournament=tournament, player=player)
    return player


def edit_url(club, player):
    return reverse("manage:player_edit", kwargs={"club": club.pk, "pk": player.pk})


def settings_url(club):
    return reverse("manage:club_settings", kwargs={"club": club.pk})


def posted(player, **changes):
    data = {"name": player.name, "team": player.team, "category": player.category}
    data.update(federation_number=player.federation_number, listed="on")
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_the_form_offers_the_flag_checked(client_for, secretary, club, ida):
    page = client_for(secretary).get(edit_url(club, ida)).content.decode()
    assert 'name="listed"' in page and "listed publicly" in page.lower()
    assert "checked" in page.split('name="listed"')[1].split(">")[0]


def test_unchecking_the_flag_unlists_the_player_and_logs_it(client_for, secretary, club, ida):
    response = client_for(secretary).post(edit_url(club, ida), posted(ida, listed=None))
    assert response.status_code == 302
    assert Player.objects.get(pk=ida.pk).listed is False
    line = ActionLog.objects.get(kind=Kind.PLAYER_CHANGED)
    assert line.club_id == club.pk and line.user == secretary
    assert line.details == {"name": "Ida Alt", "changes": {"listed": [True, False]}}
    # The club's secretaries read it on the club's people page.
    assert list(people_log(club=club)) == [line]


def test_the_same_form_sent_twice_logs_once(client_for, secretary, club, ida):
    client = client_for(secretary)
    for _ in range(2):
        client.post(edit_url(club, ida), posted(ida, listed=None))
    assert ActionLog.objects.filter(kind=Kind.PLAYER_CHANGED).count() == 1


def test_unlisting_moves_the_version_of_the_players_tournaments(ida, tournament):
    before = Tournament.objects.get(pk=tournament.pk).version
    player_update(player=ida, listed=False)
    assert Tournament.objects.get(pk=tournament.pk).version > before


@pytest.mark.parametrize("who", USERS)
def test_only_the_clubs_secretaries_change_the_flag(who, as_user, club, ida):
    response = as_user(who).post(edit_url(club, ida), posted(ida, listed=None))
    allowed = who == "secretary"
    assert Player.objects.get(pk=ida.pk).listed is (not allowed)
    if not allowed:
        assert response.status_code in (302, 403)


@pytest.mark.parametrize("who", USERS)
def test_only_the_clubs_secretaries_change_the_clubs_option(who, as_user, club):
    response = as_user(who).post(settings_url(club), {"initials_in_standings": "on"})
    allowed = who == "secretary"
    assert Club.objects.get(pk=club.pk).initials_in_standings is allowed
    assert response.status_code in ((302,) if allowed else (302, 403))


def test_the_clubs_option_is_logged_once_and_moves_its_tournaments(
    client_for, secretary, club, tournament
):
    before = Tournament.objects.get(pk=tournament.pk).version
    client = client_for(secretary)
    page = client.get(settings_url(club)).content.decode()
    assert 'name="initials_in_standings"' in page
    for _ in range(2):
        client.post(settings_url(club), {"initials_in_standings": "on"})
    (line,) = ActionLog.objects.filter(kind=Kind.CLUB_SETTINGS)
    assert line.club_id == club.pk and line.user == secretary
    assert line.details["changes"] == {"initials_in_standings": [False, True]}
    assert Tournament.objects.get(pk=tournament.pk).version == before + 1


def test_setting_the_option_again_changes_nothing(club, tournament):
    club_settings_update(club=club, initials_in_standings=False)
    assert not ActionLog.objects.filter(kind=Kind.CLUB_SETTINGS).exists()
    assert Tournament.objects.get(pk=tournament.pk).version == 0


def test_the_club_players_page_marks_a_player_not_listed(client_for, secretary, club, ida):
    player_update(player=ida, listed=False)
    page = client_for(secretary).get(reverse("manage:club_players", kwargs={"club": club.pk}))
    text = page.content.decode()
    assert "Ida Alt" in text and "not listed publicly" in text
    assert settings_url(club) in text
