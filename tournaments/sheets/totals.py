"""The seats' stored sheet totals: written with every change to a sheet, read by standings.

Each `Seat` row carries its result at its table (`SeatLine`'s figures: game points, won,
lost, others' lost, penalties, list points, games, provisional, and its declared games by
type, which a player's career adds up). Every writer of a sheet —
a game entered, corrected or deleted, a penalty, a second copy's row or a settlement under
double entry, a confirmation — goes through the writing step (`sheets.writing`), which
calls `seat_totals_refresh` for the table in the writer's transaction; a recompute and an
import write them too, so the totals are never behind the games; standings,
projector, team and season tables and a player's career then read seat rows, never the
games (as Tabbycat keeps `TeamScore`).

`seat_figures` is the one computation of a seat's figures from its table's games and
penalties, with no database: `seat_lines_from_games` feeds it the stored games (two
queries, for any number of tables), the import its rows before they are written, and a
second copy's summary the copy's rows (`entry.selectors.copy_sheet`), so that every output
shows the same figures. `seat_totals_rebuild` writes them for a whole tournament or
database.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from django.db import transaction
from django.db.models import QuerySet

from tournaments.models import Game, GameType, Penalty, Seat, Tournament
from tournaments.sheets.selectors import TOTAL_FIELDS, SeatLine, disputed_games, seat_lines

# Seats written per UPDATE when a whole tournament is rebuilt.
REBUILD_BATCH = 500
# Up to this many seats (a table or two), one UPDATE each.
SMALL_WRITE = 10
# The seat's column named otherwise on `SeatLine`.
SEAT_LINE_NAME = {"games_played": "games"}
# Games nobody declared: not among a seat's declared games.
UNDECLARED = (GameType.PASSED, GameType.RAMSCH)


class SeatFigures(NamedTuple):
    """A seat's result at its table, in the order of the seat's stored totals
    (`TOTAL_FIELDS`)."""

    game_points: int  # the seat's own game scores and its penalties
    won: int
    lost: int
    others_lost: int  # games lost by the other seats at the table (rules §2)
    list_points: int  # Seeger-Fabian (or the plain game points: see `Game.list_declarer`)
    penalties: int
    games_played: int  # the games of the table that count
    provisional: bool  # some of them are not confirmed yet
    declared: dict  # game type → [declared, won, lost] of the seat's own games (`declared`)


def seat_figures(*, size: int, games: Iterable, penalties: Iterable) -> dict[int, SeatFigures]:
    """Seat number (1..`size`) → its figures, from the table's games that count and its
    penalties: the one computation of a seat's totals (the writers' refresh, the import, a
    second copy's summary). No database: anything with the fields does.

    `games`: each with `game`, `declarer`, `ramsch_tie`, `score`, `is_won`, `is_lost`,
    `list_declarer`, `list_others` and `provisional` as `Game` stores them (the engine's
    values); `penalties`: each with `seat` and `points`.

    A seat's own games are those it declared, and a ramsch tie's second seat
    (`Game.ramsch_tie`) scores what the declarer seat scores. Its list points are its own
    games' `list_declarer` and the others' games' `list_others` (rules §2); its penalties
    count in its game points and its list points. Its *declared* games (by type: how many,
    won, lost) are the games it declared, neither passed in nor ramsch (a ramsch tie's
    second seat declared nothing): the career's games declared by type add them up, so
    that no page counts a player's games.
    """
    own = {seat: [0, 0, 0, 0, 0] for seat in range(1, size + 1)}
    declared: dict[int, dict[str, list[int]]] = {seat: {} for seat in own}
    table_lost = table_lo = played = provisional = 0
    for game in games:
        played += 1
        provisional += game.provisional
        table_lost += game.is_lost
        table_lo += game.list_others
        if game.declarer is not None and game.game not in UNDECLARED:
            kind = declared[game.declarer].setdefault(game.game, [0, 0, 0])
            kind[0] += 1
            kind[1] += game.is_won
            kind[2] += game.is_lost
        for seat in (game.declarer, game.ramsch_tie):
            if seat is not None:
                figures = own[seat]
                figures[0] += game.score
                figures[1] += game.is_won
                figures[2] += game.is_lost
                figures[3] += game.list_declarer
                figures[4] += game.list_others
    fines = dict.fromkeys(own, 0)
    for penalty in penalties:
        fines[penalty.seat] += penalty.points
    return {
        seat: SeatFigures(
            game_points=score + fines[seat],
            won=won,
            lost=lost,
            others_lost=table_lost - lost,
            list_points=list_declarer + table_lo - list_others + fines[seat],
            penalties=fines[seat],
            games_played=played,
            provisional=bool(provisional),
            declared=declared[seat],
        )
        for seat, (score, won, lost, list_declarer, list_others) in own.items()
    }


# What `seat_figures` reads of a stored game and a penalty.
GAME_FIGURES = (
    "game",
    "declarer",
    "ramsch_tie",
    "score",
    "is_won",
    "is_lost",
    "list_declarer",
    "list_others",
    "provisional",
)
PENALTY_FIGURES = ("seat", "points")


def seat_lines_from_games(seats: QuerySet[Seat]) -> list[SeatLine]:
    """The results of the given seats computed from their tables' games and penalties
    (`seat_figures`; two queries, for any number of tables)."""
    lines = seat_lines(seats, totals=False)
    if not lines:
        return []
    table_ids = sorted({line.table_id for line in lines})
    # Double entry: a row the two copies disagree on counts nowhere until it is settled.
    disputed = disputed_games(table_ids)
    games = Game.objects.filter(table_id__in=table_ids).exclude(
        pk__in=[pk for pks in disputed.values() for pk in pks]
    )
    per_table: dict[int, tuple[list, list]] = {table_id: ([], []) for table_id in table_ids}
    for row in games.order_by().values_list("table_id", *GAME_FIGURES, named=True):
        per_table[row.table_id][0].append(row)
    for row in (
        Penalty.objects.filter(table_id__in=table_ids)
        .order_by()
        .values_list("table_id", *PENALTY_FIGURES, named=True)
    ):
        per_table[row.table_id][1].append(row)
    sizes = {line.table_id: line.table_size for line in lines}
    figures = {
        table_id: seat_figures(size=sizes[table_id], games=rows, penalties=fines)
        for table_id, (rows, fines) in per_table.items()
    }
    for line in lines:
        seat = figures[line.table_id][line.seat]
        for name in TOTAL_FIELDS:
            setattr(line, SEAT_LINE_NAME.get(name, name), getattr(seat, name))
        line.provisional = seat.provisional or line.table_id in disputed
    return lines


def _write(lines: list[SeatLine], fields: tuple[str, ...] = TOTAL_FIELDS) -> int:
    if len(lines) <= SMALL_WRITE:
        # One table's seats (every game entered): an UPDATE per seat costs a third of
        # bulk_update's, whose CASE per field and seat takes longer to build than to run.
        for line in lines:
            Seat.objects.filter(pk=line.seat_id).update(
                **{name: getattr(line, SEAT_LINE_NAME.get(name, name)) for name in fields}
            )
        return len(lines)
    seats = []
    for line in lines:
        seat = Seat(pk=line.seat_id)
        for name in fields:
            setattr(seat, name, getattr(line, SEAT_LINE_NAME.get(name, name)))
        seats.append(seat)
    Seat.objects.bulk_update(seats, fields, batch_size=REBUILD_BATCH)
    return len(seats)


def seat_totals_refresh(*, table_ids: Iterable[int]) -> int:
    """Write the totals of every seat at the given tables from their games; returns the
    number of seats. Call it in the transaction of the write that changed the sheets."""
    table_ids = list(table_ids)
    if not table_ids:
        return 0
    with transaction.atomic():
        return _write(seat_lines_from_games(Seat.objects.filter(table_id__in=table_ids)))


def seat_totals_rebuild(
    *, tournament: Tournament | None = None, fields: tuple[str, ...] = TOTAL_FIELDS
) -> int:
    """Write every seat's totals again (one tournament's, or the whole database's);
    `fields`: only those of the totals (a migration that adds one fills it alone)."""
    tournaments = (
        [tournament.pk]
        if tournament is not None
        else list(Tournament.objects.order_by("pk").values_list("pk", flat=True))
    )
    count = 0
    with transaction.atomic():
        for tournament_id in tournaments:
            count += _write(
                seat_lines_from_games(Seat.objects.filter(series__tournament_id=tournament_id)),
                fields,
            )
    return count
