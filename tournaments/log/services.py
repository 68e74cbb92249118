"""Writes of the action log, called by the other subjects' services inside their own
transaction, so that an action and its log line commit or roll back together.

A form that creates something carries a *once key* (an idempotency key, a fresh UUID per
rendered form, `{% once_key %}`): the service checks it first (`check_once`) and stores it
with its log line; the same form sent again (a double click, a resent request, twenty
concurrent copies) finds the key taken and is answered as a replay (`Replay`), changing
nothing. The unique index on `ActionLog.key` settles a race between concurrent copies.
"""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import ActionLog, Table, Tournament, has_control_characters
from tournaments.permissions import acting_user
from tournaments.phrases import phrases_of

Kind = ActionLog.Kind


class Replay(UserError):
    """The same form was sent again: what it asked for is already done (once)."""

    def __init__(self, message=None):
        super().__init__(
            message or _("This was already done: the form was sent twice and counts once."),
            code="replay",
        )


def once_key(raw) -> str | None:
    """The once key of a form as stored (a UUID's text), None when absent or malformed."""
    if raw is None or raw == "":
        return None
    try:
        return str(uuid.UUID(str(raw)[:64]))
    except (TypeError, ValueError, AttributeError):
        return None


def check_once(key: str | None):
    """Raise `Replay` when an action with this once key is already logged."""
    if key and ActionLog.objects.filter(key=key).exists():
        raise Replay()


def _plain(value):
    """A value as JSON keeps it (amounts and dates as text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def clean_reason(reason: str | None) -> str:
    """A reason as typed, checked like every text input (no control characters)."""
    reason = reason or ""
    if not isinstance(reason, str) or has_control_characters(reason):
        raise UserError(
            _("Remove the control character (such as NUL or a line break)."), field="reason"
        )
    return reason.strip()[:200]


def action_record(
    *,
    tournament: Tournament | None,
    kind: str,
    club=None,
    league=None,
    user=None,
    by_name: str = "",
    series_number: int | None = None,
    table: Table | None = None,
    details: dict | None = None,
    reason: str = "",
    key: str | None = None,
) -> ActionLog:
    """Log one action; call it inside the action's own transaction.

    `table` gives the series and table numbers; `key` (see `once_key`) makes a second
    attempt of the same form raise `Replay`, rolling the caller's transaction back.
    """
    if kind not in Kind.values:
        raise ValueError(f"unknown action kind {kind!r}")
    if table is not None:
        series_number = table.series.number
    entry = ActionLog(
        tournament_id=tournament.pk if tournament is not None else None,
        club_id=(
            club.pk
            if club is not None
            else (tournament.club_id if tournament is not None else None)
        ),
        league_id=league.pk if league is not None else None,
        kind=kind,
        user=acting_user(user),
        by_name=by_name[:150],
        series_number=series_number,
        table_number=table.number if table is not None else None,
        details=_plain(details or {}),
        reason=clean_reason(reason),
        phrases=phrases_of(by_name=by_name, reason=reason),
        key=key or None,
    )
    try:
        # A savepoint only where a key may clash (a refused entry without a key fails the
        # caller's transaction as any refused write does): two queries less for the rest.
        with transaction.atomic(savepoint=key is not None):
            entry.save()
    except IntegrityError:
        if key and ActionLog.objects.filter(key=key).exists():
            raise Replay() from None
        raise
    return entry
