"""The interchange's commands: `import_tournament`, `export_tournament` and `standings`
(JSON and text, ties broken as the rules say)."""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.interchange.documents import (
    contract_example,
    counts,
    seated_twice,
    two_table_document,
    without_clubs,
    worked_example_document,
)
from tournaments.interchange import FORMAT, export_document, import_document, standings_json
from tournaments.models import Game, Tournament
from tournaments.registry.services import registration_set_lots

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------


def test_standings_json_of_the_worked_example():
    tournament = import_document(worked_example_document())
    out = call_command_output("standings", tournament.slug, "--format", "json")
    rows = json.loads(out)

    assert [(r["rank"], r["player"], r["list_points"]) for r in rows] == [
        (1, "A", 1332),
        (2, "C", 1320),
        (3, "B", 1308),
        (4, "D", 108),
    ]
    c = rows[1]
    assert c == {
        "rank": 2,
        "player": "C",
        "club": "Skatfreunde Altenburg",
        "team": None,
        "list_points": 1320,
        "game_points": 660,
        "won": 10,
        "lost": 1,
        "others_lost": 7,
        "series": [{"number": 1, "list_points": 1320, "game_points": 660, "won": 10, "lost": 1}],
    }
    assert [(r["game_points"], r["won"], r["lost"]) for r in rows] == [
        (492, 12, 0),
        (660, 10, 1),
        (628, 12, 2),
        (-32, 6, 5),
    ]
    assert rows == standings_json(tournament)


def test_standings_text_is_an_aligned_table():
    tournament = import_document(worked_example_document())
    lines = call_command_output("standings", tournament.slug).splitlines()
    assert lines[0].split() == [
        "#",
        "Player",
        "Club",
        "S1",
        "Game",
        "pts",
        "Won",
        "Lost",
        "List",
        "pts",
    ]
    assert lines[1].split()[:2] == ["1", "A"] and lines[1].endswith("1332")
    assert lines[4].split()[:2] == ["4", "D"] and lines[4].endswith("108")
    assert len({len(line) for line in lines[1:]}) == 1


def test_ties_in_points_are_broken_by_lot_then_name():
    doc = contract_example()
    table_doc = doc["series"][0]["tables"][0]
    del table_doc["penalties"]
    # Jörg (seat 2) and Carla (seat 3) each win a grand with 1: 48 + 50 = 98, 1 won, 0 lost.
    table_doc["games"] = [
        {"declarer": 2, "game": "grand", "matadors": 1, "won": True},
        {"declarer": 3, "game": "grand", "matadors": 1, "won": True},
    ]
    tournament = import_document(doc)
    names = [r["player"] for r in standings_json(tournament)]
    assert names == ["Carla Weiß", "Jörg Łukasz", "Anna Schmidt", "Dieter Groß"]

    ids = dict(tournament.registrations.values_list("player__name", "player_id"))
    registration_set_lots(
        tournament=tournament, lots={ids["Jörg Łukasz"]: 1, ids["Carla Weiß"]: 2}
    )
    names = [r["player"] for r in standings_json(tournament)]
    assert names == ["Jörg Łukasz", "Carla Weiß", "Anna Schmidt", "Dieter Groß"]


def test_ties_in_points_are_broken_by_more_won_then_fewer_lost():
    doc = contract_example()
    doc["tournament"]["list_scoring"] = False  # plain game points make equal totals easy
    table_doc = doc["series"][0]["tables"][0]
    del table_doc["penalties"]
    table_doc["games"] = [
        {"declarer": 2, "game": "diamonds", "matadors": 1, "won": True},  # Jörg 18
        {"declarer": 3, "game": "clubs", "matadors": 2, "won": True},  # Carla 36
        {"declarer": 2, "game": "diamonds", "matadors": 1, "won": True},  # Jörg 36
        {"declarer": 1, "game": "grand", "matadors": 2, "won": True},  # Anna 72
        {"game": "passed"},
        {"declarer": 1, "game": "diamonds", "matadors": 1, "won": False},  # Anna 72 − 36
    ]
    tournament = import_document(doc)
    rows = standings_json(tournament)
    assert [(r["player"], r["list_points"], r["won"], r["lost"]) for r in rows] == [
        ("Jörg Łukasz", 36, 2, 0),
        ("Carla Weiß", 36, 1, 0),
        ("Anna Schmidt", 36, 1, 1),
        ("Dieter Groß", 0, 0, 0),
    ]


