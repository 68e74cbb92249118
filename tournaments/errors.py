"""User-facing errors of the tournaments app.

`UserError` is a mistake by a user (a form, an import, a command line, a URL): it carries a
translated message the view shows, and the write it interrupted is rolled back. Broken
invariants stay plain exceptions.

The rules engine raises `scoring.ScoringError` with a stable code and an English message;
`from_scoring` turns it into a `UserError` whose message is in the active language, and
`validated` does the same for a model's own checks (`full_clean`).
"""

import re
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import scoring

# The engine's codes as translatable templates filled from the error's params (see
# scoring/errors.py). The engine's own messages name its fields ("card_points must be…"):
# the pages show these, in English too, with the fields' labels.
SCORING_MESSAGES = {
    "not_an_object": _("A game must be a set of fields."),
    "unknown_field": _("Unknown field “%(field)s”."),
    "missing_field": _("%(field)s is required."),
    "bad_type": _("%(field)s has the wrong type."),
    "unknown_rules": _("Unknown rule set."),
    "unknown_game": _("This game does not exist in the tournament's rule set."),
    "unknown_trump": _("Unknown trump."),
    "unknown_ramsch": _("Unknown ramsch result."),
    "table_size_range": _("A table has 3 or 4 players (North American: 3, 4 or 5)."),
    "required_for_game": _("%(field)s is required for this game."),
    "result_required": _("Enter whether the declarer won, or the card points."),
    "field_not_allowed": _("%(field)s is not allowed for this game."),
    "ispa_only": _("%(field)s exists only under the ISPA rules."),
    "na_only": _("%(field)s exists only under the North American rules."),
    "matadors_range": _("The matadors must be between 1 and %(max)s for this game."),
    "card_points_range": _("Card points must be between 0 and 120."),
    "invalid_bid": _("The bid %(bid)s is not a valid game value."),
    "na_bid_range": _("The bid %(bid)s is not a valid bid: bids start at 10."),
    "null_below_bid": _(
        "This null game is worth %(value)s, below the bid %(bid)s: enter the referee's "
        "ruling as a correction."
    ),
    "announce_without_hand": _("%(field)s requires a hand game."),
    "announce_outside_solo": _("%(field)s is only possible in a solo."),
    "re_without_kontra": _("Re requires Kontra."),
    "schwarz_without_schneider": _("Schwarz without schneider: a schwarz game is schneider too."),
    "schwarz_card_points": _("Schwarz needs 0 or 120 card points, not %(card_points)s."),
    "schwarz_skat_points": _("Schwarz needs 120 card points, or at most 22, not %(card_points)s."),
    "announced_not_reached": _("Marked won, but the announced level was not reached."),
    "contradiction": _("%(field)s contradicts the card points %(card_points)s."),
    "unknown_ramsch_for_rule": _("This ramsch result does not exist under the ramsch rule."),
    "ramsch_tie_off": _("A tie scores one player unless the tournament's tie option is on."),
    "ramsch_tie_result": _("Only the fewest points can be tied."),
    "penalty_na_only": _("Penalties at a game's value are North American laws (1908)."),
    "penalty_law_unknown": _(
        "Law %(law)s does not charge a game's value; enter a fixed fine as points."
    ),
    "penalty_needs_value": _("Law %(law)s charges a game's value, and a ramsch has none."),
    "penalty_role": _("Law %(law)s charges the %(roles)s, not the %(role)s."),
    "penalty_law_2_skat": _("Law 2 applies to a game played with the skat's aid."),
    "penalty_law_4_right": _("In this game the declarer has the right to look at the skat."),
    "penalty_declarer_wins": _("Law %(law)s makes the declarer win: enter the game as won."),
    "penalty_law_8_overbid_solo": _("Law 8 applies to an overbid solo only."),
}
# Codes whose engine wording speaks of true and false: the pages say it in words, in
# English too.
PLAIN_CODES = {"result_required", "contradiction", "announced_not_reached"}
# A null game has no card points: its result can only be chosen.
NULL_RESULT_REQUIRED = _(
    "Choose “won” or “lost” under Won / lost: a null game has no card points."
)

