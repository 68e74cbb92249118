"""Writes of one person across clubs: memberships added and ended, two records of one
person merged, and a merge undone.

Each is one transaction, logged in the action log (the club's line, no tournament) with
the form's once key, so that a form sent twice counts once (`Replay`). A merge moves the
absorbed record's rows to the kept one (`people.selectors.merge_preview` says which and
refuses what it blocks) and stores a `PlayerMerge`, from which `player_merge_undo` puts
them back while nothing new has been entered for the kept player. Every tournament whose
rows moved gets a new version (`versions.version_bump`), so that its cached pages and
standings show the kept player's name at once; the player and season pages' states read
the moved rows themselves (`caching.states`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.formats import isolated
from tournaments.log.services import Kind, action_record, check_once
from tournaments.models import (
    Club,
    Membership,
    Player,
    PlayerMerge,
    Rating,
    RatingChange,
    Registration,
    RosterEntry,
    Seat,
)
from tournaments.people.selectors import merge_marks, merge_preview, undo_blockers
from tournaments.permissions import acting_user
from tournaments.ratings.services import ratings_recompute_for
from tournaments.registry.selectors import federation_number_taken
from tournaments.versions import version_bump


def membership_add(*, club: Club, player: Player, user=None, key: str | None = None):
    """Make `player` (of another club) a member of `club` too."""
    with transaction.atomic():
        check_once(key)
        player = (
            Player.objects.select_for_update(of=("self",)).select_related("club").get(pk=player.pk)
        )
        if Membership.objects.filter(club=club, player=player).exists():
            raise UserError(
                _("%(name)s is a member of %(club)s already.")
                % {"name": isolated(player.name), "club": isolated(club.name)}
            )
        membership = Membership.objects.create(club=club, player=player)
        action_record(
            tournament=None,
            club=club,
            kind=Kind.MEMBERSHIP_ADDED,
            user=user,
            details={"name": player.name, "player_id": player.pk},
            key=key,
        )
    return membership


def membership_end(*, membership: Membership, user=None, key: str | None = None):
    """End a membership of a club other than the player's home club."""
    with transaction.atomic():
        check_once(key)
        membership = (
            Membership.objects.select_for_update(of=("self",))
            .select_related("player", "club")
            .filter(pk=membership.pk)
            .first()
        )
        if membership is None:
            raise UserError(_("This membership has ended already."))
        if membership.club_id == membership.player.club_id:
            raise UserError(
                _("%(club)s is %(name)s's home club; that membership does not end.")
                % {
                    "club": isolated(membership.club.name),
                    "name": isolated(membership.player.name),
                }
            )
        action_record(
            tournament=None,
            club=membership.club,
            kind=Kind.MEMBERSHIP_ENDED,
            user=user,
            details={"name": membership.player.name, "player_id": membership.player_id},
            key=key,
        )
        membership.delete()


def _tournaments_of(player_id: int) -> set[int]:
    """The tournaments a player's rows are in: their pages show the player's name."""
    registered = Registration.objects.filter(player_id=player_id).values_list(
        "tournament_id", flat=True
    )
    seated = Seat.objects.filter(player_id=player_id).values_list(
        "series__tournament_id", flat=True
    )
    return set(registered) | set(seated)


def _ratings_recompute(player: Player) -> None:
    """A merge (or its undo) changes which results are whose: the player's ratings, and
    with them every later one, are replayed from the player's first rated table."""
    ratings_recompute_for(player)


