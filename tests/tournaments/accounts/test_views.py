"""The people pages: who sees them, what a form writes, the link pages, the first start."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.accounts import services
from tournaments.accounts.models import Invitation, Role
from tournaments.models import ActionLog, Club, League, Season

Kind = ActionLog.Kind
User = get_user_model()
PASSWORD = "a-long-new-pass-4711"


def link_of(response) -> str:
    """The one-time link on the link page."""
    found = re.search(r'id="one-time-link" value="([^"]+)"', response.content.decode())
    assert found, "no link on the page"
    return found.group(1)


def path_of(link: str) -> str:
    return re.sub(r"^https?://[^/]+", "", link)


@pytest.mark.parametrize(
    "name", ["manage:site_clubs", "manage:site_leagues", "manage:site_people", "manage:site_log"]
)
def test_site_pages_are_the_site_administrators(client_for, admin, secretary, name):
    assert client_for(admin).get(reverse(name)).status_code == 200
    assert client_for(secretary).get(reverse(name)).status_code == 403
    assert client_for(None).get(reverse(name)).status_code == 302


def test_the_site_administrator_creates_a_club_on_the_page(client_for, admin):
    client = client_for(admin)
    response = client.post(
        reverse("manage:site_clubs"), {"name": "Skatfreunde Gera", "city": "Gera"}, follow=True
    )
    assert "The club Skatfreunde Gera was created." in response.content.decode()
    assert Club.objects.filter(name="Skatfreunde Gera", city="Gera").exists()


def test_a_club_without_a_name_is_refused_and_nothing_is_written(client_for, admin):
    response = client_for(admin).post(reverse("manage:site_clubs"), {"name": " ", "city": "Gera"})
    assert response.status_code == 400
    assert not Club.objects.exists() and not ActionLog.objects.exists()


def test_a_club_form_sent_twice_creates_one(client_for, admin):
    client = client_for(admin)
    data = {"name": "Gera", "once": "6f1c2a9e-1d7b-4a8e-9f00-0123456789ab"}
    client.post(reverse("manage:site_clubs"), data)
    response = client.post(reverse("manage:site_clubs"), data, follow=True)
    assert response.status_code == 200 and "sent twice" in response.content.decode()
    assert Club.objects.filter(name="Gera").count() == 1


def test_the_site_administrator_creates_a_league_with_member_clubs(client_for, admin, club):
    client_for(admin).post(
        reverse("manage:site_leagues"), {"name": "Thüringenliga", "clubs": [club.pk]}
    )
    assert list(League.objects.get(name="Thüringenliga").clubs.all()) == [club]


def test_the_people_page_lists_every_role(client_for, admin, secretary, match_day):
    text = client_for(admin).get(reverse("manage:site_people")).content.decode()
    assert "secretary of Skatfreunde Altenburg" in text
    assert "director of Ostthüringer Liga" in text
    assert "secretary of the venue Altenburg at 1. Spieltag" in text


def test_an_invitation_link_is_shown_once(client_for, secretary, club):
    client = client_for(secretary)
    response = client.post(
        reverse("manage:invite_club", kwargs={"pk": club.pk}), {"email": ""}, follow=True
    )
    link = link_of(response)
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert Invitation.objects.get().token_hash == services.token_hash(token)
    again = client.get(reverse("manage:account_link"), follow=True)
    assert token not in again.content.decode()


def test_a_bad_e_mail_address_is_refused_and_nothing_is_written(client_for, secretary, club):
    response = client_for(secretary).post(
        reverse("manage:invite_club", kwargs={"pk": club.pk}), {"email": "not an address"}
    )
    assert response.status_code == 400 and not Invitation.objects.exists()


def test_an_invitation_is_mailed_with_an_e_mail_server(
    client_for, secretary, club, settings, mailoutbox
):
    settings.EMAIL_ENABLED = True
    response = client_for(secretary).post(
        reverse("manage:invite_club", kwargs={"pk": club.pk}),
        {"email": "neu@example.org"},
        follow=True,
    )
    assert link_of(response) in mailoutbox[0].body
    assert "It was also mailed." in response.content.decode()


def test_another_clubs_secretary_may_not_invite(client_for, other_club_secretary, club):
    url = reverse("manage:invite_club", kwargs={"pk": club.pk})
    assert client_for(other_club_secretary).post(url, {"email": ""}).status_code == 403
    assert not Invitation.objects.exists()


def test_a_new_person_accepts_and_is_signed_in(client_for, secretary, club):
    _invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    client = Client()
    url = reverse("invitation", kwargs={"token": token})
    assert "secretary" in client.get(url).content.decode()
    data = {"username": "neu", "password": PASSWORD, "password_again": PASSWORD}
    response = client.post(url, data, follow=True)
    assert response.status_code == 200 and response.context["user"].username == "neu"
    assert club.secretaries.filter(username="neu").exists()


def test_the_accept_form_sent_twice_makes_one_account_and_no_error(secretary, club):
    _invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    url = reverse("invitation", kwargs={"token": token})
    data = {"username": "neu", "password": PASSWORD, "password_again": PASSWORD}
    first, second = Client(), Client()
    assert first.post(url, data).status_code == 302
    response = second.post(url, data)
    assert response.status_code == 410 and "already used" in response.content.decode()
    assert User.objects.filter(username="neu").count() == 1


def test_a_signed_in_accept_sent_twice_is_answered(client_for, admin, league, player):
    _invitation, token = services.invitation_create(
        user=admin, role=Role.LEAGUE_DIRECTOR, target=league
    )
    client = client_for(player)
    url = reverse("invitation", kwargs={"token": token})
    client.post(url)
    response = client.post(url, follow=True)
    assert "already accepted" in response.content.decode()
    assert ActionLog.objects.filter(kind=Kind.INVITATION_ACCEPTED).count() == 1


def test_mismatched_passwords_change_nothing(secretary, club):
    _invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    data = {"username": "neu", "password": PASSWORD, "password_again": PASSWORD + "x"}
    response = Client().post(reverse("invitation", kwargs={"token": token}), data)
    assert response.status_code == 400 and "The two passwords differ." in response.content.decode()
    assert not User.objects.filter(username="neu").exists()


def test_a_too_short_password_is_refused_with_djangos_message(secretary, club):
    _invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    data = {"username": "neu", "password": "kurz", "password_again": "kurz"}
    response = Client().post(reverse("invitation", kwargs={"token": token}), data)
    assert response.status_code == 400 and "too short" in response.content.decode()
    assert not User.objects.filter(username="neu").exists()


def test_an_unknown_link_is_a_clear_404(db):
    response = Client().get(reverse("invitation", kwargs={"token": "nothing"}))
    assert response.status_code == 404 and "not valid" in response.content.decode()


def test_a_withdrawn_link_says_so(client_for, secretary, club):
    invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    client_for(secretary).post(reverse("manage:invitation_withdraw", kwargs={"pk": invitation.pk}))
    response = Client().get(reverse("invitation", kwargs={"token": token}))
    assert response.status_code == 410 and "withdrawn" in response.content.decode()


def test_revoke_on_the_club_page(client_for, secretary, club):
    co = User.objects.create_user("co", password=PASSWORD)
    club.secretaries.add(co)
    url = reverse("manage:revoke_club", kwargs={"pk": club.pk, "user": co.pk})
    response = client_for(secretary).post(url, follow=True)
    assert "co is no longer club secretary of Skatfreunde Altenburg." in response.content.decode()
    assert not club.secretaries.filter(pk=co.pk).exists()


def test_revoking_oneself_is_refused_with_a_message(client_for, secretary, club):
    url = reverse("manage:revoke_club", kwargs={"pk": club.pk, "user": secretary.pk})
    response = client_for(secretary).post(url, follow=True)
    assert "You cannot revoke your own role" in response.content.decode()
    assert club.secretaries.filter(pk=secretary.pk).exists()


def test_a_password_link_sets_a_new_password_and_is_logged(client_for, secretary, club):
    co = User.objects.create_user("co", password=PASSWORD)
    club.secretaries.add(co)
    response = client_for(secretary).post(
        reverse("manage:password_link", kwargs={"user": co.pk}), follow=True
    )
    client = Client()
    form = client.get(path_of(link_of(response)), follow=True)
    assert form.status_code == 200 and form.context["validlink"]
    new = "ein-neues-passwort-42"
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert "Your password is set." in done.content.decode()
    co.refresh_from_db()
    assert co.check_password(new)
    line = ActionLog.objects.get(kind=Kind.PASSWORD_SET)
    assert new not in str(line.details) and line.user == co
    # The link is void once used.
    assert not Client().get(path_of(link_of(response)), follow=True).context["validlink"]


def test_the_club_people_page_is_its_secretaries(
    client_for, secretary, other_club_secretary, club
):
    url = reverse("manage:club_people", kwargs={"club": club.pk})
    services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club, email="neu@example.org"
    )
    text = client_for(secretary).get(url).content.decode()
    assert "neu@example.org" in text and "Invitation created" in text
    assert client_for(other_club_secretary).get(url).status_code == 403


def test_the_league_page_is_its_directors_and_makes_a_season(
    client_for, league_director, secretary, league, match_day
):
    url = reverse("manage:league_people", kwargs={"league": league.pk})
    assert client_for(secretary).get(url).status_code == 403
    text = client_for(league_director).get(url).content.decode()
    assert "Invite a venue secretary" in text and "venue1" in text
    response = client_for(league_director).post(url, {"name": "Liga 2027/28"})
    season = Season.objects.get(name="Liga 2027/28")
    assert season.league == league and response.status_code == 302


def test_home_and_sign_in_say_how_to_begin_only_while_there_is_no_account(db, client):
    for name in ("home", "login"):
        assert "manage.py createsuperuser" in client.get(reverse(name)).content.decode()
    User.objects.create_user("first", password=PASSWORD)
    for name in ("home", "login"):
        assert "createsuperuser" not in client.get(reverse(name)).content.decode()


def test_forgot_password_exists_only_with_an_e_mail_server(db, client, settings):
    settings.EMAIL_ENABLED = False
    assert client.get(reverse("password_reset")).status_code == 404
    assert 'href="/password/forgot/"' not in client.get(reverse("login")).content.decode()
    settings.EMAIL_ENABLED = True
    assert client.get(reverse("password_reset")).status_code == 200
    assert 'href="/password/forgot/"' in client.get(reverse("login")).content.decode()


def test_the_dashboard_shows_the_site_to_its_administrator(client_for, admin):
    text = client_for(admin).get(reverse("manage:dashboard")).content.decode()
    assert reverse("manage:site_people") in text
    assert "Ask the site's administrator" not in text


def test_no_page_links_to_the_admin(client_for, admin, match_day):
    client = client_for(admin)
    for name in ("manage:dashboard", "manage:site_people", "manage:site_clubs", "home"):
        assert "/admin/" not in client.get(reverse(name)).content.decode()


def test_the_forgot_password_e_mail_sets_a_new_password(db, settings, mailoutbox):
    settings.EMAIL_ENABLED = True
    person = User.objects.create_user("neu", email="neu@example.org", password=PASSWORD)
    client = Client()
    response = client.post(reverse("password_reset"), {"email": "neu@example.org"}, follow=True)
    assert "a link to choose a new password is on its way" in response.content.decode()
    link = re.search(r"https?://\S+/password/\S+/", mailoutbox[0].body).group(0)
    form = client.get(path_of(link), follow=True)
    new = "ein-neues-passwort-42"
    client.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    person.refresh_from_db()
    assert person.check_password(new)
    assert ActionLog.objects.filter(kind=Kind.PASSWORD_SET, user=person).count() == 1


def test_a_director_sees_a_link_to_their_league(client_for, league_director, league):
    text = client_for(league_director).get(reverse("manage:leagues")).content.decode()
    assert reverse("manage:league_people", kwargs={"league": league.pk}) in text


def test_a_director_invites_a_venue_secretary_from_the_league_page(
    client_for, league_director, altenburg_venue
):
    url = reverse("manage:invite_venue", kwargs={"pk": altenburg_venue.pk})
    response = client_for(league_director).post(url, {"email": ""}, follow=True)
    token = link_of(response).rstrip("/").rsplit("/", 1)[1]
    person = services.invitation_accept(token=token, username="venue3", password=PASSWORD)
    altenburg_venue.refresh_from_db()
    assert altenburg_venue.secretary == person


def test_a_new_season_form_sent_twice_makes_one_season_on_the_leagues_log(
    client_for, league_director, league
):
    client = client_for(league_director)
    url = reverse("manage:league_people", kwargs={"league": league.pk})
    data = {"name": "Liga 2027/28", "once": "0b9e6c51-3a1f-4c55-9d0e-9a7d1e2f3b4c"}
    client.post(url, data)
    response = client.post(url, data, follow=True)
    assert "sent twice" in response.content.decode()
    assert Season.objects.filter(league=league).count() == 1
    line = ActionLog.objects.get(kind=Kind.SEASON_CREATED)
    assert (line.league, line.user) == (league, league_director)
