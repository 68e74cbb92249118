"""The API tests' data: the rules §2 worked sheet, published, in a season (`played`), and
the league cast with its match day (`tests/tournaments/leagues/fixtures.py`)."""

import pytest

from tests.tournaments.leagues.fixtures import (  # noqa: F401 (fixtures: a league's match day, for the schema test)
    league,
    league_director,
    league_season,
    match_day,
    teams,
    venue_secretary,
    venue_secretary_2,
    zeitz,
)
from tournaments.models import Tournament
from tournaments.registry.services import season_create, tournament_update


@pytest.fixture
def played(tournament, worked_table, secretary):
    """The rules §2 worked sheet in a tournament of a league season, published."""
    season = season_create(club=tournament.club, name="Liga 2026")
    tournament_update(tournament=tournament, season=season, team_best_n=2)
    for index, seat in enumerate(worked_table.seats.select_related("player")):
        seat.player.team = "Altenburg I" if index < 2 else "Altenburg II"
        seat.player.category = "ladies" if index == 1 else ""
        seat.player.save()
    return Tournament.objects.get(pk=tournament.pk)
