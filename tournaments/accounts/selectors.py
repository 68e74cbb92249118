"""Reads of the site's people: each person's roles, the pending invitations, the people
lines of the action log (`PEOPLE_KINDS`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q
from django.utils import timezone

from tournaments.accounts.models import Invitation, Role
from tournaments.collation import alphabetical, username_of
from tournaments.models import ActionLog, Club, League, Venue

Kind = ActionLog.Kind
PEOPLE_KINDS = (
    Kind.CLUB_CREATED,
    Kind.LEAGUE_CREATED,
    Kind.SEASON_CREATED,
    Kind.INVITATION_CREATED,
    Kind.INVITATION_WITHDRAWN,
    Kind.INVITATION_ACCEPTED,
    Kind.ROLE_REVOKED,
    Kind.PASSWORD_LINK,
    Kind.PASSWORD_SET,
    # One person across clubs (`people.services`).
    Kind.MEMBERSHIP_ADDED,
    Kind.MEMBERSHIP_ENDED,
    Kind.PLAYERS_MERGED,
    Kind.MERGE_UNDONE,
    # A player's record (whether listed publicly, ...) and the club's own settings.
    Kind.PLAYER_CHANGED,
    Kind.CLUB_SETTINGS,
    # Keys that let a hall site publish here (`publishing.services`): access, like a role.
    Kind.PUBLISHING_KEY_CREATED,
    Kind.PUBLISHING_KEY_REVOKED,
)


@dataclass(frozen=True)
class RoleHeld:
    role: str
    target: Club | League | Venue

    @property
    def role_label(self) -> str:
        return Role(self.role).label


def roles_of(person) -> list[RoleHeld]:
    """Every role of `person`: clubs, leagues, venues (with their match day)."""
    return (
        [RoleHeld(Role.CLUB_SECRETARY, c) for c in Club.objects.filter(secretaries=person)]
        + [RoleHeld(Role.LEAGUE_DIRECTOR, lg) for lg in League.objects.filter(directors=person)]
        + [
            RoleHeld(Role.VENUE_SECRETARY, v)
            for v in Venue.objects.filter(secretary=person).select_related("tournament")
        ]
    )


def site_is_new() -> bool:
    """No account at all yet: the home and sign-in pages say how to begin."""
    return not get_user_model().objects.exists()


def people() -> list:
    """Every account A–Z with its roles prefetched (`clubs`, `leagues`, `venues`)."""
    return alphabetical(
        get_user_model().objects.prefetch_related(
            "clubs",
            "leagues",
            Prefetch("venues", queryset=Venue.objects.select_related("tournament")),
        ),
        key=username_of,
    )


def pending_invitations(*, club=None, league=None, venues=None):
    """Invitations not yet accepted, withdrawn or expired: all, or of one club, one league
    (its directors), a set of venues."""
    found = Invitation.objects.filter(
        accepted_at__isnull=True, withdrawn_at__isnull=True, expires_at__gt=timezone.now()
    ).select_related("club", "league", "venue__tournament", "created_by")
    if club is not None:
        found = found.filter(club=club)
    if league is not None or venues is not None:
        where = Q(pk__in=[])
        if league is not None:
            where |= Q(league=league)
        if venues is not None:
            where |= Q(venue__in=venues)
        found = found.filter(where)
    return found


def league_venues(league: League):
    """The venues of the league's match days, newest match day first."""
    return (
        Venue.objects.filter(tournament__season__league=league)
        .select_related("tournament", "secretary")
        .order_by("-tournament__date", "tournament__pk", "pk")
    )


def people_log(*, club=None, league=None):
    """The people lines of the action log: all (the site administrator), or one club's or
    one league's. Details never hold a token or a password."""
    lines = ActionLog.objects.filter(kind__in=PEOPLE_KINDS).select_related(
        "user", "club", "league"
    )
    if club is not None:
        lines = lines.filter(club=club)
    if league is not None:
        lines = lines.filter(league=league)
    return lines
