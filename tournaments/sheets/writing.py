"""The one writing step of score sheets: every writer of a sheet goes through `sheet_write`.

A write to a sheet (a game entered, corrected or deleted, a penalty, a second copy's row, a
confirmation, a settlement, closing or reopening) does the same four things in this order,
in one transaction:

1. lock the table's row (`locked_table`): writers to one sheet take turns;
2. the writer's own changes (the body of the `with`);
3. the seats' stored totals of the touched tables written again (`totals.seat_totals_refresh`),
   and, for a closed sheet, the ratings if its finishing order changed
   (`ratings.services.ratings_after_totals`);
4. the tournament's version bumped last (`versions.version_bump` with the sheets), so that
   its row lock is held from there to the commit only; the games the writer names
   (`SheetWrite.stamp`) are then given that version (`Game.version`: the live feed's
   "changed since"), in the same transaction, so a reader never sees one without the other.

A writer that finds nothing to change says so (`SheetWrite.unchanged`): no refresh, no
bump. A refused write raises, and the transaction takes everything back. A writer called
inside another's step (the settlement corrects games through `game_correct`) joins it: one
refresh and one version for the whole write.

Writes that change more than sheets (a draw's seat swap, an import) refresh the totals and
then bump the version without sheets through `tables_rewritten`. Nothing else calls
`seat_totals_refresh` or bumps a version with `sheets` (a test reads the source to see it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction
from django.db.models import Q

from tournaments.models import Game, Table
from tournaments.ratings.services import ratings_after_totals
from tournaments.sheets.totals import seat_totals_refresh
from tournaments.versions import version_bump


def locked_table(table: Table) -> Table:
    """The table read again under a row lock: writers to one sheet take turns."""
    # of=("self",): lock this table's row only, not its series and tournament (on PostgreSQL
    # that would make every table's phones wait for each other).
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("series__tournament")
        .get(pk=table.pk)
    )


class SheetWrite:
    """What one write to sheets touches: its tables (the first is `table`, locked) and the
    games to stamp with the write's version."""

    def __init__(self, table: Table):
        self.table = table
        self.tournament_id = table.series.tournament_id
        self.table_ids = [table.pk]
        self.games: list[Game] = []
        self.changed = True
        self.layout = False  # `relayout`: the standings change beyond the seats' totals
        self.version: int | None = None  # set when the step has ended with a bump

    def stamp(self, *games: Game):
        """Give these games (saved in this write) the write's version when it ends."""
        self.games.extend(games)

    def relayout(self):
        """The write changes what the standings show beyond the seats' totals (whether a
        sheet was closed short): standings kept for older versions are not advanced."""
        self.layout = True

    def unchanged(self):
        """Nothing was written: no totals to refresh, no new version."""
        self.changed = False

    def join(self, table: Table) -> Table:
        """Another table written in the same step (a writer called inside another's)."""
        if table.pk == self.table.pk:
            return self.table
        locked = locked_table(table)
        if locked.series.tournament_id != self.tournament_id:
            raise ValueError("one sheet write covers one tournament's tables")
        if locked.pk not in self.table_ids:
            self.table_ids.append(locked.pk)
        return locked


_CURRENT: ContextVar[SheetWrite | None] = ContextVar("sheet_write", default=None)


@contextmanager
def sheet_write(table: Table) -> Iterator[SheetWrite]:
    """One write to `table`'s sheet: lock, the writer's changes, totals, version (see above).

    `write.table` is the table read again under its lock; use it, not `table`.
    """
    outer = _CURRENT.get()
    if outer is not None:
        # Inside another writer's step: its table is locked already, and the totals and
        # the version come once, at its end (a nested writer that finds nothing to change
        # leaves the outer step's `changed` as it is).
        inner = SheetWrite(outer.join(table))
        yield inner
        if inner.changed:
            outer.changed = True
            outer.layout = outer.layout or inner.layout
            outer.games.extend(inner.games)
        return
    with transaction.atomic():
        write = SheetWrite(locked_table(table))
        token = _CURRENT.set(write)
        try:
            yield write
        finally:
            _CURRENT.reset(token)
        if write.changed:
            seat_totals_refresh(table_ids=write.table_ids)
            if write.table.closed:  # a closed sheet's order is a rated result
                ratings_after_totals(write.table)
            write.version = version_bump(
                tournament_id=write.tournament_id, sheets=write.table_ids, layout=write.layout
            )
            _stamp(write.games, write.version)


def _stamp(games: list[Game], version: int):
    """Give the written games the write's version: one UPDATE by their keys (a game that
    came back from `bulk_create` without one is found by its table and number)."""
    if not games:
        return
    keyed = Q(pk__in=[game.pk for game in games if game.pk is not None])
    for game in games:
        if game.pk is None:
            keyed |= Q(table_id=game.table_id, number=game.number)
    Game.objects.filter(keyed).update(version=version)
    for game in games:
        game.version = version


def tables_rewritten(*, tournament_id: int, table_ids: Iterable[int]):
    """A write that changed more than sheets (who sits where, a whole tournament): the
    given tables' seat totals written again, then a new version without sheets (the
    standings are computed afresh). Call it last, in the writer's transaction."""
    seat_totals_refresh(table_ids=table_ids)
    version_bump(tournament_id=tournament_id)
