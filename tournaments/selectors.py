"""Every aggregating read: seat results, standings, score sheets, team and season tables.

The standings are built from four aggregate queries whatever the number of players (seats;
games summed per table and declarer; games summed per table; penalties per seat) and
combined here. The computed values come from the games as `services` stored them, so the
HTML tables, the PDFs, the Excel workbooks and the JSON all read the same figures.

Terms: *own* = the games a seat declared; *others' lost* = games lost by the other seats at
the same table (rules §2); *list points* = Seeger-Fabian points, or the plain game points
where list scoring is off or the rule set is `na`.
"""

from __future__ import annotations

import re as _re
import secrets as _secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.utils.translation import gettext

from tournaments.models import (
    Category,
    Game,
    GameChange,
    GameType,
    Payment,
    Penalty,
    Player,
    Prize,
    Registration,
    Seat,
    Series,
    SheetCopy,
    Table,
    Tournament,
)

# Tie-break order of rules §2 and interchange.md: list points desc, more won, fewer lost,
# the director's draw by lot, then the name.
TIE_BREAK = ("list_points desc", "won desc", "lost asc", "lot asc", "name asc")


@dataclass
class SeatLine:
    """One player's result at one table of one series."""

    seat_id: int
    series_number: int
    table_id: int
    table_number: int
    table_size: int
    seat: int
    player_id: int
    player_name: str
    game_points: int = 0
    won: int = 0
    lost: int = 0
    others_lost: int = 0
    list_points: int = 0
    penalties: int = 0
    games: int = 0
    provisional: bool = False  # games entered at the table, not yet confirmed


@dataclass
class SeriesResult:
    number: int
    list_points: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    table: int


@dataclass
class StandingRow:
    rank: int
    player_id: int
    player_name: str
    club: str
    team: str
    category: str
    list_points: int = 0
    game_points: int = 0
    won: int = 0
    lost: int = 0
    others_lost: int = 0
    lot: int | None = None
    series: dict[int, SeriesResult] = field(default_factory=dict)
    provisional: bool = False  # counts games entered at a table, not yet confirmed

    def sort_key(self):
        lot = self.lot if self.lot is not None else 1 << 30
        return (-self.list_points, -self.won, self.lost, lot, self.player_name.casefold())


def seat_lines(seats: QuerySet[Seat]) -> list[SeatLine]:
    """The results of the given seats, from a fixed number of aggregate queries."""
    lines = [
        SeatLine(
            seat_id=seat_id,
            series_number=series_number,
            table_id=table_id,
            table_number=table_number,
            table_size=table_size,
            seat=seat,
            player_id=player_id,
            player_name=player_name,
        )
        for (
            seat_id,
            series_number,
            table_id,
            table_number,
            table_size,
            seat,
            player_id,
            player_name,
        ) in seats.values_list(
            "id",
            "series__number",
            "table_id",
            "table__number",
            "table__size",
            "number",
            "player_id",
            "player__name",
        ).order_by("series__number", "table__number", "number")
    ]
    if not lines:
        return []
    table_ids = seats.values("table_id")
    # Double entry: a row the two copies disagree on counts nowhere until it is settled.
    disputed = disputed_games(table_ids)
    games = Game.objects.filter(table_id__in=table_ids).exclude(
        pk__in=[pk for pks in disputed.values() for pk in pks]
    )
    # One scan of the games, grouped by table and declarer: the declarer groups are the seats'
    # own figures, and their sum per table gives what the others at the table lost.
    own: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}
    per_table: dict[int, list[int]] = {}
    for table_id, declarer, n, won, lost, gp, lp, lo, provisional in (
        games.values("table_id", "declarer")
        .annotate(
            n=Count("id"),
            won=Count("id", filter=Q(is_won=True)),
            lost=Count("id", filter=Q(is_lost=True)),
            gp=Sum("score"),
            lp=Sum("list_declarer"),
            lo=Sum("list_others"),
            provisional=Count("id", filter=Q(provisional=True)),
        )
        .order_by()
        .values_list("table_id", "declarer", "n", "won", "lost", "gp", "lp", "lo", "provisional")
    ):
        lo = lo or 0
        if declarer is not None:
            own[table_id, declarer] = (gp or 0, won, lost, lp or 0, lo)
        table = per_table.setdefault(table_id, [0, 0, 0, 0])
        table[0] += lost
        table[1] += lo
        table[2] += n
        table[3] += provisional
    fines = {
        (r["table_id"], r["seat"]): r["p"]
        for r in Penalty.objects.filter(table_id__in=table_ids)
        .values("table_id", "seat")
        .annotate(p=Sum("points"))
        .order_by()
    }
    empty = (0, 0, 0, 0, 0)
    no_games = (0, 0, 0, 0)
    for line in lines:
        gp, won, lost, lp, lo = own.get((line.table_id, line.seat), empty)
        table_lost, table_lo, n, provisional = per_table.get(line.table_id, no_games)
        fine = fines.get((line.table_id, line.seat), 0)
        line.won = won
        line.lost = lost
        line.others_lost = table_lost - lost
        line.penalties = fine
        line.game_points = gp + fine
        line.list_points = lp + table_lo - lo + fine
        line.games = n
        line.provisional = bool(provisional) or line.table_id in disputed
    return lines


def _rank(rows: Iterable[StandingRow]) -> list[StandingRow]:
    ordered = sorted(rows, key=StandingRow.sort_key)
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
    return ordered


