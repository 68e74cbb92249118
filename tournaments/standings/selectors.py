"""Standings: a tournament's, a series', its teams', and a player's page (a season's tables
are `leagues.selectors.season_tables`, built from the rows made here).

Every ranking starts from each seat's result at its table as `sheets.totals` stores it on
the seat (the tournament's and a series' standings read those columns directly, as plain
tuples: they are the busiest reads of the site; the rest go through
`sheets.selectors.seat_lines`) and is ordered by an explicit tuple of keys: `TIE_BREAK` for
players (rules §2); a team's figures are its best members' sums (`team_totals`).
Nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.db import connection
from django.db.models import Max, Q
from django.utils.translation import ngettext

from tournaments import permissions
from tournaments.formats import public_name
from tournaments.models import (
    GameType,
    Player,
    Registration,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournaments.sheets.selectors import SeatLine, seat_lines
from tournaments.standings.sql import (
    ROSTERS_SQL,
    fetch,
    registrations_sql,
    seats_sql,
    tables_sql,
)

# Tie-break order of rules §2 and interchange.md: list points desc, more won, fewer lost,
# the director's draw by lot; players equal on all of these share their rank ("3." for
# both, then 5.) and the name only orders them on the page.
TIE_BREAK = ("list_points desc", "won desc", "lost asc", "lot asc", "name asc")
NO_LOT = 1 << 30


def shared_ranks(rows: list, key, *, own: set[int] | None = None) -> list:
    """Number `rows` (already in order) 1, 2, 3, 3, 5: rows with the same `key` share.

    `own`: the ids of the rows that may be changed; any other row whose rank moves is
    replaced in `rows` by a copy with the new rank (older standings share it,
    `advance.standings_advance`). None: every row is numbered in place."""
    previous = previous_key = None
    for index, row in enumerate(rows):
        this = key(row)
        rank = previous.rank if previous is not None and previous_key == this else index + 1
        if row.rank != rank:
            if own is None or id(row) in own:
                row.rank = rank
            else:
                row = rows[index] = replace(row, rank=rank)
        previous, previous_key = row, this
    return rows


@dataclass
class SeriesResult:
    number: int
    list_points: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    table: int
    games: int = 0  # games played at the table so far
    # Why the player's sheet was closed before its length ("" if it was not): a result of
    # fewer games than a full sheet's, ranked with the others (`closed_short_notes`).
    closed_short: str = ""


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
    games: int = 0  # games played at the player's tables so far (mid-series: fewer)
    series: dict[int, SeriesResult] = field(default_factory=dict)
    provisional: bool = False  # counts games entered at a table, not yet confirmed
    provisional_series: set[int] = field(default_factory=set)  # the series where it does
    # `Player.listed`: public outputs show the name through `formats.public_name`.
    player_listed: bool = True

    @property
    def closed_short(self) -> list[SeriesResult]:
        """The row's series results from sheets closed short: every output marks the row
        (`CLOSED_SHORT_MARK`) and gives the reasons (`closed_short_notes`)."""
        return [result for result in self.series.values() if result.closed_short]

    @property
    def name_by_initials(self) -> str:
        """The name a public output that shows initials shows (`formats.public_name`),
        by which such a table sorts its names."""
        return public_name(self.player_name, listed=self.player_listed, initials=True)

    def rank_key(self):
        """The tie-break keys (`TIE_BREAK` without the name): equal keys share a rank."""
        lot = self.lot if self.lot is not None else NO_LOT
        return (-self.list_points, -self.won, self.lost, lot)

    def sort_key(self):
        return (*self.rank_key(), self.player_name.casefold())


def _rank(rows: Iterable[StandingRow]) -> list[StandingRow]:
    return shared_ranks(sorted(rows, key=StandingRow.sort_key), StandingRow.rank_key)


@dataclass
class ComputedStandings:
    """A tournament's standings with what they were computed from, so that a later version
    that changed score sheets alone can be had from them (`standings_advance`).

    The rows are not to be changed: a later version shares the rows it did not change (and
    whatever is kept with them, such as their rendered HTML)."""

    rows: list[StandingRow]  # ranked, in rank order
    version: int  # the tournament's version read before the seats
    series_numbers: dict[int, int]  # series id → number
    lines: list[tuple] = field(default_factory=list, repr=False)  # STANDING_SEAT_FIELDS
    known: dict[tuple, tuple] | None = field(default=None, repr=False)
    # table id → (series id, number, size, why it closed short or ""): the tables counted
    tables: dict[int, tuple[int, int, int, str]] = field(default_factory=dict, repr=False)
    open_series: set[int] = field(default_factory=set, repr=False)  # ids of those in play

    @property
    def seats(self) -> dict[tuple[int, int], tuple]:
        """(player id, series id) → the seat's STANDING_SEAT_FIELDS: made when first
        advanced from, not for every computation."""
        if self.known is None:
            self.known = {(line[0], line[1]): line for line in self.lines}
        return self.known

    def lines_now(self):
        """Every seat's STANDING_SEAT_FIELDS as of this version."""
        return self.lines if self.known is None else self.known.values()


