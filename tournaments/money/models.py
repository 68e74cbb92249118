"""The money models: a tournament's prize plan and the payments of its players (rules §4).

Data and constraints only: the writes are `money.services`. Registered with the app's models
from `tournaments.models`, so they keep their app label, tables and migrations.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.choices import Category, validate_no_control_characters


class Prize(models.Model):
    """One line of a prize plan: a rank in a ranking wins a fixed amount or a share of the pot."""

    class Scope(models.TextChoices):
        OVERALL = "overall", _("overall standings")
        SERIES = "series", _("a series")
        CATEGORY = "category", _("a category")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="prizes"
    )
    scope = models.CharField(_("ranking"), max_length=10, choices=Scope.choices)
    # 0 unless the scope is a series (no NULLs, so the unique constraint works everywhere).
    series_number = models.PositiveSmallIntegerField(_("series"), default=0)
    category = models.CharField(
        _("category"), max_length=16, choices=Category.choices, blank=True, default=""
    )
    rank = models.PositiveSmallIntegerField(_("rank"))
    amount = models.DecimalField(
        _("fixed amount"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    share = models.DecimalField(
        _("share of the pot (%)"), max_digits=5, decimal_places=2, null=True, blank=True
    )

    class Meta:
        ordering = ["tournament", "scope", "series_number", "category", "rank"]
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        constraints = [
            models.CheckConstraint(
                condition=(Q(amount__isnull=False) & Q(share__isnull=True))
                | (Q(amount__isnull=True) & Q(share__isnull=False)),
                name="prize_amount_or_share",
            ),
            models.CheckConstraint(condition=Q(rank__gte=1), name="prize_rank_positive"),
            models.UniqueConstraint(
                fields=["tournament", "scope", "series_number", "category", "rank"],
                name="prize_once_per_rank",
            ),
        ]

    def __str__(self):
        return f"{self.get_scope_display()} #{self.rank}"


class Payment(models.Model):
    """Money a player paid in (positive) or was paid out (negative, e.g. a prize)."""

    class Kind(models.TextChoices):
        FEES = "fees", _("fees paid")
        PRIZE = "prize", _("prize paid out")
        REFUND = "refund", _("refund")

    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.CASCADE, related_name="payments"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.FEES)
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    note = models.CharField(
        _("note"), max_length=120, blank=True, validators=[validate_no_control_characters]
    )
    # The generated texts among this row's fields, as what happened (`tournaments.phrases`).
    phrases = models.JSONField(default=dict, blank=True, editable=False)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )

    class Meta:
        ordering = ["registration", "at", "id"]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="payment_not_zero")]

    def __str__(self):
        return f"{self.get_kind_display()} {self.amount}"
