"""Writes of a club's own settings (its secretaries'): whether the public standings of
its tournaments show players not listed publicly by initials
(`permissions.names_by_initials`)."""

from django.db import transaction

from tournaments.log.services import Kind, action_record
from tournaments.models import Club, Tournament
from tournaments.versions import version_bump


def club_settings_update(*, club: Club, initials_in_standings: bool, user=None) -> Club:
    """A club's settings: whether the public standings of its tournaments show players
    not listed publicly by initials (`permissions.names_by_initials`). Logged when it
    changes (a form sent twice changes nothing the second time); every tournament of the
    club gets a new version, so no cached answer shows the old names."""
    with transaction.atomic():
        stored = Club.objects.select_for_update().get(pk=club.pk)
        if stored.initials_in_standings == bool(initials_in_standings):
            club.initials_in_standings = stored.initials_in_standings
            return club
        changes = {"initials_in_standings": [stored.initials_in_standings, initials_in_standings]}
        stored.initials_in_standings = club.initials_in_standings = bool(initials_in_standings)
        stored.save(update_fields=["initials_in_standings"])
        action_record(
            tournament=None,
            club=stored,
            kind=Kind.CLUB_SETTINGS,
            user=user,
            details={"name": stored.name, "changes": changes},
        )
        for tournament_id in Tournament.objects.filter(club=stored).values_list("pk", flat=True):
            version_bump(tournament_id=tournament_id)
    return club
