"""The version of a tournament: one counter per tournament, bumped by every write that
changes what its pages show.

`version_bump` runs inside the writer's transaction: the counter's row stays locked until
the write commits, so versions are handed out in commit order and a reader that has seen
version *n* has seen every write up to *n*. Page caches, ETags and the live feed key on it;
`changed` (when it last moved) is the API's Last-Modified.
"""

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now

from tournaments.models import Tournament


def version_bump(*, tournament_id: int) -> int:
    """Count one more change to a tournament; returns its new version.

    Call it last in the writer's transaction, so that the row lock is held briefly.
    """
    with transaction.atomic():
        Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1, changed=Now())
        return Tournament.objects.values_list("version", flat=True).get(pk=tournament_id)