def tournament_standings(
    tournament: Tournament, *, category: str | None = None, up_to_series: int | None = None
) -> list[StandingRow]:
    """Total standings with one result per series; every registered player has a row."""
    registrations = Registration.objects.filter(tournament=tournament).order_by()
    if category:
        registrations = registrations.filter(player__category=category)
    rows: dict[int, StandingRow] = {}
    fields = ("player_id", "player__name", "player__club__name", "player__team")
    for reg in registrations.values(*fields, "player__category", "lot"):
        rows[reg["player_id"]] = StandingRow(
            rank=0,
            player_id=reg["player_id"],
            player_name=reg["player__name"],
            club=reg["player__club__name"] or "",
            team=reg["player__team"],
            category=reg["player__category"],
            lot=reg["lot"],
        )
    seats = Seat.objects.filter(series__tournament=tournament)
    if up_to_series is not None:
        seats = seats.filter(series__number__lte=up_to_series)
    if category:
        seats = seats.filter(player__category=category)
    lines = seat_lines(seats)
    # Seated but no longer registered: still counts (one query for all of them).
    unregistered = {line.player_id for line in lines} - rows.keys()
    for player in Player.objects.filter(pk__in=unregistered).select_related("club").order_by():
        rows[player.pk] = StandingRow(
            rank=0,
            player_id=player.pk,
            player_name=player.name,
            club=player.club.name if player.club else "",
            team=player.team,
            category=player.category,
        )
    for line in lines:
        row = rows[line.player_id]
        row.list_points += line.list_points
        row.game_points += line.game_points
        row.won += line.won
        row.lost += line.lost
        row.others_lost += line.others_lost
        row.provisional = row.provisional or line.provisional
        row.series[line.series_number] = SeriesResult(
            number=line.series_number,
            list_points=line.list_points,
            game_points=line.game_points,
            won=line.won,
            lost=line.lost,
            others_lost=line.others_lost,
            table=line.table_number,
        )
    return _rank(rows.values())


def tied_groups(standings: list[StandingRow]) -> list[list[StandingRow]]:
    """Players tied on list points, won and lost: only a draw by lot separates them (§2)."""
    groups: dict[tuple[int, int, int], list[StandingRow]] = defaultdict(list)
    for row in standings:
        if row.series:
            groups[(row.list_points, row.won, row.lost)].append(row)
    return [group for group in groups.values() if len(group) > 1]


def series_standings(series: Series, *, category: str | None = None) -> list[StandingRow]:
    """The standings of one series alone."""
    seats = Seat.objects.filter(series=series).select_related("player__club")
    if category:
        seats = seats.filter(player__category=category)
    players = {
        p.pk: p
        for p in Player.objects.filter(seats__series=series).select_related("club").order_by()
    }
    lots = dict(
        Registration.objects.filter(tournament_id=series.tournament_id).values_list(
            "player_id", "lot"
        )
    )
    rows = []
    for line in seat_lines(seats):
        p = players[line.player_id]
        rows.append(
            StandingRow(
                rank=0,
                player_id=p.pk,
                player_name=p.name,
                club=p.club.name if p.club else "",
                team=p.team,
                category=p.category,
                list_points=line.list_points,
                game_points=line.game_points,
                won=line.won,
                lost=line.lost,
                others_lost=line.others_lost,
                lot=lots.get(p.pk),
                provisional=line.provisional,
                series={
                    line.series_number: SeriesResult(
                        number=line.series_number,
                        list_points=line.list_points,
                        game_points=line.game_points,
                        won=line.won,
                        lost=line.lost,
                        others_lost=line.others_lost,
                        table=line.table_number,
                    )
                },
            )
        )
    return _rank(rows)


def table_seat_totals(table: Table) -> list[SeatLine]:
    return seat_lines(Seat.objects.filter(table=table))


# --------------------------------------------------------------------------------------
# Score sheets
# --------------------------------------------------------------------------------------


@dataclass
class SheetRow:
    number: int
    dealer: int
    game: Game | None
    # Running game points per seat after this row, as the paper list carries them.
    running: dict[int, int]
    # Double entry: the two copies disagree on this row; it does not count until settled.
    disputed: bool = False


@dataclass
class SeatSummary:
    """The Seeger-Fabian summary block at the foot of a DSkV list (rules §2)."""

    seat: int
    player_name: str
    player_id: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    won_bonus: int
    lost_bonus: int
    others_bonus: int
    penalties: int
    list_points: int


@dataclass
class Sheet:
    table: Table
    seats: list[Seat]
    rows: list[SheetRow]
    summary: list[SeatSummary]
    length: int
    list_scoring: bool
    others_bonus: int

    @property
    def provisional(self) -> bool:
        """Some rows were entered at the table and are not confirmed yet (or disputed)."""
        return any(row.disputed or (row.game and row.game.provisional) for row in self.rows)


def table_sheet(table: Table, *, blank_rows: bool = True) -> Sheet:
    """A table's sheet: each row with the running totals, and the summary block."""
    tournament = table.series.tournament
    seats = list(table.seats.select_related("player").order_by("number"))
    games = {
        g.number: g
        for g in table.games.annotate(
            changes_count=Count(
                "changes",
                # A confirmation changes only `provisional`: it is not a correction.
                filter=Q(changes__action="corrected") & ~Q(changes__diff__has_key="provisional"),
            )
        )
    }
    disputed = disputed_games([table.pk]).get(table.pk, set())
    length = max(tournament.games_per_series(table.size), max(games, default=0))
    running = dict.fromkeys(range(1, table.size + 1), 0)
    rows = []
    last = max(games, default=0)
    for number in range(1, (length if blank_rows else last) + 1):
        game = games.get(number)
        counts = game is not None and game.pk not in disputed
        if counts and game.declarer is not None:
            running[game.declarer] += game.score
        rows.append(
            SheetRow(
                number=number,
                dealer=table.dealer_of(number),
                game=game,
                running=dict(running) if game is not None else {},
                disputed=game is not None and not counts,
            )
        )
    lines = {line.seat: line for line in table_seat_totals(table)}
    others = tournament.bonus_others_4 if table.size == 4 else tournament.bonus_others_3
    list_scoring = tournament.uses_list_points
    summary = []
    for seat in seats:
        line = lines.get(seat.number)
        if line is None:
            continue
        summary.append(
            SeatSummary(
                seat=seat.number,
                player_name=seat.player.name,
                player_id=seat.player_id,
                game_points=line.game_points,
                won=line.won,
                lost=line.lost,
                others_lost=line.others_lost,
                won_bonus=tournament.bonus_won * line.won if list_scoring else 0,
                lost_bonus=-tournament.bonus_lost * line.lost if list_scoring else 0,
                others_bonus=others * line.others_lost if list_scoring else 0,
                penalties=line.penalties,
                list_points=line.list_points,
            )
        )
    return Sheet(
        table=table,
        seats=seats,
        rows=rows,
        summary=summary,
        length=tournament.games_per_series(table.size),
        list_scoring=list_scoring,
        others_bonus=others,
    )