def tournament_standings(
    tournament: Tournament, *, category: str | None = None, up_to_series: int | None = None
) -> list[StandingRow]:
    """Total standings with one result per series; every registered player has a row.

    Four queries whatever the size of the event: the registrations, the series' and tables'
    numbers, then the stored totals of the tournament's seats as plain tuples, without a
    join per seat (the busiest read of the site: every phone in the hall asks for it after
    each game).
    """
    return standings_computed(tournament, category=category, up_to_series=up_to_series).rows


def standings_computed(
    tournament: Tournament, *, category: str | None = None, up_to_series: int | None = None
) -> ComputedStandings:
    """`tournament_standings` with what they were computed from."""
    return _tournament_standings(tournament, category=category, up_to_series=up_to_series)


def _tournament_standings(
    tournament: Tournament, *, category: str | None, up_to_series: int | None
) -> ComputedStandings:
    # The series from the page's own list when it has read them already
    # (`TournamentMixin.series_list` prefetches them for the tabs).
    in_series = [
        series
        for series in tournament.series.all()
        if up_to_series is None or series.number <= up_to_series
    ]
    series_numbers = {series.pk: series.number for series in in_series}
    rows = registered_rows(
        fetch(
            registrations_sql(bool(category), connection.vendor),
            [tournament.pk, *([category] if category else [])],
        )
    )
    # The seats alone (no join per seat): the tables' numbers come from one small query,
    # whatever the number of seats.
    tables: dict[int, tuple[int, int, int, str]] = {}
    lines: list[tuple] = []
    if series_numbers:
        ids = list(series_numbers)
        tables = {
            table_id: (series_id, number, size, (closed_short or "") if closed else "")
            for table_id, series_id, number, size, closed, closed_short in fetch(
                tables_sql(len(ids)), ids
            )
        }
        lines = fetch(
            seats_sql(len(ids), bool(category)),
            [*ids, *([category] if category else [])],
        )
    # Seated but no longer registered: still counts (one query for all of them).
    unregistered = {line[0] for line in lines} - rows.keys()
    if unregistered:
        rows.update(unregistered_rows(Player.objects.filter(pk__in=unregistered)))
    seats_add(rows, lines, series_numbers, tables)
    return ComputedStandings(
        rows=_rank(rows.values()),
        version=tournament.version,
        series_numbers=series_numbers,
        lines=lines,
        tables=tables,
        open_series={s.pk for s in in_series if s.status == Series.Status.OPEN},
    )


def registered_rows(registrations: Iterable[tuple]) -> dict[int, StandingRow]:
    """Player → an empty row, from (player id, name, club, team, category, lot, listed)
    tuples."""
    return {
        player_id: StandingRow(
            rank=0,
            player_id=player_id,
            player_name=name,
            club=club or "",
            team=team,
            category=player_category,
            lot=lot,
            player_listed=bool(listed),
        )
        for player_id, name, club, team, player_category, lot, listed in registrations
    }


def unregistered_rows(players) -> dict[int, StandingRow]:
    """Player → an empty row for players seated but no longer registered (no lot)."""
    return {
        player.pk: StandingRow(
            rank=0,
            player_id=player.pk,
            player_name=player.name,
            club=player.club.name if player.club else "",
            team=player.team,
            category=player.category,
            player_listed=player.listed,
        )
        for player in players.select_related("club")
    }


