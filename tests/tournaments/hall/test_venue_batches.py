"""A venue's publication (a league match day kept at several venues, this hall keeping
one): never a document; the sheets written at this hall since it imported the match day,
and nothing of the tables another venue keys."""

import json

import pytest
from django.core.management import call_command

from tests.tournaments.hall.helpers import FakePublicSite, fill, grand
from tournaments.hall import interchange
from tournaments.hall.interchange import Refused, batch_build, publish_step
from tournaments.hall.services import publication_set
from tournaments.interchange import import_document
from tournaments.interchange.export import export_document
from tournaments.models import Publication, Table, Tournament
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    monkeypatch.setattr(interchange, "backoff", lambda failures, **kwargs: 0)


@pytest.fixture
def hall_copy(tournament, seated_series):
    """The match day as a venue's hall has it: drawn on the league site (two tables, the
    first already played there), exported and imported here."""
    series = seated_series(8)
    first = series.tables.order_by("number").first()
    fill(first, 2)
    document = json.loads(json.dumps(export_document(Tournament.objects.get(pk=tournament.pk))))
    return import_document(document, club=tournament.club, replace=True)


def tables(tournament) -> list[Table]:
    return list(Table.objects.filter(series__tournament=tournament).order_by("number"))


def test_the_imported_match_day_sends_nothing_until_a_table_is_keyed_here(hall_copy):
    assert all(table.sheet_version == 0 for table in tables(hall_copy))
    assert batch_build(hall_copy, base=0, layout="", venue=True) is None


def test_a_venue_batch_holds_the_tables_keyed_here_and_never_a_document(hall_copy):
    _first, second = tables(hall_copy)
    game_record(table=second, data=grand(1))
    now = Tournament.objects.get(pk=hall_copy.pk)
    batch = batch_build(now, base=0, layout="", venue=True)
    assert not batch.is_document and batch.version == now.version
    assert [(s["series"], s["table"]) for s in batch.body["sheets"]] == [(1, second.number)]
    assert len(batch.body["sheets"][0]["sheet"]["games"]) == 1
    # A whole tournament's publication of the same hall sends the document.
    assert batch_build(now, base=0, layout="").is_document


def test_later_venue_batches_hold_the_tables_changed_since(hall_copy):
    first, second = tables(hall_copy)
    game_record(table=second, data=grand(1))
    ack = Tournament.objects.get(pk=hall_copy.pk)
    game_record(table=first, data=grand(3))
    now = Tournament.objects.get(pk=hall_copy.pk)
    batch = batch_build(now, base=ack.version, layout="another layout", venue=True)
    assert not batch.is_document
    ((sheet),) = batch.body["sheets"]
    assert sheet["table"] == first.number and len(sheet["sheet"]["games"]) == 3


def test_publish_with_venue_sends_sheets_only(hall_copy):
    _first, second = tables(hall_copy)
    fill(second, 2)
    with FakePublicSite() as site:
        # The stand-in holds the match day already (as the league site does).
        site.document = export_document(Tournament.objects.get(pk=hall_copy.pk))
        call_command(
            "publish", hall_copy.slug, "--to", site.url, "--key", "good-key",
            "--venue", "Gasthof Zur Linde", "--once",
        )  # fmt: skip
    assert site.received and all("document" not in batch for batch in site.received)
    assert {(s["series"], s["table"]) for b in site.received for s in b["sheets"]} == {
        (1, second.number)
    }
    publication = Publication.objects.get(tournament=hall_copy)
    assert publication.venue == "Gasthof Zur Linde"
    assert publication.acked_version == Tournament.objects.get(pk=hall_copy.pk).version


def test_a_venue_asked_for_a_document_stops_with_a_clear_message(hall_copy):
    _first, second = tables(hall_copy)
    fill(second, 1)
    with FakePublicSite() as site:  # holds no match day: answers 409 with version 0
        publication = publication_set(
            tournament=hall_copy, url=site.url, key="good-key", venue="Linde"
        )
        with pytest.raises(Refused, match="import the match day"):
            publish_step(Publication.objects.select_related("tournament").get(pk=publication.pk))
    assert Publication.objects.get(pk=publication.pk).stopped
    assert all("document" not in batch for batch in site.received)


def test_changing_the_venue_starts_the_copy_over(hall_copy):
    with FakePublicSite() as site:
        publication = publication_set(tournament=hall_copy, url=site.url, key="k", venue="A")
        Publication.objects.filter(pk=publication.pk).update(acked_version=5)
        publication = publication_set(tournament=hall_copy, url=site.url, key="k", venue="B")
    publication.refresh_from_db()
    assert (publication.venue, publication.acked_version) == ("B", 0)


def test_the_hall_page_sets_the_venue_of_a_publication(client, secretary, hall_copy, monkeypatch):
    from django.urls import reverse

    from tournaments.hall import views

    started = []
    monkeypatch.setattr(views, "publishing_start", lambda **kwargs: started.append(kwargs))
    client.force_login(secretary)
    url = reverse("manage:hall_publishing", kwargs={"tournament": hall_copy.slug})
    answer = client.post(
        url,
        {"action": "add", "url": "https://liga.example.org", "key": "k" * 20, "venue": "Zeitz"},
    )
    assert answer.status_code == 302
    assert Publication.objects.get(tournament=hall_copy).venue == "Zeitz"
    assert len(started) == 1
    text = client.get(url).content.decode()
    assert "Zeitz" in text and "only the tables keyed here are sent" in text
