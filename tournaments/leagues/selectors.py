"""Reads of leagues and seasons: the match-day table across venues, the season's team table
and player table, and their JSON form (the archive of a closed season, the standings
command).

Terms:
- a season's *team of a player* is the roster's (`RosterEntry`); a player on no roster
  keeps the text on the player (a club season of today's free-text teams);
- a match day *counts* for the season tables when it is visible to the viewer and, in a
  league season, confirmed by a league director; a played match day not yet confirmed is
  shown as *provisional* and does not count;
- match-day points (rules §4): the teams of a match day rank by their list points (each
  team's best `teams_best_n` players, else all), across all its venues, and place p of n
  gets (n − p):(p − 1), equal points sharing (`standings.selectors.match_day_points`);
- the team table orders by `TEAM_ORDER`, the player table by `PLAYER_ORDER`; a player
  with fewer than `min_series` series is listed after the ranked players, without a rank,
  and only the best `best_series` series count.
Nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from fractions import Fraction

from tournaments import permissions
from tournaments.models import Game, MatchDayConfirmation, RosterEntry, Season, Tournament
from tournaments.standings.selectors import StandingRow, match_day_points, tournament_standings

TEAM_ORDER = ("match_points_won desc", "match_points_lost asc", "list_points desc")
PLAYER_ORDER = ("list_points desc", "won desc", "lost asc", "name asc")


@dataclass
class DayTeam:
    """One team's result on one match day."""

    rank: int  # equal list points share a place: 1, 1, 3
    team: str
    club: str
    venue: str
    list_points: int
    won: int
    lost: int
    players: int  # members who played
    counted: int  # members whose points count (the best n)
    match_points_won: Fraction
    match_points_lost: Fraction


@dataclass
class DayTable:
    tournament: Tournament
    teams: list[DayTeam]
    confirmed: bool
    played: bool

    @property
    def provisional(self) -> bool:
        return self.played and not self.confirmed


@dataclass
class TeamRow:
    rank: int  # teams equal on every key of TEAM_ORDER share a place
    team: str
    club: str
    match_points_won: Fraction
    match_points_lost: Fraction
    list_points: int
    days: dict[str, DayTeam] = field(default_factory=dict)  # tournament slug → result

    def sort_key(self):
        return (-self.match_points_won, self.match_points_lost, -self.list_points)


@dataclass
class PlayerRow:
    rank: int | None  # None: fewer series than the season's minimum
    player_id: int
    name: str
    club: str
    team: str
    category: str
    series_played: int
    series_counted: int
    list_points: int  # of the counted series
    won: int
    lost: int
    days: dict[str, int] = field(default_factory=dict)  # tournament slug → list points

    def sort_key(self):
        return (-self.list_points, -self.won, self.lost, self.name.casefold())


@dataclass
class SeasonTables:
    season: Season
    match_days: list[Tournament]  # visible, date order
    day_tables: list[DayTable]  # played days (counted and provisional)
    teams: list[TeamRow]
    players: list[PlayerRow]
    archived: bool = False  # read from the archive of a closed season

    @property
    def counted_days(self) -> list[Tournament]:
        return [t.tournament for t in self.day_tables if not t.provisional]


def team_of_players(season: Season) -> dict[int, tuple[str, str]]:
    """Player → (team name, team club) from the season's rosters."""
    return {
        player_id: (team, club)
        for player_id, team, club in RosterEntry.objects.filter(season=season).values_list(
            "player_id", "team__name", "team__club__name"
        )
    }


def _with_season_teams(standings: list[StandingRow], teams: dict[int, tuple[str, str]]):
    for row in standings:
        if row.player_id in teams:
            row.team = teams[row.player_id][0]
    return standings


def day_standings(day: Tournament) -> list[StandingRow]:
    """A match day's player standings, each player with their team of the season."""
    return _with_season_teams(tournament_standings(day), team_of_players(day.season))


