"""The Skat club domain: clubs, players, seasons, tournaments, series, tables, seats, games.

Terms (rules reference `../shared/rules/README.md`):
- A *tournament* is one evening or match day under one rule set (`ispa` or `na`).
- A *series* (Serie; "round" in North America) is one sitting: every registered player plays
  at one *table* of 3 or 4 seats for a fixed number of deals (rules §4).
- A *game* is one row of a table's score sheet: one deal, in order. Seat 1 deals the first
  game and the deal passes on; at a 4-table the dealer sits out (rules §4).

Models hold data and constraints only. Every write goes through a subject's `services`
module (`sheets.services`, `entry.services`, ...), and the computed values of each game
(value, score, list points) are stored by `tournaments.games`, so that the standings are
plain SQL sums (`sheets.selectors.seat_lines`, `standings.selectors`).
"""

import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import scoring


def has_control_characters(text: str) -> bool:
    """NUL, tab, line breaks and the like: PostgreSQL refuses NUL, and no name holds them."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def validate_no_control_characters(value: str):
    if has_control_characters(value):
        raise ValidationError(
            _("Remove the control character (such as NUL or a line break)."),
            code="control_character",
        )


class RuleSet(models.TextChoices):
    ISPA = "ispa", _("ISPA / International Skat Order")
    NA = "na", _("North American tournée")


class Category(models.TextChoices):
    NONE = "", _("—")
    LADIES = "ladies", _("Ladies")
    YOUTH = "youth", _("Youth")
    SENIORS = "seniors", _("Seniors")


class GameType(models.TextChoices):
    """Every `game` value of the scoring contract, both rule sets."""

    DIAMONDS = "diamonds", _("Diamonds")
    HEARTS = "hearts", _("Hearts")
    SPADES = "spades", _("Spades")
    CLUBS = "clubs", _("Clubs")
    GRAND = "grand", "Grand"
    NULL = "null", pgettext_lazy("skat", "Null")
    PASSED = "passed", _("Passed in")
    TOURNEE = "tournee", _("Tournée")
    PASST_MIR_NICHT = "passt_mir_nicht", "Passt mir nicht"
    SOLO = "solo", _("Solo")
    GRAND_GUCKSER = "grand_guckser", "Grand Guckser"
    GRAND_OUVERT = "grand_ouvert", "Grand Ouvert"
    NULL_OUVERT = "null_ouvert", pgettext_lazy("skat", "Null Ouvert")
    RAMSCH = "ramsch", "Ramsch"


class Trump(models.TextChoices):
    DIAMONDS = "diamonds", _("Diamonds")
    HEARTS = "hearts", _("Hearts")
    SPADES = "spades", _("Spades")
    CLUBS = "clubs", _("Clubs")
    GRAND = "grand", "Grand"


class RamschResult(models.TextChoices):
    FEWEST_POINTS = "fewest_points", _("fewest card points")
    NO_TRICK = "no_trick", _("took no trick")
    ALL_TRICKS = "all_tricks", _("took every trick")


class Club(models.Model):
    name = models.CharField(
        _("name"), max_length=120, unique=True, validators=[validate_no_control_characters]
    )
    city = models.CharField(_("city"), max_length=120, blank=True)
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="clubs",
        blank=True,
        verbose_name=_("secretaries"),
        help_text=_("Users who manage this club's players and tournaments."),
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
    federation_number = models.CharField(_("federation number"), max_length=40, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("user account"),
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "federation_number"],
                condition=~Q(federation_number=""),
                name="player_unique_federation_number_per_club",
            )
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("player_detail", kwargs={"pk": self.pk})


class Season(models.Model):
    """A league season: its tournaments are the match days."""

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_no_control_characters])
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    teams_best_n = models.PositiveSmallIntegerField(
        _("team scores count the best"),
        null=True,
        blank=True,
        help_text=_("Leave empty to add up every member of a team."),
    )

    class Meta:
        ordering = ["-id"]
        verbose_name = _("league season")
        verbose_name_plural = _("league seasons")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("season_detail", kwargs={"season": self.slug})


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
    created = models.DateTimeField(auto_now_add=True)
    # Bumped by every write that changes what the tournament's pages show
    # (`tournaments.versions.version_bump`), in the writer's transaction: caches, ETags and
    # the live feed key on it.
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(games_per_series_3__gte=1) & Q(games_per_series_4__gte=1),
                name="tournament_series_length_positive",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament_detail", kwargs={"tournament": self.slug})

    def games_per_series(self, table_size: int) -> int:
        return self.games_per_series_4 if table_size == 4 else self.games_per_series_3

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
    # Private links for entry on the players' phones: one per list keeper (two with double
    # entry). Empty = no link issued or revoked.
    entry_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    entry_token_2 = models.CharField(max_length=64, unique=True, null=True, blank=True)

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="table_number_once"),
            models.CheckConstraint(condition=Q(size__in=[3, 4]), name="table_size_3_or_4"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}

    def dealer_of(self, game_number: int) -> int:
        """Seat 1 deals game 1 and the deal passes on (rules §4)."""
        return scoring.dealer(game_number, self.size)


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

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_once"),
            models.UniqueConstraint(fields=["series", "player"], name="seat_player_once"),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=4), name="seat_number_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=[3, 4]) & Q(number__lte=F("table_size")),
                name="seat_number_within_table",
            ),
        ]

    def __str__(self):
        return f"{self.table} / {self.number}: {self.player}"


class Game(models.Model):
    """One row of a table's score sheet: the declared game as entered and its computed values.

    The declared fields are those of the scoring contract; `value`, `score`, `is_won`,
    `is_lost`, `overbid`, `list_declarer` and `list_others` are written by
    `sheets.services.game_record`/`game_correct` from the rules engine and never edited by hand.
    For an NA ramsch `declarer` is the seat that the ramsch result scores (rules §3.5).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    # The table's tournament, copied by `games.game_build`, so that a tournament's games are
    # found through an index whatever the size of the database (the live feed, the latest
    # games, the workbook). No database constraint: every write updates the tournament's
    # row (its version), and on PostgreSQL a foreign-key check per game against a row
    # updated thousands of times in one transaction (an import, generated data) walks all
    # those versions. The writer keeps it right (it is always the table's tournament).
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="+",
        editable=False,
        db_index=False,
        db_constraint=False,
    )
    number = models.PositiveSmallIntegerField(_("game"))
    # The table's size, copied by the service that writes the row, so that the database
    # itself refuses a seat outside the table (seat 4 at a 3-table).
    table_size = models.PositiveSmallIntegerField(editable=False)
    declarer = models.PositiveSmallIntegerField(_("declarer"), null=True, blank=True)
    game = models.CharField(_("game"), max_length=16, choices=GameType.choices)
    trump = models.CharField(_("trump"), max_length=10, choices=Trump.choices, blank=True)
    matadors = models.PositiveSmallIntegerField(_("matadors"), null=True, blank=True)
    without = models.BooleanField(_("without"), default=False)
    hand = models.BooleanField(_("hand"), default=False)
    schneider_announced = models.BooleanField(_("schneider announced"), default=False)
    schwarz_announced = models.BooleanField(_("schwarz announced"), default=False)
    ouvert = models.BooleanField(_("ouvert"), default=False)
    won = models.BooleanField(_("won"), null=True, blank=True)
    schneider = models.BooleanField(_("schneider"), default=False)
    schwarz = models.BooleanField(_("schwarz"), default=False)
    card_points = models.PositiveSmallIntegerField(_("card points"), null=True, blank=True)
    bid = models.PositiveSmallIntegerField(_("bid"), null=True, blank=True)
    kontra = models.BooleanField(_("Kontra"), default=False)
    re = models.BooleanField(_("Re"), default=False)
    ramsch = models.CharField(
        _("ramsch result"), max_length=16, choices=RamschResult.choices, blank=True
    )
    # Computed by services from the rules engine.
    value = models.IntegerField(_("value"), default=0)
    score = models.IntegerField(_("score"), default=0)
    is_won = models.BooleanField(default=False)
    is_lost = models.BooleanField(default=False)
    overbid = models.BooleanField(_("overbid"), default=False)
    list_declarer = models.IntegerField(default=0)
    list_others = models.IntegerField(default=0)
    # Entered at the table on a phone: counts as provisional until the sheet is confirmed.
    provisional = models.BooleanField(_("provisional"), default=False)
    # The phone's own id for the row, so a resent row never creates a second game.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # The tournament's version this row was last written at (the live feed: "changed since").
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=Q(declarer__isnull=True) | (Q(declarer__gte=1) & Q(declarer__lte=4)),
                name="game_declarer_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=[3, 4])
                & (Q(declarer__isnull=True) | Q(declarer__lte=F("table_size"))),
                name="game_declarer_within_table",
            ),
            models.CheckConstraint(
                condition=Q(card_points__isnull=True) | Q(card_points__lte=120),
                name="game_card_points_0_to_120",
            ),
            models.CheckConstraint(
                condition=~(Q(is_won=True) & Q(is_lost=True)), name="game_not_won_and_lost"
            ),
        ]
        indexes = [
            models.Index(fields=["table", "declarer"], name="game_table_declarer"),
            models.Index(fields=["tournament", "version"], name="game_tournament_version"),
            models.Index(fields=["tournament", "created"], name="game_tournament_created"),
        ]

    def __str__(self):
        return _("Game %(number)s") % {"number": self.number}

    @property
    def dealer(self) -> int:
        return self.table.dealer_of(self.number)


