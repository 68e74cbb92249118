"""The Skat club domain: clubs, players, seasons, tournaments, series, tables, seats; the
games and penalties of a sheet are in `sheets.models` (imported from here, like the
league, money and action-log models).

Terms (rules reference `../shared/rules/README.md`):
- A *tournament* is one evening or match day under one rule set (`ispa` or `na`).
- A *series* (Serie; "round" in North America) is one sitting: every registered player plays
  at one *table* of 3 or 4 seats (North American tournaments may allow 5) for a fixed
  number of deals (rules §4).
- A *game* is one row of a table's score sheet: one deal, in order. Seat 1 deals the first
  game and the deal passes on; at a 4-table the dealer sits out (rules §4); at a North
  American 5-table the dealer and the third seat after him sit out (rules §3.6,
  `scoring.sitting_out`).

Models hold data and constraints only. Every write goes through a subject's `services`
module (`sheets.services`, `entry.services`, ...), and the computed values of each game
(value, score, list points) are stored by `tournaments.games`, so that the standings are
plain SQL sums (`sheets.selectors.seat_lines`, `standings.selectors`).
"""

import uuid

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring
from tournaments.choices import (  # noqa: F401 (the domain's choices, imported from here too)
    MAX_SEATS,
    TABLE_SIZES,
    Category,
    GameType,
    PenaltyLaw,
    RamschResult,
    RamschRule,
    RuleSet,
    Trump,
    has_control_characters,
    validate_no_control_characters,
)