ENGINE_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")

FIELD_LABELS = {
    "declarer": _("declarer"),
    "game": _("game"),
    "trump": _("trump"),
    "matadors": _("matadors"),
    "without": _("without"),
    "hand": _("hand"),
    "schneider_announced": _("schneider announced"),
    "schwarz_announced": _("schwarz announced"),
    "ouvert": _("ouvert"),
    "won": _("won"),
    "schneider": _("schneider"),
    "schwarz": _("schwarz"),
    "card_points": _("card points"),
    "bid": _("bid"),
    "kontra": "Kontra",
    "re": "Re",
    "table_size": _("table size"),
    "ramsch": _("ramsch result"),
    "ramsch_tie": _("tied seat"),
}

# Codes whose parameters name no field but that always concern one.
CODE_FIELDS = {
    "matadors_range": "matadors",
    "card_points_range": "card_points",
    "schwarz_card_points": "card_points",
    "schwarz_skat_points": "card_points",
    "invalid_bid": "bid",
    "na_bid_range": "bid",
    "null_below_bid": "bid",
    "re_without_kontra": "re",
    "unknown_trump": "trump",
    "unknown_ramsch": "ramsch",
    "unknown_ramsch_for_rule": "ramsch",
    "unknown_game": "game",
    "result_required": "won",
    "schwarz_without_schneider": "schwarz",
    "announced_not_reached": "won",
}


def check_text(value, *, field: str | None = None):
    """Refuse text with a control character (NUL, a line break, ...) as every input does."""
    from tournaments.models import has_control_characters

    if isinstance(value, str) and has_control_characters(value):
        raise UserError(
            _("Remove the control character (such as NUL or a line break)."), field=field
        )
    return value


class UserError(Exception):
    """A user's mistake; `message` is shown as it is, `field` names the form field if any."""

    def __init__(self, message, *, code: str = "invalid", field: str | None = None):
        super().__init__(str(message))
        self.message = message
        self.code = code
        self.field = field

    def __str__(self):
        return str(self.message)


def _readable(message: str) -> str:
    """An engine message with its field names ("card_points") as the forms' labels."""
    return ENGINE_NAME.sub(lambda m: str(FIELD_LABELS.get(m.group(0), m.group(0))), message)


def from_scoring(error: "scoring.ScoringError") -> UserError:
    """The engine's error in the active language; `field` names the offending field."""
    params = dict(getattr(error, "params", {}) or {})
    field = params.get("field") if params.get("field") in FIELD_LABELS else None
    field = field or CODE_FIELDS.get(error.code)
    english = (get_language() or "en").split("-")[0] == "en"
    if error.code == "required_for_game" and field == "won":
        message = str(NULL_RESULT_REQUIRED)
    elif english and error.code not in PLAIN_CODES:
        # The engine's wording is the fuller one (it names the game); only its field names
        # ("card_points") become the labels of the form.
        message = _readable(str(error))
    elif error.code not in SCORING_MESSAGES:
        message = _readable(str(error))
    else:
        if field:
            params["field"] = str(FIELD_LABELS[field]).capitalize()
        try:
            message = SCORING_MESSAGES[error.code] % params
        except (KeyError, TypeError, ValueError):
            message = str(error)
    return UserError(message, code=f"scoring.{error.code}", field=field)


def validated(instance, *, exclude: Iterable[str] = (), constraints: bool = True):
    """`instance` after its model's checks (`full_clean`), or a UserError naming the field.
    `constraints=False` leaves out the database constraints (a query each; a caller that
    writes many rows checks those for all at once)."""
    try:
        instance.full_clean(exclude=list(exclude), validate_constraints=constraints)
    except ValidationError as error:
        messages = []
        for field, errors in error.message_dict.items():
            label = field if field == "__all__" else instance._meta.get_field(field).verbose_name
            for message in errors:
                messages.append(message if field == "__all__" else f"{label}: {message}")
        field = next(iter(error.message_dict), None)
        raise UserError(" ".join(messages), field=None if field == "__all__" else field) from None
    return instance