def seats_add(
    rows: dict[int, StandingRow],
    lines: Iterable[tuple],
    series_numbers: dict[int, int],
    tables: dict[int, tuple[int, int, int, str]],
) -> None:
    """Add each seat's stored totals (`STANDING_SEAT_FIELDS` tuples) to its player's row:
    the totals and the series' result. `tables`: table id → (series id, number, size, why
    it closed short)."""
    for (
        player_id,
        series_id,
        table_id,
        list_points,
        game_points,
        won,
        lost,
        others_lost,
        games,
        provisional,
    ) in lines:
        series_number = series_numbers[series_id]
        row = rows[player_id]
        row.list_points += list_points
        row.game_points += game_points
        row.won += won
        row.lost += lost
        row.others_lost += others_lost
        row.games += games
        if provisional:
            row.provisional = True
            row.provisional_series.add(series_number)
        row.series[series_number] = SeriesResult(
            series_number,
            list_points,
            game_points,
            won,
            lost,
            others_lost,
            tables[table_id][1],
            games,
            tables[table_id][3],
        )
    for row in rows.values():  # series in their order, as the seats came before
        if len(row.series) > 1:
            row.series = dict(sorted(row.series.items()))


def rank_standings(rows: Iterable[StandingRow]) -> list[StandingRow]:
    """Rows in the tie-break order (`TIE_BREAK`), numbered; equal keys share a rank."""
    return _rank(rows)


def standings_json(
    tournament: Tournament, *, standings: list[StandingRow] | None = None
) -> list[dict]:
    """The standings as interchange.md "Standings JSON" has them, in rank order
    (`standings`: the tournament's, when the caller has them already)."""
    rows = tournament_standings(tournament) if standings is None else standings
    return [standing_json(row) for row in rows]


def json_text(text: str | None) -> str | None:
    """A name as every JSON answer gives it: none (no club, no team) is null, never ""
    (interchange.md "Standings JSON"); pages show the column's dash."""
    return text or None


def standing_json(row: StandingRow, *, initials: bool = False) -> dict:
    """One row of `standings_json`; `closed_short` (optional, only when a sheet of the
    player's was closed short) lists those series with their table, games and reason.
    `initials`: a player not listed publicly by initials (`formats.public_name`)."""
    data = {
        "rank": row.rank,
        "player": public_name(row.player_name, listed=row.player_listed, initials=initials),
        "club": json_text(row.club),
        "team": json_text(row.team),
        "list_points": row.list_points,
        "game_points": row.game_points,
        "won": row.won,
        "lost": row.lost,
        "others_lost": row.others_lost,
        "series": [
            {
                "number": result.number,
                "list_points": result.list_points,
                "game_points": result.game_points,
                "won": result.won,
                "lost": result.lost,
            }
            for result in sorted(row.series.values(), key=lambda r: r.number)
        ],
    }
    short = row.closed_short
    if short:
        data["closed_short"] = [
            {
                "series": result.number,
                "table": result.table,
                "games": result.games,
                "reason": result.closed_short,
            }
            for result in sorted(short, key=lambda r: r.number)
        ]
    return data


def standing_json_by_initials(row: StandingRow) -> dict:
    """`standing_json` of a tournament whose public standings show players not listed
    publicly by initials (`permissions.names_by_initials`)."""
    return standing_json(row, initials=True)


# The mark of a standings row with a result from a sheet closed short, on every output.
CLOSED_SHORT_MARK = "◐"


@dataclass(frozen=True)
class ClosedShortNote:
    """A sheet closed before its length, as the legend under the standings gives it."""

    series: int
    table: int
    games: int
    reason: str

    @property
    def text(self) -> str:
        """The note as the legends give it, with the mark it explains."""
        text = ngettext(
            "%(mark)s Series %(series)s, table %(table)s: closed short after %(games)s game "
            "(%(reason)s)",
            "%(mark)s Series %(series)s, table %(table)s: closed short after %(games)s games "
            "(%(reason)s)",
            self.games,
        )
        return text % {
            "mark": CLOSED_SHORT_MARK,
            "series": self.series,
            "table": self.table,
            "games": self.games,
            "reason": self.reason,
        }


def closed_short_notes(rows: Iterable[StandingRow]) -> list[ClosedShortNote]:
    """The sheets closed short among `rows`' results, once each, by series and table: the
    legend that explains the rows marked `CLOSED_SHORT_MARK` (the page, the PDFs, the
    workbook, the projector)."""
    notes = {}
    for row in rows:
        for result in row.closed_short:
            key = (result.number, result.table)
            if key not in notes:
                notes[key] = ClosedShortNote(*key, result.games, result.closed_short)
    return [notes[key] for key in sorted(notes)]


def tied_groups(standings: list[StandingRow]) -> list[list[StandingRow]]:
    """Players tied on list points, won and lost: only a draw by lot separates them (§2);
    a group stays listed once lots are drawn, so that they can be corrected."""
    groups: dict[tuple[int, int, int], list[StandingRow]] = defaultdict(list)
    for row in standings:
        if row.series:
            groups[(row.list_points, row.won, row.lost)].append(row)
    return [group for group in groups.values() if len(group) > 1]


