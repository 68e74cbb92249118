"""Writes of the draw: seat a series (at random or seeded by the standings), draw it again,
swap two seats, close, reopen or remove a series.

The seating itself is `draw.engine` (pure Python, rules §4); this module gives it the
entrants, the standings and the earlier opponents, stores the tables and seats, and issues
the tables' phone links (`entry.services.table_links_issue`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.draw import engine as draw_engine
from tournaments.draw.selectors import previous_opponents
from tournaments.entry.services import table_links_issue
from tournaments.errors import UserError
from tournaments.models import Game, Registration, Seat, Series, Table, Tournament
from tournaments.sheets.totals import seat_totals_refresh
from tournaments.standings.selectors import tournament_standings
from tournaments.versions import version_bump


def _draw_tables(
    *, tournament: Tournament, method: str, seed: int, keep_apart: str, number: int
) -> list[list[int]]:
    """The seating of series `number`; earlier series give the previous opponents."""
    if keep_apart not in Series.KeepApart.values:
        raise UserError(_("Choose whom the draw keeps apart."), field="keep_apart")
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player__club")
    )
    entrants = [
        draw_engine.Entrant(
            id=r.player_id,
            team=r.player.team,
            club=r.player.club.name if r.player.club else "",
        )
        for r in registrations
    ]
    ranking = None
    if method == Series.DrawMethod.STANDINGS:
        # Seeding needs final standings: every sheet of the earlier series closed.
        open_sheets = (
            Table.objects.filter(
                series__tournament=tournament, series__number__lt=number, closed=False
            )
            .order_by("series__number", "number")
            .values_list("series__number", "number")
        )
        if open_sheets:
            series_number, table_number = open_sheets[0]
            raise UserError(
                _(
                    "The standings are not final: table %(table)s of series %(series)s is "
                    "still open. Close every sheet before a draw seeded by the standings."
                )
                % {"table": table_number, "series": series_number}
            )
        ranked = [row.player_id for row in tournament_standings(tournament)]
        registered = {e.id for e in entrants}
        ranking = [pid for pid in ranked if pid in registered]
        # Players without a result yet (late entries) go to the end, in name order.
        names = {r.player_id: r.player.name.casefold() for r in registrations}
        ranking += sorted(registered - set(ranking), key=lambda pid: (names[pid], pid))
    try:
        return draw_engine.draw(
            entrants,
            seed=seed,
            ranking=ranking,
            keep_apart=keep_apart,
            previous_opponents=previous_opponents(tournament, before=number),
        )
    except draw_engine.DrawError as error:
        raise UserError(_draw_message(error, len(entrants)), code=error.code) from None


def _draw_message(error: draw_engine.DrawError, count: int) -> str:
    if error.code == "impossible_split":
        return _(
            "%(count)s players cannot be split into tables of 3 and 4 (rules §4). Add or "
            "remove a player: 3, 4 and every number from 6 up can be seated."
        ) % {"count": count}
    return str(error)


def _create_tables(series: Series, tables: Sequence[Sequence[int]]):
    table_rows = Table.objects.bulk_create(
        [
            Table(series=series, number=i, size=len(players))
            for i, players in enumerate(tables, start=1)
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(
                table=table,
                table_size=table.size,
                series=series,
                number=seat,
                player_id=player_id,
            )
            for table, players in zip(table_rows, tables, strict=True)
            for seat, player_id in enumerate(players, start=1)
        ]
    )


def series_draw(
    *,
    tournament: Tournament,
    method: str = Series.DrawMethod.RANDOM,
    seed: int | None = None,
    keep_apart: str = "team",
    user: AbstractBaseUser | None = None,
) -> Series:
    """Draw the next series: split into 4- and 3-tables and seat everyone (rules §4)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status == Tournament.Status.FINISHED:
            raise UserError(_("The tournament is finished."))
        number = (tournament.series.aggregate(n=Max("number"))["n"] or 0) + 1
        tables = _draw_tables(
            tournament=tournament, method=method, seed=seed, keep_apart=keep_apart, number=number
        )
        series = Series.objects.create(
            tournament=tournament,
            number=number,
            draw_seed=seed,
            draw_method=method,
            keep_apart=keep_apart,
        )
        _create_tables(series, tables)
        table_links_issue(series=series)
        version_bump(tournament_id=tournament.pk)
    return series


def series_redraw(
    *,
    series: Series,
    seed: int | None = None,
    keep_apart: str | None = None,
    user: AbstractBaseUser | None = None,
) -> Series:
    """Draw a series again, before its first game (`keep_apart` None: as it was drawn)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        if series.started or Game.objects.filter(table__series=series).exists():
            raise UserError(_("Games have been entered; the series can no longer be redrawn."))
        series.tables.all().delete()
        # The series being redrawn is not a previous series: its pairs are gone with it.
        if keep_apart is None:
            keep_apart = series.keep_apart
        tables = _draw_tables(
            tournament=series.tournament,
            method=series.draw_method,
            seed=seed,
            keep_apart=keep_apart,
            number=series.number,
        )
        series.draw_seed = seed
        series.keep_apart = keep_apart
        series.save(update_fields=["draw_seed", "keep_apart"])
        _create_tables(series, tables)
        table_links_issue(series=series)
        version_bump(tournament_id=series.tournament_id)
    return series


def seat_swap(*, seat_a: Seat, seat_b: Seat, user: AbstractBaseUser | None = None):
    """Swap two players' seats in a series that has not started."""
    with transaction.atomic():
        a = Seat.objects.select_for_update().select_related("series").get(pk=seat_a.pk)
        b = Seat.objects.select_for_update().get(pk=seat_b.pk)
        if a.series_id != b.series_id:
            raise UserError(_("Both seats must be in the same series."))
        if a.series.started:
            raise UserError(_("The series has started; seats can no longer be swapped."))
        if a.pk == b.pk:
            return
        player_a, player_b = a.player_id, b.player_id
        # Two steps keep the (series, player) constraint satisfied at every statement.
        Seat.objects.filter(pk=b.pk).delete()
        a.player_id = player_b
        a.save(update_fields=["player"])
        Seat.objects.create(
            pk=b.pk,
            table_id=b.table_id,
            series_id=b.series_id,
            number=b.number,
            table_size=b.table_size,
            player_id=player_a,
        )
        # A penalty may stand before the first game: it stays with the seat number.
        seat_totals_refresh(table_ids={a.table_id, b.table_id})
        version_bump(tournament_id=a.series.tournament_id)


def series_close(*, series: Series, user=None) -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        open_tables = list(series.tables.filter(closed=False).values_list("number", flat=True))
        if open_tables:
            raise UserError(
                _("Close every sheet first; still open: table %(tables)s.")
                % {"tables": ", ".join(str(n) for n in open_tables)}
            )
        series.status = Series.Status.CLOSED
        series.save(update_fields=["status"])
        version_bump(tournament_id=series.tournament_id)
    return series


def series_reopen(*, series: Series, user=None) -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        series.status = Series.Status.OPEN
        series.save(update_fields=["status"])
        Tournament.objects.filter(pk=series.tournament_id).update(status=Tournament.Status.RUNNING)
        version_bump(tournament_id=series.tournament_id)
    return series


def series_delete(*, series: Series, user=None):
    """Remove the last series of a tournament while no game is entered (a wrong draw)."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        last = series.tournament.series.aggregate(n=Max("number"))["n"]
        if series.number != last:
            raise UserError(_("Only the last series can be removed."))
        if Game.objects.filter(table__series=series).exists():
            raise UserError(_("Games have been entered; the series cannot be removed."))
        series.delete()
        version_bump(tournament_id=series.tournament_id)
