"""The documents' JSON Schemas (static/schemas/): served, valid schemas, and true to the site.

"Checked against every document the site writes": tournaments of every kind are exported
(`export_document`, `export_season`) and validated; a publishing batch built from them
too. The other way round, a schema refuses what the importer refuses where a schema can
say it (types, required fields, choices, ranges): a table of spoiled documents, each
refused by both, and a property test over the import fuzz's mutations: a document the
importer takes is one the schema takes.
"""

import copy
import json
import random

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

import scoring
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.test_fuzz import SCALE
from tests.tournaments.helpers import complete_tournament
from tests.tournaments.interchange.documents import (
    contract_example,
    two_table_document,
    worked_example_document,
)
from tests.tournaments.interchange.test_import_fuzz import by_shape, mutated, mutations
from tests.tournaments.leagues.helpers import play_series
from tournaments.api.document_schemas import NAMES, SCHEMA_DIR
from tournaments.api.validation import document_problems, schema
from tournaments.demo import demo_create, fill_table, generate_tournament
from tournaments.draw.services import series_draw
from tournaments.interchange import InterchangeError, export_document, import_document
from tournaments.leagues.interchange import SeasonDocumentError, export_season, import_season
from tournaments.leagues.services import match_day_confirm
from tournaments.log.models import ActionLog
from tournaments.models import (
    Category,
    GameChange,
    Payment,
    PenaltyChange,
    PenaltyLaw,
    Prize,
    Season,
    Series,
    Tournament,
)
from tournaments.registry.services import registration_withdraw
from tournaments.sheets.services import (
    game_record,
    penalty_law_record,
    penalty_record,
    table_close,
)

pytestmark = pytest.mark.django_db


def exported(tournament, *, archive=True) -> dict:
    """The tournament's document as a reader gets it (through JSON text)."""
    return json.loads(json.dumps(export_document(tournament, archive=archive)))


def problems_of(doc, kind=None) -> list[str]:
    return [str(problem) for problem in document_problems(doc, kind)]


