"""The choices of the Skat club domain (rule sets, games, ramsch rules, penalty laws), the
table sizes and the text validators. `tournaments.models` imports them all, so either
module can be named.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


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
    """The scored player's result in a ramsch (`scoring.variants`)."""

    FEWEST_POINTS = "fewest_points", _("fewest card points")
    NO_TRICK = "no_trick", _("took no trick")
    ALL_TRICKS = "all_tricks", _("took every trick")
    # Hoyle's ramsch: the player with the most points is scored.
    MOST_POINTS_ONE_NO_TRICK = (
        "most_points_one_no_trick",
        _("most card points, one player took no trick"),
    )
    MOST_POINTS_TWO_NO_TRICK = (
        "most_points_two_no_trick",
        _("most card points, two players took no trick"),
    )


class RamschRule(models.TextChoices):
    """How a ramsch scores (`scoring.variants.RAMSCH_RULES`); a tournament setting."""

    LEAGUE = "league", _("North American league (rules §3.5)")
    HOYLE = "hoyle", _("Hoyle: the most points lose 30 or 50 when a player took no trick")
    GEWINNER = "gewinner", _("Gewinner-Ramsch: fewest points win 23 and a won game")
    NONE = "", _("the rule set's own: NA league ramsch (rules §3.5), ISPA none (rules §1.6)")


# The rule set each ramsch variant belongs to (`scoring.variants`): Gewinner-Ramsch is an
# ISPA house rule, the league and Hoyle ramsch are North American.
RAMSCH_RULE_SETS = {
    RamschRule.LEAGUE.value: RuleSet.NA.value,
    RamschRule.HOYLE.value: RuleSet.NA.value,
    RamschRule.GEWINNER.value: RuleSet.ISPA.value,
}


def ramsch_rule_refusal(rules: str, ramsch_rule: str) -> str:
    """Why `ramsch_rule` cannot be a setting under `rules` ("" when it can): the message
    the form, the services and the imports show."""
    if not ramsch_rule or RAMSCH_RULE_SETS.get(ramsch_rule, rules) == rules:
        return ""
    if ramsch_rule == RamschRule.GEWINNER:
        return str(
            _(
                "Gewinner-Ramsch is an ISPA house rule: North American tournaments score a "
                "ramsch by the league rule (rules §3.5) or Hoyle's."
            )
        )
    return str(_("Hoyle's ramsch and the league ramsch are North American rules (rules §3.5)."))


# The tables of five: North American only (rules §3.6).
TABLE_SIZES = (3, 4, 5)
MAX_SEATS = max(TABLE_SIZES)


class PenaltyLaw(models.IntegerChoices):
    """The 1908 laws that charge a game's value (`scoring.variants.PENALTY_LAWS`)."""

    DISCARD = 2, _("law 2: did not discard two cards")
    SKAT_SEEN = 4, _("law 4: looked at the skat without right")
    DECLARER_THEN_OPPONENT = 6, _("law 6: an opponent misplayed after the declarer")
    OPPONENT_MISPLAY = 7, _("law 7: an opponent led wrongly or did not follow suit")
    OVERBID_SOLO = 8, _("law 8: an opponent misplayed against an overbid solo")
    CARDS_DOWN = 10, _("law 10: an opponent laid down his cards")


def has_control_characters(text: str) -> bool:
    """NUL, tab, line breaks and the like: PostgreSQL refuses NUL, and no name holds them."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def validate_no_control_characters(value: str):
    if has_control_characters(value):
        raise ValidationError(
            _("Remove the control character (such as NUL or a line break)."),
            code="control_character",
        )
