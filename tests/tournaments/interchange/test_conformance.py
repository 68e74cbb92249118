"""The conformance tournaments (tests/conformance/): imported, their standings equal the
expected files (checked by hand in tests/conformance/README.md), and export → validate
passes. Other Skat software tests itself against the same files."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.api.validation import document_problems
from tournaments.interchange import export_document, import_document, standings_json

pytestmark = pytest.mark.django_db

FOLDER = Path(__file__).resolve().parents[2] / "conformance"
CASES = ("ispa", "na")


def load(name: str):
    return json.loads((FOLDER / name).read_text(encoding="utf-8"))


def document(case: str) -> dict:
    return load(f"skat-tournament-conformance-{case}.json")


def expected(case: str) -> list:
    return load(f"skat-tournament-conformance-{case}-expected-standings.json")


@pytest.mark.parametrize("case", CASES)
def test_the_conformance_document_is_valid(case):
    assert document_problems(document(case)) == []


@pytest.mark.parametrize("case", CASES)
def test_the_site_gives_the_expected_standings(case):
    tournament = import_document(document(case))
    assert standings_json(tournament) == expected(case)
    out = io.StringIO()
    call_command("standings", tournament.slug, "--format", "json", stdout=out)
    assert json.loads(out.getvalue()) == expected(case)
    answer = Client().get(f"/t/{tournament.slug}/standings.json")
    assert answer.status_code == 200 and answer.json() == expected(case)


@pytest.mark.parametrize("case", CASES)
def test_the_exported_conformance_tournament_validates(case):
    tournament = import_document(document(case))
    for archive in (True, False):
        exported = json.loads(json.dumps(export_document(tournament, archive=archive)))
        assert document_problems(exported) == []


def test_the_ispa_file_holds_its_special_cases():
    """What README.md promises is in the file (a test that fails if an edit drops one)."""
    doc = document("ispa")
    games = [g for s in doc["series"] for t in s["tables"] for g in t["games"]]
    assert {"game": "passed"} in games
    assert any(g.get("schneider_announced") and g.get("card_points", 0) < 90 for g in games)
    assert any(g.get("bid", 0) == 30 and g["game"] == "clubs" for g in games)
    seated = [{p for t in s["tables"] for p in t["seats"]} for s in doc["series"]]
    assert "p1" in seated[0] and "p1" not in seated[1]  # the withdrawal
    rows = {row["player"]: row for row in expected("ispa")}
    frank, erika = rows["Frank Fuchs"], rows["Erika Engel"]
    assert [frank[k] for k in ("list_points", "won", "lost")] == [
        erika[k] for k in ("list_points", "won", "lost")
    ]
    assert frank["rank"] < erika["rank"]  # by lot, not by name


def test_the_na_file_holds_its_special_cases():
    doc = document("na")
    tables = doc["series"][0]["tables"]
    assert sorted(len(t["seats"]) for t in tables) == [3, 5]
    penalties = tables[0]["penalties"]
    assert any(p.get("law") == 7 for p in penalties)
    assert any("law" not in p for p in penalties)
    assert any(g["game"] == "ramsch" for g in tables[1]["games"])
