"""`manage.py import_tournament` reads the file as a stream (`interchange.stream`) and
writes checked tables in chunks (`interchange.writer`): same results as a document read
whole, in any key order, all or nothing."""

import io
import json
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.helpers import complete_tournament
from tests.tournaments.interchange.documents import (
    contract_example,
    row_counts,
    text_of,
    two_table_document,
)
from tournaments.interchange import export_document, import_document, writer
from tournaments.models import Game, Seat, Tournament
from tournaments.sheets.selectors import seat_lines
from tournaments.sheets.totals import seat_lines_from_games

pytestmark = pytest.mark.django_db


def imported(path, *args) -> Tournament:
    out = io.StringIO()
    call_command("import_tournament", str(path), *args, stdout=out)
    return Tournament.objects.get(slug=out.getvalue().strip())


@pytest.fixture
def one_table_a_chunk(monkeypatch):
    """Every table written as its own chunk: an import of a few tables writes as one of
    thousands does."""
    monkeypatch.setattr(writer, "CHUNK_GAMES", 1)


@pytest.fixture
def complete(tournament, roster, secretary):
    return complete_tournament(tournament, roster, secretary)


def test_series_first_and_archive_between_give_the_same_tournament(
    complete, tmp_path, one_table_a_chunk
):
    before = text_of(complete)
    document = json.loads(before)
    reordered = {key: document[key] for key in ("series", "archive", "players", "tournament")}
    reordered["format"] = document["format"]
    for series in reordered["series"]:  # tables before the number, games before the seats
        series_keys = list(series)
        for table in series["tables"]:
            table_items = dict(reversed(list(table.items())))
            table.clear()
            table.update(table_items)
        series.update({key: series.pop(key) for key in reversed(series_keys)})
    path = tmp_path / "reordered.json"
    path.write_text(json.dumps(reordered, ensure_ascii=False), encoding="utf-8")
    counts = row_counts()

    again = imported(path, "--replace")

    assert again.pk != complete.pk
    assert text_of(again) == before
    assert row_counts() == counts


def test_export_import_export_through_the_command_is_byte_identical(complete, tmp_path):
    before = text_of(complete)
    path = tmp_path / "t.json"
    path.write_text(before + "\n", encoding="utf-8")
    assert text_of(imported(path, "--replace")) == before


def test_a_mistake_in_the_last_table_rolls_back_the_chunks_written_before(
    tmp_path, one_table_a_chunk
):
    doc = two_table_document()
    doc["series"][0]["tables"][1]["games"][1]["matadors"] = 12
    path = tmp_path / "late.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    counts = row_counts()
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path))
    assert str(caught.value).splitlines() == [
        "series 1, table 2, game 2: matadors must be between 1 and 11 for a suit game"
    ]
    assert row_counts() == counts


def test_every_problem_of_every_chunk_is_reported(tmp_path, one_table_a_chunk):
    doc = two_table_document()
    doc["series"][0]["tables"][0]["games"][0]["matadors"] = 12
    doc["series"][0]["tables"][1]["games"][1]["bid"] = 7
    path = tmp_path / "two.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    counts = row_counts()
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path))
    lines = str(caught.value).splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "series 1, table 1, game 1",
        "series 1, table 2, game 2",
    ]
    assert row_counts() == counts


def test_the_chunked_import_writes_what_the_whole_import_writes(club, monkeypatch):
    doc = two_table_document()
    doc["series"][0]["tables"][0]["penalties"] = [{"seat": 2, "points": -10, "reason": "x"}]
    whole = export_document(import_document(doc, club=club), archive=False)
    monkeypatch.setattr(writer, "CHUNK_GAMES", 1)
    tournament = import_document(doc, club=club, replace=True)
    assert export_document(tournament, archive=False) == whole
    seats = Seat.objects.filter(series__tournament=tournament)
    assert seat_lines(seats) == seat_lines_from_games(seats)
    assert any(line.penalties for line in seat_lines(seats))
    assert Game.objects.filter(tournament=tournament).count() == sum(
        len(t["games"]) for s in doc["series"] for t in s["tables"]
    )


def test_standard_input_is_read(tmp_path, monkeypatch):
    text = json.dumps(contract_example(), ensure_ascii=False)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    assert imported("-").name == "Herbstpreisskat 2026"


def test_standard_input_as_a_text_stream_is_read(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(contract_example())))
    assert imported("-").name == "Herbstpreisskat 2026"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", r"is not valid JSON: Expecting value \(line 1, column 1\)"),
        (b"garbage", "is not valid JSON: Expecting value"),
        (b'{"format": "skat-tournament/1", "series": [{"number": 1, "tab', "is not valid JSON"),
        (b'{"format": "skat-tournament/1"} {}', "is not valid JSON: Extra data"),
        (b'"just a string"', "does not hold a JSON object"),
        (b'{"format": "skat-tournament/1", "tournament": {"name": "Gr\xfcn"}}', "not UTF-8"),
    ],
)
def test_a_file_without_a_document_is_refused_and_writes_nothing(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    counts = row_counts()
    with pytest.raises(CommandError, match=message):
        call_command("import_tournament", str(path))
    assert row_counts() == counts


def test_a_truncated_export_is_refused_and_writes_nothing(complete, tmp_path):
    text = text_of(complete)
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) * 2 // 3], encoding="utf-8")
    counts = row_counts()
    with pytest.raises(CommandError, match="is not valid JSON"):
        call_command("import_tournament", str(path), "--replace")
    assert row_counts() == counts


def test_keys_given_twice_read_as_json_reads_them(tmp_path):
    """The last of two equal keys counts (as `json` has it), also for `series`."""
    doc = contract_example()
    series = json.dumps(doc["series"])
    text = json.dumps(doc)[:-1] + ', "series": ' + series + "}"
    text = text.replace('"series": ', '"series": [], "series": ', 1)
    path = tmp_path / "twice.json"
    path.write_text(text, encoding="utf-8")
    expected = export_document(import_document(doc), archive=False)
    assert export_document(imported(path, "--replace"), archive=False) == expected


def test_a_map_key_named_item_does_not_confuse_the_stream(tmp_path):
    doc = two_table_document()
    doc["series"][0]["tables"][0]["item"] = {"games": []}
    path = tmp_path / "item.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match=r"series 1, table 1: unknown field\(s\) item"):
        call_command("import_tournament", str(path))
