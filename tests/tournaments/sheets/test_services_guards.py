"""What the sheet services (sheets/services.py) refuse: a penalty out of range (in the
service and in the database) and any change to a closed sheet until it is reopened."""

import pytest
from django.db import IntegrityError, transaction

from tournaments.errors import UserError
from tournaments.models import Penalty
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    penalty_delete,
    penalty_record,
    table_reopen,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("points", [10**22, 3_000_000_000, 1001, -1001])
def test_the_penalty_service_checks_the_range(table, points):
    with pytest.raises(UserError, match="1000"):
        penalty_record(table=table, seat=1, points=points)
    assert not Penalty.objects.exists()


def test_the_database_refuses_a_penalty_out_of_range(table):
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(table=table, seat=1, points=1001)


def test_a_penalty_at_the_limit_is_entered(table):
    assert penalty_record(table=table, seat=1, points=-1000).points == -1000


def test_the_services_refuse_a_closed_sheet(closed_table):
    game = closed_table.games.get(number=2)
    penalty = closed_table.penalties.get()
    calls = [
        lambda: game_delete(game=game),
        lambda: game_correct(game=game, data={"declarer": 3, "game": "null"}),
        lambda: penalty_record(table=closed_table, seat=1, points=-5),
        lambda: penalty_delete(penalty=penalty),
    ]
    for call in calls:
        with pytest.raises(UserError, match="reopen it"):
            call()
    table_reopen(table=closed_table)
    penalty_delete(penalty=penalty)
    game_delete(game=game)
    assert closed_table.games.count() == 1 and not closed_table.penalties.exists()
