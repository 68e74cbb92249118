"""The hall's side of publishing (protocol `skat-publish/1`): who this hall site is, and
where each of its tournaments is published and how far the public copy has come.

Terms: the *hall* is the site where the evening is kept (a laptop, SQLite); the *copy* is
the tournament on a public site, kept up to date by batches the hall sends. The copy's
*acknowledged* version is the hall version the public site last answered that it holds;
the hall's `layout` at that version decides whether the next batch is a whole document or
sheets only. Data only: the writes are `hall.services`, the batches `hall.interchange`.
"""

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _


class HallSite(models.Model):
    """This site as a hall: one row (pk 1), made on first use. `hall` is the UUID the
    public sites know it by (the batches' `hall`); it stays across restarts and backups."""

    hall = models.UUIDField(_("hall id"), default=uuid.uuid4, editable=False, unique=True)

    class Meta:
        verbose_name = _("hall site")
        verbose_name_plural = _("hall sites")

    def __str__(self):
        return str(self.hall)


class Publication(models.Model):
    """One tournament published to one public site (its publishing address, `url`).

    `key`: the publishing key the public site issued; kept to send, never shown again.
    `acked_version` / `acked_layout`: what the copy holds, as last answered, and the hall's
    layout at that version ("" when not known: the next batch is a document). `sent_version`
    / `sent_layout`: the batch last sent and not yet answered, so that an answer lost with
    the connection (the copy then answers 409 with that version) still tells its layout.
    `venue`: the venue of a league match day this hall keeps ("" for a whole tournament):
    the public site's key is that venue's, so the batches never hold a document, only the
    sheets written at this hall (`hall.interchange.batch_build`).
    `running`: publishing was started (from the page or the command) and not stopped; `pid`:
    the sender process the page started. `failures`: connection errors in a row (backoff).
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="publications",
        verbose_name=_("tournament"),
    )
    url = models.URLField(_("public site"), max_length=500)
    key = models.CharField(_("publishing key"), max_length=200, editable=False)
    venue = models.CharField(_("venue"), max_length=100, blank=True)
    acked_version = models.PositiveBigIntegerField(default=0, editable=False)
    acked_layout = models.CharField(max_length=32, blank=True, editable=False)
    sent_version = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    sent_layout = models.CharField(max_length=32, blank=True, editable=False)
    last_success = models.DateTimeField(null=True, blank=True, editable=False)
    last_attempt = models.DateTimeField(null=True, blank=True, editable=False)
    last_error = models.CharField(max_length=500, blank=True, editable=False)
    failures = models.PositiveIntegerField(default=0, editable=False)
    # A refusal (403, 400, 413, a copy newer than the hall): publishing stopped on it.
    stopped = models.BooleanField(default=False, editable=False)
    running = models.BooleanField(default=False, editable=False)
    pid = models.PositiveIntegerField(null=True, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("publication")
        verbose_name_plural = _("publications")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "url"], name="publication_once"),
        ]

    def __str__(self):
        return f"{self.tournament} → {self.url}"
