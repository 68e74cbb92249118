"""`season_tables` read in a fixed number of queries gives what a plain computation from
each match day's `tournament_standings` gives, and its queries do not grow with the days.

The reference below is written independently of `leagues.selectors`: it reads each visible
day's standings (`tournament_standings`), the rosters, the series with games, the venues
and the confirmations one day at a time, and follows the rules as the module docstring of
`leagues.selectors` states them (rules §4; best n of a team; best n of m series; minimum
of series).
"""

from __future__ import annotations

import datetime
import random
import uuid
from collections import defaultdict
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import TournamentFactory
from tests.tournaments.leagues.seasons import club_season, league_days
from tournaments import permissions
from tournaments.demo import fill_table
from tournaments.draw.services import series_draw
from tournaments.entry.services import game_record_at_table, sheet_copy_record
from tournaments.leagues.selectors import day_standings, match_day_table, season_tables
from tournaments.models import Game, MatchDayConfirmation, RosterEntry, Seat, Series
from tournaments.registry.services import registration_add
from tournaments.sheets.services import penalty_record, table_close
from tournaments.standings.selectors import NO_LOT, team_standings, tournament_standings

pytestmark = pytest.mark.django_db


def reference(season, *, category=None, viewer=None) -> dict:
    """The season's tables, day by day from the tournament standings, as plain values."""
    days = [
        day
        for day in season.tournaments.order_by("date", "pk")
        if (day.published if viewer is None else permissions.can_view_tournament(viewer, day))
    ]
    roster = {
        e.player_id: (e.team.name, e.team.club.name)
        for e in RosterEntry.objects.filter(season=season).select_related("team__club")
    }
    team_club = dict(roster.values())
    teams = {name: [name, club, Fraction(0), Fraction(0), 0, {}] for name, club in roster.values()}
    series_of = defaultdict(list)  # player id → [(list points, won, lost)]
    players = {}
    day_tables = []
    for day in days:
        rows = tournament_standings(day)
        for row in rows:
            row.team = roster.get(row.player_id, (row.team, ""))[0]
        if not any(row.series for row in rows):
            continue
        confirmed = season.league_id is None or (
            MatchDayConfirmation.objects.filter(tournament=day).exists()
        )
        venue = {}
        for v in day.venues.order_by("pk"):
            for team in v.teams.all():
                venue[team.name] = v.name
        members = defaultdict(list)
        for row in rows:
            if row.team:
                members[row.team].append(row)
        best_n = season.teams_best_n or day.team_best_n
        totals = []
        for name, group in members.items():
            group.sort(
                key=lambda r: (
                    -r.list_points,
                    -r.won,
                    r.lost,
                    NO_LOT if r.lot is None else r.lot,
                    r.player_name.casefold(),
                )
            )
            counted = group[:best_n] if best_n else group
            totals.append(
                {
                    "team": name,
                    "club": team_club.get(name, group[0].club),
                    "venue": venue.get(name, ""),
                    "list_points": sum(r.list_points for r in counted),
                    "won": sum(r.won for r in counted),
                    "lost": sum(r.lost for r in counted),
                    "players": sum(1 for r in group if r.series),
                    "counted": len(counted),
                }
            )
        # Place p of n gets (n − p):(p − 1); equal points share the average of their places.
        n = len(totals)
        for total in totals:
            above = sum(1 for t in totals if t["list_points"] > total["list_points"])
            equal = sum(1 for t in totals if t["list_points"] == total["list_points"])
            places = range(above + 1, above + equal + 1)
            total["rank"] = above + 1
            total["match_points_won"] = Fraction(sum(n - p for p in places), equal)
            total["match_points_lost"] = Fraction(sum(p - 1 for p in places), equal)
        totals.sort(key=lambda t: (-t["list_points"], t["team"].casefold()))
        day_tables.append((day.slug, not confirmed, totals))
        if not confirmed:
            continue
        for total in totals:
            team = teams.setdefault(
                total["team"], [total["team"], total["club"], Fraction(0), Fraction(0), 0, {}]
            )
            team[2] += total["match_points_won"]
            team[3] += total["match_points_lost"]
            team[4] += total["list_points"]
            team[5][day.slug] = total["list_points"]
        with_games = set(
            Game.objects.filter(table__series__tournament=day).values_list(
                "table__series__number", flat=True
            )
        )
        for row in rows:
            if category and row.category != category:
                continue
            results = [r for number, r in row.series.items() if number in with_games]
            if not results:
                continue
            player = players.setdefault(
                row.player_id,
                {"name": row.player_name, "club": row.club, "team": row.team},
            )
            player["category"] = row.category
            player.setdefault("days", {})[day.slug] = sum(r.list_points for r in results)
            series_of[row.player_id] += [(r.list_points, r.won, r.lost) for r in results]
    for player_id, player in players.items():
        results = sorted(series_of[player_id], key=lambda r: (-r[0], -r[1], r[2]))
        counted = results[: season.best_series] if season.best_series else results
        player.update(
            played=len(results),
            counted=len(counted),
            list_points=sum(r[0] for r in counted),
            won=sum(r[1] for r in counted),
            lost=sum(r[2] for r in counted),
        )

    def player_key(p):
        return (-p["list_points"], -p["won"], p["lost"], p["name"].casefold())

    ranked = sorted(
        (p for p in players.values() if p["played"] >= season.min_series), key=player_key
    )
    unranked = sorted(
        (p for p in players.values() if p["played"] < season.min_series), key=player_key
    )
    for rank, player in enumerate(ranked, start=1):
        player["rank"] = rank
    for player in unranked:
        player["rank"] = None

    def team_key(t):
        return (-t[2], t[3], -t[4])

    team_rows = sorted(teams.values(), key=lambda t: (team_key(t), t[0].casefold()))
    ranks = []
    for index, team in enumerate(team_rows):
        same = index and team_key(team_rows[index - 1]) == team_key(team)
        ranks.append(ranks[-1] if same else index + 1)
    return {
        "days": [day.slug for day in days],
        "day_tables": [
            (
                slug,
                provisional,
                [
                    (
                        t["rank"],
                        t["team"],
                        t["club"],
                        t["venue"],
                        t["list_points"],
                        t["won"],
                        t["lost"],
                        t["players"],
                        t["counted"],
                        t["match_points_won"],
                        t["match_points_lost"],
                    )
                    for t in totals
                ],
            )
            for slug, provisional, totals in day_tables
        ],
        "teams": [
            (rank, name, club, won, lost, points, days)
            for rank, (name, club, won, lost, points, days) in zip(ranks, team_rows, strict=True)
        ],
        "players": [
            (
                p["rank"],
                p["name"],
                p["club"],
                p["team"],
                p["category"],
                p["played"],
                p["counted"],
                p["list_points"],
                p["won"],
                p["lost"],
                p["days"],
            )
            for p in ranked + unranked
        ],
    }


