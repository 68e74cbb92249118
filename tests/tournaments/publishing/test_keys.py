"""Publishing keys: shown once, stored as a hash, revoked; the pages and the command."""

import io
import threading

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from tests.tournaments.publishing.conftest import batch, document_of, sheets_of
from tournaments.models import (
    ActionLog,
    Club,
    Game,
    PublishingKey,
    PublishingState,
    Tournament,
)
from tournaments.publishing.services import key_create, key_digest, key_of

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.mark.django_db
def test_a_new_key_is_stored_as_its_hash_only(club, secretary):
    row, raw = key_create(name="Hall", club=club, user=secretary)
    row.refresh_from_db()
    assert row.digest == key_digest(raw) != raw
    assert raw not in str(PublishingKey.objects.values().get())
    assert key_of(raw) == row
    line = ActionLog.objects.get(kind="publishing_key_created")
    assert line.club_id == club.pk and line.user == secretary and raw not in str(line.details)


@pytest.mark.django_db
def test_the_keys_page_shows_a_new_key_once(club, secretary, client_for):
    client = client_for(secretary)
    url = reverse("manage:publishing_keys", kwargs={"club": club.pk})
    page = client.post(
        url, {"name": "Hall laptop", "once": "0b0e7a52-0000-4000-8000-0000000000a1"}
    )
    raw = page.context["shown"]
    assert key_of(raw).name == "Hall laptop"
    assert raw in page.content.decode()
    assert raw not in client.get(url).content.decode()  # never again
    assert key_of(raw).prefix in client.get(url).content.decode()


@pytest.mark.django_db
def test_another_clubs_secretary_cannot_see_or_make_the_clubs_keys(
    club, other_club_secretary, client_for
):
    client = client_for(other_club_secretary)
    url = reverse("manage:publishing_keys", kwargs={"club": club.pk})
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "x"}).status_code == 403
    assert not PublishingKey.objects.exists()


@pytest.mark.django_db
def test_revoking_a_key_on_its_page_is_logged(club, secretary, client_for):
    row, raw = key_create(name="Hall", club=club)
    url = reverse("manage:publishing_key_revoke", kwargs={"key": row.pk})
    assert client_for(secretary).post(url).status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is not None and row.revoked_by == secretary
    assert ActionLog.objects.filter(kind="publishing_key_revoked", user=secretary).exists()


@pytest.mark.django_db
def test_a_league_director_makes_a_venue_key_on_the_match_days_page(
    match_day, league_director, client_for
):
    venue = match_day.venues.get(name="Zeitz")
    url = reverse("manage:publishing_venue_keys", kwargs={"tournament": match_day.slug})
    page = client_for(league_director).post(
        url, {"venue": venue.pk, "once": "0b0e7a52-0000-4000-8000-0000000000a2"}
    )
    key = key_of(page.context["shown"])
    assert (key.venue, key.league, key.club) == (venue, match_day.season.league, None)


@pytest.mark.django_db
def test_the_command_creates_a_club_and_prints_the_key_last():
    out = io.StringIO()
    call_command("publishing_key", "create", "--club", "Skatclub Neu", stdout=out)
    last = out.getvalue().splitlines()[-1]
    key = key_of(last)
    assert key.club == Club.objects.get(name="Skatclub Neu")
    call_command("publishing_key", "revoke", key.prefix, stdout=io.StringIO())
    key.refresh_from_db()
    assert key.revoked_at is not None


@pytest.mark.django_db
def test_the_command_makes_a_venue_key_of_a_leagues_match_day(match_day):
    out = io.StringIO()
    slug = match_day.season.league.slug
    call_command("publishing_key", "create", "--league", slug, "--venue", "Altenburg", stdout=out)
    key = key_of(out.getvalue().splitlines()[-1])
    assert key.venue == match_day.venues.get(name="Altenburg")


@pytest.mark.skipif(not ON_POSTGRES, reason="row locks and concurrency need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_the_same_batch_twice_at_once_is_applied_once(club, roster):
    import json

    from tests.factories import RegistrationFactory, TournamentFactory
    from tests.tournaments.helpers import GRAND, enter
    from tournaments.draw.services import series_draw

    hall = TournamentFactory(club=club, slug="hall-evening")
    for player in roster(4):
        RegistrationFactory(tournament=hall, player=player)
    enter(series_draw(tournament=hall, seed=1).tables.get(), [GRAND])
    _row, key = key_create(name="Hall", club=club)
    document = batch("pub-evening", base=0, version=2, document=document_of(hall, "pub-evening"))
    assert hammer(json.dumps(document), key) == [(200, False)] * 5 + [(200, True)]
    assert Tournament.objects.filter(slug="pub-evening").count() == 1
    assert PublishingState.objects.get(slug="pub-evening").version == 2

    # The state exists now: its row lock alone keeps a sheets batch from being applied twice.
    enter(hall.series.get().tables.get(), [{**GRAND, "declarer": 3}])
    sheets = batch("pub-evening", base=2, version=3, sheets=sheets_of(hall))
    assert hammer(json.dumps(sheets), key) == [(200, False)] * 5 + [(200, True)]
    copy = Tournament.objects.get(slug="pub-evening")
    assert Game.objects.filter(table__series__tournament=copy).count() == 2
    assert PublishingState.objects.get(slug="pub-evening").version == 3


def hammer(body: str, key: str, times: int = 6) -> list[tuple[int, bool]]:
    """The same body posted by `times` threads at once: (status, applied) of each, sorted."""
    from django.test import Client

    answers, barrier = [], threading.Barrier(times)

    def send():
        try:
            barrier.wait()
            response = Client().post(
                "/api/v1/publish",
                body,
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {key}",
            )
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted((status, answer.get("applied")) for status, answer in answers)
