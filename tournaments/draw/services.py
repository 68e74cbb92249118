"""Writes of the draw: seat a series (at random, seeded by the standings, or spread by
rating), draw it again,
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
from tournaments.draw.selectors import drawn_registrations, previous_opponents, season_teams
from tournaments.entry.selectors import check_all_confirmed
from tournaments.entry.services import table_links_issue
from tournaments.errors import UserError
from tournaments.lifecycle import check_not_finished
from tournaments.log.services import Kind, Replay, action_record, check_once
from tournaments.models import Game, Registration, Seat, Series, Table, Tournament
from tournaments.ratings.selectors import rating_order
from tournaments.sheets.writing import tables_rewritten
from tournaments.standings.selectors import tournament_standings
from tournaments.versions import version_bump


def _draw_tables(
    *, tournament: Tournament, method: str, seed: int, keep_apart: str, number: int
) -> list[tuple[int | None, list[int]]]:
    """The seating of series `number` as (venue id, players) per table: a match day at
    venues draws each venue's players at that venue's tables; earlier series give the
    previous opponents."""
    if keep_apart not in Series.KeepApart.values:
        raise UserError(_("Choose whom the draw keeps apart."), field="keep_apart")
    registrations = drawn_registrations(tournament)
    teams = season_teams(tournament)
    entrants = [
        draw_engine.Entrant(
            id=r.player_id,
            team=teams[r.player_id][0] if r.player_id in teams else r.player.team,
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
    spread = method == Series.DrawMethod.RATING
    if spread:
        # By rating: the shown ratings best first, the unrated after them by name
        # (`rating_order`), dealt round the tables in a serpentine so that the strongest
        # do not meet (`draw.engine`, spread draw).
        ranking = rating_order(e.id for e in entrants)
    previous = previous_opponents(tournament, before=number)
    venues = list(tournament.venues.order_by("pk"))
    if not venues:
        drawn = _draw_group(
            entrants, seed, ranking, keep_apart, previous, tournament.five_tables, spread
        )
        return [(None, t) for t in drawn]
    player_names = {r.player_id: r.player.name for r in registrations}
    at_venue: dict[int, list[draw_engine.Entrant]] = {venue.pk: [] for venue in venues}
    for entrant in entrants:
        venue_id = teams.get(entrant.id, ("", None))[1]
        if venue_id is None:
            raise UserError(
                _(
                    "%(player)s plays for no team of a venue of this match day: put the "
                    "player's team at a venue, or remove the registration."
                )
                % {"player": player_names[entrant.id]}
            )
        at_venue[venue_id].append(entrant)
    tables = []
    for venue in venues:
        group = at_venue[venue.pk]
        if not group:
            continue
        ids = {e.id for e in group}
        try:
            drawn = _draw_group(
                group,
                seed,
                [pid for pid in ranking if pid in ids] if ranking is not None else None,
                keep_apart,
                previous,
                tournament.five_tables,
                spread,
            )
        except UserError as error:
            raise UserError(f"{venue.name}: {error}", code=error.code) from None
        tables += [(venue.pk, t) for t in drawn]
    return tables


def _draw_group(
    entrants, seed, ranking, keep_apart, previous, fives=False, spread=False
) -> list[list[int]]:
    try:
        return draw_engine.draw(
            entrants,
            seed=seed,
            ranking=ranking,
            keep_apart=keep_apart,
            previous_opponents=previous,
            fives=fives,
            spread=spread,
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


def _create_tables(series: Series, tables: Sequence[tuple[int | None, Sequence[int]]]):
    table_rows = Table.objects.bulk_create(
        [
            Table(series=series, number=i, size=len(players), venue_id=venue_id)
            for i, (venue_id, players) in enumerate(tables, start=1)
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
            for table, (_venue, players) in zip(table_rows, tables, strict=True)
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
    number: int | None = None,
    key: str | None = None,
) -> Series:
    """Draw the next series: split into 4- and 3-tables and seat everyone (rules §4).

    `number` is the series the form meant to draw: when it is already drawn (the same
    form sent twice) the call is a `Replay` and draws nothing; so is a repeated `key`.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_once(key)
        check_not_finished(tournament.pk)
        next_number = (tournament.series.aggregate(n=Max("number"))["n"] or 0) + 1
        if number is not None and number < next_number:
            raise Replay(
                _("Series %(n)s is already drawn: the form was sent twice and counts once.")
                % {"n": number}
            )
        number = next_number
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
        action_record(
            tournament=tournament,
            kind=Kind.DRAW,
            user=user,
            series_number=number,
            details={
                "seed": seed,
                "method": method,
                "keep_apart": keep_apart,
                "tables": len(tables),
            },
            key=key,
        )
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
        check_not_finished(series.tournament_id)
        if series.started or Game.objects.filter(table__series=series).exists():
            raise UserError(_("Games have been entered; the series can no longer be redrawn."))
        old_seed = series.draw_seed
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
        action_record(
            tournament=series.tournament,
            kind=Kind.REDRAW,
            user=user,
            series_number=series.number,
            details={"seed": [old_seed, seed], "keep_apart": keep_apart, "tables": len(tables)},
        )
        version_bump(tournament_id=series.tournament_id)
    return series


