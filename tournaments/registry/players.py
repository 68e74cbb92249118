"""Writes of a player's record (`player_update`, also imported from `registry.services`):
its changes logged with their old and new values, the versions of the player's
tournaments moved (their pages show the name, team, category and whether the player is
listed publicly, `formats.public_name`)."""

from django.db import transaction
from django.db.models import Q

from tournaments.errors import UserError, check_text, validated
from tournaments.lifecycle import check_not_finished
from tournaments.log.services import Kind, action_record
from tournaments.models import Player, Tournament
from tournaments.registry.selectors import federation_number_taken
from tournaments.versions import version_bump

PLAYER_TEXTS = ("name", "team", "category", "federation_number")


def player_update(*, player: Player, user=None, **fields) -> Player:
    """Change a player's record; the changed fields are logged with their old and new
    values (a form sent twice changes nothing the second time, and logs nothing). Whether
    the player is listed publicly (`listed`) changes every public output of their
    tournaments: their versions move, so no cached answer shows the old name."""
    allowed = {*PLAYER_TEXTS, "listed"}
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"player_update got unknown fields {unknown}")
    for key, value in fields.items():
        if key in PLAYER_TEXTS:
            check_text(value, field=key)
    taken = federation_number_taken(fields.get("federation_number", ""), exclude=player.pk)
    if taken:
        raise UserError(taken, field="federation_number")
    with transaction.atomic():
        played = list(
            Tournament.objects.filter(
                Q(registrations__player=player) | Q(series__seats__player=player)
            )
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        )
        stored = Player.objects.select_for_update().get(pk=player.pk)
        # The category ranks the player in each tournament's category standings (and its
        # prizes): final in a finished one.
        if "category" in fields and fields["category"].strip() != stored.category:
            for tournament_id in played:
                check_not_finished(tournament_id)
        for key, value in fields.items():
            if key == "listed":
                player.listed = bool(value)
            else:
                setattr(player, key, " ".join(value.split()) if key == "name" else value.strip())
        validated(player)
        changes = {
            key: [getattr(stored, key), getattr(player, key)]
            for key in fields
            if getattr(stored, key) != getattr(player, key)
        }
        player.save()
        if changes:
            action_record(
                tournament=None,
                club=stored.club,
                kind=Kind.PLAYER_CHANGED,
                user=user,
                details={"name": player.name, "changes": changes},
            )
        # The player's name, team, category and whether listed show on every tournament
        # they play in.
        for tournament_id in played:
            version_bump(tournament_id=tournament_id)
    return player