# --------------------------------------------------------------------------------------
# Teams and league seasons
# --------------------------------------------------------------------------------------


@dataclass
class TeamRow:
    rank: int
    team: str
    members: list[StandingRow]
    counted: int
    list_points: int
    game_points: int
    won: int
    lost: int


def team_standings(
    tournament: Tournament, *, best_n: int | None = None, standings=None
) -> list[TeamRow]:
    """Teams ranked by the sum of their members' list points (or the best N; rules §4)."""
    if standings is None:
        standings = tournament_standings(tournament)
    if best_n is None:
        best_n = tournament.team_best_n
    by_team: dict[str, list[StandingRow]] = defaultdict(list)
    for row in standings:
        if row.team:
            by_team[row.team].append(row)
    teams = []
    for name, members in by_team.items():
        members.sort(key=StandingRow.sort_key)
        counted = members[:best_n] if best_n else members
        teams.append(
            TeamRow(
                rank=0,
                team=name,
                members=members,
                counted=len(counted),
                list_points=sum(m.list_points for m in counted),
                game_points=sum(m.game_points for m in counted),
                won=sum(m.won for m in counted),
                lost=sum(m.lost for m in counted),
            )
        )
    teams.sort(key=lambda t: (-t.list_points, -t.won, t.lost, t.team.casefold()))
    for rank, team in enumerate(teams, start=1):
        team.rank = rank
    return teams


@dataclass
class SeasonPlayerRow:
    rank: int
    player_id: int
    player_name: str
    club: str
    team: str
    category: str
    list_points: int
    won: int
    lost: int
    match_days: dict[int, int]  # tournament id → list points

    def sort_key(self):
        # The tournament ranking's keys (rules §2) without the lot, which is per tournament.
        return (-self.list_points, -self.won, self.lost, self.player_name.casefold())


@dataclass
class MatchDayTeam:
    """One team's result on one match day of a league season (rules §4)."""

    rank: int  # teams with equal points share a place: 1, 1, 3, 4
    team: str
    list_points: int
    match_points_won: Fraction
    match_points_lost: Fraction


@dataclass
class SeasonTeamRow:
    rank: int  # teams equal on every key of `sort_key` share a place
    team: str
    match_points_won: Fraction
    match_points_lost: Fraction
    list_points: int
    match_days: dict[int, MatchDayTeam]  # tournament id → the team's result that day

    def sort_key(self):
        # More match points won, fewer lost, more list points; the name only orders the
        # display of teams that share a place.
        return (-self.match_points_won, self.match_points_lost, -self.list_points)


@dataclass
class SeasonStandings:
    """A season's visible match days (date order), its player and its team table."""

    match_days: list[Tournament]
    players: list[SeasonPlayerRow]
    teams: list[SeasonTeamRow]
    day_teams: dict[int, list[MatchDayTeam]]  # tournament id → ranking; played days only

    def __iter__(self):
        # `match_days, players, teams = season_standings(season)` as callers always did.
        return iter((self.match_days, self.players, self.teams))

    @property
    def played_days(self) -> list[tuple[Tournament, list[MatchDayTeam]]]:
        return [
            (day, self.day_teams[day.pk]) for day in self.match_days if day.pk in self.day_teams
        ]


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


def _match_day_teams(day_teams: list[TeamRow]) -> list[MatchDayTeam]:
    """The match day's league points: teams rank by their points only, equal points share."""
    by_points: dict[int, list[TeamRow]] = defaultdict(list)
    for team in day_teams:
        by_points[team.list_points].append(team)
    results = []
    place = 1
    for points in sorted(by_points, reverse=True):
        group = sorted(by_points[points], key=lambda t: t.team.casefold())
        won, lost = match_day_points(place, len(day_teams), tied=len(group))
        results += [
            MatchDayTeam(
                rank=place,
                team=team.team,
                list_points=team.list_points,
                match_points_won=won,
                match_points_lost=lost,
            )
            for team in group
        ]
        place += len(group)
    return results