def series_standings(
    series: Series, *, category: str | None = None, standings: list[StandingRow] | None = None
) -> list[StandingRow]:
    """The standings of one series alone, taken from the tournament's standings of the same
    version (`series_standings_from`): the page, the API, the workbook and the prizes rank
    a series the same way. `standings`: the tournament's (same category), when the caller
    has them already."""
    if standings is None:
        standings = tournament_standings(series.tournament, category=category)
    return series_standings_from(standings, series.number)


def series_standings_from(
    standings: list[StandingRow], number: int, *, earlier: dict | None = None
) -> list[StandingRow]:
    """`series_standings` of series `number` taken from the tournament's standings (same
    category), which hold every seat's result per series: the series page of a large open
    reuses the standings its tournament's pages computed for the same version.

    `earlier` (a dict kept by the caller for the series, category and layout, empty at
    first) lets a later version share rows: a player whose result in the series is still
    the same object (`standings_advance` shares what it did not change) keeps the row made
    for it then, unless its rank moved; the dict is updated for the next call.
    """
    rows = []
    fresh = {}
    for row in standings:
        result = row.series.get(number)
        if result is None:
            continue
        kept = earlier.get(row.player_id) if earlier is not None else None
        if kept is not None and kept[0] is result:
            rows.append(kept[1])
        else:
            made = _series_row(row, number, result)
            fresh[row.player_id] = made
            rows.append(made)
    ranked = shared_ranks(
        sorted(rows, key=StandingRow.sort_key),
        StandingRow.rank_key,
        own={id(row) for row in fresh.values()},
    )
    if earlier is not None:
        earlier.clear()
        earlier.update((row.player_id, (row.series[number], row)) for row in ranked)
    return ranked


def category_standings_from(standings: list[StandingRow], category: str) -> list[StandingRow]:
    """`tournament_standings` of one category taken from the standings of every player
    (the same rows filtered, ranked among themselves; a row whose rank moves is a copy).
    No category: every player, as `tournament_standings` without one."""
    if not category:
        return standings
    rows = [row for row in standings if row.category == category]
    return shared_ranks(rows, StandingRow.rank_key, own=set())


def _series_row(row: StandingRow, number: int, result: SeriesResult) -> StandingRow:
    return StandingRow(
        rank=0,
        player_id=row.player_id,
        player_name=row.player_name,
        club=row.club,
        team=row.team,
        category=row.category,
        list_points=result.list_points,
        game_points=result.game_points,
        won=result.won,
        lost=result.lost,
        others_lost=result.others_lost,
        games=result.games,
        lot=row.lot,
        provisional=number in row.provisional_series,
        provisional_series={number} & row.provisional_series,
        series={number: result},
        player_listed=row.player_listed,
    )


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
    return rank_teams(team_totals(standings, best_n=best_n))


def team_totals(standings: Iterable[StandingRow], *, best_n: int | None) -> list[TeamRow]:
    """Each team's sums over its members' rows (`row.team`), counting its best `best_n`
    members by the tie-break order (all when None), unranked: the one computation of a
    team's figures, for a tournament's team table and a league match day's table."""
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
    return teams


def rank_teams(teams: list[TeamRow]) -> list[TeamRow]:
    """Teams by list points, more games won, fewer lost (the players' keys, rules §2);
    teams equal on all three share a rank."""

    def key(team):
        return (-team.list_points, -team.won, team.lost)

    teams.sort(key=lambda t: (*key(t), t.team.casefold()))
    return shared_ranks(teams, key)


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
    # The visible tournaments counted in `tournaments`, by id (also those the player is
    # registered in without a seat).
    seen: dict[int, Tournament] = field(default_factory=dict, repr=False)

    @property
    def played(self) -> list[PlayerSeriesLine]:
        """The series with games: a seat in a series not yet begun is no result of 0."""
        return [h for h in self.history if h.line.games]


# The fields of a tournament a player's statistics and career read (`player_statistics`).
PLAYER_TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "date",
    "status",
    "published",
    "season_id",
    "club_id",
    "club__name",
)


