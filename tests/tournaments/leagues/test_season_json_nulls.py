"""A player without a team (or club) is null in every JSON answer, as standings.json has
it (interchange.md "Standings JSON"): the API's season tables and player, and the season
tables' JSON (`tables_json`: the standings command, the archive of a closed season), which
reads back as the rows' "" (issue 27, leftover e)."""

import pytest

from tests.factories import PlayerFactory
from tests.tournaments.leagues.helpers import play_series
from tournaments.leagues.selectors import season_tables, tables_from_json, tables_json
from tournaments.registry.services import registration_add, season_create, tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club, tournament):
    season = season_create(club=club, name="Jahreswertung 2026", slug="jahreswertung-2026")
    tournament_update(tournament=tournament, season=season, published=True)
    players = [PlayerFactory(club=club, name=f"Spieler {n}") for n in range(3)]
    players[0].team = "Altenburg I"
    players[0].save()
    registration_add(tournament=tournament, players=players)
    play_series(tournament)
    return season


def test_a_missing_team_is_null_in_every_json_answer(client, season, tournament):
    answer = client.get(f"/api/v1/seasons/{season.slug}").json()
    teams = {row["player"]: row["team"] for row in answer["players"]}
    assert teams == {"Spieler 0": "Altenburg I", "Spieler 1": None, "Spieler 2": None}
    standings = client.get(f"/t/{tournament.slug}/standings.json").json()
    assert {row["player"]: row["team"] for row in standings} == teams
    player = tournament.registrations.get(player__name="Spieler 1").player
    assert client.get(f"/api/v1/players/{player.pk}").json()["team"] is None
    written = tables_json(season_tables(season))
    assert {row["player"]: row["team"] for row in written["players"]} == teams


def test_a_closed_seasons_archive_reads_back_the_rows_blank(season):
    written = tables_json(season_tables(season))
    rows = tables_from_json(season, written).players
    assert sorted(row.team for row in rows) == ["", "", "Altenburg I"]
