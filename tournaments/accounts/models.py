"""The accounts model: invitations to a role (see `tournaments.accounts.services`).

Terms: a *role* is one of the site's three kinds of helpers: a club's secretary, a
league's director, a venue's secretary. An *invitation* offers one role to whoever opens
its one-time link before it expires; only a hash of the link's token is stored, so a copy
of the database gives no way in.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    CLUB_SECRETARY = "club_secretary", _("club secretary")
    LEAGUE_DIRECTOR = "league_director", _("league director")
    VENUE_SECRETARY = "venue_secretary", _("venue secretary")


class Invitation(models.Model):
    """A one-time link that gives `role` on `club`, `league` or `venue` (exactly the one the
    role names). Pending until accepted, withdrawn or expired."""

    role = models.CharField(_("role"), max_length=32, choices=Role.choices)
    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    league = models.ForeignKey(
        "tournaments.League", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    venue = models.ForeignKey(
        "tournaments.Venue", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # SHA-256 of the link's token, in hex: the token itself is shown once and never stored.
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    email = models.EmailField(_("e-mail"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(
                        role="club_secretary",
                        club__isnull=False,
                        league__isnull=True,
                        venue__isnull=True,
                    )
                    | models.Q(
                        role="league_director",
                        club__isnull=True,
                        league__isnull=False,
                        venue__isnull=True,
                    )
                    | models.Q(
                        role="venue_secretary",
                        club__isnull=True,
                        league__isnull=True,
                        venue__isnull=False,
                    )
                ),
                name="invitation_one_target_of_its_role",
            )
        ]

    def __str__(self):
        return f"{self.get_role_display()}: {self.target}"

    @property
    def target(self):
        """The club, league or venue the role is of."""
        return self.club or self.league or self.venue

    @property
    def is_pending(self) -> bool:
        return (
            self.accepted_at is None
            and self.withdrawn_at is None
            and self.expires_at > timezone.now()
        )
