"""The people pages and messages speak German (locale/de)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.accounts import services
from tournaments.accounts.models import Role
from tournaments.errors import UserError
from tournaments.models import ActionLog


@pytest.mark.parametrize(
    ("english", "german"),
    [
        (Role.CLUB_SECRETARY.label, "Listenführer des Vereins"),
        (ActionLog.Kind.INVITATION_ACCEPTED.label, "Einladung angenommen"),
        (ActionLog.Kind.ROLE_REVOKED.label, "Rolle entzogen"),
    ],
)
def test_labels_are_german(english, german):
    with translation.override("de"):
        assert str(english) == german


def test_a_used_link_is_refused_in_german(secretary, club):
    _invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    services.invitation_accept(token=token, username="neu", password="a-long-new-pass-4711")
    with translation.override("de"), pytest.raises(UserError) as refused:
        services.invitation_accept(token=token, username="neu2", password="a-long-new-pass-4711")
    assert str(refused.value) == (
        "Dieser Einladungslink wurde schon benutzt. Melden Sie sich an oder bitten Sie um "
        "einen neuen."
    )


def test_the_site_pages_are_german(client_for, admin):
    client = client_for(admin)
    text = client.get("/de" + reverse("manage:site_clubs")).content.decode()
    assert "Neuer Verein" in text and ">Vereine<" in text and "Kreuz" not in text


def test_the_first_start_is_german(db):
    text = Client().get("/de/login/").content.decode()
    assert "Erster Start" in text and "createsuperuser" in text
