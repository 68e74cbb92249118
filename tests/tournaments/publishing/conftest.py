"""Publishing's fixtures: a hall tournament with games, a club key, and `post` of a batch."""

import copy
import json
import uuid

import pytest

from tests.tournaments.helpers import GRAND, enter
from tournaments.interchange import export_document
from tournaments.publishing.services import key_create

HALL = str(uuid.UUID(int=7))


@pytest.fixture
def club_key(club, secretary):
    """(row, key) of a key of the `club` fixture's club."""
    return key_create(name="Hall laptop", club=club, user=secretary)


@pytest.fixture
def hall(tournament, seated_series):
    """The hall's tournament: series 1, one table of four with two games."""
    table = seated_series(4).tables.get()
    enter(table, [GRAND, {**GRAND, "declarer": 3}])
    return tournament


def document_of(tournament, slug: str) -> dict:
    """The hall's export, to be published under `slug` (the copy beside it in one DB)."""
    doc = copy.deepcopy(export_document(tournament))
    doc["archive"]["tournament"]["slug"] = slug
    return doc


def sheets_of(tournament, tables=None) -> list[dict]:
    """Every table of the hall's export (or those (series, table) given) as a sheets entry:
    the document's table object with that table's archive entry."""
    doc = export_document(tournament)
    archived = {
        (series["number"], table["number"]): table
        for series in doc["archive"]["series"]
        for table in series["tables"]
    }
    return [
        {
            "series": series["number"],
            "table": table["number"],
            "sheet": {**table, **archived[(series["number"], table["number"])]},
        }
        for series in doc["series"]
        for table in series["tables"]
        if tables is None or (series["number"], table["number"]) in tables
    ]


def batch(slug, *, base, version, document=None, sheets=None, hall=HALL) -> dict:
    data = {"format": "skat-publish/1", "tournament": slug, "hall": hall}
    data.update(base=base, version=version)
    if document is not None:
        data["document"] = document
    if sheets is not None:
        data["sheets"] = sheets
    return data


@pytest.fixture
def post(client):
    """post(key, batch or bytes) → the response of POST /api/v1/publish."""

    def send(key, data, **headers):
        body = data if isinstance(data, bytes) else json.dumps(data).encode()
        if key is not None:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {key}"
        return client.post("/api/v1/publish", body, content_type="application/json", **headers)

    return send
