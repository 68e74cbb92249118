"""Reads of score sheets: each seat's result at its table, a sheet with its running totals.

`seat_lines` is where every standing starts: the results of any set of seats from one query
on the seats' stored totals, whatever the number of players or of games in the database.
`sheets.totals` writes those totals in the transaction of every change to a sheet, from
the games as `games` stored them, so the pages, the PDFs, the workbooks and the JSON all
read the same figures.

Terms: *own* = the games a seat declared; *others' lost* = games lost by the other seats at
the same table (rules §2); *list points* = Seeger-Fabian points, or the plain game points
where list scoring is off or the rule set is `na`. Under double entry a *disputed* game
(`disputed_games`: the second copy has its row differently) counts nowhere until the
director settles it; see `tournaments.entry` for the two copies.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from tournaments.games import game_mapping_of
from tournaments.models import Game, GameChange, Seat, SheetCopy, Table, Tournament

# Who sits where, in `SeatLine`'s order of fields.
SEAT_FIELDS = (
    "id",
    "series__number",
    "table_id",
    "table__number",
    "table__size",
    "number",
    "player_id",
    "player__name",
    "series__tournament_id",
)


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
    tournament_id: int
    game_points: int = 0
    won: int = 0
    lost: int = 0
    others_lost: int = 0
    list_points: int = 0
    penalties: int = 0
    games: int = 0
    provisional: bool = False  # games entered at the table, not yet confirmed
    # Game type → [declared, won, lost]: the games the seat declared (`sheets.totals`).
    declared: dict = field(default_factory=dict)


# The seat's stored totals, in `SeatLine`'s order of fields.
TOTAL_FIELDS = (
    "game_points",
    "won",
    "lost",
    "others_lost",
    "list_points",
    "penalties",
    "games_played",
    "provisional",
    "declared",
)


def seat_lines(seats: QuerySet[Seat], *, totals: bool = True) -> list[SeatLine]:
    """The results of the given seats: one query on the seats' stored totals.

    The totals are written with every change to a sheet (`sheets.totals`), so that no
    standing reads the games; `sheets.totals.seat_lines_from_games` computes the same lines
    from the games, starting from these lines without the totals (`totals=False`).
    """
    fields = (*SEAT_FIELDS, *TOTAL_FIELDS) if totals else SEAT_FIELDS
    # The fields come in `SeatLine`'s order of fields.
    return [
        SeatLine(*row)
        for row in seats.values_list(*fields).order_by("series__number", "table__number", "number")
    ]


def table_seat_totals(table: Table) -> list[SeatLine]:
    return seat_lines(Seat.objects.filter(table=table))


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
    for game in unconfirmed(Game.objects.filter(table_id__in=list(copies))):
        row = copies[game.table_id].get(game.number)
        if row is not None and row.get("data") != game_mapping_of(game):
            disputed[game.table_id].add(game.pk)
    return dict(disputed)


def unconfirmed(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games not yet final under double entry: all but those a confirmation made final
    (its history entry changes only `provisional`)."""
    confirmed = GameChange.objects.filter(game=OuterRef("pk"), diff__has_key="provisional")
    return games.exclude(Exists(confirmed))


@dataclass
class SheetRow:
    number: int
    dealer: int
    game: Game | None
    # Running game points per seat after this row, as the paper list carries them.
    running: dict[int, int]
    # Double entry: the two copies disagree on this row; it does not count until settled.
    disputed: bool = False
    # The seats without cards in this deal (rules §4, §3.6: `scoring.sitting_out`).
    sitting_out: frozenset[int] = frozenset()


@dataclass
class SeatSummary:
    """The Seeger-Fabian summary block at the foot of a DSkV list (rules §2)."""

    seat: int
    player_name: str
    player_id: int
    player_listed: bool
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
    """A table's sheet: each row with the running totals, and the summary block from the
    seats' stored totals."""
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
    length = max(tournament.games_per_series(table.size), max(games, default=0))
    return sheet_of(
        table,
        seats=seats,
        games=games,
        figures={line.seat: line for line in table_seat_totals(table)},
        disputed=disputed_games([table.pk]).get(table.pk, set()),
        last=length if blank_rows else max(games, default=0),
    )


