"""A tournament's lifecycle as the writes see it: a finished tournament is final.

Finishing (`registry.services.tournament_finish`, a league's `match_day_confirm`) makes the
results and the money final: every write that would change a result or a figure of the
money page (a registration, a withdrawal, a game, a correction, a penalty, a sheet or series
reopened, a draw, a payment, the prize plan, the fees, the settings that score) calls
`check_not_finished` inside its transaction and is refused until the tournament is reopened
(`registry.services.tournament_reopen`, logged).

A tournament kept at a hall (`tournaments.publishing`: a hall site publishes its results
here) is refused the same way, by the same check, until its director hands it over: its
results arrive from the hall, and a write here would be overwritten by the next batch.
A league match day kept by its venues' halls (venue keys) is not kept whole: only the score
sheets of the tables of the venues that publish are refused (the writes that name a table
pass it); the other venues' tables, the league director's work and the confirmation after
the evening stay open. A confirmed match day refuses the venues' batches instead.
"""

from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import PublishingState, Table, Tournament


def finished_error() -> UserError:
    """The refusal of a write to a finished tournament: why, and how to reopen it."""
    return UserError(
        _(
            "The tournament is finished: its results and money are final. To change them, "
            "reopen it first (Manage, “Reopen tournament”; the reopening is logged)."
        ),
        code="finished",
    )


def kept_at_hall_error(hall: str) -> UserError:
    """The refusal of a write to a tournament published from a hall: where it is kept."""
    return UserError(
        _(
            "This tournament is kept at the hall (%(hall)s); its results arrive from there. "
            "The director can take it over after the evening."
        )
        % {"hall": hall},
        code="kept_at_hall",
    )


def kept_at_hall(tournament_id: int) -> PublishingState | None:
    """The publishing state of a tournament kept at a hall (not handed over), else None."""
    return PublishingState.objects.filter(
        tournament_id=tournament_id, handed_over_at__isnull=True
    ).first()


def check_not_finished(tournament_id: int, *, table_id: int | None = None):
    """Refuse a write to a finished tournament, or to one kept at a hall (`table_id`: the
    table whose sheet the write changes; on a match day kept by venues only those of the
    publishing venues are refused). Reads the stored state (not a copy held by the
    caller), inside the caller's transaction: one query, two for a venue's table."""
    row = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list(
            "status",
            "publishing__pk",
            "publishing__handed_over_at",
            "publishing__kept_venues",
            "publishing__hall_name",
        )
        .first()
    )
    if row is None:
        return
    status, published, handed_over, venues, hall_name = row
    if status == Tournament.Status.FINISHED:
        raise finished_error()
    if published is None or handed_over is not None:
        return
    if not venues:
        raise kept_at_hall_error(hall_name)
    if table_id is None:
        return
    venue = (
        Table.objects.filter(pk=table_id, venue_id__in=venues)
        .values_list("venue__name", flat=True)
        .first()
    )
    if venue is not None:
        raise kept_at_hall_error(venue)
