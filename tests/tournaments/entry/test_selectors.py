"""The entry selectors (entry/selectors.py): the two copies of a sheet compared under double
entry, what counts while they differ, and the standings' queries with copies."""

import pytest

from tests.tournaments.entry.helpers import CLUBS, GRAND, NULL_LOST, keys_both, send
from tournaments.entry.selectors import sheet_copies_compare
from tournaments.entry.services import sheet_confirm, sheet_settle
from tournaments.sheets.selectors import disputed_games, table_sheet
from tournaments.sheets.services import game_correct, game_record
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


def test_a_row_keyed_at_the_desk_is_compared_with_the_second_copy(
    phone, secretary, tournament, double
):
    """The secretary keys game 1 as a grand on the screen, the second keeper's phone sends
    clubs: the row differs, counts nowhere and blocks the confirmation until settled."""
    game_record(
        table=double,
        data={"declarer": 2, "game": "grand", "matadors": 2, "won": True, "bid": 20},
        user=secretary,
    )
    send(phone, double.entry_token_2, CLUBS, number=1)
    [row] = sheet_copies_compare(double)
    assert row.unsettled and row.disputed
    seat_2 = double.seats.get(number=2).player_id
    standings = {r.player_id: r for r in tournament_standings(tournament)}
    assert standings[seat_2].list_points == 0 and standings[seat_2].provisional
    assert table_sheet(double, blank_rows=False).rows[0].disputed
    assert sheet_settle(table=double, number=1, choose="first", user=secretary) == [1]
    assert not sheet_copies_compare(double)[0].unsettled
    standings = {r.player_id: r for r in tournament_standings(tournament)}
    assert standings[seat_2].list_points == 72 + 50


def test_a_confirmed_game_stays_final_whatever_the_second_copy_says(
    phone, secretary, tournament, double
):
    keys_both(phone, double, GRAND)
    sheet_confirm(table=double, user=secretary)
    game_correct(
        game=double.games.get(),
        data={"declarer": 2, "game": "grand", "matadors": 3, "won": True, "bid": 20},
        user=secretary,
    )
    [row] = sheet_copies_compare(double)
    assert not row.equal and not row.unsettled and not row.disputed
    assert not disputed_games([double.pk])


def test_standings_take_a_fixed_number_of_queries_under_double_entry(
    django_assert_max_num_queries, phone, tournament, roster, double
):
    keys_both(phone, double, GRAND)
    send(phone, double.entry_token, CLUBS)
    send(phone, double.entry_token_2, NULL_LOST)
    with django_assert_max_num_queries(7):
        tournament_standings(tournament)
