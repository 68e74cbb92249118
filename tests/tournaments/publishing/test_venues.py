"""A league match day kept by its venues' halls: a venue's batch keeps only that venue's
tables at its hall; the other venue's tables, the director's work and the confirmation
stay open on the league site; a confirmed match day takes no more batches."""

import pytest

from tests.tournaments.helpers import GRAND, enter
from tests.tournaments.publishing.conftest import batch, sheets_of
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.lifecycle import check_not_finished
from tournaments.models import Game, PublishingState, Table, Tournament
from tournaments.publishing.services import key_create
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(match_day):
    series_draw(tournament=match_day, seed=1)
    tables = list(Table.objects.filter(series__tournament=match_day).order_by("number"))
    altenburg = match_day.venues.get(name="Altenburg")
    own = [t for t in tables if t.venue_id == altenburg.pk][0]
    other = [t for t in tables if t.venue_id != altenburg.pk][0]
    return match_day, altenburg, own, other


def publish_one_game(match_day, venue, table, post):
    """Altenburg's hall publishes a sheet of one game of `table` (made here, then undone,
    as the hall's copy would have it)."""
    _row, key = key_create(name=f"{venue.name} hall", venue=venue)
    game = enter(table, [GRAND])[0]
    sheets = sheets_of(match_day, {(1, table.number)})
    game.delete()
    answer = post(key, batch(match_day.slug, base=0, version=1, sheets=sheets))
    assert answer.json() == {"version": 1, "applied": True}
    return key, sheets


def test_a_venue_batch_keeps_only_that_venues_tables_at_its_hall(drawn, post):
    match_day, altenburg, own, other = drawn
    check_not_finished(match_day.pk, table_id=own.pk)  # open before the batch
    publish_one_game(match_day, altenburg, own, post)
    assert PublishingState.objects.get(slug=match_day.slug).kept_venues == [altenburg.pk]
    with pytest.raises(UserError, match=r"kept at the hall \(Altenburg\)"):
        game_record(table=own, data=GRAND)
    assert own.games.count() == 1
    # Zeitz keys on the league site directly; the director's writes stay open.
    game_record(table=other, data=GRAND)
    assert other.games.count() == 1
    check_not_finished(match_day.pk)


def test_a_confirmed_match_day_refuses_the_venues_batches(drawn, post):
    match_day, altenburg, own, _other = drawn
    key, sheets = publish_one_game(match_day, altenburg, own, post)
    Game.objects.filter(table=own).delete()  # the batch would bring its game back
    Tournament.objects.filter(pk=match_day.pk).update(status=Tournament.Status.FINISHED)
    answer = post(key, batch(match_day.slug, base=1, version=2, sheets=sheets))
    assert answer.status_code == 403 and "confirmed" in answer.json()["detail"]
    assert not Game.objects.filter(table=own).exists()


def test_a_club_key_still_keeps_the_whole_tournament(copy_kept_by_club):
    table = Table.objects.filter(series__tournament=copy_kept_by_club).first()
    with pytest.raises(UserError, match="kept at the hall"):
        check_not_finished(copy_kept_by_club.pk)
    with pytest.raises(UserError, match="kept at the hall"):
        check_not_finished(copy_kept_by_club.pk, table_id=table.pk)


@pytest.fixture
def copy_kept_by_club(hall, club_key, post):
    from tests.tournaments.publishing.conftest import document_of

    document = document_of(hall, "copy")
    assert post(club_key[1], batch("copy", base=0, version=3, document=document))
    return Tournament.objects.get(slug="copy")