# --------------------------------------------------------------------------------------
# The files and their addresses
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_a_valid_2020_12_schema_named_by_its_id(name):
    text = (SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")
    data = json.loads(text)
    Draft202012Validator.check_schema(data)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert data["$id"] == f"urn:skat-scores:schema:{name}"
    assert data["properties"]["format"]["const"] == name[: name.rindex("-")] + "/1"


@pytest.mark.parametrize("name", NAMES)
def test_a_schema_is_served_as_stored_and_cacheable(name):
    client = Client()
    answer = client.get(f"/api/schemas/{name}.json")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/schema+json"
    assert answer.content == (SCHEMA_DIR / f"{name}.schema.json").read_bytes()
    assert "public" in answer["Cache-Control"] and "max-age=86400" in answer["Cache-Control"]
    assert answer["Access-Control-Allow-Origin"] == "*"
    again = client.get(f"/api/schemas/{name}.json", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304


def test_another_schema_name_is_not_found():
    assert Client().get("/api/schemas/skat-tournament-2.json").status_code == 404
    assert Client().post("/api/schemas/skat-tournament-1.json").status_code == 405


def test_the_api_page_links_every_schema():
    page = Client().get("/api/").content.decode()
    for name in NAMES:
        assert f'href="/api/schemas/{name}.json"' in page


# --------------------------------------------------------------------------------------
# The schemas' choices are the code's
# --------------------------------------------------------------------------------------


def _at(data, *path):
    for step in path:
        data = data[step]
    return data


ARCHIVE = ("$defs", "archive", "properties")
ARCHIVE_TABLE = (*ARCHIVE, "series", "items", "properties", "tables", "items", "properties")


@pytest.mark.parametrize(
    ("path", "values"),
    [
        ((*ARCHIVE, "director_actions", "items", "properties", "kind", "enum"), ActionLog.Kind),
        ((*ARCHIVE, "tournament", "properties", "status", "enum"), Tournament.Status),
        ((*ARCHIVE, "players", "items", "properties", "category", "enum"), Category),
        (
            (*ARCHIVE, "money", "properties", "prizes", "items", "properties", "scope", "enum"),
            Prize.Scope,
        ),
        (
            (*ARCHIVE, "money", "properties", "payments", "items", "properties", "kind", "enum"),
            Payment.Kind,
        ),
        (
            (*ARCHIVE, "series", "items", "properties", "draw_method", "enum"),
            Series.DrawMethod,
        ),
        ((*ARCHIVE, "series", "items", "properties", "keep_apart", "enum"), Series.KeepApart),
        ((*ARCHIVE, "series", "items", "properties", "status", "enum"), Series.Status),
        (
            (*ARCHIVE_TABLE, "game_changes", "items", "properties", "action", "enum"),
            GameChange.Action,
        ),
        (
            (*ARCHIVE_TABLE, "penalty_changes", "items", "properties", "action", "enum"),
            PenaltyChange.Action,
        ),
        (("$defs", "penalty", "properties", "law", "enum"), PenaltyLaw),
        (("$defs", "game", "properties", "trump", "anyOf", 1, "enum"), scoring.TRUMPS),
    ],
)
def test_a_schema_choice_lists_exactly_the_codes_the_site_has(path, values):
    """A new choice in the code must be added to skat-tournament-1.schema.json too."""
    listed = _at(schema("skat-tournament-1"), *path)
    expected = list(getattr(values, "values", values))
    assert sorted(listed, key=str) == sorted(expected, key=str), (
        f"static/schemas/skat-tournament-1.schema.json {'/'.join(map(str, path))}: "
        f"add {sorted(set(expected) - set(listed), key=str)}, "
        f"remove {sorted(set(listed) - set(expected), key=str)}"
    )


def test_the_games_and_bids_of_each_rule_set_are_the_engines():
    doc_schema = schema("skat-tournament-1")
    assert set(_at(doc_schema, "$defs", "game", "properties", "game", "enum")) == set(
        scoring.ISPA_GAMES
    ) | set(scoring.NA_GAMES)
    by_rules = _at(doc_schema, "allOf", 0)
    table = ("properties", "series", "items", "properties", "tables", "items", "properties")
    ispa_games = _at(by_rules, "else", *table, "games", "items", "properties")
    na_games = _at(by_rules, "then", *table, "games", "items", "properties")
    # Gewinner-Ramsch is an ispa ramsch (scoring.variants).
    assert ispa_games["game"]["enum"] == [*scoring.ISPA_GAMES, "ramsch"]
    assert na_games["game"]["enum"] == list(scoring.NA_GAMES)
    assert ispa_games["bid"]["anyOf"][1]["enum"] == sorted(scoring.tables.ISPA_BIDS)
    assert na_games["bid"]["maximum"] == scoring.tables.NA_HIGHEST_VALUE


# --------------------------------------------------------------------------------------
# Every document the site writes is valid
# --------------------------------------------------------------------------------------


def _na_five_tables_with_laws(club):
    """NA: tables of five, a ramsch tie, a fine and penalties at a game's value (laws 7
    and 8), a withdrawal before series 2, a table closed short."""
    tournament = TournamentFactory(
        club=club,
        name="Tournée of five",
        slug="tournee-five",
        rules="na",
        five_tables=True,
        ramsch_tie_both_win=True,
        games_per_series_5=10,
        games_per_series_4=8,
        games_per_series_3=6,
    )
    players = [PlayerFactory(club=club, name=f"Spieler {n:02}") for n in range(1, 10)]
    registrations = [RegistrationFactory(tournament=tournament, player=p) for p in players]
    first = series_draw(tournament=tournament, seed=7)  # 9 players: a 4- and a 5-table
    rng = random.Random(3)
    five = first.tables.get(size=5)
    for table in first.tables.all():
        fill_table(table, rng)
    penalty_record(table=five, seat=2, points=-10, reason="misdeal")
    won = five.games.filter(is_won=True).order_by("number").first()
    opponent = next(
        s for s in range(1, 6) if s != won.declarer and s not in five.sitting_out(won.number)
    )
    penalty_law_record(table=five, number=won.number, seat=opponent, law=7)
    registration_withdraw(registration=registrations[0], reason="went home")
    second = series_draw(tournament=tournament, seed=8)
    short = second.tables.order_by("number").first()
    game_record(table=short, data={"game": "null", "won": True, "declarer": 2})
    table_close(table=short, short_reason="the table stopped early")
    return tournament


def _ispa_running(club):
    """ispa: 4- and 3-tables, the last series partly entered (sheets shorter than a list)."""
    return generate_tournament(club=club, players=11, series=2, seed=5, complete=False)


def _kontra_gewinner(club):
    """ispa house rules: Kontra and Re, Gewinner-Ramsch; a passed-in deal."""
    tournament = TournamentFactory(
        club=club,
        name="Hausturnier",
        slug="hausturnier",
        kontra_allowed=True,
        ramsch_rule="gewinner",
    )
    for player in [PlayerFactory(club=club) for _ in range(7)]:
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, seed=2)
    table = series.tables.get(size=3)
    game_record(
        table=table,
        data={
            "game": "grand",
            "matadors": 1,
            "won": True,
            "kontra": True,
            "re": True,
            "declarer": 2,
        },
    )
    game_record(table=table, data={"game": "ramsch", "ramsch": "fewest_points", "declarer": 1})
    game_record(table=table, data={"game": "passed"})
    return tournament


@pytest.mark.parametrize(
    "build",
    [
        lambda club: import_document(contract_example()),
        lambda club: import_document(two_table_document()),
        lambda club: import_document(worked_example_document()),
        _na_five_tables_with_laws,
        _ispa_running,
        _kontra_gewinner,
        lambda club: generate_tournament(club=club, players=14, series=2, seed=9, rules="na"),
    ],
    ids=["contract", "two-tables", "worked", "na-five-laws", "ispa-short", "kontra", "na"],
)
def test_an_exported_tournament_is_valid(club, build):
    tournament = build(club)
    for archive in (True, False):
        doc = exported(tournament, archive=archive)
        assert problems_of(doc) == []


def test_the_archive_of_a_complete_tournament_is_valid(tournament, roster, secretary):
    complete = complete_tournament(tournament, roster, secretary)
    hidden = complete.registrations.first().player
    hidden.listed = False  # a player not listed publicly: archived as "listed": false
    hidden.save(update_fields=["listed"])
    doc = exported(complete)
    assert {"listed": False}.items() <= next(
        p for p in doc["archive"]["players"] if "listed" in p
    ).items()
    # Every part of the archive is there to be checked.
    assert doc["archive"]["money"]["payments"] and doc["archive"]["director_actions"]
    assert any(t["second_copy"] for t in doc["archive"]["series"][0]["tables"])
    assert problems_of(doc) == []


def test_a_league_season_and_its_match_days_are_valid(match_day):
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    doc = json.loads(json.dumps(export_season(match_day.season)))
    assert problems_of(doc) == []
    # Its match day on its own too.
    assert problems_of(doc["match_days"][0]["tournament"]) == []


def test_the_demo_data_exports_valid_documents():
    demo_create()
    assert Tournament.objects.count() >= 4 and Season.objects.count() >= 2
    for tournament in Tournament.objects.all():
        assert problems_of(exported(tournament)) == [], tournament.slug
    for season in Season.objects.all():
        assert problems_of(json.loads(json.dumps(export_season(season)))) == [], season.slug


def batch_of(doc, *, base=0, version=7, with_document=True):
    """A publishing batch as protocol.md has it, from a document with its archive."""
    closed = {
        (series["number"], table["number"]): table["closed"]
        for series in doc["archive"]["series"]
        for table in series["tables"]
    }
    batch = {
        "format": "skat-publish/1",
        "tournament": doc["archive"]["tournament"]["slug"],
        "hall": "3f1c2b0e-8a4d-4c5e-9f10-2b3c4d5e6f70",
        "base": base,
        "version": version,
        "sheets": [
            {
                "series": series["number"],
                "table": table["number"],
                "sheet": {**table, "closed": closed[(series["number"], table["number"])]},
            }
            for series in doc["series"]
            for table in series["tables"]
        ],
    }
    if with_document:
        batch["document"] = doc
    return batch


def test_a_publishing_batch_of_a_tournament_is_valid(tournament, roster, secretary):
    doc = exported(complete_tournament(tournament, roster, secretary))
    assert problems_of(batch_of(doc)) == []
    assert problems_of(batch_of(doc, base=3, with_document=False)) == []


@pytest.mark.parametrize(
    ("spoil", "location"),
    [
        (lambda b: b.pop("base"), "/: 'base' is a required property"),
        (lambda b: b.update(hall="hall-1"), "/hall: "),
        (lambda b: b.update(version=-1), "/version: -1 is less than the minimum of 0"),
        (lambda b: b["sheets"][0]["sheet"].update(colour="red"), "/sheets/0/sheet: "),
        (lambda b: b["sheets"][0]["sheet"].update(closed="yes"), "/sheets/0/sheet/closed: "),
        (lambda b: b["sheets"][0].pop("table"), "/sheets/0: 'table' is a required property"),
        (
            lambda b: b["document"]["series"][0]["tables"][0]["games"][0].update(card_points=121),
            "/document/series/0/tables/0/games/0/card_points: 121 is greater",
        ),
        (lambda b: b.update(format="skat-tournament/1"), "/format: "),
    ],
)
def test_a_spoiled_batch_is_refused_at_its_place(spoil, location):
    doc = import_document(worked_example_document())
    batch = batch_of(json.loads(json.dumps(export_document(doc))))
    spoil(batch)
    found = problems_of(batch, "publish")
    assert any(problem.startswith(location) for problem in found), found


# --------------------------------------------------------------------------------------
# What the importer refuses, the schema refuses where it can say it
# --------------------------------------------------------------------------------------


def game(doc, number=0):
    return doc["series"][0]["tables"][0]["games"][number]


@pytest.mark.parametrize(
    ("spoil", "location"),
    [
        (lambda d: d["tournament"].pop("name"), "/tournament: 'name' is a required property"),
        (lambda d: d["tournament"].update(date="21.11.2026"), "/tournament/date: "),
        (lambda d: d["tournament"].update(rules="skat"), "/tournament/rules: "),
        (lambda d: d["tournament"].update(kontra="no"), "/tournament/kontra: "),
        (lambda d: d["tournament"]["bonus"].update(won=-1), "/tournament/bonus/won: "),
        (lambda d: d["tournament"]["games_per_series"].update({"5": 50}), "/tournament/"),
        (lambda d: d["tournament"].update(colour="blue"), "/tournament: "),
        (lambda d: d["players"][1].update(name=7), "/players/1/name: "),
        (lambda d: d["players"][1].update(club="a\nb"), "/players/1/club: "),
        (lambda d: d["players"][0].pop("id"), "/players/0: 'id' is a required property"),
        (lambda d: d["series"][0].update(number=0), "/series/0/number: "),
        (lambda d: d["series"][0].update(tables=[]), "/series/0/tables: "),
        (
            lambda d: d["series"][0]["tables"][0]["seats"].append("p5"),
            "/series/0/tables/0/seats: ",
        ),
        (lambda d: game(d).update(card_points=121), "/series/0/tables/0/games/0/card_points: "),
        (lambda d: game(d).update(matadors="2"), "/series/0/tables/0/games/0/matadors: "),
        (lambda d: game(d).update(game="tournee"), "/series/0/tables/0/games/0/game: "),
        (lambda d: game(d).update(bid=19), "/series/0/tables/0/games/0/bid: "),
        (lambda d: game(d).pop("declarer"), "/series/0/tables/0/games/0: 'declarer' is a"),
        (lambda d: game(d).update(colour=1), "/series/0/tables/0/games/0: "),
        (lambda d: game(d, 2).update(matadors=2), "/series/0/tables/0/games/2/matadors: "),
        (
            lambda d: d["series"][0]["tables"][0]["penalties"][0].update(points=0),
            "/series/0/tables/0/penalties/0/points: ",
        ),
        (
            lambda d: d["series"][0]["tables"][0]["penalties"][0].update(law=7),
            "/series/0/tables/0/penalties/0: ",
        ),
        (lambda d: d.update(extra=1), "/: Additional properties"),
    ],
)
def test_a_document_the_importer_refuses_is_refused_by_the_schema_at_its_place(spoil, location):
    doc = contract_example()
    spoil(doc)
    with pytest.raises(InterchangeError):
        import_document(doc)
    found = problems_of(doc)
    assert any(problem.startswith(location) for problem in found), found


@pytest.mark.parametrize(
    ("spoil", "location"),
    [
        (lambda d: d["season"].pop("name"), "/season: 'name' is a required property"),
        (lambda d: d["season"]["settings"].update(best_series=0), "/season/settings/best_series"),
        (lambda d: d["season"]["settings"].update(colour=1), "/season/settings: "),
        (lambda d: d["teams"][0].update(roster="x"), "/teams/0/roster: "),
        (lambda d: d["match_days"][0].update(confirmed="yes"), "/match_days/0/confirmed: "),
        (
            lambda d: d["match_days"][0]["tournament"]["tournament"].update(rules="x"),
            "/match_days/0/tournament/tournament/rules: ",
        ),
    ],
)
def test_a_spoiled_season_is_refused_at_its_place(match_day, spoil, location):
    play_series(match_day)
    doc = json.loads(json.dumps(export_season(match_day.season)))
    spoil(doc)
    found = problems_of(doc)
    assert any(problem.startswith(location) for problem in found), found


# --------------------------------------------------------------------------------------
# Property: the schema is never stricter than the importer
# --------------------------------------------------------------------------------------


@pytest.fixture
def tournament_document(tournament, roster, secretary):
    doc = export_document(complete_tournament(tournament, roster, secretary))
    tournament.delete()
    return json.loads(json.dumps(doc))


def test_a_document_the_importer_takes_is_valid_under_the_schema(tournament_document):
    shapes = by_shape(tournament_document)

    @settings(
        max_examples=max(1, int(300 * SCALE)),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(instructions=mutations(shapes))
    def run(instructions):
        doc = mutated(tournament_document, instructions)
        with transaction.atomic():
            try:
                import_document(copy.deepcopy(doc), replace=True)
                taken = True
            except InterchangeError:
                taken = False
            transaction.set_rollback(True)
        if taken:
            assert problems_of(doc) == [], instructions

    run()


@pytest.fixture
def season_document(match_day):
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    doc = export_season(match_day.season)
    match_day.season.tournaments.all().delete()
    match_day.season.delete()
    return json.loads(json.dumps(doc))


def test_a_season_the_importer_takes_is_valid_under_the_schema(season_document):
    shapes = by_shape(season_document)

    @settings(
        max_examples=max(1, int(100 * SCALE)),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(instructions=mutations(shapes))
    def run(instructions):
        doc = mutated(season_document, instructions)
        with transaction.atomic():
            try:
                import_season(copy.deepcopy(doc))
                taken = True
            except SeasonDocumentError:
                taken = False
            transaction.set_rollback(True)
        if taken:
            assert problems_of(doc) == [], instructions

    run()
