"""`manage.py validate FILE [--schema]`: each problem as `LOCATION: message`, exit status 1;
a valid document says so and exits 0; a file that holds no JSON is one line."""

import io
import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.interchange.documents import contract_example

pytestmark = pytest.mark.django_db


def run(*args, stdin=None) -> tuple[str, CommandError | None]:
    out = io.StringIO()
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        call_command("validate", *args, stdout=out, stderr=io.StringIO())
    except CommandError as error:
        return out.getvalue(), error
    finally:
        sys.stdin = old
    return out.getvalue(), None


def write(tmp_path, doc, name="doc.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_a_valid_document_is_named_valid(tmp_path):
    out, error = run(write(tmp_path, contract_example()))
    assert error is None
    assert out == "valid skat-tournament/1\n"


def test_each_problem_is_one_line_with_its_json_pointer(tmp_path):
    doc = contract_example()
    games = doc["series"][0]["tables"][0]["games"]
    games[0]["card_points"] = 130
    games[2]["game"] = "tournee"
    doc["players"][1]["name"] = 5
    out, error = run(write(tmp_path, doc))
    assert error is not None and error.returncode == 1
    assert "3 problem(s)" in str(error)
    lines = out.splitlines()
    assert lines == [
        "/players/1/name: 5 is not of type 'string'",
        "/series/0/tables/0/games/0/card_points: 130 is greater than the maximum of 120",
        "/series/0/tables/0/games/2/game: 'tournee' is not one of "
        "['diamonds', 'hearts', 'spades', 'clubs', 'grand', 'null', 'passed', 'ramsch']",
    ]


def test_the_schema_named_is_used_instead_of_the_format(tmp_path):
    out, error = run(write(tmp_path, contract_example()), "--schema", "season")
    assert error is not None
    assert "/: 'season' is a required property" in out.splitlines()
    assert "not a valid skat-season/1 document" in str(error)


def test_a_season_and_a_batch_are_found_by_their_format(tmp_path):
    batch = {
        "format": "skat-publish/1",
        "tournament": "herbstpreisskat-2026",
        "hall": "3f1c2b0e-8a4d-4c5e-9f10-2b3c4d5e6f70",
        "base": 0,
        "version": 12,
        "document": contract_example(),
    }
    out, error = run(write(tmp_path, batch))
    assert error is None and out == "valid skat-publish/1\n"
    season = {"format": "skat-season/1", "season": {"name": "Liga", "club": "SF"}}
    out, error = run(write(tmp_path, season))
    assert error is not None
    assert out.splitlines() == [
        "/: 'match_days' is a required property",
        "/: 'teams' is a required property",
        "/season: 'settings' is a required property",
    ]


def test_standard_input_is_read_for_a_dash():
    out, error = run("-", stdin=json.dumps(contract_example()))
    assert error is None and out == "valid skat-tournament/1\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON: Expecting property name enclosed in double quotes"),
        ('{"format": "skat-tournament/2"}', "/format: format must be one of skat-tournament/1"),
        ("[1, 2]", "/format: format must be one of"),
        (b"\xff\xfe", "is not UTF-8 text"),
    ],
)
def test_a_file_without_a_document_is_one_clear_line(tmp_path, content, message):
    path = tmp_path / "doc.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    out, error = run(str(path))
    assert out == ""
    assert error is not None and message in str(error)
    assert "\n" not in str(error)


def test_a_missing_file_cannot_be_read(tmp_path):
    _out, error = run(str(tmp_path / "missing.json"))
    assert error is not None and str(error).startswith("cannot read ")


def test_the_exit_status_is_1_for_problems_and_0_when_valid(tmp_path):
    doc = contract_example()
    good = write(tmp_path, doc, "good.json")
    doc["tournament"]["rules"] = "skat"
    bad = write(tmp_path, doc, "bad.json")
    env = {**os.environ, "DJANGO_DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    manage = str(settings.BASE_DIR / "manage.py")
    ok = subprocess.run(
        [sys.executable, manage, "validate", good], capture_output=True, text=True, env=env
    )
    assert (ok.returncode, ok.stdout) == (0, "valid skat-tournament/1\n")
    refused = subprocess.run(
        [sys.executable, manage, "validate", bad], capture_output=True, text=True, env=env
    )
    assert refused.returncode == 1
    assert refused.stdout == "/tournament/rules: 'skat' is not one of ['ispa', 'na']\n"
    assert "1 problem(s): not a valid skat-tournament/1 document" in refused.stderr


def test_a_pattern_is_said_in_words(tmp_path):
    doc = contract_example()
    doc["players"][0]["name"] = " "
    doc["players"][1]["club"] = "Alten\nburg"
    doc["tournament"]["date"] = "21.11.2026"
    out, error = run(write(tmp_path, doc))
    assert error is not None
    assert out.splitlines() == [
        "/players/0/name: ' ' must not be empty",
        "/players/1/club: 'Alten\\nburg' must not contain a control character "
        "(such as a line break)",
        "/tournament/date: '21.11.2026' must be a date written YYYY-MM-DD",
    ]


def test_every_pattern_said_in_words_is_one_of_the_schemas():
    from tournaments.api.document_schemas import NAMES, SCHEMA_DIR
    from tournaments.api.validation import PATTERN_MESSAGES

    text = "".join((SCHEMA_DIR / f"{n}.schema.json").read_text(encoding="utf-8") for n in NAMES)
    for pattern in PATTERN_MESSAGES:
        assert f'"pattern": {json.dumps(pattern)}' in text, pattern


def test_an_impossible_date_is_one_problem(tmp_path):
    doc = contract_example()
    doc["tournament"]["date"] = "2026-02-30"
    out, _error = run(write(tmp_path, doc))
    assert out == "/tournament/date: '2026-02-30' must be a date written YYYY-MM-DD\n"
