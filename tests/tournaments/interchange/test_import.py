"""Importing a `skat-tournament/1` document (interchange.md), and the documents it refuses:
every message names its place, and nothing is written."""

import pytest

from tests.factories import PlayerFactory
from tests.tournaments.interchange.documents import (
    contract_example,
    counts,
    row_counts,
    seated_twice,
    two_table_document,
    without_clubs,
    worked_example_document,
)
from tournaments.interchange import InterchangeError, import_document
from tournaments.interchange.rows import GameRow, GameRows
from tournaments.models import Club, Game, Player, Series, Table, Tournament

pytestmark = pytest.mark.django_db


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


def _table_of(**settings) -> Table:
    tournament = Tournament(rules="ispa", list_scoring=True, **settings)
    return Table(series=Series(tournament=tournament, number=1), number=1, size=4)


def test_shared_game_rows_value_each_tournament_under_its_own_settings():
    """A season's match days share one `GameRows`: a game valued under one tournament's
    bonus is valued again under another's, and reused under equal settings."""
    rows = GameRows()
    grand = {"declarer": 3, "game": "grand", "matadors": 2, "card_points": 78}
    at = GameRow._fields.index("list_declarer")

    first = rows.build(table=_table_of(bonus_won=50), number=1, data=dict(grand))
    same = rows.build(table=_table_of(bonus_won=50), number=2, data=dict(grand))
    other = rows.build(table=_table_of(bonus_won=80), number=1, data=dict(grand))

    assert first[at] == same[at] == 72 + 50
    assert other[at] == 72 + 80
