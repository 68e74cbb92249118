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

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, F, Q, QuerySet, Sum

from tournaments.models import (
    Game,
    GameType,
    Penalty,
    Player,
    Registration,
    Seat,
    Series,
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

    def sort_key(self):
        lot = self.lot if self.lot is not None else 1 << 30
        return (-self.list_points, -self.won, self.lost, lot, self.player_name.casefold())


def seat_lines(seats: QuerySet[Seat]) -> list[SeatLine]:
    """The results of the given seats, from a fixed number of aggregate queries."""
    rows = list(
        seats.values(
            "id",
            "series__number",
            "table_id",
            "table__number",
            "table__size",
            "number",
            "player_id",
            "player__name",
        ).order_by("series__number", "table__number", "number")
    )
    if not rows:
        return []
    lines = [
        SeatLine(
            seat_id=r["id"],
            series_number=r["series__number"],
            table_id=r["table_id"],
            table_number=r["table__number"],
            table_size=r["table__size"],
            seat=r["number"],
            player_id=r["player_id"],
            player_name=r["player__name"],
        )
        for r in rows
    ]
    table_ids = seats.values("table_id")
    games = Game.objects.filter(table_id__in=table_ids)
    own = {
        (r["table_id"], r["declarer"]): r
        for r in games.exclude(declarer=None)
        .values("table_id", "declarer")
        .annotate(
            gp=Sum("score"),
            won=Count("id", filter=Q(is_won=True)),
            lost=Count("id", filter=Q(is_lost=True)),
            lp=Sum("list_declarer"),
            lo=Sum("list_others"),
        )
        .order_by()
    }
    per_table = {
        r["table_id"]: r
        for r in games.values("table_id")
        .annotate(lost=Count("id", filter=Q(is_lost=True)), lo=Sum("list_others"), n=Count("id"))
        .order_by()
    }
    fines = {
        (r["table_id"], r["seat"]): r["p"]
        for r in Penalty.objects.filter(table_id__in=table_ids)
        .values("table_id", "seat")
        .annotate(p=Sum("points"))
        .order_by()
    }
    empty = {"gp": 0, "won": 0, "lost": 0, "lp": 0, "lo": 0}
    for line in lines:
        mine = own.get((line.table_id, line.seat), empty)
        table = per_table.get(line.table_id, {"lost": 0, "lo": 0, "n": 0})
        fine = fines.get((line.table_id, line.seat), 0)
        line.won = mine["won"]
        line.lost = mine["lost"]
        line.others_lost = table["lost"] - mine["lost"]
        line.penalties = fine
        line.game_points = (mine["gp"] or 0) + fine
        line.list_points = (mine["lp"] or 0) + (table["lo"] or 0) - (mine["lo"] or 0) + fine
        line.games = table["n"]
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
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by()
    )
    if category:
        registrations = registrations.filter(player__category=category)
    rows: dict[int, StandingRow] = {}
    for reg in registrations:
        p = reg.player
        rows[p.pk] = StandingRow(
            rank=0,
            player_id=p.pk,
            player_name=p.name,
            club=p.club.name if p.club else "",
            team=p.team,
            category=p.category,
            lot=reg.lot,
        )
    seats = Seat.objects.filter(series__tournament=tournament)
    if up_to_series is not None:
        seats = seats.filter(series__number__lte=up_to_series)
    if category:
        seats = seats.filter(player__category=category)
    for line in seat_lines(seats):
        row = rows.get(line.player_id)
        if row is None:  # seated but no longer registered: still counts
            player = Player.objects.select_related("club").get(pk=line.player_id)
            row = rows[line.player_id] = StandingRow(
                rank=0,
                player_id=player.pk,
                player_name=player.name,
                club=player.club.name if player.club else "",
                team=player.team,
                category=player.category,
            )
        row.list_points += line.list_points
        row.game_points += line.game_points
        row.won += line.won
        row.lost += line.lost
        row.others_lost += line.others_lost
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


