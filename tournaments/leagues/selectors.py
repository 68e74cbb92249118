"""Reads of leagues and seasons: the match-day table across venues, the season's team table
and player table, and their JSON form (the archive of a closed season, the standings
command). `season_tables` is the one computation of a season's figures: the club's season
page, the league's tables page, the API, the season workbook and PDF, the standings
command and the archive at closing all read it.

Terms:
- a season's *team of a player* is the roster's (`RosterEntry`, `roster_teams`); a player
  on no roster keeps the text on the player (a club season of today's free-text teams);
- a match day *counts* for the season tables when it is visible to the viewer and, in a
  league season, confirmed by a league director; a played match day not yet confirmed is
  shown as *provisional* and does not count;
- match-day points (rules §4): the teams of a match day rank by their list points (each
  team's best `teams_best_n` players, else all: `standings.selectors.team_totals`), across
  all its venues, and place p of n gets (n − p):(p − 1), equal points sharing
  (`match_day_points`);
- the team table orders by `TEAM_ORDER`, the player table by `PLAYER_ORDER` (both read
  by `order_key` alone; `PLAYER_ORDER` also picks which series are a player's best); a
  player with fewer than `min_series` series is listed after the ranked players, without
  a rank, and only the best `best_series` series count.

A season is read in a fixed number of queries, whatever its number of match days
(`_season_reads`): each player's sums of a day over the seats' stored totals
(`sheets.totals`), summed by the database (`leagues.sql`), the registrations, the rosters,
venues and confirmations of all its days at once, and where only the best series count,
each player's best series (`leagues.sql.best_series`); each day's standings are then ranked
in Python by the functions `tournament_standings` uses. Nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from fractions import Fraction

from tournaments import permissions
from tournaments.collation import alpha_key
from tournaments.formats import public_name
from tournaments.leagues.sql import (
    SERIES_FIGURES,
    best_series,
    day_totals,
    registrations,
    venue_teams,
)
from tournaments.models import (
    Player,
    Season,
    Tournament,
)
from tournaments.standings.selectors import (
    RosterTeam,
    StandingRow,
    json_text,
    rank_standings,
    registered_rows,
    roster_teams,
    team_totals,
    unregistered_rows,
)

TEAM_ORDER = ("match_points_won desc", "match_points_lost asc", "list_points desc")
PLAYER_ORDER = ("list_points desc", "won desc", "lost asc", "name asc")


def order_key(row, order: tuple[str, ...]) -> tuple:
    """`row`'s sort key in `order` ("field desc" or "field asc" each): the one reading of
    `TEAM_ORDER` and `PLAYER_ORDER`, so that no table keeps its own copy of them. Numbers
    descend by their negative; text ascends the German way (`alpha_key`: Öztürk before
    Zimmermann)."""
    key = []
    for term in order:
        name, direction = term.split()
        value = getattr(row, name)
        if isinstance(value, str):
            if direction != "asc":
                raise ValueError(f"text orders ascending only: {term!r}")
            value = alpha_key(value)
        elif direction == "desc":
            value = -value
        key.append(value)
    return tuple(key)


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
    # The day's player standings, each player with their team of the season and the day's
    # list points, won and lost, which rank them (not the series one by one, nor game
    # points; None: read from a closed season's archive, which keeps the teams' results
    # only).
    standings: list[StandingRow] | None = field(default=None, repr=False)

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
        return order_key(self, TEAM_ORDER)


@dataclass
class PlayerRow:
    rank: int | None  # None: fewer series than the season's minimum
    player_id: int | None  # None: read from the archive of a closed season
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
    listed: bool = True  # `Player.listed` (a closed season's archive: as when it closed)

    @property
    def name_by_initials(self) -> str:
        """The name a public output that shows initials shows (`formats.public_name`),
        by which such a table sorts its names."""
        return public_name(self.name, listed=self.listed, initials=True)

    @property
    def series(self) -> str:
        """The series as every output shows them: "14", or "10/14" where only the best 10
        of 14 count."""
        if self.series_counted == self.series_played:
            return str(self.series_played)
        return f"{self.series_counted}/{self.series_played}"

    def sort_key(self):
        return order_key(self, PLAYER_ORDER)


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


def match_day_points(rank: int, teams: int, *, tied: int = 1) -> tuple[Fraction, Fraction]:
    """League points of a match day for the team(s) at place `rank` of `teams` teams.

    Rules §4 gives four teams 3:0, 2:1, 1:2, 0:3: each team beats every team placed below
    it. We apply that to any number of teams, so place r of n gets (n − r):(r − 1).
    `tied` teams with equal points occupy places rank … rank + tied − 1 and share them:
    each gets the average, e.g. two teams tied for first of four get 2½:½ each.
    """
    places = range(rank, rank + tied)
    return (
        Fraction(sum(teams - place for place in places), tied),
        Fraction(sum(place - 1 for place in places), tied),
    )


@dataclass(slots=True)
class _Seated:
    """A player seated on one match day: the series with a game among their seats, and
    those series' sums (what the player table counts)."""

    series: int
    list_points: int
    won: int
    lost: int


