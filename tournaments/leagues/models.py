"""The league models: leagues, teams with their rosters, match-day venues, confirmations.

Terms (`tournaments.leagues`): a *league* is an association of member clubs run by its
directors; a *team* is a club's team in one season, its *roster* the players who may play
for it that season (regulars and substitutes; a player is on one roster per season); a
*venue* is one place of a match day, whose tables its own secretary keeps; a match day is
*provisional* until a league director confirms it. Seasons are in `tournaments.models`
(a season belongs to a league or to a club). Data and constraints only: the writes are
`leagues.services`.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.validators import validate_no_control_characters


class League(models.Model):
    """An association of clubs that plays seasons of team match days (`tournaments.leagues`)."""

    name = models.CharField(
        _("name"), max_length=120, unique=True, validators=[validate_no_control_characters]
    )
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="leagues",
        blank=True,
        verbose_name=_("league directors"),
        help_text=_("Users who run the league's seasons and confirm its match days."),
    )
    clubs = models.ManyToManyField(
        "tournaments.Club", related_name="leagues", blank=True, verbose_name=_("member clubs")
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self):
        return self.name


class Team(models.Model):
    """A club's team in one season; its roster is its `RosterEntry` rows."""

    season = models.ForeignKey(
        "tournaments.Season", on_delete=models.CASCADE, related_name="teams"
    )
    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.PROTECT, related_name="teams", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_no_control_characters])

    class Meta:
        ordering = ["season", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_name_once_per_season")
        ]

    def __str__(self):
        return self.name


class RosterEntry(models.Model):
    """A player on a team's roster; the season is copied so the database itself keeps a
    player in one team per season."""

    team = models.ForeignKey("tournaments.Team", on_delete=models.CASCADE, related_name="roster")
    season = models.ForeignKey(
        "tournaments.Season", on_delete=models.CASCADE, related_name="+", editable=False
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="roster_entries"
    )
    substitute = models.BooleanField(_("substitute"), default=False)

    class Meta:
        ordering = ["team", "substitute", "player__name"]
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"], name="roster_player_one_team_per_season"
            )
        ]

    def __str__(self):
        return f"{self.player} ({self.team})"


class Venue(models.Model):
    """One place of a league match day: its teams play its tables, its secretary keeps them."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="venues"
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_no_control_characters])
    secretary = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="venues",
        verbose_name=_("venue secretary"),
    )
    teams = models.ManyToManyField(
        "tournaments.Team", related_name="venues", verbose_name=_("teams")
    )

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="venue_name_once")
        ]

    def __str__(self):
        return self.name


class MatchDayConfirmation(models.Model):
    """The league director's confirmation: the match-day table is final, no longer provisional."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="confirmation"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("match-day confirmation")
        verbose_name_plural = _("match-day confirmations")

    def __str__(self):
        return str(self.tournament)