def season_standings(season, *, category: str | None = None, viewer=None) -> SeasonStandings:
    """Player and team tables of a league season over its match days (tournaments).

    Only the match days `viewer` may see count (published ones for the public, `None`).
    `category` filters the player table only: the teams always count all their members.
    """
    from tournaments import permissions

    match_days = [
        day
        for day in season.tournaments.select_related("club").order_by("date", "pk")
        if (day.published if viewer is None else permissions.can_view_tournament(viewer, day))
    ]
    players: dict[int, SeasonPlayerRow] = {}
    teams: dict[str, SeasonTeamRow] = {}
    day_results: dict[int, list[MatchDayTeam]] = {}
    for day in match_days:
        standings = tournament_standings(day)
        played = any(row.series for row in standings)
        for row in standings:
            if category and row.category != category:
                continue
            entry = players.get(row.player_id)
            if entry is None:
                entry = players[row.player_id] = SeasonPlayerRow(
                    rank=0,
                    player_id=row.player_id,
                    player_name=row.player_name,
                    club=row.club,
                    team=row.team,
                    category=row.category,
                    list_points=0,
                    won=0,
                    lost=0,
                    match_days={},
                )
            entry.list_points += row.list_points
            entry.won += row.won
            entry.lost += row.lost
            if played:
                entry.match_days[day.pk] = row.list_points
        if not played:
            continue  # a match day not yet played gives no league points
        day_teams = _match_day_teams(
            team_standings(day, best_n=season.teams_best_n or day.team_best_n, standings=standings)
        )
        if not day_teams:
            continue
        day_results[day.pk] = day_teams
        for result in day_teams:
            entry = teams.get(result.team)
            if entry is None:
                entry = teams[result.team] = SeasonTeamRow(
                    rank=0,
                    team=result.team,
                    match_points_won=Fraction(0),
                    match_points_lost=Fraction(0),
                    list_points=0,
                    match_days={},
                )
            entry.match_points_won += result.match_points_won
            entry.match_points_lost += result.match_points_lost
            entry.list_points += result.list_points
            entry.match_days[day.pk] = result
    player_rows = sorted(players.values(), key=SeasonPlayerRow.sort_key)
    for rank, row in enumerate(player_rows, start=1):
        row.rank = rank
    team_rows = sorted(teams.values(), key=lambda r: (r.sort_key(), r.team.casefold()))
    for index, row in enumerate(team_rows):
        before = team_rows[index - 1] if index else None
        row.rank = before.rank if before and before.sort_key() == row.sort_key() else index + 1
    return SeasonStandings(
        match_days=match_days, players=player_rows, teams=team_rows, day_teams=day_results
    )


# --------------------------------------------------------------------------------------
# Lists for the secretaries' pages
# --------------------------------------------------------------------------------------


def games_of_tournament(tournament: Tournament) -> QuerySet[Game]:
    """Every game of a tournament in sheet order, with its table and series."""
    return (
        Game.objects.filter(table__series__tournament=tournament)
        .select_related("table__series")
        .order_by("table__series__number", "table__number", "number")
    )


# --------------------------------------------------------------------------------------
# Player page
# --------------------------------------------------------------------------------------


@dataclass
class PlayerSeriesLine:
    tournament: Tournament
    line: SeatLine


@dataclass
class PlayerStatistics:
    history: list[PlayerSeriesLine]  # every visible seat, also one whose series is not begun
    tournaments: int  # visible tournaments the player is registered or seated in
    series_played: int  # series with at least one game at the player's table
    games_played: int  # games at the player's tables (at a 4-table also those dealt)
    games_declared: int
    won: int
    lost: int
    list_points: int
    average_list_points: float | None  # per series played
    by_type: list[tuple[str, str, int, int, int]]  # (game, label, declared, won, lost)

    @property
    def played(self) -> list[PlayerSeriesLine]:
        """The series with games: a seat in a series not yet begun is no result of 0."""
        return [h for h in self.history if h.line.games]


def player_statistics(player: Player, *, viewer=None) -> PlayerStatistics:
    """A player's series history and declared games by type, from the tournaments `viewer`
    may see (published ones for the public, `None`)."""
    from tournaments import permissions

    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(
            Q(series__seats__player=player) | Q(registrations__player=player)
        )
        .select_related("club")
        .distinct()
        if (t.published if viewer is None else permissions.can_view_tournament(viewer, t))
    }
    seats = Seat.objects.filter(player=player, series__tournament__in=list(tournaments))
    lines = seat_lines(seats)
    tournament_of = dict(seats.values_list("id", "series__tournament_id"))
    history = [
        PlayerSeriesLine(tournament=tournaments[tournament_of[line.seat_id]], line=line)
        for line in lines
    ]
    history.sort(key=lambda h: (h.tournament.date, h.tournament.pk, h.line.series_number))
    # Like the standings, a disputed row (double entry) counts nowhere until it is settled.
    disputed = disputed_games(seats.values("table_id"))
    own_games = (
        Game.objects.filter(table__seats__in=seats, declarer=F("table__seats__number"))
        .exclude(game__in=[GameType.PASSED, GameType.RAMSCH])
        .exclude(pk__in=[pk for pks in disputed.values() for pk in pks])
    )
    labels = dict(GameType.choices)
    by_type = [
        (r["game"], str(labels.get(r["game"], r["game"])), r["n"], r["won"], r["lost"])
        for r in own_games.values("game")
        .annotate(
            n=Count("id"),
            won=Count("id", filter=Q(is_won=True)),
            lost=Count("id", filter=Q(is_lost=True)),
        )
        .order_by("-n", "game")
    ]
    played = [h for h in history if h.line.games]
    played_points = sum(h.line.list_points for h in played)
    return PlayerStatistics(
        history=history,
        tournaments=len(tournaments),
        series_played=len(played),
        games_played=sum(h.line.games for h in history),
        games_declared=sum(t[2] for t in by_type),
        won=sum(h.line.won for h in history),
        lost=sum(h.line.lost for h in history),
        list_points=sum(h.line.list_points for h in history),
        average_list_points=round(played_points / len(played), 1) if played else None,
        by_type=by_type,
    )


