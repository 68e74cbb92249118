"""The tournament's version: every write to a sheet counts one more, and each game row
remembers the version it was last written at (the live feed's "changed since")."""

import uuid

import pytest

from tests.tournaments.helpers import GRAND
from tournaments.entry.services import game_record_at_table, sheet_confirm
from tournaments.errors import UserError
from tournaments.models import Game, Tournament
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_record,
)


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def test_every_sheet_write_bumps_the_version_once(table):
    tournament = table.series.tournament
    start = version(tournament)
    first = game_record(table=table, data=GRAND)
    assert version(tournament) == start + 1 == Game.objects.get(pk=first.pk).version
    second = game_record(table=table, data={**GRAND, "declarer": 3})  # seat 2 deals game 2
    assert version(tournament) == start + 2 == second.version
    game_correct(game=first, data={**GRAND, "card_points": 50})
    assert version(tournament) == start + 3 == Game.objects.get(pk=first.pk).version
    # An unchanged correction is no write.
    game_correct(game=first, data={**GRAND, "card_points": 50})
    assert version(tournament) == start + 3
    penalty = penalty_record(table=table, seat=1, points=-10, reason="misdeal")
    assert version(tournament) == start + 4
    penalty_delete(penalty=penalty)
    game_delete(game=second)
    assert version(tournament) == start + 6


def test_a_phone_row_and_its_confirmation_carry_new_versions(table):
    tournament = table.series.tournament
    game, created = game_record_at_table(table=table, data=GRAND, client_id=uuid.uuid4())
    assert created and game.version == version(tournament)
    sheet_confirm(table=table)
    assert Game.objects.get(pk=game.pk).version == version(tournament) == game.version + 1


def test_a_refused_write_bumps_nothing(table):
    tournament = table.series.tournament
    start = version(tournament)
    with pytest.raises(UserError):
        game_record(table=table, data={**GRAND, "card_points": 130})
    assert version(tournament) == start
