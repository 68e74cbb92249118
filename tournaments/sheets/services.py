"""Writes to a table's score sheet at the desk: enter, correct and delete games, penalties,
closing a sheet against the paper totals and reopening it.

Every function writes through the one writing step (`sheets.writing.sheet_write`: the
table's row locked first, so that two writers to one sheet take turns; the seats' totals
and the tournament's version after the writer's changes, in the same transaction) and keeps
the sheet's history (`GameChange`, `PenaltyChange`): who changed what, when and why. The
values themselves come from `games.game_build`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError, check_text, validated
from tournaments.formats import game_field_label, game_value_shown
from tournaments.games import (
    SHEET_FIELDS,
    game_build,
    game_mapping_of,
    penalties_follow,
    penalty_charges,
)
from tournaments.lifecycle import check_not_finished
from tournaments.log.services import Kind, Replay, action_record, check_once, clean_reason
from tournaments.models import (
    ActionLog,
    Game,
    GameChange,
    Penalty,
    PenaltyChange,
    RuleSet,
    Series,
    Table,
    Tournament,
)
from tournaments.permissions import acting_user
from tournaments.phrases import phrase, phrases_of
from tournaments.ratings.services import ratings_after_close, ratings_after_reopen
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.writing import sheet_write


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


def check_series_open(table: Table):
    """A closed series takes no change to its sheets until it is reopened; a finished
    tournament none until it is reopened."""
    check_not_finished(table.series.tournament_id, table_id=table.pk)
    if table.series.status == Series.Status.CLOSED:
        raise UserError(_("This series is closed; reopen it to change its sheets."))


def _check_sheet_open(table: Table):
    """A closed sheet is final: reopen it before changing anything on it."""
    check_series_open(table)
    if table.closed:
        raise UserError(_("This sheet is closed; reopen it to change it."))


def check_row_number(*, number: int | None, expected: int, limit: int, size: int):
    """A row is entered as the game its form (the desk's, a phone's) says it fills: the
    next one, on a sheet that is not full yet. The same messages and codes at the desk and
    on the phones."""
    if number is not None and number < expected:
        raise UserError(
            _(
                "Game %(n)s is already on the sheet (entered elsewhere meanwhile). Check the "
                "sheet: this row would now be game %(next)s."
            )
            % {"n": number, "next": expected},
            code="number_taken",
        )
    if number is not None and number > expected:
        raise UserError(
            _("Game %(n)s cannot be entered before game %(next)s.")
            % {"n": number, "next": expected},
            code="number_gap",
        )
    if expected > limit:
        raise UserError(
            _("The sheet is complete: a table of %(size)s plays %(limit)s games.")
            % {"size": size, "limit": limit},
            code="complete",
        )


def _check_replay(table: Table, *, number: int, data: Mapping):
    """The desk's row form says which game it fills: a row sent twice (a double click, a
    resent request, the phone's copy of the same game) is a replay, once."""
    stored = table.games.filter(number=number).first()
    try:
        sent = game_mapping_of(game_build(table=table, number=number, data=data))
    except UserError:
        sent = None
    if stored is not None and sent is not None and game_mapping_of(stored) == sent:
        raise Replay(
            _("Game %(n)s is already on the sheet: the row was sent twice and counts once.")
            % {"n": number}
        )


def sheet_changed(table: Table):
    """A change to a sheet's rows: the paper totals typed for it no longer apply."""
    if table.paper_totals:
        table.paper_totals = {}
        Table.objects.filter(pk=table.pk).update(paper_totals={})


def game_record(
    *,
    table: Table,
    data: Mapping,
    user: AbstractBaseUser | None = None,
    number: int | None = None,
) -> Game:
    """Enter the next row of a table's sheet; `number` is the game the form filled (a repeat
    of a stored row raises `Replay`)."""
    with sheet_write(table) as write:
        table = write.table
        check_series_open(table)
        if table.closed:
            raise UserError(_("This sheet is closed; reopen it to enter more games."))
        expected = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
        if number is not None and number < expected:
            _check_replay(table, number=number, data=data)
        check_row_number(
            number=number,
            expected=expected,
            limit=table.series.tournament.games_per_series(table.size),
            size=table.size,
        )
        number = expected
        game = game_build(table=table, number=number, data=data)
        game.save()
        write.stamp(game)
        GameChange.objects.create(
            table=table,
            game=game,
            game_number=number,
            action=GameChange.Action.CREATED,
            user=acting_user(user),
            diff=jsonable(game_snapshot(game)),
        )
        mark_started(table.series)
        sheet_changed(table)
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
    with sheet_write(table) as write:
        table = write.table
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
        if not games:
            write.unchanged()
            return games
        Game.objects.bulk_create(games, batch_size=1000)
        write.stamp(*games)
        mark_started(table.series)
    return games


