"""Writes to a table's score sheet at the desk: enter, correct and delete games, penalties,
closing a sheet against the paper totals and reopening it.

Every function runs in one transaction, locks the table's row first (so that two writers
to one sheet take turns) and keeps the sheet's history (`GameChange`, `PenaltyChange`):
who changed what, when and why. The values themselves come from `games.game_build`; the
seats' totals are written again in the same transaction (`sheets.totals`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.errors import UserError, validated
from tournaments.games import SHEET_FIELDS, game_build
from tournaments.models import (
    Game,
    GameChange,
    Penalty,
    PenaltyChange,
    Series,
    Table,
    Tournament,
)
from tournaments.permissions import acting_user
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.totals import seat_totals_refresh
from tournaments.versions import version_bump


def game_snapshot(game: Game) -> dict:
    """A game's row and values as the sheet's history keeps them (`GameChange.diff`)."""
    return {name: getattr(game, name) for name in (*SHEET_FIELDS, "value", "score")}


def jsonable(data: dict) -> dict:
    """`data` with dates written as ISO text, so that it can be stored as JSON."""

    def convert(value):
        if isinstance(value, list):
            return [convert(v) for v in value]
        if isinstance(value, datetime.date | datetime.datetime):
            return value.isoformat()
        return value

    return {key: convert(value) for key, value in data.items()}


def locked_table(table: Table) -> Table:
    """The table read again under a row lock: writers to one sheet take turns."""
    # of=("self",): lock this table's row only, not its series and tournament (on PostgreSQL
    # that would make every table's phones wait for each other).
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("series__tournament")
        .get(pk=table.pk)
    )


def check_series_open(table: Table):
    """A closed series takes no change to its sheets until it is reopened."""
    if table.series.status == Series.Status.CLOSED:
        raise UserError(_("This series is closed; reopen it to change its sheets."))


def _check_sheet_open(table: Table):
    """A closed sheet is final: reopen it before changing anything on it."""
    check_series_open(table)
    if table.closed:
        raise UserError(_("This sheet is closed; reopen it to change it."))


def game_record(*, table: Table, data: Mapping, user: AbstractBaseUser | None = None) -> Game:
    """Enter the next row of a table's sheet."""
    with transaction.atomic():
        table = locked_table(table)
        check_series_open(table)
        if table.closed:
            raise UserError(_("This sheet is closed; reopen it to enter more games."))
        number = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
        limit = table.series.tournament.games_per_series(table.size)
        if number > limit:
            raise UserError(
                _("The sheet is complete: a table of %(size)s plays %(limit)s games.")
                % {"size": table.size, "limit": limit}
            )
        game = game_build(table=table, number=number, data=data)
        game.version = version_bump(tournament_id=table.series.tournament_id)
        game.save()
        seat_totals_refresh(table_ids=[table.pk])
        GameChange.objects.create(
            table=table,
            game=game,
            game_number=number,
            action=GameChange.Action.CREATED,
            user=acting_user(user),
            diff=jsonable(game_snapshot(game)),
        )
        mark_started(table.series)
    return game


def mark_started(series: Series):
    """The first game starts the series (no more seat swaps) and the tournament."""
    if not series.started:
        Series.objects.filter(pk=series.pk).update(started=True)
        series.started = True
    tournament = series.tournament
    if tournament.status == Tournament.Status.PLANNED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
        tournament.status = Tournament.Status.RUNNING


def games_bulk_record(*, table: Table, rows: Sequence[Mapping]) -> list[Game]:
    """Append many rows to a sheet at once (generated or imported data; no history rows).

    Each row is checked as `game_record` checks it; one bad row rejects them all.
    """
    with transaction.atomic():
        table = locked_table(table)
        check_series_open(table)
        if table.closed:
            raise UserError(_("This sheet is closed; reopen it to enter more games."))
        start = table.games.aggregate(n=Max("number"))["n"] or 0
        limit = table.series.tournament.games_per_series(table.size)
        if start + len(rows) > limit:
            raise UserError(
                _("The sheet is complete: a table of %(size)s plays %(limit)s games.")
                % {"size": table.size, "limit": limit}
            )
        games = [
            game_build(table=table, number=number, data=row)
            for number, row in enumerate(rows, start=start + 1)
        ]
        if games:
            version = version_bump(tournament_id=table.series.tournament_id)
            for game in games:
                game.version = version
        Game.objects.bulk_create(games, batch_size=1000)
        if games:
            seat_totals_refresh(table_ids=[table.pk])
            mark_started(table.series)
    return games


def game_correct(
    *, game: Game, data: Mapping, user: AbstractBaseUser | None = None, reason: str = ""
) -> Game:
    """Replace the declared fields of an entered game; the change is kept in its history."""
    with transaction.atomic():
        table = locked_table(game.table)
        _check_sheet_open(table)
        current = Game.objects.select_for_update().get(pk=game.pk)
        before = game_snapshot(current)
        updated = game_build(table=table, number=current.number, data=data)
        updated.pk = current.pk
        updated.created = current.created
        # A correction is not a confirmation; the phone's row id stays for resends.
        updated.provisional, updated.client_id = current.provisional, current.client_id
        after = game_snapshot(updated)
        diff = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
        if not diff:
            return current
        updated.version = version_bump(tournament_id=table.series.tournament_id)
        updated.save()
        seat_totals_refresh(table_ids=[table.pk])
        GameChange.objects.create(
            table=table,
            game=updated,
            game_number=updated.number,
            action=GameChange.Action.CORRECTED,
            user=acting_user(user),
            diff=jsonable(diff),
            reason=reason[:200],
        )
    return updated