def computed(season, **kwargs) -> dict:
    """`season_tables` as the same plain values."""
    tables = season_tables(season, **kwargs)
    return {
        "days": [day.slug for day in tables.match_days],
        "day_tables": [
            (
                table.tournament.slug,
                table.provisional,
                [
                    (
                        t.rank,
                        t.team,
                        t.club,
                        t.venue,
                        t.list_points,
                        t.won,
                        t.lost,
                        t.players,
                        t.counted,
                        t.match_points_won,
                        t.match_points_lost,
                    )
                    for t in table.teams
                ],
            )
            for table in tables.day_tables
        ],
        "teams": [
            (
                t.rank,
                t.team,
                t.club,
                t.match_points_won,
                t.match_points_lost,
                t.list_points,
                {slug: day.list_points for slug, day in t.days.items()},
            )
            for t in tables.teams
        ],
        "players": [
            (
                p.rank,
                p.name,
                p.club,
                p.team,
                p.category,
                p.series_played,
                p.series_counted,
                p.list_points,
                p.won,
                p.lost,
                p.days,
            )
            for p in tables.players
        ],
    }


@pytest.fixture
def league_season_of(league_season, teams, league_director, club, zeitz):
    def make(count, *, start=0):
        league_days(
            league_season, teams, league_director, count=count, club=club, zeitz=zeitz, start=start
        )
        league_season.refresh_from_db()
        return league_season

    return make


@pytest.mark.parametrize("category", [None, "ladies"])
def test_league_season_tables_agree_with_the_day_by_day_computation(league_season_of, category):
    season = league_season_of(6)
    public = computed(season, category=category)
    assert public == reference(season, category=category)
    # What the generated season holds: a provisional day, a tie day, a hidden day, the
    # minimum of series, the best n of m series.
    assert public["days"] == ["liga-1", "liga-2", "liga-3", "liga-5", "liga-6"]
    provisional = [slug for slug, is_provisional, _t in public["day_tables"] if is_provisional]
    assert provisional == ["liga-2", "liga-5"]
    tie_day = {slug: teams for slug, _p, teams in public["day_tables"]}["liga-3"]
    assert {(t[0], t[9], t[10]) for t in tie_day} == {(1, Fraction(3, 2), Fraction(3, 2))}
    if category is None:
        assert any(p[0] is None for p in public["players"])
        assert any(p[5] > p[6] for p in public["players"])


