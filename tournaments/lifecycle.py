"""A tournament's lifecycle as the writes see it: a finished tournament is final.

Finishing (`registry.services.tournament_finish`, a league's `match_day_confirm`) makes the
results and the money final: every write that would change a result or a figure of the
money page (a registration, a withdrawal, a game, a correction, a penalty, a sheet or series
reopened, a draw, a payment, the prize plan, the fees, the settings that score) calls
`check_not_finished` inside its transaction and is refused until the tournament is reopened
(`registry.services.tournament_reopen`, logged).
"""

from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Tournament


def finished_error() -> UserError:
    """The refusal of a write to a finished tournament: why, and how to reopen it."""
    return UserError(
        _(
            "The tournament is finished: its results and money are final. To change them, "
            "reopen it first (Manage, “Reopen tournament”; the reopening is logged)."
        ),
        code="finished",
    )


def check_not_finished(tournament_id: int):
    """Refuse a write to a finished tournament. Reads the stored status (not a copy held by
    the caller), inside the caller's transaction."""
    if Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.FINISHED).exists():
        raise finished_error()
