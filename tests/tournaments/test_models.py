"""Invariants the database itself keeps (tournaments/models.py constraints)."""

import pytest

from tests.tournaments.helpers import GRAND
from tournaments.models import Game, Penalty, Seat
from tournaments.sheets.services import game_record, penalty_record

pytestmark = pytest.mark.django_db


class TestSeatsWithinTheTable:
    """The database itself refuses a seat outside the table (seat 4 at a 3-table)."""

    @pytest.fixture
    def three_table(self, seated_series):
        return seated_series(3).tables.get()

    def test_the_services_copy_the_table_size(self, three_table):
        game = game_record(table=three_table, data={**GRAND, "declarer": 3})
        penalty = penalty_record(table=three_table, seat=3, points=-10)
        sizes = {s.table_size for s in three_table.seats.all()}
        assert (game.table_size, penalty.table_size, sizes) == (3, 3, {3})

    def test_seat_4_at_a_3_table_is_refused(self, three_table):
        from django.db import IntegrityError, transaction

        seat = three_table.seats.get(number=3)
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(number=4)
        with pytest.raises(IntegrityError), transaction.atomic():
            Penalty.objects.create(table=three_table, table_size=3, seat=4, points=-10)
        game = game_record(table=three_table, data={**GRAND, "declarer": 3})
        with pytest.raises(IntegrityError), transaction.atomic():
            Game.objects.filter(pk=game.pk).update(declarer=4)
        # A size that is no table size is refused too (5 is one: NA tables of five, §3.6).
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(table_size=6)
