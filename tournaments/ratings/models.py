"""The rating models: each player's current Skat rating and its history, one step per
closed table.

Terms (`tournaments.ratings`): a player's *rating* is a skill estimate `mu` with its
uncertainty `sigma` (a multiplayer model over each table's finishing order by list points,
`scoring.rating`); a *rating change* is one player's step from one closed table, kept in
the results' date order so that recomputing from all results gives the same numbers as the
updates made table by table. Data and constraints only: the writes are `ratings.services`.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A player's current rating: the last `RatingChange` in date order, kept for lists."""

    player = models.OneToOneField(
        "Player", on_delete=models.CASCADE, related_name="rating", verbose_name=_("player")
    )
    mu = models.FloatField(_("rating"))
    sigma = models.FloatField(_("uncertainty"))
    # Closed tables (series) rated so far; the rating is shown from the tenth on.
    series = models.PositiveIntegerField(_("series rated"), default=0)

    class Meta:
        ordering = ["-mu", "player_id"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [models.Index(fields=["-mu"], name="rating_mu")]

    def __str__(self):
        return f"{self.player}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """One seated player's rating before and after one closed table."""

    # Indexed by the constraint and the indexes below (`rating_change_player`,
    # `rating_change_once`), not each on its own: every index costs a recompute's 350,000
    # inserts time (bench/rating.py: 15.6 s with seven indexes on PostgreSQL, 1.1 s with
    # none).
    player = models.ForeignKey(
        "Player", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    table = models.ForeignKey(
        "Table", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    # The results' order: the tournament's date, then tournament, series and table.
    played_on = models.DateField(_("date"))
    order = models.CharField(max_length=64, editable=False)
    place = models.PositiveSmallIntegerField(_("place at the table"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["order", "player_id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            # Table first: it also finds a table's changes (reopening, deleting).
            models.UniqueConstraint(fields=["table", "player"], name="rating_change_once"),
        ]
        indexes = [
            models.Index(fields=["player", "order"], name="rating_change_player"),
            # A replay's "from here on" (no pattern index beside it, as db_index would add).
            models.Index(fields=["order"], name="rating_change_order"),
        ]

    def __str__(self):
        return f"{self.player} @ {self.table_id}: {self.mu_before:.2f} → {self.mu:.2f}"
