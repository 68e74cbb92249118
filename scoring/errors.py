"""The one error type of the rules engine and the list of its codes.

Every input the engine rejects raises :class:`ScoringError`. Its ``code`` is stable and
machine-readable; ``params`` hold the values that fill the English template in
:data:`MESSAGES`, so ``str(err) == MESSAGES[err.code].format(**err.params)``. The Django side
translates by code and params; the command line prints the English message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MESSAGES", "ScoringError", "fail", "show_int", "show_text"]

#: Every code the engine raises, with its English message template.
MESSAGES: dict[str, str] = {
    # Shape and types of the input (parse_game, Game).
    "not_an_object": "a game must be a JSON object",
    "unknown_field": "unknown field '{field}'",
    "missing_field": "{field} is required",
    "bad_type": "{field} must be {expected}",
    # Names out of the rules' vocabulary.
    "unknown_rules": "unknown rules '{value}': use 'ispa' or 'na'",
    "unknown_game": "unknown game '{value}' for {rules} rules: use one of {choices}",
    "unknown_trump": "unknown trump '{value}': use one of {choices}",
    "unknown_ramsch": "unknown ramsch result '{value}': use one of {choices}",
    "table_size_range": "table_size must be {sizes}",
    # Which fields a game needs or allows.
    "required_for_game": "{field} is required for {what}",
    "result_required": "either won or card_points is required",
    "field_not_allowed": "{field} is not allowed for {what}",
    "ispa_only": "{field} is an ispa field; {hint}",
    "na_only": "{field} is an na field; {hint}",
    # Rule checks.
    "matadors_range": "matadors must be between 1 and {max} for {what}",
    "card_points_range": "card_points must be between 0 and 120",
    "invalid_bid": "bid {bid} is not a valid game value",
    "na_bid_range": "bid {bid} is not a valid na bid: bids start at {low}",
    "no_bid_list": "{rules} bids are a range, not a list: any bid of {low} or more",
    "null_below_bid": (
        "{what} is worth {value}, below the bid {bid}: "
        "enter the referee's ruling as a manual correction"
    ),
    "announce_without_hand": "{field} requires a hand game",
    "announce_outside_solo": "{field} is only possible in a solo",
    "re_without_kontra": "re requires kontra",
    "schwarz_without_schneider": "schwarz without schneider: a schwarz game is schneider too",
    "schwarz_card_points": "schwarz needs card_points 0 or 120, not {card_points}",
    "schwarz_skat_points": (
        "schwarz needs card_points 120, or at most {skat} (the skat) when the declarer "
        "took no trick, not {card_points}"
    ),
    "announced_not_reached": "won is true, but {level} was announced and not reached",
    "contradiction": "{field} is {given}, but card_points {card_points} make it {derived}",
    # Ramsch variants and penalties at a game's value (scoring.variants).
    "unknown_ramsch_rule": "unknown ramsch_rule '{value}': use one of {choices}",
    "ramsch_rule_rules": "ramsch_rule {rule} belongs to {rules} rules",
    "ramsch_rule_not_ramsch": "ramsch_rule applies to a ramsch, not to {game}",
    "unknown_ramsch_for_rule": (
        "unknown ramsch result '{value}' under the {rule} ramsch rule: use one of {choices}"
    ),
    "ramsch_tie_off": (
        "a tie for the fewest points scores one player under the {rule} ramsch rule "
        "unless the tie option is on"
    ),
    "ramsch_tie_result": "only the fewest points can be tied, not {value}",
    "penalty_na_only": "penalties at a game's value are laws of na (1908); ispa has none",
    "penalty_law_unknown": (
        "law {law} does not charge a game's value: use one of {laws} "
        "(laws 1, 3 and 5 are fixed fines, entered as points)"
    ),
    "penalty_role_unknown": "unknown erring player '{value}': use one of {choices}",
    "penalty_needs_value": "law {law} charges a game's value, and a ramsch has none",
    "penalty_role": "law {law} charges the {roles}, not the {role}",
    "penalty_law_2_skat": (
        "law 2 applies to a game with the aid of the skat "
        "(tournee, passt_mir_nicht, grand_guckser), not to {game}"
    ),
    "penalty_law_4_right": "in a {game} the declarer has the right to look at the skat",
    "penalty_declarer_wins": "law {law} makes the declarer win: the game must be won",
    "penalty_law_8_overbid_solo": "law 8 applies to an overbid solo only",
    "penalty_not_object": ('penalty must be an object like {{"law": 7, "by": "opponent"}}'),
    # Series (score_series, list_points_for).
    "series_table_size": "table_size must be between 3 and {max} for {rules} rules",
    "bad_seat": "seat {seat} is not a seat at a table of {table_size}",
    "bad_sheet_game": "game {number} of the sheet is not valid: {reason}",
    "sitting_out": "game {number} of the sheet: seat {seat} has no cards in this deal ({why})",
    # The command line.
    "invalid_json": "line {line} is not valid JSON: {detail}",
    "not_utf8": "line {line} is not valid UTF-8",
    "not_an_object_line": "line {line} is not a JSON object",
    "duplicate_field": "line {line}: field '{field}' appears twice",
    "number_too_large": "line {line}: a number is too large (more than {digits} digits)",
}


class ScoringError(Exception):
    """A game (or series) the rules do not allow; ``code`` is stable, see MESSAGES."""

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params) if params else {}

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"ScoringError({self.code!r}, {self.message!r})"


def fail(code: str, **params: Any) -> ScoringError:
    """Build the error for ``code`` with its message filled in (the caller raises it)."""
    return ScoringError(code, MESSAGES[code].format(**params), params)


_TEXT_LIMIT = 40


def show_text(value: object) -> str:
    """A user-supplied name, cut short so a message stays one readable line."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > _TEXT_LIMIT:
        return text[: _TEXT_LIMIT - 1] + "…"
    return text


def show_int(value: int) -> str:
    """A user-supplied integer; huge ones are not spelled out (str() may refuse them)."""
    if -(10**18) < value < 10**18:
        return str(value)
    return "(a number of more than 18 digits)"