def match_day_table(
    day: Tournament, *, season: Season | None = None, standings=None, teams=None
) -> DayTable:
    """All teams of a match day ranked across its venues (rules §4)."""
    season = season or day.season
    if teams is None:
        teams = team_of_players(season)
    if standings is None:
        standings = _with_season_teams(tournament_standings(day), teams)
    best_n = season.teams_best_n or day.team_best_n
    venue_of = {
        team: venue
        for venue, team in day.venues.values_list("name", "teams__name")
        if team is not None
    }
    clubs = dict(teams.values())
    members: dict[str, list[StandingRow]] = defaultdict(list)
    for row in standings:
        if row.team:
            members[row.team].append(row)
    totals = []
    for name, rows in members.items():
        rows.sort(key=StandingRow.sort_key)
        counted = rows[:best_n] if best_n else rows
        totals.append(
            (
                name,
                sum(r.list_points for r in counted),
                sum(r.won for r in counted),
                sum(r.lost for r in counted),
                sum(1 for r in rows if r.series),
                len(counted),
                clubs.get(name, rows[0].club),
            )
        )
    by_points: dict[int, list[tuple]] = defaultdict(list)
    for total in totals:
        by_points[total[1]].append(total)
    results, place = [], 1
    for points in sorted(by_points, reverse=True):
        group = sorted(by_points[points], key=lambda t: t[0].casefold())
        won, lost = match_day_points(place, len(totals), tied=len(group))
        results += [
            DayTeam(
                rank=place,
                team=name,
                club=club,
                venue=venue_of.get(name, ""),
                list_points=list_points,
                won=games_won,
                lost=games_lost,
                players=played,
                counted=counted,
                match_points_won=won,
                match_points_lost=lost,
            )
            for name, list_points, games_won, games_lost, played, counted, club in group
        ]
        place += len(group)
    confirmed = MatchDayConfirmation.objects.filter(tournament=day).exists()
    played = any(row.series for row in standings)
    # A club season has no director to confirm: a played club evening counts as it is.
    return DayTable(
        tournament=day,
        teams=results,
        confirmed=confirmed or season.league_id is None,
        played=played,
    )


def _played_series(day: Tournament) -> set[int]:
    return set(
        Game.objects.filter(table__series__tournament=day)
        .values_list("table__series__number", flat=True)
        .distinct()
    )


def season_tables(
    season: Season,
    *,
    category: str | None = None,
    viewer=None,
    live: bool = False,
) -> SeasonTables:
    """The season's match-day tables, team table and player table.

    A closed season reads its archive unless `live`. Only the match days `viewer` may see
    count (published ones for the public, None); `live` counts every match day (closing).
    `category` filters the player table only.
    """
    if season.is_closed and season.archive and not live:
        return tables_from_json(season, season.archive, category=category)
    days = [
        day
        for day in season.tournaments.select_related("club").order_by("date", "pk")
        if live
        or (day.published if viewer is None else permissions.can_view_tournament(viewer, day))
    ]
    teams = team_of_players(season)
    team_rows: dict[str, TeamRow] = {
        name: TeamRow(
            rank=0,
            team=name,
            club=club,
            match_points_won=Fraction(0),
            match_points_lost=Fraction(0),
            list_points=0,
        )
        for name, club in sorted(set(teams.values()))
    }
    players: dict[int, PlayerRow] = {}
    series_points: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    day_tables = []
    for day in days:
        standings = _with_season_teams(tournament_standings(day), teams)
        table = match_day_table(day, season=season, standings=standings, teams=teams)
        if not table.played:
            continue
        day_tables.append(table)
        if table.provisional:
            continue
        for result in table.teams:
            row = team_rows.get(result.team)
            if row is None:
                row = team_rows[result.team] = TeamRow(
                    rank=0,
                    team=result.team,
                    club=result.club,
                    match_points_won=Fraction(0),
                    match_points_lost=Fraction(0),
                    list_points=0,
                )
            row.match_points_won += result.match_points_won
            row.match_points_lost += result.match_points_lost
            row.list_points += result.list_points
            row.days[day.slug] = result
        played = _played_series(day)
        for standing in standings:
            if category and standing.category != category:
                continue
            results = [r for number, r in standing.series.items() if number in played]
            if not results:
                continue
            player = players.get(standing.player_id)
            if player is None:
                player = players[standing.player_id] = PlayerRow(
                    rank=None,
                    player_id=standing.player_id,
                    name=standing.player_name,
                    club=standing.club,
                    team=standing.team,
                    category=standing.category,
                    series_played=0,
                    series_counted=0,
                    list_points=0,
                    won=0,
                    lost=0,
                )
            player.days[day.slug] = sum(r.list_points for r in results)
            series_points[standing.player_id] += [(r.list_points, r.won, r.lost) for r in results]
    for player_id, player in players.items():
        results = sorted(series_points[player_id], key=lambda r: (-r[0], -r[1], r[2]))
        counted = results[: season.best_series] if season.best_series else results
        player.series_played = len(results)
        player.series_counted = len(counted)
        player.list_points = sum(r[0] for r in counted)
        player.won = sum(r[1] for r in counted)
        player.lost = sum(r[2] for r in counted)
    return SeasonTables(
        season=season,
        match_days=days,
        day_tables=day_tables,
        teams=_rank_teams(team_rows.values()),
        players=_rank_players(players.values(), season.min_series),
    )


