"""tournaments/games.py, the bridge to the rules engine: recomputing the stored scores."""

import pytest

from tests.tournaments.helpers import GRAND
from tournaments.games import scores_recompute
from tournaments.models import Game
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


def test_recompute_rebuilds_tampered_values(table):
    game_record(table=table, data=GRAND)
    Game.objects.update(value=1, score=1, list_declarer=1)
    assert scores_recompute() == 1
    game = Game.objects.get()
    assert (game.value, game.score, game.list_declarer) == (72, 72, 122)