@dataclass
class _SeasonReads:
    """What a season's tables are computed from, read for all its days at once."""

    teams: dict[int, RosterTeam]
    standings: dict[int, list[StandingRow]]  # day id → ranked rows, with season teams
    seated: dict[int, dict[int, _Seated]]  # day id → player id → the player's seats
    venue_of: dict[int, dict[str, str]]  # day id → team name → venue name
    confirmed: set[int]  # ids of the confirmed days


def _season_reads(season: Season, days: list[Tournament]) -> _SeasonReads:
    """Four queries whatever the number of days: registrations, each player's sums per
    day (`leagues.sql.day_totals`), rosters and venues, and a fifth where some players are
    seated but no longer registered; the confirmations come with the days
    (`visible_days`). Each day's rows hold the
    list points, won and lost `tournament_standings(day)` gives its players (not their
    series one by one), ranked by the same function, but for the team, which is the
    roster's where the player is on one."""
    ids = [day.pk for day in days]
    registered: dict[int, list[tuple]] = defaultdict(list)
    for day_id, *registration in registrations(ids):
        registered[day_id].append(registration)
    totals = day_totals(ids)
    rows = {day_id: registered_rows(registered[day_id]) for day_id in ids}
    missing = {total[1] for total in totals if total[1] not in rows[total[0]]}
    unregistered = unregistered_rows(Player.objects.filter(pk__in=missing)) if missing else {}
    seated: dict[int, dict[int, _Seated]] = {day_id: {} for day_id in ids}
    for day_id, player_id, *figures in totals:
        row = rows[day_id].get(player_id)
        if row is None:  # a fresh row per day: rows are added to
            row = rows[day_id][player_id] = _copy_empty(unregistered[player_id])
        row.list_points, row.won, row.lost, seats, *without_game = figures
        seated[day_id][player_id] = _Seated(
            seats - without_game[0],
            row.list_points - without_game[1],
            row.won - without_game[2],
            row.lost - without_game[3],
        )
    teams = roster_teams(season.pk)
    standings = {
        day_id: _with_season_teams(rank_standings(rows[day_id].values()), teams) for day_id in ids
    }
    venue_of: dict[int, dict[str, str]] = defaultdict(dict)
    for day_id, venue, team in venue_teams(ids):
        venue_of[day_id][team] = venue
    # Read with the days (`visible_days`), or one query per day read without it.
    confirmed = {day.pk for day in days if hasattr(day, "confirmation")}
    return _SeasonReads(
        teams=teams,
        standings=standings,
        seated=seated,
        venue_of=venue_of,
        confirmed=confirmed,
    )


def _copy_empty(row: StandingRow) -> StandingRow:
    return StandingRow(
        rank=0,
        player_id=row.player_id,
        player_name=row.player_name,
        club=row.club,
        team=row.team,
        category=row.category,
        player_listed=row.player_listed,
    )


def _with_season_teams(standings: list[StandingRow], teams: dict[int, RosterTeam]):
    for row in standings:
        if row.player_id in teams:
            row.team = teams[row.player_id].name
    return standings


def _day_table(day: Tournament, season: Season, reads: _SeasonReads) -> DayTable:
    """All teams of a match day ranked across its venues (rules §4)."""
    standings = reads.standings[day.pk]
    seated = reads.seated.get(day.pk, {})
    venue_of = reads.venue_of.get(day.pk, {})
    clubs = {team.name: team.club for team in reads.teams.values()}
    totals = team_totals(standings, best_n=season.teams_best_n or day.team_best_n)
    by_points: dict[int, list] = defaultdict(list)
    for total in totals:
        by_points[total.list_points].append(total)
    results, place = [], 1
    for points in sorted(by_points, reverse=True):
        group = sorted(by_points[points], key=lambda t: alpha_key(t.team))
        won, lost = match_day_points(place, len(totals), tied=len(group))
        results += [
            DayTeam(
                rank=place,
                team=total.team,
                club=clubs.get(total.team, total.members[0].club),
                venue=venue_of.get(total.team, ""),
                list_points=total.list_points,
                won=total.won,
                lost=total.lost,
                players=sum(1 for m in total.members if m.player_id in seated),
                counted=total.counted,
                match_points_won=won,
                match_points_lost=lost,
            )
            for total in group
        ]
        place += len(group)
    # A club season has no director to confirm: a played club evening counts as it is.
    return DayTable(
        tournament=day,
        teams=results,
        confirmed=day.pk in reads.confirmed or season.league_id is None,
        played=bool(seated),
        standings=standings,
    )


