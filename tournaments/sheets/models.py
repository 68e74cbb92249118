"""The sheet's history models: who entered, corrected or deleted which row or penalty, and
the second list keeper's copy under double entry.

Data only: the writes are `sheets.services` and `entry.services`. Registered with the app's
models from `tournaments.models`, so they keep their app label, tables and migrations.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GameChange(models.Model):
    """The history of a sheet row: who changed what, when (old → new)."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")

    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="changes"
    )
    game = models.ForeignKey(
        "tournaments.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="changes",
    )
    game_number = models.PositiveSmallIntegerField(_("game"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    # Who, when there is no account behind the change (a list keeper's phone).
    by_name = models.CharField(_("by"), max_length=120, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    # {field: [old, new]} for corrections; the whole row for entries and deletions.
    diff = models.JSONField(_("changes"), default=dict)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("game change")
        verbose_name_plural = _("game changes")

    def __str__(self):
        return f"{self.get_action_display()} #{self.game_number}"


class SheetCopy(models.Model):
    """The second list keeper's copy of a sheet under double entry (one row per game).

    The first keeper's rows are the table's games; the second keeper's rows stay here until
    they agree with them or the director chooses a version (`entry.services.sheet_settle`).
    """

    table = models.OneToOneField(
        "tournaments.Table", on_delete=models.CASCADE, related_name="second_copy"
    )
    # [{"number": n, "client_id": "...", "data": {game mapping}}, ...] in game order.
    rows = models.JSONField(default=list)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("second copy of a sheet")
        verbose_name_plural = _("second copies of sheets")

    def __str__(self):
        return f"{self.table} (2)"


class PenaltyChange(models.Model):
    """The history of a sheet's penalties: who entered or deleted which penalty, when."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        DELETED = "deleted", _("deleted")

    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="penalty_changes"
    )
    penalty = models.ForeignKey(
        "tournaments.Penalty",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="changes",
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    # The penalty as it was (it is gone after a deletion).
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.IntegerField(_("points"))
    penalty_reason = models.CharField(_("penalty for"), max_length=120, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("penalty change")
        verbose_name_plural = _("penalty changes")

    def __str__(self):
        return f"{self.get_action_display()} {self.seat}: {self.points}"