def latest_games(tournament: Tournament, *, limit: int = 10) -> list[Game]:
    """The games entered last (by time of entry), with table, series and declarer's name."""
    games = list(
        Game.objects.filter(table__series__tournament=tournament)
        .select_related("table__series")
        .order_by("-created", "-pk")[:limit]
    )
    names = {
        (s.table_id, s.number): s.player.name
        for s in Seat.objects.filter(table_id__in={g.table_id for g in games}).select_related(
            "player"
        )
    }
    for game in games:
        game.declarer_name = names.get((game.table_id, game.declarer), "")
    return games


# --------------------------------------------------------------------------------------
# Table-side entry: provisional results, the two copies of a sheet
# --------------------------------------------------------------------------------------

# (table entry selectors go here)
#
# Terms: a table's *link* is its private address for entry on a phone; the *first copy* of
# a sheet is its games (keyed by the first list keeper, a secretary or the director), the
# *second copy* the second keeper's `SheetCopy` under double entry. Rules for counting:
# - A provisional game (keyed on a phone, not yet confirmed) counts in the standings and
#   the sheet's totals, and marks its players' rows `provisional`.
# - Under double entry a game whose row the second copy has *differently* is *disputed*,
#   whoever keyed the first copy (a phone, or the secretary's screen): it counts nowhere
#   (standings, sheet totals) until the director chooses a version. A row the second keeper
#   has not reached yet is not disputed, only provisional.
# - A game confirmed (`services.sheet_confirm`, which needs both copies to agree) is final:
#   a later difference from the second copy changes nothing. A game keyed on the
#   secretary's screen is never provisional, but it is not confirmed either: it is compared.


_TOKEN = _re.compile(r"[A-Za-z0-9_-]{16,64}")


def entry_link(token: str) -> tuple[Table, int] | None:
    """The table a private link opens and whose list keeper it is (1, or 2 under double
    entry); None for an unknown, revoked or malformed link."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return None
    table = (
        Table.objects.select_related("series__tournament__club")
        .filter(Q(entry_token=token) | Q(entry_token_2=token))
        .first()
    )
    if table is None:
        return None
    if table.entry_token and _secrets.compare_digest(table.entry_token, token):
        return table, 1
    second = table.entry_token_2
    if second and table.series.tournament.double_entry and _secrets.compare_digest(second, token):
        return table, 2
    return None


def _mapping_of(game: Game) -> dict:
    from tournaments.services import game_mapping_of

    return game_mapping_of(game)


def disputed_games(table_ids) -> dict[int, set[int]]:
    """table id → ids of its disputed games (double entry; see the terms above).

    Two queries at most, whatever the number of tables: the second copies, then the
    unconfirmed games of the tables that have one.
    """
    copies = {
        table_id: {row["number"]: row for row in rows}
        for table_id, rows in SheetCopy.objects.filter(
            table_id__in=table_ids, table__series__tournament__double_entry=True
        ).values_list("table_id", "rows")
        if rows
    }
    if not copies:
        return {}
    disputed: dict[int, set[int]] = defaultdict(set)
    for game in _unconfirmed(Game.objects.filter(table_id__in=list(copies))):
        row = copies[game.table_id].get(game.number)
        if row is not None and row.get("data") != _mapping_of(game):
            disputed[game.table_id].add(game.pk)
    return dict(disputed)


def _unconfirmed(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games not yet final under double entry: all but those a confirmation made final
    (its history entry changes only `provisional`)."""
    confirmed = GameChange.objects.filter(game=OuterRef("pk"), diff__has_key="provisional")
    return games.exclude(Exists(confirmed))


@dataclass
class CopyRow:
    """One row of a sheet under double entry: the game and the second copy's row."""

    number: int
    dealer: int
    first: dict | None  # the game as a game mapping
    second: dict | None  # the second copy's game mapping
    first_game: Game | None
    # The second copy's row as an unsaved, computed Game (None if the engine now rejects it).
    second_game: Game | None
    confirmed: bool = False  # the game was confirmed: final, whatever the second copy says

    @property
    def equal(self) -> bool:
        return self.first == self.second

    @property
    def provisional(self) -> bool:
        """Not final yet: no game, a phone's provisional game, or a game keyed on the
        secretary's screen that no confirmation has made final."""
        return self.first_game is None or not self.confirmed

    @property
    def unsettled(self) -> bool:
        """The copies differ on a row that is not yet final: confirming must wait."""
        return not self.equal and self.provisional

    @property
    def disputed(self) -> bool:
        """Both copies have the row, differently: it does not count."""
        return self.unsettled and self.first is not None and self.second is not None

    @property
    def sides(self) -> list[tuple[str, Game | None, dict | None]]:
        return [("first", self.first_game, self.first), ("second", self.second_game, self.second)]


def _build(table: Table, number: int, data: dict) -> Game | None:
    from tournaments.errors import UserError
    from tournaments.services import game_build

    try:
        return game_build(table=table, number=number, data=data)
    except UserError:
        return None


def sheet_copies_compare(table: Table) -> list[CopyRow]:
    """Both copies of a sheet row by row (as far as the longer one goes)."""
    games = {game.number: game for game in table.games.all()}
    open_ids = set(_unconfirmed(table.games.all()).values_list("pk", flat=True))
    copy = SheetCopy.objects.filter(table=table).first()
    second = {row["number"]: row["data"] for row in (copy.rows if copy else [])}
    rows = []
    for number in range(1, max([*games, *second], default=0) + 1):
        game = games.get(number)
        data = second.get(number)
        rows.append(
            CopyRow(
                number=number,
                dealer=table.dealer_of(number),
                first=_mapping_of(game) if game is not None else None,
                second=data,
                first_game=game,
                second_game=_build(table, number, data) if data is not None else None,
                confirmed=game is not None and game.pk not in open_ids,
            )
        )
    return rows