class Club(models.Model):
    name = models.CharField(
        _("name"), max_length=120, unique=True, validators=[validate_no_control_characters]
    )
    city = models.CharField(
        _("city"), max_length=120, blank=True, validators=[validate_no_control_characters]
    )
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="clubs",
        blank=True,
        verbose_name=_("secretaries"),
        help_text=_("Users who manage this club's players and tournaments."),
    )
    # Players not listed publicly (`Player.listed`) in the public standings of the club's
    # tournaments: by their initials when set, else by name (never linked to their page);
    # `permissions.names_by_initials`.
    initials_in_standings = models.BooleanField(
        _("initials in public standings"),
        default=False,
        help_text=_(
            "Players not listed publicly are shown by their initials in the public "
            "standings of the club's tournaments."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_no_control_characters])
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="players",
        null=True,
        blank=True,
        verbose_name=_("club"),
    )
    team = models.CharField(
        _("team"), max_length=120, blank=True, validators=[validate_no_control_characters]
    )
    category = models.CharField(
        _("category"), max_length=16, choices=Category.choices, blank=True, default=""
    )
    federation_number = models.CharField(
        _("federation number"),
        max_length=40,
        blank=True,
        validators=[validate_no_control_characters],
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("user account"),
    )
    # Off: no public player page, and by initials in public rating lists (and in public
    # standings where the tournament's club chooses it); `formats.public_name`.
    listed = models.BooleanField(
        _("listed publicly"),
        default=True,
        help_text=_(
            "Off: no public player page; shown by initials in public rating lists and, "
            "where the club chooses it, in public standings."
        ),
    )
    # One person is one player on the site, a member of any number of clubs (`Membership`);
    # `club` is the home club, whose secretaries keep the record, and is one of `clubs`.
    clubs = models.ManyToManyField(
        Club,
        through="Membership",
        related_name="members",
        blank=True,
        verbose_name=_("clubs"),
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # A federation number is one person's, whichever clubs they play for.
            models.UniqueConstraint(
                fields=["federation_number"],
                condition=~Q(federation_number=""),
                name="player_unique_federation_number",
                violation_error_message=_("Another player has this federation number."),
            )
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("player_detail", kwargs={"pk": self.pk})


class Membership(models.Model):
    """A player's membership of a club: the home club (`Player.club`) and every other club
    the person plays for. Written by `registry.services` with the player."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="memberships")
    created = models.DateTimeField(_("member since"), default=timezone.now)

    class Meta:
        ordering = ["club__name", "id"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="membership_once"),
        ]

    def __str__(self):
        return f"{self.player} / {self.club}"


class Season(models.Model):
    """A season: its tournaments are the match days (a league's) or club evenings (a club's
    annual ranking). Owned by a league or by a club, never both."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        related_name="seasons",
        null=True,
        blank=True,
        verbose_name=_("club"),
    )
    league = models.ForeignKey(
        "League",
        on_delete=models.PROTECT,
        related_name="seasons",
        null=True,
        blank=True,
        verbose_name=_("league"),
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_no_control_characters])
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    teams_best_n = models.PositiveSmallIntegerField(
        _("team scores count the best"),
        null=True,
        blank=True,
        help_text=_("Leave empty to add up every member of a team."),
    )
    team_size = models.PositiveSmallIntegerField(
        _("players per team"), default=4, validators=[MinValueValidator(1)]
    )
    substitutes = models.PositiveSmallIntegerField(_("substitutes per team"), default=2)
    min_series = models.PositiveSmallIntegerField(
        _("minimum number of series"),
        default=0,
        help_text=_("Players with fewer series are listed, but not ranked."),
    )
    best_series = models.PositiveSmallIntegerField(
        _("player table counts the best series"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Best n of all series played; leave empty to count every series."),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # The final tables as shown when the season was closed (`leagues.services.season_close`).
    archive = models.JSONField(_("final tables"), default=dict, blank=True, editable=False)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=(Q(club__isnull=False) & Q(league__isnull=True))
                | (Q(club__isnull=True) & Q(league__isnull=False)),
                name="season_owned_by_club_or_league",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("season_detail", kwargs={"season": self.slug})

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def owner(self):
        return self.league or self.club


def layout_token() -> str:
    """A new `Tournament.layout`."""
    return uuid.uuid4().hex


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("league season"),
    )
    name = models.CharField(_("name"), max_length=160, validators=[validate_no_control_characters])
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    rules = models.CharField(
        _("rule set"), max_length=8, choices=RuleSet.choices, default=RuleSet.ISPA
    )
    list_scoring = models.BooleanField(
        _("Seeger-Fabian list scoring"),
        default=True,
        help_text=_("Bonus points per won and lost game (rules §2). Off: plain game points."),
    )
    bonus_won = models.PositiveSmallIntegerField(_("bonus per won game"), default=50)
    bonus_lost = models.PositiveSmallIntegerField(_("deduction per lost game"), default=50)
    bonus_others_3 = models.PositiveSmallIntegerField(_("others' bonus at a 3-table"), default=40)
    bonus_others_4 = models.PositiveSmallIntegerField(_("others' bonus at a 4-table"), default=30)
    games_per_series_3 = models.PositiveSmallIntegerField(
        _("games per series at a 3-table"), default=36
    )
    games_per_series_4 = models.PositiveSmallIntegerField(
        _("games per series at a 4-table"), default=48
    )
    # NA tables of five (rules §3.6): each seat deals 12 times, as at 3 and 4.
    games_per_series_5 = models.PositiveSmallIntegerField(
        _("games per series at a 5-table"), default=60
    )
    five_tables = models.BooleanField(  # the draw may seat five (NA only, rules §3.6)
        _("tables of five"), default=False, help_text=_("North American only (rules §3.6).")
    )
    ramsch_rule = models.CharField(
        _("ramsch"),
        max_length=10,
        choices=RamschRule.choices,
        blank=True,
        default="",
        help_text=_(
            "How a deal everyone passed scores. North American: league (rules §3.5) or "
            "Hoyle; ISPA: none (rules §1.6) or the house rule Gewinner-Ramsch."
        ),
    )
    # NA option; Gewinner-Ramsch always shares a tie (`scoring.variants`).
    ramsch_tie_both_win = models.BooleanField(
        _("ramsch: a tie for the fewest points, both win"), default=False
    )
    kontra_allowed = models.BooleanField(
        _("Kontra and Re allowed"),
        default=False,
        help_text=_("House rule, not part of the ISkO (rules §1.7)."),
    )
    team_best_n = models.PositiveSmallIntegerField(
        _("team scores count the best"),
        null=True,
        blank=True,
        help_text=_("Leave empty to add up every member of a team."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    published = models.BooleanField(
        _("published"), default=False, help_text=_("Visible to players and the public.")
    )
    double_entry = models.BooleanField(
        _("double entry at the tables"),
        default=False,
        help_text=_(
            "Two players at each table keep the sheet on their phones; differing rows must be "
            "settled before the sheet counts."
        ),
    )
    # Money (rules §4): exact decimals in the tournament's currency.
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    entry_fee = models.DecimalField(_("entry fee"), max_digits=8, decimal_places=2, default=0)
    table_fee = models.DecimalField(
        _("table fee per series"),
        max_digits=8,
        decimal_places=2,
        default=0,
        help_text=_("Card or table money each player pays per series played."),
    )
    lost_game_fee = models.DecimalField(
        _("fee per lost game"), max_digits=8, decimal_places=2, default=0
    )
    lost_game_fee_from = models.PositiveSmallIntegerField(
        _("higher fee from lost game no."),
        null=True,
        blank=True,
        help_text=_("Per series: from this lost game on, the higher fee applies (e.g. 4)."),
    )
    lost_game_fee_high = models.DecimalField(
        _("higher fee per lost game"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    prizes_split_ties = models.BooleanField(
        _("tied players share their prizes evenly"),
        default=False,
        help_text=_(
            "Players equal on every tie-break split the prizes of the places they hold. Off: "
            "a draw by lot separates them before prizes are paid."
        ),
    )
    created = models.DateTimeField(auto_now_add=True)
    # Bumped by every write that changes what the tournament's pages show
    # (`tournaments.versions.version_bump`), in the writer's transaction: caches, ETags and
    # the live feed key on it.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    # When `version` last moved: the API's Last-Modified (its ETag is the version).
    changed = models.DateTimeField(default=timezone.now, editable=False)
    # Drawn afresh by every write other than to score sheets alone (`version_bump`): while
    # it stays, the standings of a newer version are those of an older one with the seats
    # of the tables changed since (`Table.sheet_version`) read again.
    layout = models.CharField(max_length=32, default=layout_token, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(games_per_series_3__gte=1) & Q(games_per_series_4__gte=1),
                name="tournament_series_length_positive",
            ),
            models.CheckConstraint(
                condition=Q(games_per_series_5__gte=1), name="tournament_series_5_positive"
            ),
            # rules §3.6: tables of five are North American.
            models.CheckConstraint(
                condition=Q(five_tables=False) | Q(rules="na"),
                name="tournament_five_only_na",
                violation_error_message=_(
                    "Tables of five are a North American rule (rules §3.6)."
                ),
            ),
            # Hoyle's ramsch is North American, Gewinner-Ramsch an ISPA house rule.
            models.CheckConstraint(
                condition=Q(rules="na", ramsch_rule__in=["", "league", "hoyle"])
                | Q(rules="ispa", ramsch_rule__in=["", "gewinner"]),
                name="tournament_ramsch_rule_of_rules",
                violation_error_message=_(
                    "Hoyle's ramsch is a North American rule and Gewinner-Ramsch an ISPA one."
                ),
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament_detail", kwargs={"tournament": self.slug})

    def games_per_series(self, table_size: int) -> int:
        """The length of a complete list at a table of `table_size` (rules §4; a 5-table,
        NA only, rules §3.6): the one computation of a table's length, for every page,
        sheet and check that shows or needs it."""
        lengths = {3: self.games_per_series_3, 4: self.games_per_series_4}
        lengths[5] = self.games_per_series_5  # drawn only when `five_tables`
        try:
            return lengths[table_size]
        except KeyError:
            raise ValueError(f"no table of {table_size} in {self.slug}") from None

    @property
    def ramsch(self) -> str:
        """The ramsch rule in force (`scoring.RAMSCH_RULES`; "" none), NA default §3.5."""
        if self.rules == RuleSet.NA:
            return self.ramsch_rule if self.ramsch_rule == RamschRule.HOYLE else "league"
        return self.ramsch_rule if self.ramsch_rule == RamschRule.GEWINNER else ""

    @property
    def ramsch_variant_shown(self) -> str:
        """The ramsch rule to print on every output when a variant is on, else ""."""
        if self.ramsch in (RamschRule.HOYLE, RamschRule.GEWINNER):
            return str(RamschRule(self.ramsch).label)
        return ""

    @property
    def uses_list_points(self) -> bool:
        return self.rules == RuleSet.ISPA and self.list_scoring


class Registration(models.Model):
    """A player entered in a tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    lot = models.PositiveSmallIntegerField(
        _("draw by lot"),
        null=True,
        blank=True,
        help_text=_("Order drawn by lot for players still tied (1 ranks first)."),
    )
    # A player who left during the evening: not drawn again, results kept.
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_player_once"
            )
        ]

    def __str__(self):
        return f"{self.player} @ {self.tournament}"


class Series(models.Model):
    class DrawMethod(models.TextChoices):
        RANDOM = "random", _("random")
        STANDINGS = "standings", _("seeded by the standings")
        # Spread by rating: the strongest at different tables (`draw.engine`, spread draw).
        RATING = "rating", _("by rating, strongest apart")

    class KeepApart(models.TextChoices):
        """Who the draw keeps apart (`tournaments.draw.KEEP_APART_CHOICES`)."""

        TEAM = "team", _("members of a team")
        CLUB = "club", _("members of a club")
        TEAM_AND_CLUB = "team_and_club", _("members of a team or a club")
        NONE = "none", _("nobody")

    class Status(models.TextChoices):
        OPEN = "open", _("in play")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveSmallIntegerField(_("series"))
    draw_seed = models.BigIntegerField(_("draw seed"))
    draw_method = models.CharField(
        _("draw"), max_length=10, choices=DrawMethod.choices, default=DrawMethod.RANDOM
    )
    # Stored with the seed so that the same draw can be made again (not in the interchange
    # document, which records the seating itself).
    keep_apart = models.CharField(
        _("keep apart"), max_length=16, choices=KeepApart.choices, default=KeepApart.TEAM
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    started = models.BooleanField(
        _("started"),
        default=False,
        help_text=_("Set when the first game is entered; seats can no longer be swapped."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="series_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="series_number_positive"),
        ]

    def __str__(self):
        return _("Series %(number)s") % {"number": self.number}


class Table(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    size = models.PositiveSmallIntegerField(_("players"))
    closed = models.BooleanField(_("closed"), default=False)
    paper_totals = models.JSONField(
        _("totals from the paper list"),
        default=dict,
        blank=True,
        help_text=_("Seat number → list points as written on the paper sheet."),
    )
    # Why the director closed the sheet with fewer games than the series length ("" if not).
    closed_short = models.CharField(
        _("closed short because"),
        max_length=200,
        blank=True,
        validators=[validate_no_control_characters],
    )
    # Private links for entry on the players' phones: one per list keeper (two with double
    # entry). Empty = no link issued or revoked.
    entry_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    entry_token_2 = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # A league match day played at several places: the venue whose secretary keeps it.
    venue = models.ForeignKey(
        "Venue",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="tables",
        verbose_name=_("venue"),
    )
    # The tournament's version at the latest write to this sheet (`version_bump`).
    sheet_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["series", "sheet_version"], name="table_sheet_version")]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="table_number_once"),
            models.CheckConstraint(condition=Q(size__in=TABLE_SIZES), name="table_size_3_to_5"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}

    def dealer_of(self, game_number: int) -> int:
        """Seat 1 deals game 1 and the deal passes on (rules §4)."""
        return scoring.dealer(game_number, self.size)

    def also_out(self, game_number: int) -> int | None:
        """At an NA 5-table the seat that sits out besides the dealer (rules §3.6)."""
        others = self.sitting_out(game_number) - {self.dealer_of(game_number)}
        return min(others) if others else None

    def sitting_out(self, game_number: int) -> frozenset[int]:
        """The seats without cards in a deal: the dealer at a 4-table (rules §4), the
        dealer and the third seat after him at an NA 5-table (rules §3.6)."""
        return scoring.sitting_out(game_number, self.size)


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Denormalised so that the database itself keeps a player at one table per series.
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # The table's size, copied by the service that writes the row, so that the database
    # itself refuses a seat outside the table (seat 4 at a 3-table).
    table_size = models.PositiveSmallIntegerField(editable=False)
    # The seat's sheet totals (`SeatLine`), written by `sheets.totals.seat_totals_refresh` in
    # the transaction of every write to the table's sheet, so that standings read these
    # rows and never the games. `game_points` and `list_points` include the penalties.
    game_points = models.IntegerField(default=0, editable=False)
    won = models.PositiveSmallIntegerField(default=0, editable=False)
    lost = models.PositiveSmallIntegerField(default=0, editable=False)
    others_lost = models.PositiveSmallIntegerField(default=0, editable=False)
    penalties = models.IntegerField(default=0, editable=False)
    list_points = models.IntegerField(default=0, editable=False)
    games_played = models.PositiveSmallIntegerField(default=0, editable=False)
    provisional = models.BooleanField(default=False, editable=False)
    # The games the seat declared, by type: {"grand": [declared, won, lost], ...}
    # (`sheets.totals.seat_figures`), so that a career's games declared by type add up a
    # player's seats instead of counting their games.
    declared = models.JSONField(default=dict, editable=False)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_once"),
            models.UniqueConstraint(fields=["series", "player"], name="seat_player_once"),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=MAX_SEATS), name="seat_number_1_to_5"
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=TABLE_SIZES) & Q(number__lte=F("table_size")),
                name="seat_number_within_table",
            ),
        ]

    def __str__(self):
        return f"{self.table} / {self.number}: {self.player}"


# The league, money, sheet (games, penalties and their history) and action-log models
# (their own modules, registered with the app's models from here).
from tournaments.accounts.models import Invitation  # noqa: E402, F401, I001
from tournaments.hall.models import HallSite, Publication  # noqa: E402, F401, I001
from tournaments.leagues.models import League, MatchDayConfirmation, RosterEntry, Team, Venue  # noqa: E402, F401, I001
from tournaments.log.models import ActionLog  # noqa: E402, F401, I001
from tournaments.money.models import Payment, Prize  # noqa: E402, F401, I001
from tournaments.people.models import PlayerMerge  # noqa: E402, F401, I001
from tournaments.publishing.models import PublishingKey, PublishingState  # noqa: E402, F401, I001
from tournaments.ratings.models import Rating, RatingChange  # noqa: E402, F401, I001
from tournaments.sheets.models import PENALTY_LIMIT, Game, Penalty  # noqa: E402, F401, I001
from tournaments.sheets.models import GameChange, PenaltyChange, SheetCopy  # noqa: E402, F401, I001