def player_statistics(player: Player, *, viewer=None) -> PlayerStatistics:
    """A player's series history and declared games by type, from the tournaments `viewer`
    may see (published ones for the public, `None`)."""
    tournaments = {
        t.pk: t
        # Subqueries, not an OR across two joins: the plan stays on the player's rows.
        for t in permissions.visible_tournaments(
            viewer,
            Tournament.objects.filter(
                Q(pk__in=Seat.objects.filter(player=player).values("series__tournament_id"))
                | Q(pk__in=Registration.objects.filter(player=player).values("tournament_id"))
            ),
        )
        .select_related("club")
        # What the career and its pages show of a tournament: a third of its columns,
        # and of its club the name (500 tournaments are read for a long career).
        .only(*PLAYER_TOURNAMENT_FIELDS)
    }
    # The ids, not the instances: Django prepares each instance of an IN list anew for
    # every query that holds it (25 ms for 500 tournaments in two queries).
    seats = Seat.objects.filter(player=player, series__tournament_id__in=list(tournaments))
    history = [
        PlayerSeriesLine(tournament=tournaments[line.tournament_id], line=line)
        for line in seat_lines(seats)
    ]
    history.sort(key=lambda h: (h.tournament.date, h.tournament.pk, h.line.series_number))
    # The games the player declared, by type: each seat's stored figures
    # (`sheets.totals.seat_figures`: disputed rows under double entry count nowhere until
    # settled, as in the standings), added up. Counting the games took 50-120 ms for 1,500
    # seats among 1.2 million games (bench/career.py).
    declared: dict[str, list[int]] = {}
    for h in history:
        for game, (n, won, lost) in h.line.declared.items():
            total = declared.setdefault(game, [0, 0, 0])
            total[0] += n
            total[1] += won
            total[2] += lost
    labels = dict(GameType.choices)
    by_type = [
        (game, str(labels.get(game, game)), n, won, lost)
        for game, (n, won, lost) in sorted(
            declared.items(), key=lambda item: (-item[1][0], item[0])
        )
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
        seen=tournaments,
    )


@dataclass(slots=True)
class TableCard:
    """One table of a series as its page lists it: who sits there, and how far it is."""

    number: int
    size: int
    closed: bool
    played: int  # games counted so far (the seats' stored totals)
    length: int  # games the table plays in the series
    players: list[tuple[int, str, bool]]  # (player id, name, listed) in seat order


def series_tables(series: Series, *, written_after: int | None = None) -> list[TableCard]:
    """The series' tables with their players, in table order: one query on the seats.

    `written_after`: only the tables whose sheets were written after that version of the
    tournament (`Table.sheet_version`)."""
    tournament = series.tournament
    cards: dict[int, TableCard] = {}
    seats = Seat.objects.filter(series=series)
    if written_after is not None:
        seats = seats.filter(table__series=series, table__sheet_version__gt=written_after)
    seats = seats.order_by("table__number", "number").values_list(
        "table__number",
        "table__size",
        "table__closed",
        "games_played",
        "player_id",
        "player__name",
        "player__listed",
    )
    for number, size, closed, played, player_id, name, listed in seats:
        card = cards.get(number)
        if card is None:
            card = cards[number] = TableCard(
                number, size, closed, 0, tournament.games_per_series(size), []
            )
        card.played = max(card.played, played)
        card.players.append((player_id, name, listed))
    return list(cards.values())


@dataclass
class SeriesProgress:
    """How far a series in play has got: games entered of the games it has."""

    number: int
    played: int
    length: int


def series_progress(tournament: Tournament) -> list[SeriesProgress]:
    """The tournament's series in play, with the games counted so far and in all.

    One query on the tables and their seats' stored totals (`sheets.totals`: every seat at
    a table counts the table's games; a disputed row counts once it is settled), so that
    the busiest pages never scan the games.
    """
    tables = (
        Table.objects.filter(series__tournament=tournament, series__status=Series.Status.OPEN)
        .values("id")
        .annotate(played=Max("seats__games_played"))
        .values_list("series__number", "size", "played")
        .order_by()
    )
    by_series: dict[int, SeriesProgress] = {}
    for number, size, played in tables:
        entry = by_series.setdefault(number, SeriesProgress(number=number, played=0, length=0))
        entry.played += played or 0
        entry.length += tournament.games_per_series(size)
    return [by_series[number] for number in sorted(by_series)]


@dataclass(frozen=True)
class RosterTeam:
    team_id: int
    name: str
    club: str


def roster_teams(season_id: int | None) -> dict[int, RosterTeam]:
    """Player → their team of the season, from its rosters (one team per player and
    season): the one reading of a player's season team, for the tables and the draw."""
    if season_id is None:
        return {}
    return {
        player_id: RosterTeam(team_id, name, club)
        for player_id, team_id, name, club in fetch(ROSTERS_SQL, [season_id])
    }
