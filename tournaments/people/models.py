"""The record of a merge of two players: what moved from the absorbed record to the kept
one, and the absorbed record's own fields, so that `people.services.player_merge_undo`
can put everything back while nothing new has been entered for the kept player.

Terms: two records of one person are merged by keeping one (*kept*, A) and *absorbing* the
other (B): B's registrations, seats, roster entries, memberships and user account move to
A and B is deleted. Data only: the writes are `people.services`.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PlayerMerge(models.Model):
    """One merge (keep A, absorb B).

    `absorbed`: B's own fields as they were (`pk`, `name`, `club_id`, `team`, `category`,
    `federation_number`, `user_id`) and its memberships of clubs A was a member of already
    (deleted by the merge: `[club_id, created]` pairs). `moved`: the ids of the rows that
    moved from B to A, by kind (`registrations`, `seats`, `roster_entries`, `memberships`),
    whether B's user account and federation number went to A. `marks`: the highest id of
    each kind of row a new entry for A would add (registrations, seats, roster entries,
    payments, games) when the merge was made: a row above its mark is new since.
    """

    kept = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.CASCADE,
        related_name="merges",
        verbose_name=_("kept player"),
    )
    absorbed_id = models.PositiveBigIntegerField(_("absorbed player's id"))
    absorbed_name = models.CharField(_("absorbed player"), max_length=120)
    absorbed = models.JSONField(default=dict, editable=False)
    moved = models.JSONField(default=dict, editable=False)
    marks = models.JSONField(default=dict, editable=False)
    # Rating rows of B deleted by the merge (A's ratings are recomputed from the results).
    ratings_deleted = models.PositiveIntegerField(default=0, editable=False)
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self):
        return f"{self.absorbed_name} → {self.kept_id}"
