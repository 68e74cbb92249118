"""The API against its own OpenAPI document: schemathesis generates requests for every
operation of `/api/v1/openapi.json` (valid ones, and ones breaking a parameter's type or
range), sends them to the site's WSGI application and checks each answer: no server
error, a status the document declares for the operation, and a body of the declared
schema. Each generated request is sent as it is (its names mostly name nothing: 404) and
again with its path naming real rows (a published tournament with a played series, its
players, a league season with a confirmed match day), so that the real answers are
checked with generated query values.

Bounded: a fixed number of examples per operation, derandomised (the same requests on
every run), no example database."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from tests.tournaments.leagues.helpers import play_series
from tournaments.leagues.services import match_day_confirm

pytestmark = pytest.mark.django_db

EXAMPLES = 15  # per operation and mode: 15 operations, 2 modes, each sent twice
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
# The site answers gzip to a client that accepts it (`caching.answers`); schemathesis's
# WSGI client asks for it and does not decompress, so it is asked for the plain text.
PLAIN = {"Accept-Encoding": "identity"}


@pytest.fixture
def wsgi_application():
    """The site's WSGI application, sharing the test's connection and transaction: as
    Django's test client does, the connection is not closed at the end of each request
    (outside autocommit, `close_old_connections` closes it: PostgreSQL's would be gone)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def real(played, match_day):
    """Path values naming rows that exist, per operation parameter."""
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    return {
        "slug": played.slug,
        "number": 1,
        "table": 1,
        "player_id": played.registrations.first().player_id,
        "season": match_day.season.slug,
        "club_id": played.club_id,
        "league": match_day.season.league.slug,
    }


def _real_path(case, real: dict) -> dict:
    names = {name: real[name] for name in case.path_parameters or {}}
    if "slug" in names and case.operation.path.startswith("/api/v1/seasons"):
        names["slug"] = real["season"]
    return names


def test_every_generated_request_is_answered_as_the_document_says(real, wsgi_application):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", wsgi_application)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 15
    described = schema.raw_schema["paths"]
    # Requests that break the document: only a number can be out of type or range (any
    # text is a valid slug or filter value, for the document).
    breakable = {
        path
        for path, item in described.items()
        if any(p["schema"].get("type") == "integer" for p in item["get"].get("parameters", []))
    }
    runs = [(o, GenerationMode.POSITIVE) for o in operations]
    runs += [(o, GenerationMode.NEGATIVE) for o in operations if o.path in breakable]
    sent = {}
    for operation, mode in runs:

        @given(case=operation.as_strategy(mode))
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            # The database rows are read only, and the same for every example.
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        def check(case):
            case.call_and_validate(headers=PLAIN, checks=CHECKS)
            label = case.operation.label
            sent[label] = sent.get(label, 0) + 1
            if case.path_parameters:
                case.path_parameters = {**case.path_parameters, **_real_path(case, real)}
                case.call_and_validate(headers=PLAIN, checks=CHECKS)

        check()
    # Every operation was sent requests (the negative runs add to the positive ones).
    assert set(sent) == {operation.label for operation in operations}
    assert len(runs) > len(operations)
