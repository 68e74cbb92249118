"""The interchange format `skat-tournament/1` (interchange.md): import, export, standings."""

import copy
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
from django.utils import translation

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.draw.services import series_draw
from tournaments.interchange import (
    FORMAT,
    InterchangeError,
    export_document,
    import_document,
    standings_json,
)
from tournaments.models import (
    Club,
    Game,
    Penalty,
    Player,
    Registration,
    Series,
    Table,
    Tournament,
)
from tournaments.registry.services import player_update, registration_set_lots, tournament_update
from tournaments.sheets.services import game_record, penalty_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    # The engine's English messages are the specific ones (tournaments.errors); the
    # commands run without translations, so the direct calls here do the same.
    with translation.override("en"):
        yield


def contract_example():
    """The example of interchange.md, with the two players its table also seats."""
    return {
        "format": "skat-tournament/1",
        "tournament": {
            "name": "Herbstpreisskat 2026",
            "date": "2026-11-21",
            "rules": "ispa",
            "list_scoring": True,
            "bonus": {"won": 50, "lost": 50, "others_3": 40, "others_4": 30},
            "games_per_series": {"3": 36, "4": 48},
            "kontra": False,
        },
        "players": [
            {
                "id": "p1",
                "name": "Anna Schmidt",
                "club": "Skatfreunde Altenburg",
                "team": "Altenburg I",
            },
            {"id": "p2", "name": "Jörg Łukasz", "club": None, "team": None},
            {"id": "p3", "name": "Carla Weiß", "club": "Skatfreunde Altenburg", "team": None},
            {"id": "p4", "name": "Dieter Groß", "club": None, "team": None},
        ],
        "series": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": ["p1", "p2", "p3", "p4"],
                        "games": [
                            {
                                "declarer": 2,
                                "game": "grand",
                                "matadors": 2,
                                "card_points": 78,
                                "bid": 20,
                            },
                            {"game": "passed"},
                            {
                                "declarer": 1,
                                "game": "null",
                                "ouvert": True,
                                "won": False,
                                "bid": 46,
                            },
                        ],
                        "penalties": [{"seat": 3, "points": -10, "reason": "misdeal"}],
                    }
                ],
            }
        ],
    }


def two_table_document():
    """Eight players at two 4-tables, a few games each: the base for the error cases."""
    doc = contract_example()
    doc["players"] += [
        {"id": f"p{n}", "name": f"Spieler {n}", "club": "Skatfreunde Altenburg", "team": None}
        for n in range(5, 9)
    ]
    doc["series"][0]["tables"].append(
        {
            "number": 2,
            "seats": ["p5", "p6", "p7", "p8"],
            "games": [
                {"declarer": 3, "game": "clubs", "matadors": 1, "won": True},
                {"declarer": 1, "game": "hearts", "matadors": 2, "without": True, "won": True},
            ],
        }
    )
    return doc


def counts():
    return {
        model.__name__: model.objects.count()
        for model in (Club, Player, Tournament, Registration, Series, Table, Game, Penalty)
    }


def assign_declarers(games_by_seat: dict[int, list[dict]], size: int = 4) -> list[dict]:
    """A sheet order for these games in which the dealer never declares (rules §4)."""
    left = {seat: list(games) for seat, games in games_by_seat.items()}
    sheet = []
    for number in range(1, sum(len(g) for g in left.values()) + 1):
        dealer = (number - 1) % size + 1
        seat = max(
            (s for s in left if left[s] and not (size == 4 and s == dealer)),
            key=lambda s: (len(left[s]), -s),
        )
        sheet.append({"declarer": seat, **left[seat].pop()})
    return sheet


def game(kind, matadors, won):
    return {"game": kind, "matadors": matadors, "won": won}