def _change_lines(change: GameChange) -> list[str]:
    """A history row in words: "card points 78 → 90", or what happened to the row."""
    if change.action != GameChange.Action.CORRECTED:
        return [str(change.get_action_display())]
    return [
        f"{game_field_label(name)} {game_value_shown(name, old)} → {game_value_shown(name, new)}"
        for name, (old, new) in change.diff.items()
        if name in SHEET_FIELDS  # what was declared; the value and score follow from it
    ]


def game_seen(game: Game) -> int:
    """A game's version as a correcting form shows it: the last line of its history (0:
    none yet). Every person's change to a row adds a line, under the table's lock."""
    last = (
        GameChange.objects.filter(table_id=game.table_id, game_number=game.number)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return last or 0


def check_unchanged_since(game: Game, seen: int | None):
    """Refuse a correction made on a game as it was when its form was opened (`seen`, see
    `game_seen`) when it has changed since: the other change is named (who, when, what)
    instead of being overwritten unseen. None: the form did not say (no check)."""
    if seen is None:
        return
    changes = list(
        GameChange.objects.filter(table_id=game.table_id, game_number=game.number, pk__gt=seen)
        .select_related("user")
        .order_by("pk")
    )
    if not changes:
        return
    last = changes[-1]
    who = (
        (last.user.get_full_name() or last.user.get_username())
        if last.user is not None
        else last.by_name or _("someone")
    )
    what = ", ".join(line for change in changes for line in _change_lines(change))
    raise UserError(
        _(
            "This game was changed by %(who)s at %(time)s since you opened it: %(what)s. "
            "Nothing was saved; check the game and save again to replace it."
        )
        % {"who": who, "time": timezone.localtime(last.at).strftime("%H:%M"), "what": what},
        code="changed_meanwhile",
    )


def game_correct(
    *,
    game: Game,
    data: Mapping,
    user: AbstractBaseUser | None = None,
    reason: str = "",
    seen: int | None = None,
) -> Game:
    """Replace the declared fields of an entered game; the change is kept in its history.

    `seen` is the game's version as the correcting form showed it (`game_seen`): a game
    changed since is not overwritten (`check_unchanged_since`)."""
    with sheet_write(game.table) as write:
        table = write.table
        _check_sheet_open(table)
        current = Game.objects.select_for_update().get(pk=game.pk)
        check_unchanged_since(current, seen)
        before = game_snapshot(current)
        updated = game_build(table=table, number=current.number, data=data)
        updated.pk = current.pk
        updated.created = current.created
        # A correction is not a confirmation; the phone's row id stays for resends.
        updated.provisional, updated.client_id = current.provisional, current.client_id
        after = game_snapshot(updated)
        diff = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
        if not diff:
            write.unchanged()
            return current
        updated.save()
        write.stamp(updated)
        penalties_follow(game=updated)
        sheet_changed(table)
        GameChange.objects.create(
            table=table,
            game=updated,
            game_number=updated.number,
            action=GameChange.Action.CORRECTED,
            user=acting_user(user),
            diff=jsonable(diff),
            reason=clean_reason(reason),
            phrases=phrases_of(reason=reason),
        )
    return updated


def game_delete(*, game: Game, user: AbstractBaseUser | None = None, reason: str = ""):
    """Delete the last row of a sheet (a row in the middle is corrected instead)."""
    with sheet_write(game.table) as write:
        table = write.table
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
            reason=clean_reason(reason),
            phrases=phrases_of(reason=reason),
        )
        # Penalties charged at its value go with the game; their history says so.
        for penalty in game.penalties.all():
            _penalty_history(penalty, action=PenaltyChange.Action.DELETED, user=user)
        game.delete()
        sheet_changed(table)


def penalty_record(
    *, table: Table, seat: int, points: int, reason: str = "", user=None, key: str | None = None
) -> Penalty:
    """Fine a seat (rules §3.6); kept in the sheet's penalty history (`key`: the form's once
    key, a repeat raises `Replay`)."""
    with sheet_write(table) as write:
        table = write.table
        check_once(key)
        _check_sheet_open(table)
        if not 1 <= seat <= table.size:
            raise UserError(_("Seat %(seat)s does not exist at this table.") % {"seat": seat})
        if points == 0:
            raise UserError(_("A penalty of 0 points changes nothing."))
        check_text(reason, field="reason")
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
        action_record(
            tournament=table.series.tournament,
            kind=Kind.PENALTY,
            user=user,
            table=table,
            details={"seat": seat, "points": points},
            reason=penalty.reason,
            key=key,
        )
        sheet_changed(table)
    return penalty