def copy_sheet(table: Table) -> Sheet:
    """The second keeper's copy laid out as a sheet: running totals and the summary block,
    computed from its rows as `seat_lines` computes them from games (rules §2)."""
    tournament = table.series.tournament
    seats = list(table.seats.select_related("player").order_by("number"))
    copy = SheetCopy.objects.filter(table=table).first()
    games = [
        (row["number"], _build(table, row["number"], row["data"]))
        for row in (copy.rows if copy else [])
    ]
    running = dict.fromkeys(range(1, table.size + 1), 0)
    rows = []
    for number, game in games:
        if game is not None and game.declarer is not None:
            running[game.declarer] += game.score
        rows.append(
            SheetRow(
                number=number, dealer=table.dealer_of(number), game=game, running=dict(running)
            )
        )
    counted = [game for _number, game in games if game is not None]
    lost_at_table = sum(1 for g in counted if g.is_lost)
    others_at_table = sum(g.list_others for g in counted)
    fines: dict[int, int] = defaultdict(int)
    for seat, points in table.penalties.values_list("seat", "points"):
        fines[seat] += points
    list_scoring = tournament.uses_list_points
    others = tournament.bonus_others_4 if table.size == 4 else tournament.bonus_others_3
    summary = []
    for seat in seats:
        own = [g for g in counted if g.declarer == seat.number]
        won = sum(1 for g in own if g.is_won)
        lost = sum(1 for g in own if g.is_lost)
        fine = fines[seat.number]
        summary.append(
            SeatSummary(
                seat=seat.number,
                player_name=seat.player.name,
                player_id=seat.player_id,
                game_points=sum(g.score for g in own) + fine,
                won=won,
                lost=lost,
                others_lost=lost_at_table - lost,
                won_bonus=tournament.bonus_won * won if list_scoring else 0,
                lost_bonus=-tournament.bonus_lost * lost if list_scoring else 0,
                others_bonus=others * (lost_at_table - lost) if list_scoring else 0,
                penalties=fine,
                list_points=sum(g.list_declarer for g in own)
                + others_at_table
                - sum(g.list_others for g in own)
                + fine,
            )
        )
    return Sheet(
        table=table,
        seats=seats,
        rows=rows,
        summary=summary,
        length=tournament.games_per_series(table.size),
        list_scoring=list_scoring,
        others_bonus=others,
    )


