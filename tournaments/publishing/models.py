"""Publishing's models: the keys a hall publishes with, and each published tournament's
state on the public site (protocol `skat-publish/1`, `tournaments.publishing`).

A *publishing key* is a secret a hall site sends as `Authorization: Bearer KEY`; only its
SHA-256 is stored (the key is shown once, when created). Its *scope* is a club (any of the
club's tournaments, a new slug created for the club) or a venue of a league's match day
(only the sheets of that venue's tables). The *publishing state* is one row per published
slug: the hall's id, the hall version the public copy holds, when the last batch was
applied and whether the director has handed it over (then publishing has stopped). It is
keyed by the slug, not the tournament, since a document batch replaces the tournament;
`hall`/`version` are the last hall's, `hall_versions` every hall's (a match day's venues).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.validators import validate_no_control_characters


class PublishingKey(models.Model):
    """A hall's key to publish to this site: a club's, or one venue's of a match day."""

    name = models.CharField(_("name"), max_length=120, validators=[validate_no_control_characters])
    # SHA-256 of the key, hex: the key itself is never stored.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    # The key's first characters, to tell keys apart on the page (not enough to use it).
    prefix = models.CharField(max_length=12, editable=False)
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="publishing_keys",
        verbose_name=_("club"),
    )
    league = models.ForeignKey(
        "tournaments.League",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="publishing_keys",
        verbose_name=_("league"),
    )
    venue = models.ForeignKey(
        "tournaments.Venue",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="publishing_keys",
        verbose_name=_("venue"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("publishing key")
        verbose_name_plural = _("publishing keys")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(club__isnull=False, venue__isnull=True)
                | models.Q(club__isnull=True, venue__isnull=False, league__isnull=False),
                name="publishing_key_one_scope",
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"


class PublishingState(models.Model):
    """A tournament kept at a hall: what the public copy holds, and whether it is handed over."""

    slug = models.SlugField(max_length=80, unique=True)
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="publishing",
    )
    key = models.ForeignKey(
        PublishingKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hall = models.CharField(max_length=64, blank=True)
    hall_name = models.CharField(max_length=120, blank=True)  # the club named in refusals
    version = models.BigIntegerField(default=0)  # the hall version the copy holds
    # Hall id → the version of that hall the copy holds: the venues of a match day publish
    # their own sheets from their own halls. A document resets it to its hall alone.
    hall_versions = models.JSONField(default=dict, blank=True)
    # The venues (ids) whose halls applied a batch here: on a match day kept by venues only
    # their tables' sheets are kept at a hall (`lifecycle.check_not_finished`); [] for a
    # tournament published with a club's key, which is kept at the hall as a whole.
    kept_venues = models.JSONField(default=list, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    handed_over_at = models.DateTimeField(null=True, blank=True)
    handed_over_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("publishing state")
        verbose_name_plural = _("publishing states")

    def __str__(self):
        return self.slug
