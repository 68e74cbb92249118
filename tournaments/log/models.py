"""The action log's model: one line per director action (see `tournaments.log.services`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ActionLog(models.Model):
    """One director action on a tournament: who, when, what (`details`) and why.

    Written by the services inside the transaction of the action itself
    (`tournaments.log.services.action_record`). `key` is the idempotency key of the form that
    asked for the action: the same form sent twice finds its key here and is a replay.
    """

    class Kind(models.TextChoices):
        DRAW = "draw", _("series drawn")
        REDRAW = "redraw", _("series drawn again")
        SEAT_SWAP = "seat_swap", _("seats swapped")
        SERIES_CLOSED = "series_closed", _("series closed")
        SERIES_REOPENED = "series_reopened", _("series reopened")
        SERIES_REMOVED = "series_removed", _("series removed")
        REGISTRATION_ADDED = "registration_added", _("registration added")
        REGISTRATION_REMOVED = "registration_removed", _("registration removed")
        REGISTRATION_WITHDRAWN = "registration_withdrawn", _("player withdrawn")
        PLAYER_CREATED = "player_created", _("player created")
        PLAYER_CHANGED = "player_changed", _("player changed")
        CLUB_SETTINGS = "club_settings", _("club settings changed")
        SEASON_CREATED = "season_created", _("season created")
        TOURNAMENT_CREATED = "tournament_created", _("tournament created")
        SHEET_CLOSED = "sheet_closed", _("sheet closed")
        SHEET_REOPENED = "sheet_reopened", _("sheet reopened")
        GAMES_CONFIRMED = "games_confirmed", _("provisional games confirmed")
        SETTLED = "settled", _("double entry settled")
        PENALTY = "penalty", _("penalty")
        SETTINGS = "settings", _("settings changed")
        LOTS = "lots", _("draw by lot")
        PRIZE_PLAN = "prize_plan", _("prize plan changed")
        PAYMENT = "payment", _("payment")
        PAYMENT_DELETED = "payment_deleted", _("payment deleted")
        FINISHED = "finished", _("tournament finished")
        REOPENED = "reopened", _("tournament reopened")
        # The site's people (tournaments.accounts): no tournament, a club or a league.
        CLUB_CREATED = "club_created", _("club created")
        LEAGUE_CREATED = "league_created", _("league created")
        INVITATION_CREATED = "invitation_created", _("invitation created")
        INVITATION_WITHDRAWN = "invitation_withdrawn", _("invitation withdrawn")
        INVITATION_ACCEPTED = "invitation_accepted", _("invitation accepted")
        ROLE_REVOKED = "role_revoked", _("role revoked")
        PASSWORD_LINK = "password_link", _("password link issued")
        PASSWORD_SET = "password_set", _("password set")
        # One person across clubs (tournaments.people): a club's action, no tournament.
        MEMBERSHIP_ADDED = "membership_added", _("member added")
        MEMBERSHIP_ENDED = "membership_ended", _("membership ended")
        PLAYERS_MERGED = "players_merged", _("players merged")
        MERGE_UNDONE = "merge_undone", _("merge undone")
        # Publishing from a hall (tournaments.publishing): keys, batches, the handover.
        PUBLISHING_KEY_CREATED = "publishing_key_created", _("publishing key created")
        PUBLISHING_KEY_REVOKED = "publishing_key_revoked", _("publishing key revoked")
        PUBLISHED = "published", _("batch published")
        PUBLISH_REFUSED = "publish_refused", _("batch refused")
        HANDED_OVER = "handed_over", _("publishing handed over")
        # Publishing to a public site from the hall (tournaments.hall).
        PUBLISHING_STARTED = "publishing_started", _("publishing started")
        PUBLISHING_STOPPED = "publishing_stopped", _("publishing stopped")

    # A club's own actions (a player or a season created) have no tournament.
    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
    )
    # A league's own actions (a director invited, a league created) have no club.
    league = models.ForeignKey(
        "tournaments.League",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("league"),
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="actions",
        verbose_name=_("tournament"),
    )
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    # Kept as numbers so that the line stays readable after a redraw removes the table.
    series_number = models.PositiveSmallIntegerField(_("series"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    details = models.JSONField(_("what"), default=dict, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    # The generated texts among this row's fields, as what happened (`tournaments.phrases`).
    phrases = models.JSONField(default=dict, blank=True, editable=False)
    key = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("logged action")
        verbose_name_plural = _("action log")
        indexes = [models.Index(fields=["tournament", "kind"], name="actionlog_tournament_kind")]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.at:%Y-%m-%d %H:%M})" if self.at else self.kind