def game_delete(*, game: Game, user: AbstractBaseUser | None = None, reason: str = ""):
    """Delete the last row of a sheet (a row in the middle is corrected instead)."""
    with transaction.atomic():
        table = locked_table(game.table)
        _check_sheet_open(table)
        last = table.games.aggregate(n=Max("number"))["n"]
        if game.number != last:
            raise UserError(
                _("Only the last game of a sheet can be deleted; correct game %(n)s instead.")
                % {"n": game.number}
            )
        GameChange.objects.create(
            table=table,
            game=None,
            game_number=game.number,
            action=GameChange.Action.DELETED,
            user=acting_user(user),
            diff=jsonable(game_snapshot(game)),
            reason=reason[:200],
        )
        game.delete()
        seat_totals_refresh(table_ids=[table.pk])
        version_bump(tournament_id=table.series.tournament_id)


def penalty_record(
    *, table: Table, seat: int, points: int, reason: str = "", user=None
) -> Penalty:
    """Fine a seat (rules §3.6); kept in the sheet's penalty history."""
    with transaction.atomic():
        table = locked_table(table)
        _check_sheet_open(table)
        if not 1 <= seat <= table.size:
            raise UserError(_("Seat %(seat)s does not exist at this table.") % {"seat": seat})
        if points == 0:
            raise UserError(_("A penalty of 0 points changes nothing."))
        penalty = validated(
            Penalty(
                table=table,
                table_size=table.size,
                seat=seat,
                points=points,
                reason=reason.strip(),
            ),
            exclude=["table"],
        )
        penalty.save()
        _penalty_history(penalty, action=PenaltyChange.Action.CREATED, user=user)
        seat_totals_refresh(table_ids=[table.pk])
        version_bump(tournament_id=table.series.tournament_id)
    return penalty


def _penalty_history(penalty: Penalty, *, action: str, user, reason: str = ""):
    """One line of the penalty history: the penalty as it is (it is gone after a deletion)."""
    PenaltyChange.objects.create(
        table=penalty.table,
        penalty=None if action == PenaltyChange.Action.DELETED else penalty,
        action=action,
        seat=penalty.seat,
        points=penalty.points,
        penalty_reason=penalty.reason,
        user=acting_user(user),
        reason=reason.strip()[:200],
    )


def penalty_delete(*, penalty: Penalty, user=None, reason: str = ""):
    """Remove a mistyped penalty; its history keeps what it was, who removed it and why."""
    with transaction.atomic():
        table = locked_table(penalty.table)
        _check_sheet_open(table)
        penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
        _penalty_history(penalty, action=PenaltyChange.Action.DELETED, user=user, reason=reason)
        penalty.delete()
        seat_totals_refresh(table_ids=[table.pk])
        version_bump(tournament_id=table.series.tournament_id)


@dataclass(frozen=True)
class TotalDifference:
    seat: int
    player: str
    paper: int
    computed: int


def table_close(
    *,
    table: Table,
    paper_totals: Mapping[int, int] | None = None,
    accept_differences: bool = False,
    user: AbstractBaseUser | None = None,
) -> list[TotalDifference]:
    """Close a sheet: it must hold the whole series; typed paper totals are compared.

    Returns the differences between the paper totals and the site's; with differences the
    sheet stays open unless `accept_differences` (the paper list is wrong).
    """
    with transaction.atomic():
        table = locked_table(table)
        check_series_open(table)
        played = table.games.count()
        limit = table.series.tournament.games_per_series(table.size)
        if played != limit:
            raise UserError(
                _("The sheet holds %(played)s of %(limit)s games; it cannot be closed yet.")
                % {"played": played, "limit": limit}
            )
        differences = []
        if paper_totals:
            totals = {t.seat: t for t in table_seat_totals(table)}
            for seat, paper in sorted(paper_totals.items()):
                if seat not in totals:
                    raise UserError(_("Seat %(seat)s does not exist.") % {"seat": seat})
                if totals[seat].list_points != paper:
                    differences.append(
                        TotalDifference(
                            seat, totals[seat].player_name, paper, totals[seat].list_points
                        )
                    )
            table.paper_totals = {str(seat): paper for seat, paper in paper_totals.items()}
        if differences and not accept_differences:
            table.save(update_fields=["paper_totals"])
            return differences
        table.closed = True
        table.save(update_fields=["closed", "paper_totals"])
        version_bump(tournament_id=table.series.tournament_id)
    return differences


def table_reopen(*, table: Table, user=None) -> Table:
    with transaction.atomic():
        table = locked_table(table)
        check_series_open(table)
        table.closed = False
        table.save(update_fields=["closed"])
        version_bump(tournament_id=table.series.tournament_id)
    return table