class GameChange(models.Model):
    """The history of a sheet row: who changed what, when (old → new)."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
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

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="second_copy")
    # [{"number": n, "client_id": "...", "data": {game mapping}}, ...] in game order.
    rows = models.JSONField(default=list)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("second copy of a sheet")
        verbose_name_plural = _("second copies of sheets")

    def __str__(self):
        return f"{self.table} (2)"


# A fine is a few dozen points (NA misdeal −10, rules §3.6); a thousand either way is
# already far beyond any real one, so a larger number is a typing mistake.
PENALTY_LIMIT = 1000


class Penalty(models.Model):
    """Point fines for a seat (NA misdeal −10 etc., rules §3.6), added to its game points."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The table's size, copied by the service that writes the row, so that the database
    # itself refuses a seat outside the table (seat 4 at a 3-table).
    table_size = models.PositiveSmallIntegerField(editable=False)
    points = models.IntegerField(
        _("points"),
        validators=[
            MinValueValidator(-PENALTY_LIMIT),
            MaxValueValidator(PENALTY_LIMIT),
        ],
    )
    reason = models.CharField(
        _("reason"), max_length=120, blank=True, validators=[validate_no_control_characters]
    )

    class Meta:
        ordering = ["table", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=Q(seat__gte=1) & Q(seat__lte=4), name="penalty_seat_1_to_4"
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=[3, 4]) & Q(seat__lte=F("table_size")),
                name="penalty_seat_within_table",
            ),
            models.CheckConstraint(condition=~Q(points=0), name="penalty_not_zero"),
            models.CheckConstraint(
                condition=Q(points__gte=-PENALTY_LIMIT) & Q(points__lte=PENALTY_LIMIT),
                name="penalty_points_in_range",
            ),
        ]

    def __str__(self):
        return f"{self.seat}: {self.points} {self.reason}".strip()


class PenaltyChange(models.Model):
    """The history of a sheet's penalties: who entered or deleted which penalty, when."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        DELETED = "deleted", _("deleted")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalty_changes")
    penalty = models.ForeignKey(
        Penalty, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
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


class Prize(models.Model):
    """One line of a prize plan: a rank in a ranking wins a fixed amount or a share of the pot."""

    class Scope(models.TextChoices):
        OVERALL = "overall", _("overall standings")
        SERIES = "series", _("a series")
        CATEGORY = "category", _("a category")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
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
        Registration, on_delete=models.CASCADE, related_name="payments"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.FEES)
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    note = models.CharField(_("note"), max_length=120, blank=True)
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
