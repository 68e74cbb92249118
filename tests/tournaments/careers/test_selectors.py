"""A player's career and head to head (`careers.selectors`) on the hand-built history of
`history.py`: the figures there are worked out by hand."""

import pytest

from tests.tournaments.careers.history import build_history, seat_table
from tests.tournaments.leagues.helpers import play_series
from tournaments.careers.selectors import (
    head_to_head,
    player_career,
    scaled_48,
    scaled_average,
)
from tournaments.leagues.selectors import season_tables
from tournaments.leagues.services import match_day_confirm, season_close
from tournaments.models import Player, Seat
from tournaments.standings.selectors import tournament_standings


@pytest.fixture
def history(club):
    return build_history(club)


@pytest.mark.parametrize(
    ("points", "games", "scaled"),
    [
        (900, 48, 900.0),  # a 4-table's series of 48 games counts as it is
        (900, 36, 1200.0),  # a 3-table's 36 games: × 48 / 36
        (-90, 36, -120.0),
        (500, 24, 1000.0),  # a sheet closed short after 24 games
        (100, 36, 133.3),  # rounded to one decimal
        (0, 0, None),  # no game: no figure
    ],
)
def test_a_series_scales_to_48_games(points, games, scaled):
    assert scaled_48(points, games) == scaled


def test_the_career_of_two_clubs_tournaments_and_tables_of_three_and_four(history):
    career = player_career(history.p)
    assert career.clubs == ["Skatfreunde Altenburg", "Skatclub Zeitz"]
    # Newest first; the draft is not the public's; only the finished one has a place.
    assert [
        (t.tournament.name, t.place, t.players, len(t.series), t.list_points)
        for t in career.tournaments
    ] == [("Mai", None, None, 1, 720), ("Frühjahr", 2, 4, 2, 1800)]
    assert [
        (s.tournament.name, s.line.series_number, s.place, s.at_table, s.scaled)
        for s in career.series
    ] == [
        ("Frühjahr", 1, 2, 4, 900.0),
        ("Frühjahr", 2, 1, 3, 1200.0),  # tied with Q: both first
        ("Mai", 1, 1, 3, 960.0),
    ]
    assert career.average == 1020.0
    assert [(y.year, y.series, y.average) for y in career.years] == [
        (2026, 1, 960.0),
        (2025, 2, 1050.0),
    ]
    assert [(f.scaled, f.moving) for f in career.form] == [
        (900.0, 900.0),
        (1200.0, 1050.0),
        (960.0, 1020.0),
    ]
    assert [(m.name, m.tables) for m in career.mates] == [
        ("Quirin Quast", 3),
        ("Rita Roth", 3),
        ("Sven Sauer", 1),
    ]


def test_the_final_place_is_the_tournaments_standings(history):
    career = player_career(history.q)
    ranked = {row.player_id: row for row in tournament_standings(history.spring)}
    spring = next(t for t in career.tournaments if t.tournament == history.spring)
    assert (spring.place, spring.players) == (ranked[history.q.pk].rank, len(ranked)) == (1, 4)


def test_the_secretary_sees_the_draft_tournament_too(history, secretary):
    career = player_career(history.p, viewer=secretary)
    names = [t.tournament.name for t in career.tournaments]
    assert names == ["Geheim", "Mai", "Frühjahr"]
    secret = career.tournaments[0]
    # Sven Sauer sits there without a registration: still in the standings (3 players).
    assert (secret.place, secret.players) == (1, 3)
    assert career.average == round((900 + 1200 + 960 + 2000 * 48 / 36) / 4, 1)


def test_head_to_head_counts_above_tied_and_below_apart(history, secretary):
    h2h = head_to_head(history.p, history.q)
    assert (h2h.together, h2h.above, h2h.tied, h2h.below) == (3, 1, 1, 1)
    assert [(m.tournament.name, m.series_number, m.outcome) for m in h2h.meetings] == [
        ("Mai", 1, "above"),
        ("Frühjahr", 2, "tied"),
        ("Frühjahr", 1, "below"),
    ]
    back = head_to_head(history.q, history.p)
    assert (back.together, back.above, back.tied, back.below) == (3, 1, 1, 1)
    assert [m.outcome for m in back.meetings] == ["below", "tied", "above"]
    # The draft counts for who may see it.
    seen = head_to_head(history.p, history.q, viewer=secretary)
    assert (seen.together, seen.above) == (4, 2)


def test_a_table_without_a_game_is_no_meeting(history):
    seat_table(history.may, 2, [(history.p, 0), (history.s, 0), (history.r, 0)], 0)
    # Only series 1 of "Frühjahr" (P 900, S 300): Mai's series 2 has no game yet.
    h2h = head_to_head(history.p, history.s)
    assert [(m.tournament.name, m.points, m.other_points) for m in h2h.meetings] == [
        ("Frühjahr", 900, 300)
    ]
    career = player_career(history.p)
    assert career.series[-1].place is None and career.series[-1].scaled is None
    assert career.average == 1020.0  # a series not begun does not lower the average


def test_the_average_is_over_series_with_games():
    assert scaled_average([]) is None


def test_a_season_is_its_player_tables_row(match_day, league_director):
    play_series(match_day)
    play_series(match_day, seed=8)
    match_day_confirm(tournament=match_day, user=league_director)
    tables = season_tables(match_day.season)
    for row in tables.players[:3]:
        player = Seat.objects.filter(player_id=row.player_id).first().player
        (season,) = player_career(player).seasons
        assert season.season == match_day.season
        assert (season.rank, season.list_points, season.team, season.series) == (
            row.rank,
            row.list_points,
            row.team,
            row.series,
        )
        assert season.players == len(tables.players)


def test_a_closed_seasons_row_is_read_from_its_archive(match_day, league_director):
    play_series(match_day)
    match_day_confirm(tournament=match_day, user=league_director)
    season = season_close(season=match_day.season, user=league_director)
    (row, *_rest) = season_tables(season).players
    assert row.player_id is None  # the archive keeps names
    player = Player.objects.get(name=row.name)
    (found,) = player_career(player).seasons
    assert (found.rank, found.list_points, found.team) == (row.rank, row.list_points, row.team)
