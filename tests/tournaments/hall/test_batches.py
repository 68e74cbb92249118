"""The hall's batches (`hall.interchange.batch_build`): a document first and after a
change beyond the sheets, else the sheets written since, in version order and bounded."""

import gzip
import json

import pytest

from tests.factories import RegistrationFactory
from tests.tournaments.hall.helpers import archive_part, fill, grand, plain_sheet
from tournaments.hall.interchange import batch_build
from tournaments.hall.services import hall_id
from tournaments.interchange.export import export_document
from tournaments.models import Tournament
from tournaments.sheets.services import game_record
from tournaments.versions import version_bump

pytestmark = pytest.mark.django_db


def current(tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def test_first_batch_is_the_whole_document_at_the_current_version(tournament, table):
    fill(table, 3)
    now = current(tournament)
    batch = batch_build(now, base=0, layout="")
    body = json.loads(batch.encoded())
    assert body["format"] == "skat-publish/1" and body["tournament"] == tournament.slug
    assert body["base"] == 0 and body["version"] == now.version == batch.version
    assert body["hall"] == hall_id() and "sheets" not in body
    assert body["document"] == json.loads(json.dumps(export_document(now)))
    assert batch.layout == now.layout


def test_hall_id_stays_the_same(db):
    assert hall_id() == hall_id()


def test_after_a_game_only_that_tables_sheet_is_sent(tournament, seated_series):
    series = seated_series(8)
    first, second = series.tables.order_by("number")
    fill(first, 2)
    fill(second, 2)
    ack = current(tournament)
    game_record(table=second, data=grand(3))
    now = current(tournament)
    batch = batch_build(now, base=ack.version, layout=ack.layout)
    assert "document" not in batch.body
    assert batch.version == now.version and batch.layout == ack.layout
    (sheet,) = batch.body["sheets"]
    assert (sheet["series"], sheet["table"]) == (1, second.number)
    document = export_document(now)
    assert plain_sheet(sheet["sheet"]) == document["series"][0]["tables"][1]
    assert archive_part(sheet["sheet"]) == document["archive"]["series"][0]["tables"][1]
    assert len(sheet["sheet"]["games"]) == 3
    assert sheet["sheet"]["closed"] is False and sheet["sheet"]["provisional"] == []
    assert [c["game"] for c in sheet["sheet"]["game_changes"]] == [1, 2, 3]
    assert batch.body["director_actions"] == document["archive"]["director_actions"]


def test_nothing_to_send_when_the_copy_is_current(tournament, table):
    fill(table, 1)
    now = current(tournament)
    assert batch_build(now, base=now.version, layout=now.layout) is None


def test_a_change_beyond_the_sheets_sends_the_document_again(tournament, table, roster):
    fill(table, 1)
    ack = current(tournament)
    RegistrationFactory(tournament=tournament, player=roster(1)[0])
    version_bump(tournament_id=tournament.pk)  # as the registry's services do
    now = current(tournament)
    batch = batch_build(now, base=ack.version, layout=ack.layout)
    assert batch.is_document and batch.version == now.version and batch.layout != ack.layout


def test_an_unknown_layout_sends_the_document(tournament, table):
    fill(table, 1)
    now = current(tournament)
    assert batch_build(now, base=now.version - 1, layout="").is_document


def test_one_game_on_a_48_game_sheet_is_a_few_kilobytes(tournament, table):
    """Measured: 23,530 bytes (48 won grands at a 4-table, with the sheet's whole archive
    entry: its 48 history lines, each with the game's snapshot, are 20 kB of it; without
    them 3,152), 1,153 as sent (gzipped). The one-table tournament's document: 24,869."""
    fill(table, 47)
    ack = current(tournament)
    game_record(table=table, data=grand(48))
    now = current(tournament)
    size = len(batch_build(now, base=ack.version, layout=ack.layout).encoded())
    document = len(batch_build(now, base=0, layout="").encoded())
    assert size < 30_000 and size < document
    sent = batch_build(now, base=ack.version, layout=ack.layout).encoded()
    assert len(gzip.compress(sent)) < 3_000


def test_many_tables_go_in_bounded_batches_in_version_order(tournament, seated_series):
    tables = list(seated_series(12).tables.order_by("number"))
    ack = current(tournament)
    for table in reversed(tables):  # written last to first: version order ≠ number order
        fill(table, 1)
    now = current(tournament)
    first = batch_build(now, base=ack.version, layout=ack.layout, limit=2)
    assert [s["table"] for s in first.body["sheets"]] == [tables[2].number, tables[1].number]
    assert first.version == now.version - 1  # the third table's write is not in it
    second = batch_build(now, base=first.version, layout=first.layout, limit=2)
    assert [s["table"] for s in second.body["sheets"]] == [tables[0].number]
    assert second.version == now.version


def test_tables_stamped_by_one_write_stay_in_one_batch(tournament, seated_series):
    tables = list(seated_series(12).tables.order_by("number"))
    ack = current(tournament)
    version_bump(tournament_id=tournament.pk, sheets=[tables[0].pk, tables[1].pk])
    fill(tables[2], 1)
    now = current(tournament)
    batch = batch_build(now, base=ack.version, layout=ack.layout, limit=1)
    assert sorted(s["table"] for s in batch.body["sheets"]) == [tables[0].number, tables[1].number]
    assert batch.version == now.version - 1


def test_the_batches_the_hall_sends_follow_the_published_schema(tournament, seated_series):
    """Both kinds of batch validate against static/schemas/skat-publish-1.schema.json, the
    file other software reads."""
    from tournaments.api.validation import document_problems

    series = seated_series(8)
    first, second = series.tables.order_by("number")
    fill(first, 2)
    now = current(tournament)
    whole = batch_build(now, base=0, layout="")
    assert document_problems(json.loads(whole.encoded()), "publish") == []
    fill(second, 3)
    sheets = batch_build(current(tournament), base=now.version, layout=now.layout)
    assert "document" not in sheets.body
    assert document_problems(json.loads(sheets.encoded()), "publish") == []