def table_sheet(table: Table, *, blank_rows: bool = True) -> Sheet:
    """A table's sheet: each row with the running totals, and the summary block."""
    tournament = table.series.tournament
    seats = list(table.seats.select_related("player").order_by("number"))
    games = {
        g.number: g
        for g in table.games.annotate(
            changes_count=Count("changes", filter=Q(changes__action="corrected"))
        )
    }
    length = max(tournament.games_per_series(table.size), max(games, default=0))
    running = dict.fromkeys(range(1, table.size + 1), 0)
    rows = []
    last = max(games, default=0)
    for number in range(1, (length if blank_rows else last) + 1):
        game = games.get(number)
        if game is not None and game.declarer is not None:
            running[game.declarer] += game.score
        rows.append(
            SheetRow(
                number=number,
                dealer=table.dealer_of(number),
                game=game,
                running=dict(running) if game is not None else {},
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


@dataclass
class SeasonTeamRow:
    rank: int
    team: str
    match_points_won: int
    match_points_lost: int
    list_points: int
    match_days: dict[int, tuple[int, int, int]]  # tournament id → (won, lost, list points)


def match_day_points(rank: int, teams: int) -> tuple[int, int]:
    """DSkV league points of a match day: of four teams 3:0, 2:1, 1:2, 0:3 (rules §4)."""
    return teams - rank, rank - 1


def season_standings(season, *, category: str | None = None):
    """Player and team tables of a league season over its match days (tournaments)."""
    match_days = list(season.tournaments.order_by("date", "pk"))
    players: dict[int, SeasonPlayerRow] = {}
    teams: dict[str, SeasonTeamRow] = {}
    for day in match_days:
        standings = tournament_standings(day, category=category)
        for row in standings:
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
            entry.match_days[day.pk] = row.list_points
        if not any(row.series for row in standings):
            continue  # a match day not yet played gives no league points
        day_teams = team_standings(
            day, best_n=season.teams_best_n or day.team_best_n, standings=standings
        )
        for team in day_teams:
            won, lost = match_day_points(team.rank, len(day_teams))
            entry = teams.get(team.team)
            if entry is None:
                entry = teams[team.team] = SeasonTeamRow(
                    rank=0,
                    team=team.team,
                    match_points_won=0,
                    match_points_lost=0,
                    list_points=0,
                    match_days={},
                )
            entry.match_points_won += won
            entry.match_points_lost += lost
            entry.list_points += team.list_points
            entry.match_days[day.pk] = (won, lost, team.list_points)
    player_rows = sorted(
        players.values(), key=lambda r: (-r.list_points, -r.won, r.lost, r.player_name)
    )
    for rank, row in enumerate(player_rows, start=1):
        row.rank = rank
    team_rows = sorted(
        teams.values(),
        key=lambda r: (-r.match_points_won, r.match_points_lost, -r.list_points, r.team),
    )
    for rank, row in enumerate(team_rows, start=1):
        row.rank = rank
    return match_days, player_rows, team_rows


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


def declared_game_kinds() -> list[str]:
    return [g for g in GameType.values if g not in (GameType.PASSED, GameType.RAMSCH)]


# --------------------------------------------------------------------------------------
# Player page
# --------------------------------------------------------------------------------------


@dataclass
class PlayerSeriesLine:
    tournament: Tournament
    line: SeatLine


@dataclass
class PlayerStatistics:
    history: list[PlayerSeriesLine]
    series_played: int
    games_declared: int
    won: int
    lost: int
    list_points: int
    average_list_points: float | None
    by_type: list[tuple[str, str, int, int, int]]  # (game, label, declared, won, lost)


def player_statistics(player: Player, *, viewer=None) -> PlayerStatistics:
    """A player's series history (visible tournaments only) and declared games by type."""
    from tournaments import permissions

    tournaments = {
        t.pk: t
        for t in Tournament.objects.filter(series__seats__player=player).distinct()
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
    own_games = Game.objects.filter(
        table__seats__in=seats, declarer=F("table__seats__number")
    ).exclude(game__in=[GameType.PASSED, GameType.RAMSCH])
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
    total = sum(h.line.list_points for h in history)
    return PlayerStatistics(
        history=history,
        series_played=len(history),
        games_declared=sum(t[2] for t in by_type),
        won=sum(h.line.won for h in history),
        lost=sum(h.line.lost for h in history),
        list_points=total,
        average_list_points=round(total / len(history), 1) if history else None,
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


# --------------------------------------------------------------------------------------
# Money: what each player owes, paid and won; the cash summary
# --------------------------------------------------------------------------------------

# (money selectors go here)