# --------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------


def call_command_output(*args, **kwargs) -> str:
    out = StringIO()
    call_command(*args, stdout=out, **kwargs)
    return out.getvalue()


def write_json(path: Path, data) -> str:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_import_command_prints_the_slug(tmp_path):
    path = write_json(tmp_path / "t.json", contract_example())
    slug = call_command_output("import_tournament", path).strip()
    assert Tournament.objects.get(slug=slug).name == "Herbstpreisskat 2026"


def test_import_command_takes_the_club_by_name(tmp_path):
    doc = contract_example()
    without_clubs(doc)
    path = write_json(tmp_path / "t.json", doc)
    with pytest.raises(CommandError, match="name the club that runs the tournament"):
        call_command("import_tournament", path)
    slug = call_command_output("import_tournament", path, "--club", "Skatclub Gera").strip()
    assert Tournament.objects.get(slug=slug).club.name == "Skatclub Gera"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "is not valid JSON: Expecting property name"),
        ("[1, 2]", "does not hold a JSON object"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
    ],
)
def test_import_command_rejects_a_bad_file(tmp_path, content, message):
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError, match=message):
        call_command("import_tournament", str(path))
    assert counts() == before


def test_import_command_lists_every_problem_one_per_line(tmp_path):
    doc = two_table_document()
    seated_twice(doc)
    doc["players"][3]["name"] = ""
    before = counts()
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", write_json(tmp_path / "t.json", doc))
    assert str(caught.value).splitlines() == [
        "players[3]: name is required",
        "series 1: player 'p4' is seated twice",
    ]
    assert counts() == before


def test_export_command_writes_the_document(tmp_path):
    tournament = import_document(contract_example())
    out = call_command_output("export_tournament", tournament.slug)
    assert json.loads(out) == export_document(tournament)
    assert "Jörg Łukasz" in out  # ensure_ascii=False

    target = tmp_path / "out.json"
    call_command("export_tournament", tournament.slug, "--output", str(target))
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == FORMAT


@pytest.mark.parametrize("command", ["export_tournament", "standings"])
def test_commands_reject_an_unknown_slug(command):
    with pytest.raises(CommandError, match="no tournament with slug 'nope'"):
        call_command(command, "nope")


def test_import_command_exits_1_without_a_traceback(tmp_path):
    """A real `manage.py` run: the document is checked before any database access."""
    doc = two_table_document()
    doc["series"][0]["tables"][0]["games"][0]["matadors"] = 12
    path = write_json(tmp_path / "bad.json", doc)
    env = {
        **os.environ,
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", path],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "series 1, table 1, game 1: matadors must be between 1 and 4" in result.stderr
    assert result.stdout == ""


def test_an_import_writes_the_seat_totals_and_finds_its_games_by_tournament(club):
    """The imported seats' stored totals equal a recomputation from the games, and every
    game carries its tournament (the indexed way the standings and the feed find them)."""
    from tournaments.models import Seat
    from tournaments.sheets.selectors import seat_lines
    from tournaments.sheets.totals import seat_lines_from_games

    doc = two_table_document()
    tournament = import_document(doc, club=club)
    seats = Seat.objects.filter(series__tournament=tournament)
    assert seat_lines(seats) == seat_lines_from_games(seats)
    assert any(line.list_points for line in seat_lines(seats))
    assert Game.objects.filter(tournament=tournament).count() == sum(
        len(t["games"]) for s in doc["series"] for t in s["tables"]
    )