def sheet_of(
    table: Table,
    *,
    seats: list[Seat],
    games: Mapping[int, Game | None],
    figures: Mapping[int, object],
    disputed: Collection[int] = frozenset(),
    last: int,
) -> Sheet:
    """A sheet laid out from its rows: the running game points per seat after each row and
    the Seeger-Fabian block (rules §2) at its foot. The one layout of the desk's sheet
    (`table_sheet`) and of the second keeper's copy (`entry.selectors.copy_sheet`).

    `games`: game number → its game (None: a row entered that no longer checks); numbers
    up to `last` without one are blank rows. `disputed`: ids of games that count nowhere.
    `figures`: seat number → its totals (anything with `game_points`, `won`, `lost`,
    `others_lost`, `penalties` and `list_points`: a `SeatLine`, `totals.SeatFigures`).
    """
    tournament = table.series.tournament
    running = dict.fromkeys(range(1, table.size + 1), 0)
    rows = []
    for number in range(1, last + 1):
        game = games.get(number)
        counts = game is not None and game.pk not in disputed
        if counts and game.declarer is not None:
            running[game.declarer] += game.score
            if game.ramsch_tie is not None:  # a ramsch tie: the second seat scores the same
                running[game.ramsch_tie] += game.score
        rows.append(
            SheetRow(
                number=number,
                dealer=table.dealer_of(number),
                game=game,
                running=dict(running) if number in games else {},
                disputed=game is not None and not counts,
                sitting_out=table.sitting_out(number),
            )
        )
    others = tournament.bonus_others_4 if table.size == 4 else tournament.bonus_others_3
    list_scoring = tournament.uses_list_points
    summary = []
    for seat in seats:
        line = figures.get(seat.number)
        if line is None:
            continue
        summary.append(
            SeatSummary(
                seat=seat.number,
                player_name=seat.player.name,
                player_id=seat.player_id,
                player_listed=seat.player.listed,
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


def games_of_tournament(tournament: Tournament) -> QuerySet[Game]:
    """Every game of a tournament in sheet order, with its table and series.

    Filtered on the game's tournament and on its series' (the same one, `Game.tournament`
    being the table's): PostgreSQL then reaches the tournament's tables through the series'
    index instead of hashing every table in the database for the sort's joins (a club
    evening of 4,068 games among 7,602 tables: 22 -> 11 ms)."""
    return (
        Game.objects.filter(tournament=tournament, table__series__tournament=tournament)
        .select_related("table__series")
        .order_by("table__series__number", "table__number", "number")
    )


def latest_games(tournament: Tournament, *, limit: int = 10) -> list[Game]:
    """The games entered last (by time of entry), with table, series and declarer's name
    (and whether the declarer is listed publicly)."""
    games = list(
        Game.objects.filter(tournament=tournament)
        .select_related("table__series")
        .order_by("-created", "-pk")[:limit]
    )
    # The declarers' names only: no seat or player objects, and no default ordering (its
    # joins of the tables, series and tournament took longer to plan than the rest to run).
    names = {
        (table_id, number): (name, listed)
        for table_id, number, name, listed in Seat.objects.filter(
            table_id__in={g.table_id for g in games}
        )
        .order_by()
        .values_list("table_id", "number", "player__name", "player__listed")
    }
    for game in games:
        name, listed = names.get((game.table_id, game.declarer), ("", True))
        game.declarer_name = name
        game.declarer_listed = listed  # `Player.listed`: public pages, `formats.public_name`
    return games


@dataclass
class GamesSince:
    """The live feed: what changed on a tournament's sheets after a version (a scoreboard
    polls with the version it last saw)."""

    version: int  # the answer holds every game written up to this version
    more: bool  # the answer was cut at `limit` games: ask again at once from `version`
    games: list[Game]  # entered or changed after the version asked for, with table and series
    sheets: list[tuple[int, int, int]]  # every sheet: (series, table, games on it now)
    disputed: set[int]  # ids among `games` that count nowhere until settled


def games_since(tournament: Tournament, *, version: int, limit: int = 1000) -> GamesSince:
    """The games written after `version`, about `limit` at most, and each sheet's length (a
    deleted game shortens its sheet: it is gone from the feed, so the length says so).

    An answer holds whole versions only: cut after `limit` games, it ends with the last
    version it holds entirely (a single version of more games comes whole), and `more` says
    so. The tournament's version is read first, so a game written meanwhile comes at worst
    twice, never not at all.
    """
    current = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    written = (
        Game.objects.filter(table__series__tournament=tournament)
        .select_related("table__series")
        .order_by("version", "table__series__number", "table__number", "number")
    )
    games = list(written.filter(version__gt=version)[: limit + 1])
    more = len(games) > limit
    if more:
        cut = games[limit].version
        games = [game for game in games[:limit] if game.version < cut]
        if games:
            current = cut - 1
        else:  # one version holds more than `limit` games (a bulk entry): all of them
            games, current = list(written.filter(version=cut)), cut
    sheets = [
        (row["series__number"], row["number"], row["count"])
        for row in Table.objects.filter(series__tournament=tournament)
        .values("series__number", "number")
        .annotate(count=Count("games"))
        .order_by("series__number", "number")
    ]
    disputed = disputed_games({game.table_id for game in games})
    return GamesSince(
        version=current,
        more=more,
        games=games,
        sheets=sheets,
        disputed={pk for pks in disputed.values() for pk in pks},
    )
