"""The hall's publishing page: a site and its key entered once (never shown again), the
sender started as a process of its own and stopped, and what the page says of the copy."""

import datetime
import subprocess
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.hall.helpers import fill
from tournaments.hall import services
from tournaments.hall.selectors import process_alive, publishing_status
from tournaments.models import ActionLog, Publication

pytestmark = pytest.mark.django_db

KEY = "pk_live_5f0c2b7e9a1d4c3b"


@pytest.fixture
def started(monkeypatch):
    """The sender processes the page starts: each a harmless `sleep` in its place."""
    calls = []
    real = subprocess.Popen

    def popen(args, **kwargs):
        calls.append(args)
        return real(["sleep", "60"], start_new_session=True)

    monkeypatch.setattr(services.subprocess, "Popen", popen)
    yield calls
    for pid in list(services._senders):
        process = services._senders.pop(pid)
        process.kill()
        process.wait()


def page(tournament):
    return reverse("manage:hall_publishing", kwargs={"tournament": tournament.slug})


def test_the_manage_page_links_to_publishing(client, secretary, tournament):
    client.force_login(secretary)
    answer = client.get(reverse("manage:tournament", kwargs={"tournament": tournament.slug}))
    assert page(tournament) in answer.content.decode()


def test_only_the_tournaments_secretaries_see_it(client, other_club_secretary, tournament):
    client.force_login(other_club_secretary)
    assert client.get(page(tournament)).status_code == 403


def test_a_site_and_key_start_the_sender_and_the_key_is_not_shown_again(
    client, secretary, tournament, started
):
    client.force_login(secretary)
    answer = client.post(
        page(tournament), {"action": "add", "url": "https://skat.example.org", "key": KEY}
    )
    assert answer.status_code == 302
    row = Publication.objects.get(tournament=tournament)
    assert row.url == "https://skat.example.org/api/v1/publish" and row.key == KEY
    (args,) = started
    assert args[-4:] == ["publish", tournament.slug, "--to", row.url] and KEY not in args
    assert row.running and process_alive(row.pid)
    text = client.get(page(tournament)).content.decode()
    assert KEY not in text and "skat.example.org" in text
    assert "Stop publishing" in text
    kinds = list(ActionLog.objects.values_list("kind", flat=True))
    assert kinds.count(ActionLog.Kind.PUBLISHING_STARTED) == 2  # the key set, the start


def test_plain_http_to_another_host_is_refused_on_the_page(client, secretary, tournament, started):
    client.force_login(secretary)
    answer = client.post(
        page(tournament), {"action": "add", "url": "http://skat.example.org", "key": KEY}
    )
    assert answer.status_code == 200
    assert "Plain http is refused" in answer.content.decode()
    assert not Publication.objects.exists() and started == []


def test_stop_ends_the_sender(client, secretary, tournament, started):
    client.force_login(secretary)
    client.post(page(tournament), {"action": "add", "url": "http://127.0.0.1:8781", "key": KEY})
    row = Publication.objects.get(tournament=tournament)
    pid = row.pid
    client.post(page(tournament), {"action": "stop", "pk": row.pk})
    row.refresh_from_db()
    assert not row.running and row.pid is None
    for _ in range(50):
        if not process_alive(pid):
            break
        time.sleep(0.05)  # the signal is delivered asynchronously
    assert not process_alive(pid)
    assert ActionLog.objects.filter(kind=ActionLog.Kind.PUBLISHING_STOPPED).count() == 1
    assert "Start publishing" in client.get(page(tournament)).content.decode()


def test_a_start_sent_twice_starts_one_sender(client, secretary, tournament, started):
    client.force_login(secretary)
    client.post(page(tournament), {"action": "add", "url": "http://127.0.0.1:8781", "key": KEY})
    row = Publication.objects.get(tournament=tournament)
    client.post(page(tournament), {"action": "stop", "pk": row.pk})
    once = "6f1d3f6e-8d8a-4b43-9d0e-3c7c2f0a5b11"
    for _ in range(2):
        client.post(page(tournament), {"action": "start", "pk": row.pk, "once": once})
    assert len(started) == 2  # the first start and this one, once


def at(seconds_ago=None, **fields):
    now = timezone.now()
    row = Publication(
        url="https://skat.example.org/api/v1/publish",
        last_success=None
        if seconds_ago is None
        else now - datetime.timedelta(seconds=seconds_ago),
        **fields,
    )
    return row, now


def test_status_published_some_seconds_ago(started):
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        row, now = at(12, acked_version=40, running=True, pid=sleeper.pid)
        status = publishing_status(row, version=40, now=now)
        assert (status.state, status.seconds_ago, status.waiting) == ("published", 12, 0)
        row.last_error = "No connection to …"
        status = publishing_status(row, version=47, now=now)
        assert (status.state, status.waiting) == ("no_connection", 7)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert publishing_status(row, version=47, now=now).state == "idle"


def test_the_page_says_no_connection_and_the_changes_waiting(
    client, secretary, tournament, table, started
):
    fill(table, 3)
    client.force_login(secretary)
    client.post(page(tournament), {"action": "add", "url": "http://127.0.0.1:8781", "key": KEY})
    Publication.objects.update(last_error="No connection to the site")
    tournament.refresh_from_db()
    text = client.get(page(tournament)).content.decode()
    waiting = tournament.version
    assert waiting > 0
    expected = f"no connection: {waiting} change{'s' if waiting != 1 else ''} waiting"
    assert expected in text
