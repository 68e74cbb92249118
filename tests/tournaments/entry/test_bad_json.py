"""Bad JSON of any shape to a phone's endpoints is a 400 with a message, never a 500
(issue 12, defect 3: deeply nested JSON raised RecursionError)."""

import json

import pytest

from tests.tournaments.entry.helpers import link

pytestmark = pytest.mark.django_db

BODIES = [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"data":' * 50_000 + b"1" + b"}" * 50_000,
    b'{"client_id": "x", "number": 1, "data": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b"{",
    b"\xff\xfe\x00",
    b"null",
    b"[]",
    b'"text"',
    b"1e999999",
    b'{"data": []}',
    b'{"data": {"game": {"a": [1, 2, {"b": null}]}}, "client_id": [], "number": {}}',
    b'{"client_id": "00000000-0000-0000-0000-000000000000", "number": "x", "data": {}}',
    json.dumps({"data": {"\x00": "\x00", "game": "grand\x00"}, "client_id": "\x00"}).encode(),
]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
@pytest.mark.parametrize("what", ["_games", ""])
def test_bad_json_to_a_valid_link_is_a_400_with_a_message(table, phone, body, what):
    response = phone.post(
        link(table.entry_token, what),
        body,
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]
    assert table.games.count() == 0


@pytest.mark.parametrize("body", BODIES[:3], ids=range(3))
def test_bad_json_to_an_unknown_link_is_a_404_not_a_500(phone, body):
    response = phone.post(
        link("x" * 32, "_games"),
        body,
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 404
