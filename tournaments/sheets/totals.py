"""The seats' stored sheet totals: written with every change to a sheet, read by standings.

Each `Seat` row carries its result at its table (`SeatLine`'s figures: game points, won,
lost, others' lost, penalties, list points, games, provisional). Every writer of a sheet —
a game entered, corrected or deleted, a penalty, a second copy's row or a settlement under
double entry, a confirmation, a recompute, an import — calls `seat_totals_refresh` for the
table in its own transaction, so the totals are never behind the games; standings,
projector, team and season tables then read a few thousand seat rows, never the games
(as Tabbycat keeps `TeamScore`).

`seat_lines_from_games` is the computation from the games themselves (fixed number of
aggregate queries); `seat_totals_rebuild` writes it for a whole tournament or database.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count, Q, QuerySet, Sum

from tournaments.models import Game, Penalty, Seat, Tournament
from tournaments.sheets.selectors import TOTAL_FIELDS, SeatLine, disputed_games, seat_lines

# Seats written per UPDATE when a whole tournament is rebuilt.
REBUILD_BATCH = 500
# Up to this many seats (a table or two), one UPDATE each.
SMALL_WRITE = 10
# The seat's column named otherwise on `SeatLine`.
SEAT_LINE_NAME = {"games_played": "games"}


def seat_lines_from_games(seats: QuerySet[Seat]) -> list[SeatLine]:
    """The results of the given seats computed from their tables' games and penalties."""
    lines = seat_lines(seats, totals=False)
    if not lines:
        return []
    table_ids = sorted({line.table_id for line in lines})
    # Double entry: a row the two copies disagree on counts nowhere until it is settled.
    disputed = disputed_games(table_ids)
    games = Game.objects.filter(table_id__in=table_ids).exclude(
        pk__in=[pk for pks in disputed.values() for pk in pks]
    )
    # One scan of the games, grouped by table and declarer: the declarer groups are the seats'
    # own figures, and their sum per table gives what the others at the table lost. A ramsch
    # tie's second seat (`Game.ramsch_tie`) scores what the declarer seat scores.
    own: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}
    per_table: dict[int, list[int]] = {}
    for table_id, declarer, tie, n, won, lost, gp, lp, lo, provisional in (
        games.values("table_id", "declarer", "ramsch_tie")
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
        .values_list(
            "table_id",
            "declarer",
            "ramsch_tie",
            "n",
            "won",
            "lost",
            "gp",
            "lp",
            "lo",
            "provisional",
        )
    ):
        lo = lo or 0
        for seat in (declarer, tie):
            if seat is not None:
                sums = own.get((table_id, seat), (0, 0, 0, 0, 0))
                figures = (gp or 0, won, lost, lp or 0, lo)
                own[table_id, seat] = tuple(a + b for a, b in zip(sums, figures, strict=True))
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


def totals_of_rows(*, size: int, games, penalties) -> dict[int, dict]:
    """Seat number → its totals (`TOTAL_FIELDS`) from one table's games and penalties in
    memory, as `seat_lines_from_games` computes them from the database (no second copy: a
    table written whole, as an import writes it, has no disputed rows)."""
    own = {seat: [0, 0, 0, 0, 0] for seat in range(1, size + 1)}
    table_lost = table_lo = played = provisional = 0
    for game in games:
        played += 1
        provisional += game.provisional
        table_lost += game.is_lost
        table_lo += game.list_others
        for seat in (game.declarer, game.ramsch_tie):  # a ramsch tie scores both seats
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
    totals = {}
    for seat, (gp, won, lost, lp, lo) in own.items():
        fine = fines[seat]
        totals[seat] = {
            "game_points": gp + fine,
            "won": won,
            "lost": lost,
            "others_lost": table_lost - lost,
            "list_points": lp + table_lo - lo + fine,
            "penalties": fine,
            "games_played": played,
            "provisional": bool(provisional),
        }
    return totals


def _write(lines: list[SeatLine]) -> int:
    if len(lines) <= SMALL_WRITE:
        # One table's seats (every game entered): an UPDATE per seat costs a third of
        # bulk_update's, whose CASE per field and seat takes longer to build than to run.
        for line in lines:
            Seat.objects.filter(pk=line.seat_id).update(
                **{name: getattr(line, SEAT_LINE_NAME.get(name, name)) for name in TOTAL_FIELDS}
            )
        return len(lines)
    seats = []
    for line in lines:
        seat = Seat(pk=line.seat_id)
        for name in TOTAL_FIELDS:
            setattr(seat, name, getattr(line, SEAT_LINE_NAME.get(name, name)))
        seats.append(seat)
    Seat.objects.bulk_update(seats, TOTAL_FIELDS, batch_size=REBUILD_BATCH)
    return len(seats)


def seat_totals_refresh(*, table_ids: Iterable[int]) -> int:
    """Write the totals of every seat at the given tables from their games; returns the
    number of seats. Call it in the transaction of the write that changed the sheets."""
    table_ids = list(table_ids)
    if not table_ids:
        return 0
    with transaction.atomic():
        return _write(seat_lines_from_games(Seat.objects.filter(table_id__in=table_ids)))


def seat_totals_rebuild(*, tournament: Tournament | None = None) -> int:
    """Write every seat's totals again (one tournament's, or the whole database's)."""
    tournaments = (
        [tournament.pk]
        if tournament is not None
        else list(Tournament.objects.order_by("pk").values_list("pk", flat=True))
    )
    count = 0
    with transaction.atomic():
        for tournament_id in tournaments:
            count += _write(
                seat_lines_from_games(Seat.objects.filter(series__tournament_id=tournament_id))
            )
    return count