def _rank_teams(rows) -> list[TeamRow]:
    ordered = sorted(rows, key=lambda r: (r.sort_key(), r.team.casefold()))
    for index, row in enumerate(ordered):
        before = ordered[index - 1] if index else None
        row.rank = before.rank if before and before.sort_key() == row.sort_key() else index + 1
    return ordered


def _rank_players(rows, min_series: int) -> list[PlayerRow]:
    ranked = sorted((r for r in rows if r.series_played >= min_series), key=PlayerRow.sort_key)
    for rank, row in enumerate(ranked, start=1):
        row.rank = rank
    unranked = sorted((r for r in rows if r.series_played < min_series), key=PlayerRow.sort_key)
    for row in unranked:
        row.rank = None
    return ranked + unranked


# --------------------------------------------------------------------------------------
# JSON: the archive of a closed season and `manage.py standings --season`
# --------------------------------------------------------------------------------------


def _points(value: Fraction) -> int | float:
    """Match points as JSON numbers: whole numbers as ints, halves as floats (exact)."""
    return int(value) if value.denominator == 1 else float(value)


def tables_json(tables: SeasonTables) -> dict:
    """The season's tables as plain JSON (key order fixed, match points as numbers)."""

    def day_team(result: DayTeam) -> dict:
        data = asdict(result)
        data["match_points_won"] = _points(result.match_points_won)
        data["match_points_lost"] = _points(result.match_points_lost)
        return data

    return {
        "season": tables.season.slug,
        "match_days": [
            {
                "slug": table.tournament.slug,
                "name": table.tournament.name,
                "date": table.tournament.date.isoformat(),
                "provisional": table.provisional,
                "teams": [day_team(result) for result in table.teams],
            }
            for table in tables.day_tables
        ],
        "teams": [
            {
                "rank": row.rank,
                "team": row.team,
                "club": row.club,
                "match_points_won": _points(row.match_points_won),
                "match_points_lost": _points(row.match_points_lost),
                "list_points": row.list_points,
            }
            for row in tables.teams
        ],
        "players": [
            {
                "rank": row.rank,
                "player": row.name,
                "club": row.club,
                "team": row.team,
                "category": row.category,
                "series_played": row.series_played,
                "series_counted": row.series_counted,
                "list_points": row.list_points,
                "won": row.won,
                "lost": row.lost,
                "days": row.days,
            }
            for row in tables.players
        ],
    }


def _fraction(value) -> Fraction:
    return Fraction(value).limit_denominator(1000)


def tables_from_json(season: Season, data: dict, *, category: str | None = None) -> SeasonTables:
    """A closed season's tables from its archive (the same figures as when it closed)."""
    days = {t.slug: t for t in season.tournaments.order_by("date", "pk")}
    day_tables = []
    for entry in data["match_days"]:
        day = days.get(entry["slug"])
        if day is None:
            continue
        teams = [
            DayTeam(
                **{
                    **result,
                    "match_points_won": _fraction(result["match_points_won"]),
                    "match_points_lost": _fraction(result["match_points_lost"]),
                }
            )
            for result in entry["teams"]
        ]
        day_tables.append(
            DayTable(tournament=day, teams=teams, confirmed=not entry["provisional"], played=True)
        )
    by_team: dict[str, dict[str, DayTeam]] = defaultdict(dict)
    for table in day_tables:
        for result in table.teams:
            by_team[result.team][table.tournament.slug] = result
    teams = [
        TeamRow(
            rank=row["rank"],
            team=row["team"],
            club=row["club"],
            match_points_won=_fraction(row["match_points_won"]),
            match_points_lost=_fraction(row["match_points_lost"]),
            list_points=row["list_points"],
            days=by_team[row["team"]],
        )
        for row in data["teams"]
    ]
    players = [
        PlayerRow(
            rank=row["rank"],
            player_id=0,
            name=row["player"],
            club=row["club"],
            team=row["team"],
            category=row["category"],
            series_played=row["series_played"],
            series_counted=row["series_counted"],
            list_points=row["list_points"],
            won=row["won"],
            lost=row["lost"],
            days=row["days"],
        )
        for row in data["players"]
        if not category or row["category"] == category
    ]
    if category:
        # The archive ranks everyone; a category ranks its own players again.
        players = _rank_players(players, season.min_series)
    return SeasonTables(
        season=season,
        match_days=list(days.values()),
        day_tables=day_tables,
        teams=teams,
        players=players,
        archived=True,
    )