def match_day_table(day: Tournament) -> DayTable:
    """A match day's table across its venues, as the season's tables count it."""
    season = day.season
    return _day_table(day, season, _season_reads(season, [day]))


def day_standings(day: Tournament) -> list[StandingRow]:
    """A match day's player standings, each player with their team of the season."""
    return match_day_table(day).standings


def visible_days(season: Season, *, viewer=None, live: bool = False) -> list[Tournament]:
    """The season's match days in date order that `viewer` may see (published ones for
    the public, None; `permissions.visible_tournaments`); `live`: every one."""
    days = season.tournaments.select_related("club", "confirmation").order_by("date", "pk")
    return list(days if live else permissions.visible_tournaments(viewer, days))


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
    days = visible_days(season, viewer=viewer, live=live)
    reads = _season_reads(season, days)
    return _season_tables(season, days, reads, category=category)


def _season_tables(
    season: Season, days: list[Tournament], reads: _SeasonReads, *, category: str | None
) -> SeasonTables:
    team_rows: dict[str, TeamRow] = {
        name: _team_row(name, club)
        for name, club in sorted({(t.name, t.club) for t in reads.teams.values()})
    }
    players: dict[int, PlayerRow] = {}
    day_tables = []
    for day in days:
        table = _day_table(day, season, reads)
        if not table.played:
            continue
        day_tables.append(table)
        if table.provisional:
            continue
        for result in table.teams:
            row = team_rows.get(result.team)
            if row is None:
                row = team_rows[result.team] = _team_row(result.team, result.club)
            row.match_points_won += result.match_points_won
            row.match_points_lost += result.match_points_lost
            row.list_points += result.list_points
            row.days[day.slug] = result
        seated = reads.seated[day.pk]
        for standing in table.standings:
            if category and standing.category != category:
                continue
            played = seated.get(standing.player_id)
            if played is None or not played.series:
                continue
            player = players.get(standing.player_id)
            if player is None:
                player = players[standing.player_id] = PlayerRow(
                    rank=None,
                    player_id=standing.player_id,
                    name=standing.player_name,
                    listed=standing.player_listed,
                    club=standing.club,
                    team=standing.team,
                    category=standing.category,
                    series_played=0,
                    series_counted=0,
                    list_points=0,
                    won=0,
                    lost=0,
                )
            player.days[day.slug] = played.list_points
            player.series_played += played.series
            player.list_points += played.list_points
            player.won += played.won
            player.lost += played.lost
    for player in players.values():
        player.series_counted = player.series_played
    if season.best_series and players:
        counted = [table.tournament.pk for table in day_tables if not table.provisional]
        # The player table's order without the name: which series count.
        figures = tuple(t for t in PLAYER_ORDER if t.split()[0] in SERIES_FIGURES)
        best = best_series(counted, season.best_series, order=figures)
        for player_id, player in players.items():
            (
                player.series_counted,
                player.list_points,
                player.won,
                player.lost,
            ) = best[player_id]
    return SeasonTables(
        season=season,
        match_days=days,
        day_tables=day_tables,
        teams=_rank_teams(team_rows.values()),
        players=_rank_players(players.values(), season.min_series),
    )


def _team_row(name: str, club: str) -> TeamRow:
    return TeamRow(
        rank=0,
        team=name,
        club=club,
        match_points_won=Fraction(0),
        match_points_lost=Fraction(0),
        list_points=0,
    )


def _rank_teams(rows) -> list[TeamRow]:
    ordered = sorted(rows, key=lambda r: (r.sort_key(), alpha_key(r.team)))
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
                "club": json_text(row.club),
                "team": json_text(row.team),
                "category": row.category,
                "series_played": row.series_played,
                "series_counted": row.series_counted,
                "list_points": row.list_points,
                "won": row.won,
                "lost": row.lost,
                "days": row.days,
                # Only for a player not listed publicly (`Player.listed`): the archive of a
                # closed season keeps the flag as it was then.
                **({} if row.listed else {"listed": False}),
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
            player_id=None,
            name=row["player"],
            # Archives written before null: "" (the rows' form for none).
            club=row["club"] or "",
            team=row["team"] or "",
            category=row["category"],
            series_played=row["series_played"],
            series_counted=row["series_counted"],
            list_points=row["list_points"],
            won=row["won"],
            lost=row["lost"],
            days=row["days"],
            listed=row.get("listed", True),
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
