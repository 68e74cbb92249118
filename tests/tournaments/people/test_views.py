"""The secretaries' pages of one person across clubs and who may post them."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.tournaments.helpers import confirmation_posting
from tournaments.models import ActionLog, Membership, Player, PlayerMerge, Registration
from tournaments.permissions import can_edit_player, can_merge_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def leipzig(other_club_secretary):
    return other_club_secretary.clubs.get()


@pytest.fixture
def both_clubs_secretary(club, leipzig):
    user = UserFactory(username="both")
    club.secretaries.add(user)
    leipzig.secretaries.add(user)
    return user


def test_the_player_list_shows_members_of_other_clubs_marked(client_for, secretary, club, leipzig):
    home = PlayerFactory(club=club, name="Heimspieler")
    guest = PlayerFactory(club=leipzig, name="Gastspieler")
    Membership.objects.create(player=guest, club=club)
    PlayerFactory(club=leipzig, name="Nicht Mitglied")
    page = client_for(secretary).get(reverse("manage:club_players", kwargs={"club": club.pk}))
    html = page.content.decode()
    assert "Heimspieler" in html and "Gastspieler" in html and "Nicht Mitglied" not in html
    assert "member, home club" in html
    assert reverse("manage:player_edit", kwargs={"club": club.pk, "pk": home.pk}) in html
    assert reverse("manage:player_edit", kwargs={"club": club.pk, "pk": guest.pk}) not in html
    assert reverse("manage:duplicates", kwargs={"club": club.pk}) in html


def test_a_secretary_finds_a_player_of_another_club_and_adds_them(
    client_for, secretary, club, leipzig
):
    guest = PlayerFactory(club=leipzig, name="Jörg Łukasz", federation_number="DSKV-77")
    client = client_for(secretary)
    url = reverse("manage:member_add", kwargs={"club": club.pk})
    for query in ("lukasz", "DSKV-77"):
        assert "Jörg Łukasz" in client.get(url, {"q": query}).content.decode()
    once = "5a1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b"
    for _ in range(2):  # a double submit
        response = client.post(url, {"player": guest.pk, "once": once})
        assert response.status_code == 302
    assert Membership.objects.filter(player=guest, club=club).count() == 1
    assert ActionLog.objects.filter(kind=ActionLog.Kind.MEMBERSHIP_ADDED).count() == 1


def test_ending_a_membership_asks_first_and_the_home_club_is_not_offered(
    client_for, secretary, club, leipzig
):
    guest = PlayerFactory(club=leipzig)
    membership = Membership.objects.create(player=guest, club=club)
    client = client_for(secretary)
    url = reverse("manage:member_end", kwargs={"club": club.pk, "pk": membership.pk})
    asked = client.post(url, {"once": "6b1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b"})
    assert asked.status_code == 200 and Membership.objects.filter(pk=membership.pk).exists()
    action, fields = confirmation_posting(asked.content.decode())
    assert client.post(action, fields).status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()
    # The other club's secretary cannot end memberships of this club.
    other = Membership.objects.create(player=guest, club=club)
    url = reverse("manage:member_end", kwargs={"club": club.pk, "pk": other.pk})
    assert client_for(leipzig.secretaries.get()).post(url, {"confirmed": "1"}).status_code == 403


def test_the_duplicates_page_offers_a_merge_only_to_who_keeps_both_records(
    client_for, secretary, both_clubs_secretary, club, leipzig
):
    mine = PlayerFactory(club=club, name="Hans Müller")
    theirs = PlayerFactory(club=leipzig, name="Müller, Hans")
    merge_url = reverse(
        "manage:player_merge", kwargs={"club": club.pk, "kept": mine.pk, "absorbed": theirs.pk}
    )
    url = reverse("manage:duplicates", kwargs={"club": club.pk})
    page = client_for(secretary).get(url).content.decode()
    assert "Müller, Hans" in page and merge_url not in page
    assert merge_url in client_for(both_clubs_secretary).get(url).content.decode()


def test_the_merge_preview_then_the_merge_once_then_its_undo(
    client_for, both_clubs_secretary, club, leipzig
):
    kept = PlayerFactory(club=club, name="Hans Müller")
    absorbed = PlayerFactory(club=leipzig, name="Müller, Hans")
    registration = RegistrationFactory(player=absorbed)
    client = client_for(both_clubs_secretary)
    url = reverse(
        "manage:player_merge", kwargs={"club": club.pk, "kept": kept.pk, "absorbed": absorbed.pk}
    )
    preview = client.get(url)
    assert preview.status_code == 200
    assert registration.tournament.name in preview.content.decode()
    assert Player.objects.filter(pk=absorbed.pk).exists()  # a preview changes nothing
    once = "7c1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b"
    assert client.post(url, {"once": once}).status_code == 302
    assert client.post(url, {"once": once}).status_code in (302, 404)  # B is gone: answered
    assert PlayerMerge.objects.count() == 1
    assert Registration.objects.get(pk=registration.pk).player_id == kept.pk
    merge = PlayerMerge.objects.get()
    undo = reverse("manage:merge_undo", kwargs={"club": club.pk, "pk": merge.pk})
    asked = client.post(undo, {"once": "8d1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b"})
    assert asked.status_code == 200 and not Player.objects.filter(pk=absorbed.pk).exists()
    action, fields = confirmation_posting(asked.content.decode())
    assert client.post(action, fields).status_code == 302
    assert Registration.objects.get(pk=registration.pk).player_id == absorbed.pk


def test_a_blocked_merge_shows_why_and_changes_nothing(
    client_for, both_clubs_secretary, club, leipzig
):
    kept = PlayerFactory(club=club, user=UserFactory())
    absorbed = PlayerFactory(club=leipzig, user=UserFactory())
    url = reverse(
        "manage:player_merge", kwargs={"club": club.pk, "kept": kept.pk, "absorbed": absorbed.pk}
    )
    client = client_for(both_clubs_secretary)
    assert "Both have a user account" in client.get(url).content.decode()
    refused = client.post(url, {"once": "9e1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b"})
    assert refused.status_code == 200 and Player.objects.filter(pk=absorbed.pk).exists()


def test_another_clubs_secretary_may_not_merge_or_undo(
    client_for, secretary, other_club_secretary, club, leipzig
):
    kept = PlayerFactory(club=club)
    absorbed = PlayerFactory(club=leipzig)
    for user, in_club in ((secretary, club), (other_club_secretary, leipzig)):
        url = reverse(
            "manage:player_merge",
            kwargs={"club": in_club.pk, "kept": kept.pk, "absorbed": absorbed.pk},
        )
        assert client_for(user).get(url).status_code == 403
        assert client_for(user).post(url, {}).status_code == 403
    # Through a club they do not run: 403 before anything else.
    url = reverse(
        "manage:player_merge", kwargs={"club": club.pk, "kept": kept.pk, "absorbed": absorbed.pk}
    )
    assert client_for(other_club_secretary).post(url, {}).status_code == 403
    assert Player.objects.filter(pk=absorbed.pk).exists()
    kept_other = PlayerFactory(club=ClubFactory())
    merge = PlayerMerge.objects.create(
        kept=kept_other, absorbed_id=999, absorbed_name="X", club=club
    )
    undo = reverse("manage:merge_undo", kwargs={"club": club.pk, "pk": merge.pk})
    assert client_for(secretary).post(undo, {"confirmed": "1"}).status_code == 403


def test_a_member_of_another_club_can_be_registered_in_the_clubs_tournament(
    client_for, secretary, club, leipzig, tournament
):
    guest = PlayerFactory(club=leipzig, name="Gastspieler")
    stranger = PlayerFactory(club=leipzig, name="Fremder")
    Membership.objects.create(player=guest, club=club)
    page = client_for(secretary).get(
        reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    )
    html = page.content.decode()
    assert "Gastspieler" in html and "Fremder" not in html
    client_for(secretary).post(
        reverse("manage:registration_add", kwargs={"tournament": tournament.slug}),
        {"players": [guest.pk]},
    )
    assert Registration.objects.filter(tournament=tournament, player=guest).exists()
    assert not Registration.objects.filter(player=stranger).exists()


def test_who_may_edit_a_player_is_one_rule(secretary, other_club_secretary, club, leipzig):
    admin = UserFactory(is_superuser=True)
    home = PlayerFactory(club=club)
    guest = PlayerFactory(club=leipzig)
    Membership.objects.create(player=guest, club=club)  # a member, kept by Leipzig
    clubless = PlayerFactory(club=None)
    assert can_edit_player(secretary, home) and not can_edit_player(secretary, guest)
    assert can_edit_player(other_club_secretary, guest)
    assert not can_edit_player(other_club_secretary, home)
    assert all(can_edit_player(admin, p) for p in (home, guest, clubless))
    assert not can_edit_player(secretary, clubless)
    assert can_merge_players(admin, home, guest)
    assert not can_merge_players(secretary, home, guest)
    assert not can_merge_players(other_club_secretary, guest, home)


def test_merges_and_memberships_show_in_the_clubs_log(
    client_for, both_clubs_secretary, club, leipzig
):
    kept = PlayerFactory(club=club, name="Hans Müller")
    absorbed = PlayerFactory(club=leipzig, name="Müller, Hans")
    client = client_for(both_clubs_secretary)
    client.post(
        reverse(
            "manage:player_merge",
            kwargs={"club": club.pk, "kept": kept.pk, "absorbed": absorbed.pk},
        ),
        {"once": "ad1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b"},
    )
    page = client.get(reverse("manage:club_people", kwargs={"club": club.pk})).content.decode()
    assert "Players merged" in page and "Müller, Hans → Hans Müller" in page


def test_the_player_forms_name_who_has_a_federation_number(client_for, secretary, club, leipzig):
    PlayerFactory(club=leipzig, name="Anna Schmidt", federation_number="42")
    mine = PlayerFactory(club=club, name="Berta Schulz")
    client = client_for(secretary)
    added = client.post(
        reverse("manage:club_players", kwargs={"club": club.pk}),
        {
            "name": "Anna S.",
            "federation_number": "42",
            "once": "be1c9f0e-4a4e-4b8e-9a57-1c2d3e4f5a6b",
        },
    )
    edited = client.post(
        reverse("manage:player_edit", kwargs={"club": club.pk, "pk": mine.pk}),
        {"name": "Berta Schulz", "federation_number": "42"},
    )
    for response in (added, edited):
        assert response.status_code == 200
        errors = str(response.context["form"].errors)
        assert "Anna Schmidt" in errors and "Skatclub Leipzig" in errors
    assert Player.objects.filter(federation_number="42").count() == 1