# rules §2 worked example (preisskat.org): game points/won/lost per seat
# A +492/12/0, B +628/12/2, C +660/10/1, D −32/6/5 → A 1332, C 1320, B 1308, D 108.
WORKED_EXAMPLE_GAMES = {
    # 8 × grand with 1 (48) + 4 × diamonds with 2 (27) = 492
    1: [game("grand", 1, True)] * 8 + [game("diamonds", 2, True)] * 4,
    # 9 × grand with 2 (72) + 3 × hearts with 1 (20) − 2 × 2 × 20 = 628
    2: [game("grand", 2, True)] * 9
    + [game("hearts", 1, True)] * 3
    + [game("hearts", 1, False)] * 2,
    # 9 × grand with 2 (72) + hearts with 5 (60) − 2 × clubs with 1 (24) = 660
    3: [game("grand", 2, True)] * 9 + [game("hearts", 5, True)] + [game("clubs", 1, False)],
    # 4 × spades with 1 (22) + 2 × hearts with 2 (30) − 5 × 2 × diamonds with 1 (18) = −32
    4: [game("spades", 1, True)] * 4
    + [game("hearts", 2, True)] * 2
    + [game("diamonds", 1, False)] * 5,
}


def worked_example_document():
    doc = contract_example()
    for player, name in zip(doc["players"], "ABCD", strict=True):
        player["name"] = name
    table = doc["series"][0]["tables"][0]
    table["games"] = assign_declarers(WORKED_EXAMPLE_GAMES)
    del table["penalties"]
    return doc


# --------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------


def test_contract_example_imports_with_its_values():
    tournament = import_document(contract_example())

    assert tournament.name == "Herbstpreisskat 2026"
    assert tournament.club.name == "Skatfreunde Altenburg"  # the players' most frequent
    assert tournament.published is True
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.registrations.count() == 4
    table = Table.objects.get(series__tournament=tournament)
    assert (table.size, table.closed, table.series.status) == (4, False, Series.Status.OPEN)
    assert list(table.seats.values_list("player__name", flat=True)) == [
        "Anna Schmidt",
        "Jörg Łukasz",
        "Carla Weiß",
        "Dieter Groß",
    ]
    grand, passed, null = table.games.order_by("number")
    # Grand with 2: game 3 × 24 = 72, won with 78 (rules §1.1, §1.3).
    assert (grand.declarer, grand.value, grand.score, grand.is_won) == (2, 72, 72, True)
    assert grand.list_declarer == 122
    assert (passed.declarer, passed.score, passed.is_won, passed.is_lost) == (
        None,
        0,
        False,
        False,
    )
    # Null ouvert lost → −92 (rules §1.4); the others get 30 at a 4-table (rules §2).
    assert (null.value, null.score, null.is_lost, null.list_others) == (46, -92, True, 30)
    assert list(table.penalties.values_list("seat", "points", "reason")) == [(3, -10, "misdeal")]


def test_import_reuses_players_of_the_same_name_and_club(club):
    anna = PlayerFactory(name="Anna Schmidt", club=club)
    dieter = PlayerFactory(name="Dieter Groß", club=None)
    namesake = PlayerFactory(name="Jörg Łukasz", club=club)  # another club than the document's

    tournament = import_document(contract_example())

    registered = set(tournament.registrations.values_list("player_id", flat=True))
    assert {anna.pk, dieter.pk} <= registered
    assert namesake.pk not in registered
    assert Player.objects.count() == 5
    assert tournament.club == club


def test_club_argument_runs_the_tournament(club):
    other = Club.objects.create(name="Skatclub Leipzig")
    assert import_document(contract_example(), club=other).club == other
    # A name: the club is created when missing.
    tournament = import_document(contract_example(), club="Skatclub Gera", replace=True)
    assert tournament.club.name == "Skatclub Gera"


def test_importing_the_same_document_again_is_refused_and_changes_nothing():
    first = import_document(contract_example())
    assert first.slug == "herbstpreisskat-2026-2026-11-21"
    counts = row_counts()
    with pytest.raises(InterchangeError, match="already exists.*--replace"):
        import_document(contract_example())
    assert row_counts() == counts
    assert Tournament.objects.get().pk == first.pk


def test_replace_swaps_the_tournament_in_one_go():
    first = import_document(contract_example())
    counts = row_counts()
    second = import_document(contract_example(), replace=True)
    assert second.slug == first.slug
    assert not Tournament.objects.filter(pk=first.pk).exists()
    assert row_counts() == counts


def row_counts() -> dict[str, int]:
    from django.apps import apps

    return {m.__name__: m.objects.count() for m in apps.get_app_config("tournaments").get_models()}


