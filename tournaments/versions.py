"""The version of a tournament: one counter per tournament, bumped by every write that
changes what its pages show.

`version_bump` runs inside the writer's transaction: the counter's row stays locked until
the write commits, so versions are handed out in commit order and a reader that has seen
version *n* has seen every write up to *n*. Page caches, ETags and the live feed key on it;
`changed` (when it last moved) is the API's Last-Modified.

A write to score sheets alone (games, penalties, confirmations, closing a sheet) names its
tables: they are stamped with the new version (`Table.sheet_version`) and the tournament's
`layout` stays, so the standings of the new version are those of an older one with those
tables' seats read again (`caching.advance.standings_advance`). Every other write
draws a new `layout`, and the standings are computed afresh.
"""

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now

from tournaments.models import Table, Tournament, layout_token


def version_bump(
    *, tournament_id: int, sheets: Iterable[int] | None = None, layout: bool = False
) -> int:
    """Count one more change to a tournament; returns its new version.

    `sheets`: the ids of the tables whose score sheets (and with them their seats' stored
    totals) are all this write changed. Without it, anything may have changed. `layout`:
    the sheets' write changed what the standings show beyond the seats' totals too (a sheet
    closed short, or such a sheet reopened): standings kept for older versions are made
    afresh.
    Call it last in the writer's transaction, so that the row lock is held briefly.
    """
    changes = {"version": F("version") + 1, "changed": Now()}
    if sheets is None or layout:
        changes["layout"] = layout_token()
    with transaction.atomic():
        Tournament.objects.filter(pk=tournament_id).update(**changes)
        version = Tournament.objects.values_list("version", flat=True).get(pk=tournament_id)
        if sheets is not None:
            Table.objects.filter(pk__in=list(sheets)).update(sheet_version=version)
        return version
