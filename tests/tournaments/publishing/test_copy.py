"""The public copy: read-only while kept at the hall (the one guard of
`lifecycle.check_not_finished`), writable again once handed over; venue keys' scope."""

import pytest
from django.urls import reverse

from tests.tournaments.entry.helpers import send
from tests.tournaments.log.test_once import PHONE_ROW, ROW, sheet_url
from tests.tournaments.publishing.conftest import batch, document_of, sheets_of
from tournaments.errors import UserError
from tournaments.interchange import export_document
from tournaments.models import ActionLog, Game, PublishingState, Table, Tournament
from tournaments.publishing.services import key_create, publishing_hand_over
from tournaments.sheets.services import game_record

SLUG = "copy"
KEPT = "This tournament is kept at the hall (Skatfreunde Altenburg)"


@pytest.fixture
def copy(hall, club_key, post):
    assert post(club_key[1], batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    return Tournament.objects.get(slug=SLUG)


@pytest.mark.django_db
def test_the_desk_cannot_enter_a_game_on_a_copy_kept_at_the_hall(copy, secretary, client_for):
    table = copy.series.get().tables.get()
    games = table.games.count()
    page = client_for(secretary).post(
        sheet_url(copy, table), {**ROW, "number": str(games + 1)}, follow=True
    )
    assert KEPT in page.content.decode()
    assert table.games.count() == games
    with pytest.raises(UserError, match="kept at the hall"):
        game_record(table=table, data=PHONE_ROW)


@pytest.mark.django_db
def test_a_phone_cannot_enter_a_game_on_a_copy_kept_at_the_hall(copy, client):
    table = copy.series.get().tables.get()
    Table.objects.filter(pk=table.pk).update(entry_token="t" * 40)  # a link from before
    games = Game.objects.count()
    answer = send(client, "t" * 40, PHONE_ROW)
    assert answer.status_code != 201
    assert "kept at the hall" in answer.content.decode()
    assert Game.objects.count() == games


@pytest.mark.django_db
def test_handing_over_makes_the_copy_writable_and_is_logged(copy, secretary, client_for):
    state = PublishingState.objects.get(slug=SLUG)
    client = client_for(secretary)
    url = reverse("manage:publishing_hand_over", kwargs={"tournament": SLUG})
    assert "hand" in client.get(url).content.decode().lower()
    assert client.post(url, {"once": "0b0e7a52-0000-4000-8000-000000000001"}).status_code == 302
    state.refresh_from_db()
    assert state.handed_over_at is not None and state.handed_over_by == secretary
    table = copy.series.get().tables.get()
    game_record(table=table, data=PHONE_ROW)  # no longer refused
    line = ActionLog.objects.get(kind="handed_over")
    assert line.tournament_id == copy.pk and line.user == secretary


@pytest.mark.django_db
def test_another_club_secretary_cannot_hand_over(copy, other_club_secretary, client_for):
    url = reverse("manage:publishing_hand_over", kwargs={"tournament": SLUG})
    client_for(other_club_secretary).post(url, {"once": "0b0e7a52-0000-4000-8000-000000000002"})
    assert PublishingState.objects.get(slug=SLUG).handed_over_at is None


@pytest.mark.django_db
def test_a_venue_key_publishes_its_own_tables_sheets_only(match_day, post):
    from tests.tournaments.helpers import GRAND, enter
    from tournaments.draw.services import series_draw

    series_draw(tournament=match_day, seed=1)
    tables = list(Table.objects.filter(series__tournament=match_day).order_by("number"))
    assert {t.venue.name for t in tables} == {"Altenburg", "Zeitz"}
    altenburg = match_day.venues.get(name="Altenburg")
    _row, key = key_create(name="Altenburg hall", venue=altenburg)
    own = [t for t in tables if t.venue_id == altenburg.pk][0]
    other = [t for t in tables if t.venue_id != altenburg.pk][0]

    # The hall's copy of the match day: the public one with a game at the venue's table.
    sheets = sheets_of(match_day, {(1, own.number)})
    game = enter(own, [GRAND])[0]
    sheets_after = sheets_of(match_day, {(1, own.number)})
    game.delete()
    assert sheets != sheets_after

    refused = post(key, batch(match_day.slug, base=0, version=1, sheets=sheets_of(match_day)))
    assert refused.status_code == 403 and "not kept at this venue" in refused.json()["detail"]
    assert not Game.objects.filter(table=other).exists()
    document = post(
        key, batch(match_day.slug, base=0, version=1, document=export_document(match_day))
    )
    assert document.status_code == 403
    applied = post(key, batch(match_day.slug, base=0, version=1, sheets=sheets_after))
    assert applied.json() == {"version": 1, "applied": True}
    assert own.games.count() == 1


@pytest.mark.django_db
def test_a_venue_key_may_not_publish_another_tournament(match_day, hall, post):
    _row, key = key_create(name="Zeitz hall", venue=match_day.venues.get(name="Zeitz"))
    answer = post(key, batch(hall.slug, base=0, version=1, sheets=sheets_of(hall)))
    assert answer.status_code == 403


@pytest.mark.django_db
def test_public_pages_say_live_from_the_hall_with_the_last_update(copy, client, settings):
    import datetime
    from zoneinfo import ZoneInfo

    at = datetime.datetime(2026, 11, 21, 19, 41, 7, tzinfo=datetime.UTC)
    PublishingState.objects.filter(slug=SLUG).update(applied_at=at)
    local = at.astimezone(ZoneInfo(settings.TIME_ZONE)).strftime("%H:%M:%S")
    for url in (
        copy.get_absolute_url(),
        reverse("series_detail", kwargs={"tournament": SLUG, "series": 1}),
        reverse("tournament_projector", kwargs={"tournament": SLUG}),
    ):
        page = client.get(url).content.decode()
        assert f"live from the hall, last update {local}" in page, url
    publishing_hand_over(state=PublishingState.objects.get(slug=SLUG))
    assert "live from the hall" not in client.get(copy.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_registrations_and_draws_of_a_copy_kept_at_the_hall_are_refused(copy, roster):
    from tournaments.draw.services import series_draw
    from tournaments.registry.services import registration_add

    with pytest.raises(UserError, match="kept at the hall"):
        registration_add(tournament=copy, players=roster(1))
    with pytest.raises(UserError, match="kept at the hall"):
        series_draw(tournament=copy, seed=2)
    assert copy.registrations.count() == 4 and copy.series.count() == 1