def player_merge(
    *,
    kept: Player,
    absorbed: Player,
    user=None,
    club: Club | None = None,
    key: str | None = None,
) -> PlayerMerge:
    """Merge two records of one person: keep `kept` (A), absorb `absorbed` (B).

    B's registrations (with their payments), seats, roster entries and memberships (of the
    clubs A is not a member of) move to A; A gets B's user account and federation number
    when it has none; B's rating rows are deleted; B is deleted. Refused, nothing changed,
    with every reason `merge_preview` finds (both in one tournament, series or season, two
    user accounts, two federation numbers, ...)."""
    with transaction.atomic():
        check_once(key)
        found = {
            p.pk: p
            for p in Player.objects.select_for_update(of=("self",))
            .select_related("club", "user")
            .filter(pk__in=[kept.pk, absorbed.pk])
            .order_by("pk")
        }
        if kept.pk not in found or absorbed.pk not in found:
            raise UserError(_("One of the two players is no longer on the site."))
        kept, absorbed = found[kept.pk], found[absorbed.pk]
        preview = merge_preview(kept, absorbed)
        if preview.blockers:
            raise UserError(" ".join(preview.blockers))
        marks = merge_marks()
        tournaments = _tournaments_of(absorbed.pk)
        # A person who asked not to be listed publicly stays unlisted on the kept record,
        # whose own tournaments then show them so too (`formats.public_name`).
        unlisted = not absorbed.listed and kept.listed
        if unlisted:
            tournaments |= _tournaments_of(kept.pk)
        fields = {
            "pk": absorbed.pk,
            "name": absorbed.name,
            "club_id": absorbed.club_id,
            "team": absorbed.team,
            "category": absorbed.category,
            "federation_number": absorbed.federation_number,
            "user_id": absorbed.user_id,
            "listed": absorbed.listed,
        }
        moved = {}
        for name, model in (
            ("registrations", Registration),
            ("seats", Seat),
            ("roster_entries", RosterEntry),
        ):
            rows = model.objects.filter(player=absorbed)
            moved[name] = sorted(rows.values_list("pk", flat=True))
            rows.update(player=kept)
        kept_clubs = set(Membership.objects.filter(player=kept).values_list("club_id", flat=True))
        memberships = Membership.objects.filter(player=absorbed)
        moving = memberships.exclude(club_id__in=kept_clubs)
        moved["memberships"] = sorted(moving.values_list("pk", flat=True))
        fields["memberships"] = [
            [club_id, created.isoformat()]
            for club_id, created in memberships.filter(club_id__in=kept_clubs).values_list(
                "club_id", "created"
            )
        ]
        moving.update(player=kept)
        moved["user"] = bool(absorbed.user_id and not kept.user_id)
        moved["federation_number"] = bool(
            absorbed.federation_number and not kept.federation_number
        )
        ratings = (
            RatingChange.objects.filter(player=absorbed).delete()[0]
            + Rating.objects.filter(player=absorbed).delete()[0]
        )
        absorbed.delete()  # its other memberships with it; its earlier merges stay final
        update = []
        if moved["user"]:
            kept.user_id = fields["user_id"]
            update.append("user")
        if moved["federation_number"]:
            kept.federation_number = fields["federation_number"]
            update.append("federation_number")
        moved["unlisted"] = unlisted
        if unlisted:
            kept.listed = False
            update.append("listed")
        if update:
            kept.save(update_fields=update)
        merge = PlayerMerge.objects.create(
            kept=kept,
            absorbed_id=fields["pk"],
            absorbed_name=fields["name"],
            absorbed=fields,
            moved=moved,
            marks=marks,
            ratings_deleted=ratings,
            club=club or kept.club,
            user=acting_user(user),
        )
        action_record(
            tournament=None,
            club=club or kept.club,
            kind=Kind.PLAYERS_MERGED,
            user=user,
            details={
                # What the club's log shows (`accounts/_log_lines.html`): absorbed → kept.
                "name": f"{fields['name']} → {kept.name}",
                "kept": kept.name,
                "kept_id": kept.pk,
                "absorbed": fields["name"],
                "absorbed_id": fields["pk"],
                "merge": merge.pk,
                "moved": {name: len(ids) for name, ids in moved.items() if isinstance(ids, list)},
                "ratings_deleted": ratings,
            },
            key=key,
        )
        _ratings_recompute(kept)
        for tournament_id in sorted(tournaments):
            version_bump(tournament_id=tournament_id)
    return merge


def player_merge_undo(
    *, merge: PlayerMerge, user=None, club: Club | None = None, key: str | None = None
) -> Player:
    """Undo a merge: the absorbed player again (its old id when free) with its own fields,
    and exactly the rows that moved back to it. Refused once something new was entered
    for the kept player (`undo_blockers`)."""
    with transaction.atomic():
        check_once(key)
        merge = PlayerMerge.objects.select_for_update(of=("self",)).filter(pk=merge.pk).first()
        if merge is None:
            raise UserError(_("This merge can no longer be undone."))
        kept = Player.objects.select_for_update(of=("self",)).get(pk=merge.kept_id)
        blockers = undo_blockers(merge)
        if blockers:
            raise UserError(" ".join(blockers))
        fields, moved = merge.absorbed, merge.moved
        if (
            moved.get("federation_number")
            and kept.federation_number == fields["federation_number"]
        ):
            kept.federation_number = ""
            kept.save(update_fields=["federation_number"])
        if moved.get("user"):
            kept.user_id = None
            kept.save(update_fields=["user"])
        if moved.get("unlisted"):  # listed again, as before the merge
            kept.listed = True
            kept.save(update_fields=["listed"])
        number_refused = federation_number_taken(fields["federation_number"])
        if number_refused:  # (undo_blockers checked it; a concurrent write may not)
            raise UserError(number_refused)
        restored = Player(
            name=fields["name"],
            club_id=fields["club_id"],
            team=fields["team"],
            category=fields["category"],
            federation_number=fields["federation_number"],
            user_id=fields["user_id"],
            listed=fields.get("listed", True),
        )
        if not Player.objects.filter(pk=fields["pk"]).exists():
            restored.pk = fields["pk"]
        restored.save(force_insert=True)
        Registration.objects.filter(pk__in=moved.get("registrations", [])).update(player=restored)
        Seat.objects.filter(pk__in=moved.get("seats", [])).update(player=restored)
        RosterEntry.objects.filter(pk__in=moved.get("roster_entries", [])).update(player=restored)
        Membership.objects.filter(pk__in=moved.get("memberships", [])).update(player=restored)
        clubs = set(Club.objects.values_list("pk", flat=True))
        Membership.objects.bulk_create(
            [
                Membership(player=restored, club_id=club_id, created=created)
                for club_id, created in fields.get("memberships", [])
                if club_id in clubs  # (a club deleted since has no members)
            ]
        )
        merge.undone_at = timezone.now()
        merge.save(update_fields=["undone_at"])
        action_record(
            tournament=None,
            club=club or kept.club,
            kind=Kind.MERGE_UNDONE,
            user=user,
            details={
                "name": f"{restored.name} ← {kept.name}",
                "kept": kept.name,
                "kept_id": kept.pk,
                "restored": restored.name,
                "restored_id": restored.pk,
                "merge": merge.pk,
            },
            key=key,
        )
        _ratings_recompute(kept)
        _ratings_recompute(restored)
        again = _tournaments_of(restored.pk)
        if moved.get("unlisted"):
            again |= _tournaments_of(kept.pk)
        for tournament_id in sorted(again):
            version_bump(tournament_id=tournament_id)
    return restored
