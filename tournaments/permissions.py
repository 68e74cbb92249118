"""Who may do what.

- A club's secretaries (and superusers) manage that club's players, seasons and tournaments:
  draw, enter and correct scores, print, publish.
- Everyone else (players, the public, other clubs' secretaries) reads what is published.

A write records who made it (`acting_user`): the signed-in user, or nobody for a phone's
table link.
"""

from tournaments.models import Club, Tournament


def can_manage_club(user, club: Club | None) -> bool:
    if club is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return club.secretaries.filter(pk=user.pk).exists()


def can_manage_tournament(user, tournament: Tournament) -> bool:
    return can_manage_club(user, tournament.club)


def managed_clubs(user):
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(secretaries=user)


def can_view_tournament(user, tournament: Tournament) -> bool:
    return tournament.published or can_manage_tournament(user, tournament)


def acting_user(user):
    """The user a write records: the signed-in user, else None (anonymous, a table link)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None
