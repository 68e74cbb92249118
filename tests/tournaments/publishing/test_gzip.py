"""POST /api/v1/publish takes a gzipped batch (the hall's sender gzips every batch): the
same batch applied; broken gzip refused (400), a body that inflates past the limit 413,
another encoding 415, and nothing changes then."""

import gzip
import json

import pytest

from tests.tournaments.publishing.conftest import batch, document_of
from tournaments.models import Tournament
from tournaments.publishing import interchange

SLUG = "zipped"


def send(client, key, body: bytes, encoding: str):
    return client.post(
        "/api/v1/publish",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
        HTTP_CONTENT_ENCODING=encoding,
    )


@pytest.mark.django_db
def test_a_gzipped_batch_is_applied(hall, club_key, client):
    body = json.dumps(batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    answer = send(client, club_key[1], gzip.compress(body.encode()), "gzip")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"version": 3, "applied": True}
    assert Tournament.objects.filter(slug=SLUG).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "encoding", "status"),
    [
        (b"not gzip at all", "gzip", 400),
        (gzip.compress(b" " * 5000), "gzip", 413),
        (b"{}", "br", 415),
    ],
)
def test_a_body_that_is_not_a_gzipped_batch_changes_nothing(
    hall, club_key, client, monkeypatch, body, encoding, status
):
    monkeypatch.setattr(interchange, "MAX_BODY", 4096)
    answer = send(client, club_key[1], body, encoding)
    assert answer.status_code == status
    assert answer.json()["detail"]
    assert not Tournament.objects.filter(slug=SLUG).exists()