def provisional_counts(tables) -> dict[int, int]:
    """table id → how many of its games are provisional (one query)."""
    return dict(
        Game.objects.filter(table__in=tables, provisional=True)
        .values("table_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("table_id", "n")
    )


# --------------------------------------------------------------------------------------
# Money: what each player owes, paid and won; the cash summary
# --------------------------------------------------------------------------------------

# (money selectors go here)
#
# Definitions (rules §4 "Money"; shown on the money page and the prize list as well):
# - *Fees due* per player: the entry fee, the table (card) fee × the series the player was
#   seated in, and the lost-game fees of each series from the games actually entered
#   (`SeatLine.lost`: the games the player declared and lost, overbid included, provisional
#   rows included). Tiered: with `lost_game_fee_from` = k, lost games 1 … k−1 of a series
#   cost `lost_game_fee` and every further one `lost_game_fee_high`.
# - *Pot* = every registered player's entry fee + every lost-game fee. The table fees stay
#   with the club. A share prize is share % × pot in whole cents, shared out by the
#   largest-remainder method (`shares_of_pot`, the only place where money is rounded): the
#   shares never add up to more than their part of the pot; *remainder* = pot − the whole
#   prize plan (the club's part of the pot; negative when the plan promises more than the
#   pot holds).
# - Only players who played (at least one series) win prizes; a prize's rank counts them.
# - *Prize winners* are the players at the prize's rank of its ranking (overall standings,
#   one series, or one category's standings) once that ranking has games entered; a rank
#   beyond the number of players has no winner. One player can win several prizes (overall
#   and ladies, say): each is listed and paid on its own.
# - *Payments* are stored signed from the cash box's view: fees paid in are positive, prize
#   payouts and refunds negative (`services.payment_record` takes positive amounts and signs
#   them by kind). *Balance* = fees due − fees paid (net of refunds) − prizes not yet paid
#   out: positive, the player still owes the club; negative, the club owes the player.
# Amounts are `Decimal` with two places throughout; payments are summed in Python, not in
# SQL, so that no database turns them into floats on the way.


CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def cents(value) -> Decimal:
    """`value` (a Decimal, an int or a numeric string, never a float) with two places."""
    if isinstance(value, float):
        raise TypeError("money is kept in Decimals, never in floats")
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def lost_game_fees(tournament: Tournament, lost: int) -> Decimal:
    """The fee for `lost` lost games in one series (flat, or tiered from the k-th game on)."""
    fee = cents(tournament.lost_game_fee or 0)
    start = tournament.lost_game_fee_from
    if start is None or tournament.lost_game_fee_high is None:
        return lost * fee
    high = cents(tournament.lost_game_fee_high)
    return min(lost, start - 1) * fee + max(0, lost - start + 1) * high


def shares_of_pot(shares: Sequence[Decimal], pot: Decimal) -> list[Decimal]:
    """The pot shared out in whole cents by the largest-remainder method, in order.

    Each share first gets its exact part rounded down to the cent; the cents left over go
    one each to the largest remainders, and on equal remainders to the earlier share (the
    higher-placed prize: pass the shares in rank order). So the shares never add up to more
    than their part of the pot, and a plan of 100 % pays out exactly the pot.
    """
    pot_cents = int(cents(pot) / CENT)
    exact = [cents(share) * pot_cents / 100 for share in shares]
    whole = [int(e.to_integral_value(rounding=ROUND_FLOOR)) for e in exact]
    total = cents(sum((cents(s) for s in shares), ZERO))
    # The cents the whole plan's shares are owed together, rounded down (never above).
    owed = int((total * pot_cents / 100).to_integral_value(rounding=ROUND_FLOOR))
    left = max(0, owed - sum(whole))
    order = sorted(range(len(shares)), key=lambda i: (-(exact[i] - whole[i]), i))
    for i in order[:left]:
        whole[i] += 1
    return [Decimal(c) * CENT for c in whole]


SCOPE_ORDER = {Prize.Scope.OVERALL: 0, Prize.Scope.SERIES: 1, Prize.Scope.CATEGORY: 2}
CATEGORY_ORDER = {value: index for index, value in enumerate(Category.values)}


@dataclass
class PrizeLine:
    """One line of the prize plan: its amount in cents and, once games are in, its winner."""

    prize_id: int
    scope: str
    series_number: int
    category: str
    rank: int
    amount: Decimal
    share: Decimal | None = None  # % of the pot; None for a fixed amount
    player_id: int | None = None
    player_name: str = ""
    registration_id: int | None = None
    points: int | None = None  # the winner's points in that ranking

    @property
    def ranking(self) -> tuple[str, int, str]:
        return (self.scope, self.series_number, self.category)

    @property
    def sort_key(self):
        return (
            SCOPE_ORDER.get(self.scope, 9),
            self.series_number,
            CATEGORY_ORDER.get(self.category, 99),
            self.rank,
        )

    @property
    def ranking_label(self) -> str:
        return ranking_label(self.scope, self.series_number, self.category)

    @property
    def title(self) -> str:
        """The rank and the ranking: 1. Overall, 2. Ladies, 1. Series 3."""
        return f"{self.rank}. {self.ranking_label}"

    @property
    def awarded(self) -> bool:
        return self.player_id is not None


def ranking_label(scope: str, series_number: int, category: str) -> str:
    """The ranking's name in the active language: overall, series n, or the category."""
    if scope == Prize.Scope.SERIES:
        return gettext("Series %(number)s") % {"number": series_number}
    if scope == Prize.Scope.CATEGORY:
        return str(Category(category).label) if category in Category.values else category
    return gettext("Overall")


@dataclass
class MoneyRow:
    """One registered player's money: fees due, payments, prizes, balance."""

    registration_id: int
    player_id: int
    player_name: str
    club: str
    category: str
    series_played: int = 0
    lost_games: int = 0
    lost_by_series: dict[int, int] = field(default_factory=dict)
    entry_fee: Decimal = ZERO
    table_fees: Decimal = ZERO
    lost_game_fees: Decimal = ZERO
    paid_in: Decimal = ZERO  # fees paid (payments of kind "fees")
    refunded: Decimal = ZERO  # paid back to the player (a positive figure)
    prizes_paid: Decimal = ZERO  # prize money handed out (a positive figure)
    prizes: list[PrizeLine] = field(default_factory=list)

    @property
    def total_due(self) -> Decimal:
        return self.entry_fee + self.table_fees + self.lost_game_fees

    @property
    def paid(self) -> Decimal:
        """Fees paid, net of refunds."""
        return self.paid_in - self.refunded

    @property
    def prizes_won(self) -> Decimal:
        return sum((p.amount for p in self.prizes), ZERO)

    @property
    def fees_open(self) -> Decimal:
        """Fees still to pay (negative: paid too much)."""
        return self.total_due - self.paid

    @property
    def prizes_open(self) -> Decimal:
        return self.prizes_won - self.prizes_paid

    @property
    def balance(self) -> Decimal:
        """Positive: the player owes the club; negative: the club owes the player."""
        return self.fees_open - self.prizes_open

    @property
    def next_payment(self) -> tuple[str, Decimal]:
        """The payment the desk most likely records next (kind, positive amount)."""
        if self.fees_open > 0:
            return Payment.Kind.FEES, self.fees_open
        if self.prizes_open > 0:
            return Payment.Kind.PRIZE, self.prizes_open
        if self.fees_open < 0:
            return Payment.Kind.REFUND, -self.fees_open
        return Payment.Kind.FEES, ZERO


@dataclass
class CashSummary:
    """The director's cash summary; every figure is a sum of the players' rows.

    Identities (tested): outstanding − prizes_to_pay = Σ balances, and
    cash + Σ balances = total_due − prizes_won = what the club keeps once all is settled.
    """

    lost_games: int
    entry_fees: Decimal
    table_fees: Decimal
    lost_game_fees: Decimal
    total_due: Decimal
    paid_in: Decimal
    refunds: Decimal
    outstanding: Decimal
    prizes_won: Decimal
    prizes_paid: Decimal
    prizes_to_pay: Decimal
    cash: Decimal
    balance: Decimal
    club_keeps: Decimal

    @property
    def paid(self) -> Decimal:
        """Fees paid, net of refunds."""
        return self.paid_in - self.refunds


@dataclass
class TournamentMoney:
    tournament: Tournament
    rows: list[MoneyRow]
    prizes: list[PrizeLine]
    pot: Decimal
    prizes_planned: Decimal
    shares_total: Decimal
    summary: CashSummary

    @property
    def remainder(self) -> Decimal:
        """pot − the whole prize plan: the club's part of the pot (negative: a warning)."""
        return self.pot - self.prizes_planned

    @property
    def unawarded(self) -> Decimal:
        return sum((p.amount for p in self.prizes if not p.awarded), ZERO)

    @property
    def has_money(self) -> bool:
        t = self.tournament
        fees = (t.entry_fee, t.table_fee, t.lost_game_fee, t.lost_game_fee_high or 0)
        return bool(self.prizes) or any(cents(f) != 0 for f in fees)

    def prize_groups(self) -> list[tuple[str, list[PrizeLine]]]:
        """The prize lines by ranking (overall, each series, each category), in rank order."""
        groups: dict[tuple, list[PrizeLine]] = {}
        for line in self.prizes:
            groups.setdefault(line.ranking, []).append(line)
        return [(lines[0].ranking_label, lines) for lines in groups.values()]

    def row_of(self, registration_id: int) -> MoneyRow | None:
        return next((r for r in self.rows if r.registration_id == registration_id), None)


def _award(lines: list[PrizeLine], standings: list[StandingRow], registration_of: dict):
    # Only players who played (a series result) win: a registered no-show has a row with 0
    # points that would rank above every negative score. Ranks count the players who played.
    played = [row for row in standings if row.series]
    by_rank = dict(enumerate(played, start=1))
    for line in lines:
        row = by_rank.get(line.rank)
        if row is not None:
            line.player_id = row.player_id
            line.player_name = row.player_name
            line.registration_id = registration_of.get(row.player_id)
            line.points = row.list_points


def tournament_money(tournament: Tournament) -> TournamentMoney:
    """Every player's money, the prize plan with its winners, the pot and the cash summary.

    A fixed number of queries for the players (the standings' aggregates, the payments, the
    prizes), plus the standings of each series and category that the prize plan names.
    """
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by()
    )
    registration_of = {r.player_id: r.pk for r in registrations}
    standings = tournament_standings(tournament)
    results = {row.player_id: row for row in standings}
    entry_fee = cents(tournament.entry_fee or 0)
    table_fee = cents(tournament.table_fee or 0)
    rows = []
    for reg in registrations:
        player = reg.player
        row = MoneyRow(
            registration_id=reg.pk,
            player_id=player.pk,
            player_name=player.name,
            club=player.club.name if player.club else "",
            category=player.category,
            entry_fee=entry_fee,
        )
        result = results.get(player.pk)
        if result is not None:
            row.lost_by_series = {n: s.lost for n, s in sorted(result.series.items())}
            row.series_played = len(result.series)
            row.lost_games = sum(row.lost_by_series.values())
            row.table_fees = table_fee * row.series_played
            row.lost_game_fees = sum(
                (lost_game_fees(tournament, n) for n in row.lost_by_series.values()), ZERO
            )
        rows.append(row)
    rows.sort(key=lambda r: (r.player_name.casefold(), r.registration_id))
    by_registration = {r.registration_id: r for r in rows}
    for registration_id, kind, amount in Payment.objects.filter(
        registration__tournament=tournament
    ).values_list("registration_id", "kind", "amount"):
        row = by_registration[registration_id]
        amount = cents(amount)
        if kind == Payment.Kind.FEES:
            row.paid_in += amount
        elif kind == Payment.Kind.REFUND:
            row.refunded -= amount
        else:
            row.prizes_paid -= amount

    entry_total = sum((r.entry_fee for r in rows), ZERO)
    lost_total = sum((r.lost_game_fees for r in rows), ZERO)
    pot = entry_total + lost_total
    lines = [
        PrizeLine(
            prize_id=p.pk,
            scope=p.scope,
            series_number=p.series_number,
            category=p.category,
            rank=p.rank,
            amount=cents(p.amount) if p.share is None else ZERO,
            share=None if p.share is None else cents(p.share),
        )
        for p in Prize.objects.filter(tournament=tournament)
    ]
    lines.sort(key=lambda line: line.sort_key)
    shared = [line for line in lines if line.share is not None]
    for line, amount in zip(shared, shares_of_pot([x.share for x in shared], pot), strict=True):
        line.amount = amount
    played = dict(
        Game.objects.filter(table__series__tournament=tournament)
        .values_list("table__series__number")
        .annotate(n=Count("id"))
        .order_by()
    )
    rankings: dict[tuple, list[PrizeLine]] = {}
    for line in lines:
        rankings.setdefault(line.ranking, []).append(line)
    for (scope, number, category), group in rankings.items():
        if scope == Prize.Scope.SERIES:
            if not played.get(number):
                continue
            series = Series.objects.get(tournament=tournament, number=number)
            _award(group, series_standings(series), registration_of)
        elif played:
            if scope == Prize.Scope.CATEGORY:
                _award(group, tournament_standings(tournament, category=category), registration_of)
            else:
                _award(group, standings, registration_of)
    for line in lines:
        if line.registration_id in by_registration:
            by_registration[line.registration_id].prizes.append(line)

    def total(attribute: str) -> Decimal:
        return sum((getattr(r, attribute) for r in rows), ZERO)

    total_due = total("total_due")
    paid_in, refunds = total("paid_in"), total("refunded")
    prizes_won, prizes_paid = total("prizes_won"), total("prizes_paid")
    summary = CashSummary(
        lost_games=sum(r.lost_games for r in rows),
        entry_fees=entry_total,
        table_fees=total("table_fees"),
        lost_game_fees=lost_total,
        total_due=total_due,
        paid_in=paid_in,
        refunds=refunds,
        outstanding=total_due - paid_in + refunds,
        prizes_won=prizes_won,
        prizes_paid=prizes_paid,
        prizes_to_pay=prizes_won - prizes_paid,
        cash=paid_in - refunds - prizes_paid,
        balance=total("balance"),
        club_keeps=total_due - prizes_won,
    )
    return TournamentMoney(
        tournament=tournament,
        rows=rows,
        prizes=lines,
        pot=pot,
        prizes_planned=sum((line.amount for line in lines), ZERO),
        shares_total=sum((line.share for line in lines if line.share is not None), ZERO),
        summary=summary,
    )
