"""tournaments/games.py, the bridge to the rules engine: recomputing the stored scores, the
derived field lists and who may declare a sheet row."""

import pytest

from tests.tournaments.helpers import GRAND
from tournaments.errors import UserError
from tournaments.games import BOOL_FIELDS, DECLARED_FIELDS, check_declarer, scores_recompute
from tournaments.models import Game
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


def test_recompute_rebuilds_tampered_values(table):
    game_record(table=table, data=GRAND)
    Game.objects.update(value=1, score=1, list_declarer=1)
    assert scores_recompute() == 1
    game = Game.objects.get()
    assert (game.value, game.score, game.list_declarer) == (72, 72, 122)


def test_the_declared_fields_are_the_scoring_contracts_less_what_the_sheet_gives():
    # scoring-contract.md's input, in its order, less rules, table_size and ramsch.
    assert DECLARED_FIELDS == (
        "game", "trump", "matadors", "without", "hand", "schneider_announced",
        "schwarz_announced", "ouvert", "won", "schneider", "schwarz", "card_points", "bid",
        "kontra", "re",
    )  # fmt: skip
    assert {
        "without", "hand", "schneider_announced", "schwarz_announced", "ouvert", "schneider",
        "schwarz", "kontra", "re",
    } == BOOL_FIELDS  # fmt: skip


@pytest.mark.parametrize(
    ("table_size", "number", "declarer", "message"),
    [
        (4, 1, 1, "Seat 1 deals game 1 and sits out (rules §4)."),
        (4, 6, 2, "Seat 2 deals game 6 and sits out (rules §4)."),
        # Foster 1909 at five: the dealer and the seat third after him get no cards.
        (5, 1, 1, "Seat 1 deals game 1 and sits out (rules §4)."),
        (5, 1, 4, "Seat 4 sits out game 1 (rules §3.6)."),
    ],
)
def test_a_seat_that_sits_out_cannot_declare(table_size, number, declarer, message):
    with pytest.raises(UserError) as caught:
        check_declarer(
            table_size=table_size, number=number, data={"game": "grand", "declarer": declarer}
        )
    assert str(caught.value) == message
    assert caught.value.field == "declarer"


@pytest.mark.parametrize(
    ("table_size", "number", "declarer"), [(3, 1, 1), (4, 1, 2), (4, 6, 1), (5, 1, 2), (5, 1, 5)]
)
def test_a_seat_with_cards_declares(table_size, number, declarer):
    data = {"game": "grand", "declarer": declarer}
    assert check_declarer(table_size=table_size, number=number, data=data) == declarer
