"""The people services: who may give which role, the invitation's one-time link (hashed,
expiring, withdrawn, used once), revoking, password links and their log lines."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from tests.factories import UserFactory
from tournaments.accounts import services
from tournaments.accounts.models import Invitation, Role
from tournaments.errors import UserError
from tournaments.log.services import Replay
from tournaments.models import ActionLog, Club, League

Kind = ActionLog.Kind
User = get_user_model()
PASSWORD = "a-long-new-pass-4711"


def invite(user, role, target, **kwargs):
    return services.invitation_create(user=user, role=role, target=target, **kwargs)


# -- clubs and leagues -----------------------------------------------------------------


def test_the_site_administrator_creates_a_club_and_it_is_logged(admin):
    club = services.club_create(user=admin, name="  Skatfreunde  Gera ", city="Gera")
    assert club.name == "Skatfreunde Gera"
    line = ActionLog.objects.get(kind=Kind.CLUB_CREATED)
    assert (line.club, line.user, line.details["name"]) == (club, admin, "Skatfreunde Gera")


def test_a_secretary_creates_no_club(secretary):
    with pytest.raises(PermissionDenied):
        services.club_create(user=secretary, name="Neuer Club")
    assert not Club.objects.filter(name="Neuer Club").exists()


def test_a_club_name_twice_is_refused(admin, club):
    with pytest.raises(UserError, match="already a club"):
        services.club_create(user=admin, name=club.name.upper())


def test_a_club_form_sent_twice_creates_one_club(admin):
    key = "6f1c2a9e-1d7b-4a8e-9f00-0123456789ab"
    services.club_create(user=admin, name="Gera", key=key)
    with pytest.raises(Replay):
        services.club_create(user=admin, name="Gera 2", key=key)
    assert Club.objects.filter(name__startswith="Gera").count() == 1


def test_the_site_administrator_creates_a_league_of_member_clubs(admin, club):
    league = services.league_add(user=admin, name="Thüringenliga", clubs=[club])
    assert list(league.clubs.all()) == [club]
    line = ActionLog.objects.get(kind=Kind.LEAGUE_CREATED)
    assert (line.league, line.club) == (league, None)


def test_a_director_creates_no_league(league_director, league):
    with pytest.raises(PermissionDenied):
        services.league_add(user=league_director, name="Another")
    assert League.objects.count() == 1


# -- who may invite --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "role", "target", "allowed"),
    [
        ("admin", Role.CLUB_SECRETARY, "club", True),
        ("admin", Role.LEAGUE_DIRECTOR, "league", True),
        ("admin", Role.VENUE_SECRETARY, "altenburg_venue", True),
        ("secretary", Role.CLUB_SECRETARY, "club", True),
        ("secretary", Role.CLUB_SECRETARY, "zeitz", False),
        ("secretary", Role.LEAGUE_DIRECTOR, "league", False),
        ("secretary", Role.VENUE_SECRETARY, "altenburg_venue", False),
        ("other_club_secretary", Role.CLUB_SECRETARY, "club", False),
        ("league_director", Role.VENUE_SECRETARY, "altenburg_venue", True),
        ("league_director", Role.LEAGUE_DIRECTOR, "league", False),
        ("league_director", Role.CLUB_SECRETARY, "club", False),
        ("venue_secretary", Role.VENUE_SECRETARY, "altenburg_venue", False),
    ],
)
def test_who_may_invite(request, admin, secretary, who, role, target, allowed):
    user = request.getfixturevalue(who)
    target = request.getfixturevalue(target)
    if allowed:
        invitation, _token = invite(user, role, target)
        assert invitation.is_pending
    else:
        with pytest.raises(PermissionDenied):
            invite(user, role, target)
        assert not Invitation.objects.exists()


def test_a_director_of_another_league_invites_no_venue_secretary(admin, altenburg_venue):
    stranger = UserFactory(username="stranger")
    other = services.league_add(user=admin, name="Other league")
    other.directors.add(stranger)
    with pytest.raises(PermissionDenied):
        invite(stranger, Role.VENUE_SECRETARY, altenburg_venue)


# -- the link ---------------------------------------------------------------------------


def test_only_the_hash_of_the_token_is_stored_and_the_log_holds_neither(secretary, club):
    invitation, token = invite(secretary, Role.CLUB_SECRETARY, club, email="neu@example.org")
    assert invitation.token_hash == services.token_hash(token) != token
    assert len(token) >= 40
    assert not Invitation.objects.filter(token_hash=token).exists()
    line = ActionLog.objects.get(kind=Kind.INVITATION_CREATED)
    assert token not in str(line.details) and invitation.token_hash not in str(line.details)
    assert (line.club, line.details["email"]) == (club, "neu@example.org")


def test_the_link_expires_after_the_configured_days(secretary, club, settings):
    settings.INVITE_DAYS = 3
    invitation, _token = invite(secretary, Role.CLUB_SECRETARY, club)
    expected = timezone.now() + datetime.timedelta(days=3)
    assert abs((invitation.expires_at - expected).total_seconds()) < 60


def test_accepting_makes_a_new_account_with_the_role(secretary, club):
    _invitation, token = invite(secretary, Role.CLUB_SECRETARY, club, email="neu@example.org")
    person = services.invitation_accept(token=token, username="neu", password=PASSWORD)
    assert person.check_password(PASSWORD) and person.email == "neu@example.org"
    assert club.secretaries.filter(pk=person.pk).exists()
    line = ActionLog.objects.get(kind=Kind.INVITATION_ACCEPTED)
    assert PASSWORD not in str(line.details) and token not in str(line.details)
    assert (line.user, line.club) == (person, club)


def test_a_signed_in_person_accepts_onto_their_account(admin, league, player):
    _invitation, token = invite(admin, Role.LEAGUE_DIRECTOR, league)
    accounts = User.objects.count()
    person = services.invitation_accept(token=token, user=player)
    assert person == player and league.directors.filter(pk=player.pk).exists()
    assert User.objects.count() == accounts  # no new account


def test_a_venue_secretary_invitation_names_the_venue_and_is_on_the_leagues_log(
    league_director, altenburg_venue, league
):
    _invitation, token = invite(league_director, Role.VENUE_SECRETARY, altenburg_venue)
    person = services.invitation_accept(token=token, username="venue3", password=PASSWORD)
    altenburg_venue.refresh_from_db()
    assert altenburg_venue.secretary == person
    line = ActionLog.objects.get(kind=Kind.INVITATION_ACCEPTED)
    assert (line.league, line.club) == (league, None)
    assert line.details["match_day"] == altenburg_venue.tournament.name


def test_a_link_works_once(secretary, club):
    _invitation, token = invite(secretary, Role.CLUB_SECRETARY, club)
    services.invitation_accept(token=token, username="first", password=PASSWORD)
    with pytest.raises(UserError, match="already used") as refused:
        services.invitation_accept(token=token, username="second", password=PASSWORD)
    assert refused.value.code == "used"
    assert not User.objects.filter(username="second").exists()


def test_the_same_accept_sent_twice_makes_one_account(secretary, club):
    _invitation, token = invite(secretary, Role.CLUB_SECRETARY, club)
    services.invitation_accept(token=token, username="neu", password=PASSWORD)
    with pytest.raises(UserError):
        services.invitation_accept(token=token, username="neu", password=PASSWORD)
    assert User.objects.filter(username="neu").count() == 1
    assert ActionLog.objects.filter(kind=Kind.INVITATION_ACCEPTED).count() == 1


def test_an_expired_link_is_refused_and_changes_nothing(secretary, club):
    invitation, token = invite(secretary, Role.CLUB_SECRETARY, club)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    with pytest.raises(UserError, match="expired"):
        services.invitation_accept(token=token, username="late", password=PASSWORD)
    assert not User.objects.filter(username="late").exists()
    assert list(club.secretaries.all()) == [secretary]


def test_a_withdrawn_link_is_refused(secretary, club):
    invitation, token = invite(secretary, Role.CLUB_SECRETARY, club)
    services.invitation_withdraw(user=secretary, invitation=invitation)
    with pytest.raises(UserError, match="withdrawn"):
        services.invitation_accept(token=token, username="late", password=PASSWORD)
    assert ActionLog.objects.filter(kind=Kind.INVITATION_WITHDRAWN).count() == 1


def test_an_unknown_link_is_refused(db):
    with pytest.raises(UserError, match="not valid"):
        services.invitation_accept(token="no-such-token", username="x", password=PASSWORD)


def test_a_weak_password_or_a_taken_name_is_refused_and_the_link_still_works(secretary, club):
    _invitation, token = invite(secretary, Role.CLUB_SECRETARY, club)
    with pytest.raises(UserError) as weak:
        services.invitation_accept(token=token, username="neu", password="123")
    assert weak.value.field == "password"
    with pytest.raises(UserError, match="taken") as taken:
        services.invitation_accept(token=token, username="SECRETARY", password=PASSWORD)
    assert taken.value.field == "username"
    assert services.invitation_of(token).is_pending


def test_another_clubs_secretary_withdraws_no_invitation(secretary, other_club_secretary, club):
    invitation, _token = invite(secretary, Role.CLUB_SECRETARY, club)
    with pytest.raises(PermissionDenied):
        services.invitation_withdraw(user=other_club_secretary, invitation=invitation)
    invitation.refresh_from_db()
    assert invitation.withdrawn_at is None


# -- revoking ---------------------------------------------------------------------------


def test_a_secretary_revokes_a_co_secretary(secretary, club):
    co = UserFactory(username="co")
    club.secretaries.add(co)
    services.role_revoke(user=secretary, person=co, role=Role.CLUB_SECRETARY, target=club)
    assert list(club.secretaries.all()) == [secretary]
    line = ActionLog.objects.get(kind=Kind.ROLE_REVOKED)
    assert (line.club, line.details["person"]) == (club, "co")


def test_nobody_revokes_their_own_role(secretary, club):
    with pytest.raises(UserError, match="own role"):
        services.role_revoke(
            user=secretary, person=secretary, role=Role.CLUB_SECRETARY, target=club
        )
    assert club.secretaries.filter(pk=secretary.pk).exists()


def test_another_clubs_secretary_revokes_nobody(secretary, other_club_secretary, club):
    with pytest.raises(PermissionDenied):
        services.role_revoke(
            user=other_club_secretary, person=secretary, role=Role.CLUB_SECRETARY, target=club
        )
    assert club.secretaries.filter(pk=secretary.pk).exists()


def test_a_director_revokes_a_venue_secretary_of_the_league(
    league_director, venue_secretary, altenburg_venue
):
    services.role_revoke(
        user=league_director,
        person=venue_secretary,
        role=Role.VENUE_SECRETARY,
        target=altenburg_venue,
    )
    altenburg_venue.refresh_from_db()
    assert altenburg_venue.secretary is None


def test_a_director_revokes_no_director(admin, league_director, league):
    co = UserFactory(username="co")
    league.directors.add(co)
    with pytest.raises(PermissionDenied):
        services.role_revoke(
            user=league_director, person=co, role=Role.LEAGUE_DIRECTOR, target=league
        )
    services.role_revoke(user=admin, person=co, role=Role.LEAGUE_DIRECTOR, target=league)
    assert list(league.directors.all()) == [league_director]


def test_revoking_twice_logs_once(admin, secretary, club):
    for _ in range(2):
        services.role_revoke(user=admin, person=secretary, role=Role.CLUB_SECRETARY, target=club)
    assert ActionLog.objects.filter(kind=Kind.ROLE_REVOKED).count() == 1


# -- password links ---------------------------------------------------------------------


def test_a_password_link_is_djangos_reset_token_and_is_logged(secretary, club):
    co = UserFactory(username="co")
    club.secretaries.add(co)
    uid, token = services.password_link_issue(user=secretary, person=co)
    assert default_token_generator.check_token(co, token)
    line = ActionLog.objects.get(kind=Kind.PASSWORD_LINK)
    assert token not in str(line.details) and (line.club, line.user) == (club, secretary)


@pytest.mark.parametrize(
    ("who", "whom", "allowed"),
    [
        ("admin", "secretary", True),
        ("admin", "league_director", True),
        ("secretary", "zeitz_secretary", False),
        ("league_director", "venue_secretary", True),
        ("league_director", "secretary", False),
        ("secretary", "admin", False),
        ("venue_secretary", "venue_secretary_2", False),
    ],
)
def test_who_may_issue_a_password_link(request, match_day, admin, who, whom, allowed):
    user, person = request.getfixturevalue(who), request.getfixturevalue(whom)
    if allowed:
        services.password_link_issue(user=user, person=person)
    else:
        with pytest.raises(PermissionDenied):
            services.password_link_issue(user=user, person=person)
        assert not ActionLog.objects.filter(kind=Kind.PASSWORD_LINK).exists()


def test_a_secretary_may_not_reset_a_co_secretary_who_also_directs_a_league(
    secretary, club, league
):
    co = UserFactory(username="co")
    club.secretaries.add(co)
    league.directors.add(co)
    with pytest.raises(PermissionDenied):
        services.password_link_issue(user=secretary, person=co)


# -- e-mail ----------------------------------------------------------------------------


def test_nothing_is_mailed_without_an_e_mail_server(settings, mailoutbox):
    settings.EMAIL_ENABLED = False
    assert not services.link_mail(email="a@example.org", subject="s", link="l", text="t")
    assert mailoutbox == []


def test_the_link_is_mailed_with_an_e_mail_server(settings, mailoutbox):
    settings.EMAIL_ENABLED = True
    assert services.link_mail(
        email="a@example.org", subject="s", link="https://x/invite/abc/", text="t"
    )
    assert mailoutbox[0].to == ["a@example.org"] and "https://x/invite/abc/" in mailoutbox[0].body


def test_a_venue_secretarys_password_link_is_on_the_leagues_log(
    league_director, venue_secretary, match_day, league
):
    services.password_link_issue(user=league_director, person=venue_secretary)
    line = ActionLog.objects.get(kind=Kind.PASSWORD_LINK)
    assert (line.league, line.club, line.details["person"]) == (league, None, "venue1")


def test_only_the_leagues_directors_add_its_seasons(secretary, league_director, league):
    with pytest.raises(PermissionDenied):
        services.league_season_add(user=secretary, league=league, name="Liga 2027/28")
    season = services.league_season_add(user=league_director, league=league, name="Liga 2027/28")
    assert season.league == league and league.seasons.count() == 1
