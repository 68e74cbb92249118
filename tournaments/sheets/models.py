"""The score sheet's models: its rows (`Game`, `Penalty`), their history (who entered,
corrected or deleted which row or penalty, `GameChange`, `PenaltyChange`) and the second
list keeper's copy under double entry (`SheetCopy`).

Data and constraints only: the writes are `sheets.services`, `entry.services` and, for a
game's computed values, `tournaments.games`. Registered with the app's models from
`tournaments.models` (and imported from there), so they keep their app label, tables and
migrations.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.choices import (
    MAX_SEATS,
    TABLE_SIZES,
    GameType,
    PenaltyLaw,
    RamschResult,
    Trump,
    validate_no_control_characters,
)


class Game(models.Model):
    """One row of a table's score sheet: the declared game as entered and its computed values.

    The declared fields are those of the scoring contract; `value`, `score`, `is_won`,
    `is_lost`, `overbid`, `list_declarer` and `list_others` are written by
    `sheets.services.game_record`/`game_correct` from the rules engine and never edited by hand.
    For an NA ramsch `declarer` is the seat that the ramsch result scores (rules §3.5).
    """

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="games")
    # The table's tournament, copied by `games.game_build`, so that a tournament's games are
    # found through an index whatever the size of the database (the live feed, the latest
    # games, the workbook). No database constraint: every write updates the tournament's
    # row (its version), and on PostgreSQL a foreign-key check per game against a row
    # updated thousands of times in one transaction (an import, generated data) walks all
    # those versions. The writer keeps it right (it is always the table's tournament).
    tournament = models.ForeignKey(
        "tournaments.Tournament",
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
        _("ramsch result"), max_length=24, choices=RamschResult.choices, blank=True
    )
    # A tie for the fewest points in a ramsch: this seat scores what `declarer` scores.
    ramsch_tie = models.PositiveSmallIntegerField(_("tied seat"), null=True, blank=True)
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
                condition=Q(declarer__isnull=True)
                | (Q(declarer__gte=1) & Q(declarer__lte=MAX_SEATS)),
                name="game_declarer_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=TABLE_SIZES)
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
            models.CheckConstraint(
                condition=Q(ramsch_tie__isnull=True)
                | (
                    Q(game="ramsch", ramsch_tie__gte=1, ramsch_tie__lte=F("table_size"))
                    & ~Q(ramsch_tie=F("declarer"))
                ),
                name="game_ramsch_tie_is_another_seat",
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


# A fine is a few dozen points (NA misdeal −10, rules §3.6); a thousand either way is
# already far beyond any real one, so a larger number is a typing mistake.
PENALTY_LIMIT = 1000


class Penalty(models.Model):
    """Point entries for a seat, added to its game points (rules §3.6).

    Either a fixed fine (NA misdeal −10 etc.: `points` typed in, no `game`) or a penalty
    charged at a game's value (`game` and `law` set; `points` computed from the game by
    `scoring.penalty_charge` in `sheets.services`, never typed). Law 8 writes two rows:
    the erring opponent's charge and the overbid declarer's credit (seat = declarer).
    """

    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="penalties"
    )
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
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="penalties",
        verbose_name=_("game"),
    )
    law = models.PositiveSmallIntegerField(
        _("law"), choices=PenaltyLaw.choices, null=True, blank=True
    )
    # The generated texts among this row's fields, as what happened (`tournaments.phrases`).
    phrases = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        ordering = ["table", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=Q(seat__gte=1) & Q(seat__lte=MAX_SEATS), name="penalty_seat_1_to_5"
            ),
            models.CheckConstraint(
                condition=Q(game__isnull=True, law__isnull=True)
                | Q(game__isnull=False, law__isnull=False),
                name="penalty_law_with_its_game",
            ),
            models.CheckConstraint(
                condition=Q(table_size__in=TABLE_SIZES) & Q(seat__lte=F("table_size")),
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
    # The generated texts among this row's fields, as what happened (`tournaments.phrases`).
    phrases = models.JSONField(default=dict, blank=True, editable=False)

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
    # The generated texts among this row's fields, as what happened (`tournaments.phrases`).
    phrases = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("penalty change")
        verbose_name_plural = _("penalty changes")

    def __str__(self):
        return f"{self.get_action_display()} {self.seat}: {self.points}"