def test_complete_sheets_close_the_series_and_finish_the_tournament():
    tournament = import_document(worked_example_document())

    table = Table.objects.get(series__tournament=tournament)
    assert table.games.count() == 48
    assert table.closed is True
    assert table.series.status == Series.Status.CLOSED
    assert table.series.started is True
    assert tournament.status == Tournament.Status.FINISHED


def test_document_without_series_is_a_planned_tournament():
    doc = contract_example()
    doc["series"] = []
    tournament = import_document(doc)
    assert tournament.status == Tournament.Status.PLANNED
    assert tournament.registrations.count() == 4


def test_na_document_with_ramsch_imports():
    doc = contract_example()
    doc["tournament"].update(rules="na", list_scoring=False)
    doc["series"][0]["tables"][0]["games"] = [
        {
            "declarer": 2,
            "game": "solo",
            "trump": "hearts",
            "matadors": 3,
            "card_points": 95,
            "schneider_announced": True,
        },
        {"game": "ramsch", "ramsch": [{"seat": 3, "result": "no_trick"}]},
    ]
    tournament = import_document(doc)

    solo, ramsch = Game.objects.filter(table__series__tournament=tournament).order_by("number")
    assert solo.score == 60  # heart solo with 3, schneider announced and made (rules §3.2)
    assert (ramsch.declarer, ramsch.ramsch, ramsch.score) == (3, "no_trick", 20)  # rules §3.5


# --------------------------------------------------------------------------------------
# Rejected documents: every message names its place, and nothing is written
# --------------------------------------------------------------------------------------


def set_in(path, value):
    def change(doc):
        *parents, last = path
        target = doc
        for key in parents:
            target = target[key]
        target[last] = value

    return change


def table(n):
    return ("series", 0, "tables", n - 1)


def too_many_games(doc):
    doc["series"][0]["tables"][0]["games"] = [{"game": "passed"}] * 49


def ramsch_in_ispa(doc):
    doc["series"][0]["tables"][0]["games"][1] = {
        "game": "ramsch",
        "ramsch": [{"seat": 3, "result": "no_trick"}],
    }


def na_ramsch_with_two_seats(doc):
    doc["tournament"]["rules"] = "na"
    doc["series"][0]["tables"][0]["games"] = [
        {"game": "ramsch", "ramsch": [{"seat": 2, "result": "no_trick"}, {"seat": 3}]}
    ]


def without_clubs(doc):
    for player in doc["players"]:
        player["club"] = None


def seated_twice(doc):
    doc["series"][0]["tables"][1]["seats"][2] = "p4"