def test_league_season_tables_for_who_manages_it_agree_too(league_season_of, league_director):
    season = league_season_of(6)
    seen = computed(season, viewer=league_director)
    assert seen == reference(season, viewer=league_director)
    assert "liga-4" in seen["days"]


@pytest.mark.parametrize("category", [None, "seniors"])
def test_club_season_tables_agree_with_the_day_by_day_computation(club, category):
    season, _days = club_season(club)
    tables = computed(season, category=category)
    assert tables == reference(season, category=category)
    assert tables["teams"]
    if category is None:
        assert any(p[0] is None for p in tables["players"])


@pytest.mark.parametrize("viewer", ["public", "director"])
def test_season_tables_queries_do_not_grow_with_the_match_days(
    league_season_of, league_director, django_assert_max_num_queries, viewer
):
    viewer = league_director if viewer == "director" else None
    season = league_season_of(2, start=2)  # a tie day and a day not published
    with CaptureQueriesContext(connection) as two_days:
        season_tables(season, viewer=viewer)
    league_season_of(2)
    season = league_season_of(2, start=4)  # six days: every kind of day
    assert season.tournaments.count() == 6
    with django_assert_max_num_queries(len(two_days.captured_queries)):
        tables = season_tables(season, viewer=viewer)
    assert len(tables.day_tables) == (6 if viewer else 5)


def test_a_match_day_and_its_tournament_team_table_sum_the_teams_alike(league_season_of):
    """One computation of a team's best n (`team_totals`): the match day's table and the
    tournament's team table show the same sums for the same day."""
    season = league_season_of(1)
    day = season.tournaments.get()
    table = match_day_table(day)
    teams = team_standings(day, best_n=season.teams_best_n, standings=day_standings(day))
    assert sorted((t.team, t.list_points, t.won, t.lost, t.counted) for t in teams) == sorted(
        (d.team, d.list_points, d.won, d.lost, d.counted) for d in table.teams
    )
    assert all(d.counted == season.teams_best_n for d in table.teams)


def test_a_series_counts_for_the_player_table_when_it_has_a_game(club):
    """The player table counts a series with a game stored at one of its tables: not a
    series drawn with no game (here with a fine at a table, which counts on the evening's
    standings all the same), and a series whose only game is disputed under double entry
    (its seats count no game yet) as one played."""
    season, days = club_season(club, evenings=2)
    evening = TournamentFactory(
        club=club,
        season=season,
        name="Clubabend 3",
        slug="clubabend-3",
        date=days[-1].date + datetime.timedelta(weeks=1),
        games_per_series_4=4,
        games_per_series_3=3,
        double_entry=True,
    )
    registration_add(tournament=evening, players=[r.player for r in days[0].registrations.all()])
    played = series_draw(tournament=evening, seed=1)
    for table in played.tables.all():
        fill_table(table, random.Random(table.number))
        table_close(table=table)
    drawn = series_draw(tournament=evening, seed=2)
    fined = drawn.tables.order_by("number").first().seats.get(number=1)
    penalty_record(table=fined.table, seat=1, points=-10)
    disputed = series_draw(tournament=evening, seed=3)
    table = disputed.tables.order_by("number").first()
    clubs = {"declarer": 3, "game": "clubs", "matadors": 1, "card_points": 70, "bid": 18}
    game_record_at_table(table=table, data=clubs, client_id=uuid.uuid4(), number=1)
    sheet_copy_record(
        table=table, data={**clubs, "card_points": 50}, client_id=uuid.uuid4(), number=1
    )
    assert not table.seats.filter(games_played__gt=0).exists()  # the row is disputed

    assert computed(season) == reference(season)
    tables = season_tables(season)
    evening_rows = {row.player_id: row for row in day_standings(evening)}
    standings = {row.player_id: row for row in tournament_standings(evening)}
    assert {k: r.list_points for k, r in evening_rows.items()} == {
        k: r.list_points for k, r in standings.items()
    }
    players = {row.player_id: row for row in tables.players}
    fine_day = players[fined.player_id].days[evening.slug]
    assert fine_day == evening_rows[fined.player_id].list_points + 10
    with_games = Series.objects.filter(tournament__season=season).exclude(pk=drawn.pk)
    for seat in table.seats.all():
        assert players[seat.player_id].series_played == (
            Seat.objects.filter(player_id=seat.player_id, series__in=with_games).count()
        )