def seat_swap(*, seat_a: Seat, seat_b: Seat, user: AbstractBaseUser | None = None):
    """Swap two players' seats in a series that has not started."""
    with transaction.atomic():
        a = Seat.objects.select_for_update().select_related("series").get(pk=seat_a.pk)
        b = Seat.objects.select_for_update().get(pk=seat_b.pk)
        if a.series_id != b.series_id:
            raise UserError(_("Both seats must be in the same series."))
        check_not_finished(a.series.tournament_id)
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
        tables = dict(
            Table.objects.filter(pk__in=[a.table_id, b.table_id]).values_list("pk", "number")
        )
        names = dict(
            Registration.objects.filter(
                tournament_id=a.series.tournament_id, player_id__in=[player_a, player_b]
            ).values_list("player_id", "player__name")
        )
        action_record(
            tournament=a.series.tournament,
            kind=Kind.SEAT_SWAP,
            user=user,
            series_number=a.series.number,
            details={
                "seats": [
                    f"{tables[a.table_id]}/{a.number} {names.get(player_a, '')}",
                    f"{tables[b.table_id]}/{b.number} {names.get(player_b, '')}",
                ]
            },
        )
        # A penalty may stand before the first game: it stays with the seat number.
        tables_rewritten(
            tournament_id=a.series.tournament_id, table_ids=sorted({a.table_id, b.table_id})
        )


def series_close(*, series: Series, user=None) -> Series:
    """Close a series: every sheet closed, no game left provisional or disputed."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        if series.status == Series.Status.CLOSED:
            return series
        open_tables = list(series.tables.filter(closed=False).values_list("number", flat=True))
        if open_tables:
            raise UserError(
                _("Close every sheet first; still open: table %(tables)s.")
                % {"tables": ", ".join(str(n) for n in open_tables)}
            )
        check_all_confirmed(series.tables.all())
        series.status = Series.Status.CLOSED
        series.save(update_fields=["status"])
        action_record(
            tournament=series.tournament,
            kind=Kind.SERIES_CLOSED,
            user=user,
            series_number=series.number,
        )
        version_bump(tournament_id=series.tournament_id)
    return series


def series_reopen(*, series: Series, user=None, reason: str = "") -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        check_not_finished(series.tournament_id)
        if series.status == Series.Status.OPEN:
            return series
        series.status = Series.Status.OPEN
        series.save(update_fields=["status"])
        action_record(
            tournament=series.tournament,
            kind=Kind.SERIES_REOPENED,
            user=user,
            series_number=series.number,
            reason=reason,
        )
        Tournament.objects.filter(pk=series.tournament_id).update(status=Tournament.Status.RUNNING)
        version_bump(tournament_id=series.tournament_id)
    return series


def series_delete(*, series: Series, user=None):
    """Remove the last series of a tournament while no game is entered (a wrong draw)."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        check_not_finished(series.tournament_id)
        last = series.tournament.series.aggregate(n=Max("number"))["n"]
        if series.number != last:
            raise UserError(_("Only the last series can be removed."))
        if Game.objects.filter(table__series=series).exists():
            raise UserError(_("Games have been entered; the series cannot be removed."))
        action_record(
            tournament=series.tournament,
            kind=Kind.SERIES_REMOVED,
            user=user,
            series_number=series.number,
            details={"seed": series.draw_seed},
        )
        series.delete()
        version_bump(tournament_id=series.tournament_id)