def penalty_law_record(
    *, table: Table, number: int, seat: int, law: int, user=None
) -> list[Penalty]:
    """Charge a seat a 1908 penalty law at the value of game `number` (law 8 also credits
    the declarer: two rows); the points come from the engine (`games.penalty_charges`)."""
    with sheet_write(table) as write:
        table = write.table
        _check_sheet_open(table)
        if table.series.tournament.rules != RuleSet.NA:
            raise UserError(_("Penalties at a game's value are North American laws (1908)."))
        game = table.games.filter(number=number).first()
        if game is None:
            raise UserError(
                _("Game %(number)s has not been entered.") % {"number": number}, field="game"
            )
        if game.penalties.filter(law=law).exists():
            raise UserError(
                _("Game %(number)s already carries a penalty under law %(law)s.")
                % {"number": number, "law": law},
                field="law",
            )
        reason = phrase("penalty_law", law=law, game=number)
        penalties = []
        for charged_seat, points in penalty_charges(game=game, seat=seat, law=law):
            penalty = validated(
                Penalty(
                    table=table,
                    table_size=table.size,
                    seat=charged_seat,
                    points=points,
                    reason=reason[:120],
                    phrases=phrases_of(reason=reason),
                    game=game,
                    law=law,
                ),
                exclude=["table", "game"],
            )
            penalty.save()
            _penalty_history(penalty, action=PenaltyChange.Action.CREATED, user=user)
            penalties.append(penalty)
        sheet_changed(table)
    return penalties


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
        reason=clean_reason(reason),
        phrases={
            **(
                {"penalty_reason": penalty.phrases["reason"]}
                if "reason" in penalty.phrases
                else {}
            ),
            **phrases_of(reason=reason),
        },
    )


def penalty_delete(*, penalty: Penalty, user=None, reason: str = ""):
    """Remove a mistyped penalty; its history keeps what it was, who removed it and why."""
    with sheet_write(penalty.table) as write:
        table = write.table
        _check_sheet_open(table)
        penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
        # Law 8's charge and credit are one penalty: both go.
        rows = (
            list(Penalty.objects.filter(game=penalty.game, law=penalty.law))
            if penalty.law
            else [penalty]
        )
        for row in rows:
            _penalty_history(row, action=PenaltyChange.Action.DELETED, user=user, reason=reason)
            row.delete()
        sheet_changed(table)


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
    short_reason: str = "",
) -> list[TotalDifference]:
    """Close a sheet: it must hold the whole series; typed paper totals are compared.

    A sheet with fewer games (a table that stopped early) is closed only by the director
    with a `short_reason`, shown on the sheet and in the log. A sheet closed before and
    changed since needs the paper totals again. Returns the differences between the paper
    totals and the site's; with differences the sheet stays open unless
    `accept_differences` (the paper list is wrong).
    """
    short_reason = clean_reason(short_reason)
    with sheet_write(table) as write:
        table = write.table
        check_series_open(table)
        if table.closed:
            write.unchanged()
            return []
        played = table.games.count()
        limit = table.series.tournament.games_per_series(table.size)
        if played > limit or (played < limit and not short_reason):
            raise UserError(
                _(
                    "The sheet holds %(played)s of %(limit)s games; it cannot be closed yet "
                    "(to close it short, give the reason)."
                )
                % {"played": played, "limit": limit},
                field="short_reason",
            )
        closed_before = ActionLog.objects.filter(
            tournament_id=table.series.tournament_id,
            kind=Kind.SHEET_CLOSED,
            series_number=table.series.number,
            table_number=table.number,
        ).exists()
        if closed_before and not paper_totals:
            raise UserError(
                _(
                    "The sheet was closed before and changed since: enter the paper totals "
                    "again to close it."
                ),
                code="paper_totals_again",
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
        table.closed_short = short_reason if played < limit else ""
        if table.closed_short:
            write.relayout()  # the standings mark the sheet's players (`closed_short`)
        table.save(update_fields=["closed", "paper_totals", "closed_short"])
        ratings_after_close(table)
        action_record(
            tournament=table.series.tournament,
            kind=Kind.SHEET_CLOSED,
            user=user,
            table=table,
            details={
                "played": played,
                "length": limit,
                "paper_totals": table.paper_totals,
                "differences": [f"{d.seat}: {d.paper} / {d.computed}" for d in differences],
            },
            reason=table.closed_short,
        )
    return differences


def table_reopen(*, table: Table, user=None, reason: str = "") -> Table:
    with sheet_write(table) as write:
        table = write.table
        check_series_open(table)
        if not table.closed:
            write.unchanged()
            return table
        table.closed = False
        table.save(update_fields=["closed"])
        ratings_after_reopen(table)
        if table.closed_short:
            write.relayout()  # no longer closed short: the standings drop their mark
        action_record(
            tournament=table.series.tournament,
            kind=Kind.SHEET_REOPENED,
            user=user,
            table=table,
            reason=reason,
        )
    return table