REJECTED = [
    (set_in(("format",), "skat/2"), "format must be 'skat-tournament/1', not 'skat/2'"),
    (set_in(("players", 3, "name"), "  "), "players[3]: name is required"),
    (set_in(("players", 4, "id"), "p1"), "players[4]: id 'p1' is already used by players[0]"),
    (set_in(("players", 2, "club"), 7), "players[2]: club must be a string or null"),
    (set_in(("players", 0, "nickname"), "Anni"), "players[0]: unknown field(s) nickname"),
    (
        set_in((*table(2), "seats", 2), "p99"),
        "series 1, table 2: seat 3 names unknown player 'p99'",
    ),
    (seated_twice, "series 1: player 'p4' is seated twice"),
    (
        set_in((*table(2), "seats"), ["p5", "p6"]),
        "series 1, table 2: a table has 3 or 4 seats, not 2",
    ),
    (set_in((*table(2), "number"), 1), "series 1, table 1: the table number is used twice"),
    (too_many_games, "series 1, table 1: 49 games, but a table of 4 plays at most 48"),
    (
        set_in((*table(1), "games", 0, "matadors"), 12),
        "series 1, table 1, game 1: matadors must be between 1 and 4 for a grand",
    ),
    (
        set_in((*table(2), "games", 0, "matadors"), 12),
        "series 1, table 2, game 1: matadors must be between 1 and 11 for a suit game",
    ),
    (
        set_in((*table(1), "games", 0, "declarer"), 1),
        "series 1, table 1, game 1: Seat 1 deals game 1 and sits out",
    ),
    (
        set_in((*table(1), "games", 0, "kontra"), True),
        "series 1, table 1, game 1: Kontra and Re are not allowed in this tournament",
    ),
    (
        set_in((*table(1), "games", 0, "rules"), "na"),
        "series 1, table 1, game 1: Unknown field(s): rules.",
    ),
    (set_in((*table(1), "games", 1), ["passed"]), "series 1, table 1, game 2: a game must be"),
    (
        set_in((*table(1), "games", 0, "bid"), ""),
        "series 1, table 1, game 1: bid must not be an empty string",
    ),
    (ramsch_in_ispa, "series 1, table 1, game 2: unknown game 'ramsch' for ispa rules"),
    (na_ramsch_with_two_seats, "series 1, table 1, game 1: ramsch must be a list of one"),
    (set_in((*table(1), "penalties", 0, "seat"), 5), "series 1, table 1, penalties[0]: seat must"),
    (set_in((*table(1), "penalties", 0, "points"), 0), "penalties[0]: points must be a whole"),
    (set_in(("series", 0, "number"), 0), "series[0]: number must be a whole number from 1"),
    (set_in(("tournament", "rules"), "skat"), "tournament: rules must be 'ispa' or 'na'"),
    (set_in(("tournament", "date"), "21.11.2026"), "tournament: date must be a date"),
    (set_in(("tournament", "name"), None), "tournament: name is required"),
    (set_in(("tournament", "kontra"), "no"), "tournament: kontra must be true or false"),
    (set_in(("tournament", "bonus", "won"), "50"), "tournament, bonus: won must be a whole"),
    (set_in(("tournament", "games_per_series", "4"), 0), "games_per_series: 4 must be a whole"),
    (set_in(("tournament", "list_scoring"), 1), "tournament: list_scoring must be true or false"),
    (without_clubs, "name the club that runs the tournament with --club"),
    # PostgreSQL refuses NUL in text; no name holds a control character (defect #12).
    (set_in(("players", 1, "name"), "Anna\x00Neu"), "players[1]: name contains a control"),
    (set_in(("players", 2, "club"), "Club\x07"), "players[2]: club contains a control"),
    (set_in(("players", 0, "team"), "Team\n1"), "players[0]: team contains a control"),
    (set_in(("tournament", "name"), "Herbst\x00"), "tournament: name contains a control"),
    (set_in((*table(1), "penalties", 0, "reason"), "a\x00"), "reason contains a control"),
    (
        set_in((*table(1), "penalties", 0, "points"), 3_000_000_000),
        "penalties[0]: points must be a whole number from -1000 to 1000 other than 0",
    ),
]


@pytest.mark.parametrize(("change", "message"), REJECTED)
def test_rejected_document_names_the_place_and_writes_nothing(change, message):
    doc = two_table_document()
    change(doc)
    before = counts()

    with pytest.raises(InterchangeError) as caught:
        import_document(doc)

    assert any(message in m for m in caught.value.messages), caught.value.messages
    assert message in str(caught.value)
    assert counts() == before


def test_every_problem_is_reported_at_once():
    doc = two_table_document()
    for change, _message in REJECTED[1:6]:
        change(doc)
    with pytest.raises(InterchangeError) as caught:
        import_document(doc)
    assert len(caught.value.messages) >= 5


def test_kontra_is_accepted_where_the_tournament_allows_it():
    doc = two_table_document()
    doc["tournament"]["kontra"] = True
    doc["series"][0]["tables"][0]["games"][0]["kontra"] = True
    tournament = import_document(doc)
    first = Game.objects.get(table__series__tournament=tournament, table__number=1, number=1)
    assert first.score == 144  # Kontra doubles the game score (rules §1.7)


def test_document_that_is_not_an_object_is_rejected():
    with pytest.raises(InterchangeError, match="must be a JSON object"):
        import_document([contract_example()])


def test_a_flood_of_errors_is_cut_short():
    doc = two_table_document()
    doc["tournament"]["games_per_series"]["4"] = 1000
    doc["series"][0]["tables"][0]["games"] = [{"game": "clubs"}] * 1000
    with pytest.raises(InterchangeError) as caught:
        import_document(doc)
    assert len(caught.value.messages) == 201
    assert caught.value.messages[-1] == "… and 800 more problems."


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
