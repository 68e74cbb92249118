"""Exporting a tournament as a `skat-tournament/1` document, and export → import → export."""

import copy
import json

import pytest

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.interchange.documents import contract_example
from tournaments.draw.services import series_draw
from tournaments.interchange import export_document, import_document
from tournaments.models import Club, Player, Registration
from tournaments.registry.services import player_update, tournament_update
from tournaments.sheets.services import game_record, penalty_record

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# Export, and export → import → export
# --------------------------------------------------------------------------------------


def record(table, *games):
    for data in games:
        game_record(table=table, data=data)


def round_trip(tournament):
    first = export_document(tournament)
    again = import_document(json.loads(json.dumps(first)), replace=True)
    assert again.pk != tournament.pk
    return first, export_document(again)


def test_export_gives_the_contract_example_back():
    doc = contract_example()
    tournament = import_document(doc)
    exported = export_document(tournament, archive=False)
    # Ids are given in name order: Anna p1, Carla p2, Dieter p3, Jörg p4.
    renumber = {"p1": "p1", "p2": "p4", "p3": "p2", "p4": "p3"}
    expected = copy.deepcopy(doc)
    for player in expected["players"]:
        player["id"] = renumber[player["id"]]
    expected["players"].sort(key=lambda p: p["id"])
    table_doc = expected["series"][0]["tables"][0]
    table_doc["seats"] = [renumber[s] for s in table_doc["seats"]]
    assert exported == expected
    assert list(exported) == ["format", "tournament", "players", "series"]
    assert list(exported["series"][0]["tables"][0]["games"][0]) == [
        "declarer",
        "game",
        "matadors",
        "card_points",
        "bid",
    ]


def test_ispa_round_trip_gives_the_same_document(tournament, seated_series):
    tournament = tournament_update(tournament=tournament, kontra_allowed=True)
    series = seated_series(7)  # one 4-table and one 3-table (rules §4)
    four, three = sorted(series.tables.all(), key=lambda t: -t.size)
    record(
        four,
        {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20},
        {"game": "passed"},
        {"declarer": 1, "game": "null", "ouvert": True, "won": False, "bid": 46},
        {"declarer": 1, "game": "clubs", "matadors": 1, "card_points": 70, "bid": 30},
        {
            "declarer": 3,
            "game": "hearts",
            "matadors": 3,
            "without": True,
            "hand": True,
            "schneider_announced": True,
            "card_points": 95,
            "kontra": True,
            "re": True,
        },
    )
    record(
        three,
        {"declarer": 1, "game": "diamonds", "matadors": 2, "without": True, "card_points": 50},
        {"declarer": 3, "game": "spades", "matadors": 1, "won": True, "schneider": True},
    )
    penalty_record(table=four, seat=3, points=-10, reason="misdeal")
    penalty_record(table=three, seat=1, points=-25, reason="looked at the skat")
    # A player seated but no longer registered is exported too.
    registration = Registration.objects.get(
        tournament=tournament, player=three.seats.get(number=2).player
    )
    registration.delete()

    first, second = round_trip(tournament)

    assert second == first
    assert len(first["players"]) == 7
    games = first["series"][0]["tables"]
    assert sum(len(t["games"]) for t in games) == 7
    assert {"game": "passed"} in games[0]["games"] + games[1]["games"]


def test_round_trip_into_an_installation_without_the_players(seated_series):
    series = seated_series(6)  # two 3-tables
    for table_ in series.tables.all():
        record(table_, {"declarer": 1, "game": "grand", "matadors": 1, "won": True})
    tournament = series.tournament
    first = export_document(tournament)
    tournament.delete()
    Player.objects.all().delete()
    Club.objects.all().delete()

    imported = import_document(json.loads(json.dumps(first)))

    assert Player.objects.count() == 6
    assert imported.club.name == "Skatfreunde Altenburg"
    assert export_document(imported) == first


def test_round_trip_keeps_players_without_club_or_team_and_several_series(seated_series):
    series = seated_series(4)
    table_one = series.tables.get()
    record(table_one, {"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    player = table_one.seats.get(number=1).player
    player_update(player=player, team="Altenburg I")
    Player.objects.filter(pk=table_one.seats.get(number=4).player_id).update(club=None)
    second_series = series_draw(tournament=series.tournament, seed=7)
    record(second_series.tables.get(), {"game": "passed"})

    first, second = round_trip(series.tournament)

    assert second == first
    assert [s["number"] for s in first["series"]] == [1, 2]
    assert {p["team"] for p in first["players"]} == {"Altenburg I", None}
    assert None in {p["club"] for p in first["players"]}


def test_na_round_trip_with_ramsch(na_tournament, seated_series):
    series = seated_series(4, target=na_tournament)
    table_ = series.tables.get()
    record(
        table_,
        {"declarer": 2, "game": "tournee", "trump": "diamonds", "matadors": 3, "won": True},
        {"declarer": 3, "game": "ramsch", "ramsch": "fewest_points"},
        {"declarer": 1, "game": "null_ouvert", "won": False},
        {"declarer": 2, "game": "ramsch", "ramsch": "all_tricks"},
    )
    penalty_record(table=table_, seat=4, points=-10, reason="misdeal")

    first, second = round_trip(na_tournament)

    assert second == first
    assert first["tournament"]["rules"] == "na"
    sheet = first["series"][0]["tables"][0]
    assert sheet["games"][1] == {
        "game": "ramsch",
        "ramsch": [{"seat": 3, "result": "fewest_points"}],
    }
    assert sheet["penalties"] == [{"seat": 4, "points": -10, "reason": "misdeal"}]


def test_export_orders_players_by_name_and_leaves_out_empty_penalties(club):
    tournament = TournamentFactory(club=club)
    for name in ("Zoe", "Anton", "Maria"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(name=name, club=club))
    doc = export_document(tournament)
    assert [(p["id"], p["name"]) for p in doc["players"]] == [
        ("p1", "Anton"),
        ("p2", "Maria"),
        ("p3", "Zoe"),
    ]
    series_draw(tournament=tournament, seed=3)
    assert "penalties" not in export_document(tournament)["series"][0]["tables"][0]
