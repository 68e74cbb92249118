"""Twenty copies of the same accept form at once (a double click, a resent request): one
account, one role, one log line; every other copy is answered "already used", none fails."""

import threading

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.accounts import services
from tournaments.accounts.models import Role
from tournaments.models import ActionLog

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
PASSWORD = "a-long-new-pass-4711"


@pytest.mark.skipif(not ON_POSTGRES, reason="row locks and concurrency need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_accepts_make_one_account():
    club = ClubFactory()
    secretary = UserFactory()
    club.secretaries.add(secretary)
    _invitation, token = services.invitation_create(
        user=secretary, role=Role.CLUB_SECRETARY, target=club
    )
    url = reverse("invitation", kwargs={"token": token})
    data = {"username": "neu", "password": PASSWORD, "password_again": PASSWORD}
    barrier = threading.Barrier(20)
    statuses, errors = [], []

    def run():
        try:
            barrier.wait()
            statuses.append(Client().post(url, data).status_code)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(statuses) == [302] + [410] * 19
    assert get_user_model().objects.filter(username="neu").count() == 1
    assert club.secretaries.filter(username="neu").exists()
    assert ActionLog.objects.filter(kind=ActionLog.Kind.INVITATION_ACCEPTED).count() == 1
