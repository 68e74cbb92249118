"""Drawing a series: random and seeded by the standings, redrawing, keeping apart, seat swaps."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import GRAND
from tournaments.draw.services import seat_swap, series_delete, series_draw, series_redraw
from tournaments.errors import UserError
from tournaments.models import Seat, Series
from tournaments.registry.services import tournament_update
from tournaments.sheets.services import game_record, table_close

pytestmark = pytest.mark.django_db


class TestSeriesDraw:
    def test_draw_seats_everyone_once_in_tables_of_4_and_3(self, tournament, roster):
        for p in roster(11):
            RegistrationFactory(tournament=tournament, player=p)
        series = series_draw(tournament=tournament, seed=7)
        sizes = sorted(series.tables.values_list("size", flat=True))
        assert sizes == [3, 4, 4]  # rules §4: (−11 mod 4) = 1 three-table
        assert Seat.objects.filter(series=series).values("player").distinct().count() == 11

    def test_same_seed_same_draw(self, tournament, roster):
        for p in roster(16):
            RegistrationFactory(tournament=tournament, player=p)
        first = series_draw(tournament=tournament, seed=42)
        seats = list(first.seats.order_by("table__number", "number").values_list("player_id"))
        series_delete(series=first)
        again = series_draw(tournament=tournament, seed=42)
        assert (
            list(again.seats.order_by("table__number", "number").values_list("player_id")) == seats
        )

    def test_five_players_cannot_be_split(self, tournament, roster):
        for p in roster(5):
            RegistrationFactory(tournament=tournament, player=p)
        with pytest.raises(UserError, match="5 players cannot be split"):
            series_draw(tournament=tournament, seed=1)
        assert not Series.objects.exists()

    def test_redraw_only_before_the_first_game(self, table):
        series = table.series
        series_redraw(series=series, seed=99)
        series.refresh_from_db()
        assert series.draw_seed == 99
        game_record(table=series.tables.get(), data=GRAND)
        with pytest.raises(UserError, match="redrawn"):
            series_redraw(series=series, seed=5)

    def play_one_game_per_table(self, tournament, series, matadors_by_table):
        """Each table plays a one-game series, won by seat 2 with `matadors` (then closed)."""
        winners = []
        for table in series.tables.order_by("number"):
            matadors = matadors_by_table[table.number]
            data = {**GRAND, "matadors": matadors}
            game_record(table=table, data=data)
            table_close(table=table)
            winners.append(table.seats.get(number=2).player_id)
        return winners

    def test_second_series_seeded_by_the_standings(self, tournament, roster):
        for p in roster(16):
            RegistrationFactory(tournament=tournament, player=p)
        tournament_update(tournament=tournament, games_per_series_4=1)
        first = series_draw(tournament=tournament, seed=3)
        # Four distinct winners: grand with 4, 3, 2, 1 ranks them in that order.
        winners = self.play_one_game_per_table(tournament, first, {1: 4, 2: 3, 3: 2, 4: 1})
        second = series_draw(tournament=tournament, method="standings", seed=4)
        assert second.number == 2
        # Rules §4 / draw.py: the best four players sit at table 1. They have never met,
        # so keeping apart has no reason to move any of them.
        top = set(second.tables.get(number=1).seats.values_list("player_id", flat=True))
        assert top == set(winners)

    def test_a_seeded_draw_needs_every_earlier_sheet_closed(self, tournament, roster):
        for p in roster(8):
            RegistrationFactory(tournament=tournament, player=p)
        tournament_update(tournament=tournament, games_per_series_4=1)
        first = series_draw(tournament=tournament, seed=3)
        table = first.tables.get(number=1)
        game_record(table=table, data=GRAND)
        table_close(table=table)
        with pytest.raises(UserError, match="table 2 of series 1 is still open"):
            series_draw(tournament=tournament, method="standings", seed=4)
        assert Series.objects.count() == 1
        # A random draw does not depend on the standings.
        assert series_draw(tournament=tournament, seed=4).number == 2

    def test_players_without_a_result_are_seeded_in_name_order(self, tournament, club):
        # Created in reverse name order, so ids and names disagree; nobody has a result yet.
        names = ["Hanna", "Gerd", "Fritz", "Emil", "Dora", "Carl", "Berta", "Anna"]
        for name in names:
            RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
        series = series_draw(tournament=tournament, method="standings", seed=4, keep_apart="none")
        tables = {
            t.number: {s.player.name for s in t.seats.select_related("player")}
            for t in series.tables.all()
        }
        assert tables == {
            1: {"Anna", "Berta", "Carl", "Dora"},
            2: {"Emil", "Fritz", "Gerd", "Hanna"},
        }

    def test_the_draw_remembers_who_it_kept_apart(self, tournament, roster):
        for p in roster(8):
            RegistrationFactory(tournament=tournament, player=p)
        series = series_draw(tournament=tournament, seed=3, keep_apart="club")
        assert series.keep_apart == "club"
        seats = list(series.seats.order_by("table__number", "number").values_list("player_id"))
        series_redraw(series=series, seed=8)
        series_redraw(series=series, seed=3)  # keep_apart as it was drawn
        series.refresh_from_db()
        assert series.keep_apart == "club"
        assert (
            list(series.seats.order_by("table__number", "number").values_list("player_id"))
            == seats
        )

    def test_an_unknown_keep_apart_is_refused(self, tournament, roster):
        for p in roster(4):
            RegistrationFactory(tournament=tournament, player=p)
        with pytest.raises(UserError, match="keeps apart"):
            series_draw(tournament=tournament, seed=3, keep_apart="family")
        assert not Series.objects.exists()

    def test_swap_two_seats_before_the_start(self, table):
        a, b = table.seats.get(number=1), table.seats.get(number=3)
        seat_swap(seat_a=a, seat_b=b)
        assert table.seats.get(number=1).player_id == b.player_id
        assert table.seats.get(number=3).player_id == a.player_id
        game_record(table=table, data=GRAND)
        with pytest.raises(UserError, match="started"):
            seat_swap(seat_a=a, seat_b=b)
