"""The Skat rules engine: score a declared game under a rule set, total a series.

Pure Python, no Django and nothing outside the standard library. The binding reference is
``shared/rules/README.md`` ("rules §n" in comments); the command line is ``python -m
scoring`` (``shared/rules/scoring-contract.md``).

``score_sheet`` totals one table's sheet of declared games per seat (rules §2).

Rule sets: ``ispa`` (International Skat Order with Seeger-Fabian list points, rules §1-§2)
and ``na`` (North American tournée skat, rules §3). Every rejected input raises
:class:`ScoringError` with a stable ``code`` (listed in ``scoring.errors.MESSAGES``).
"""

from scoring.engine import is_valid_bid, result_to_contract, score, score_mapping, valid_bids
from scoring.errors import MESSAGES, ScoringError
from scoring.game import DEFAULT_BONUS, Bonus, Game, GameResult, parse_game
from scoring.outcome import card_points_band, schneider_reached
from scoring.seeger_fabian import (
    SeatTotals,
    SheetGame,
    dealer,
    list_points_for,
    ranking_key,
    score_series,
    score_sheet,
    sitting_out,
)
from scoring.tables import ISPA_GAMES, NA_GAMES, RAMSCH_RESULTS, RULE_SETS, SUITS, TRUMPS
from scoring.variants import (
    PENALTY_LAWS,
    RAMSCH_RULES,
    PenaltyCharge,
    penalty_charge,
    ramsch_results,
    ramsch_score,
    ramsch_tie_check,
)

__all__ = [
    "DEFAULT_BONUS",
    "ISPA_GAMES",
    "MESSAGES",
    "NA_GAMES",
    "PENALTY_LAWS",
    "RAMSCH_RESULTS",
    "RAMSCH_RULES",
    "RULE_SETS",
    "SUITS",
    "TRUMPS",
    "Bonus",
    "Game",
    "GameResult",
    "PenaltyCharge",
    "ScoringError",
    "SeatTotals",
    "SheetGame",
    "card_points_band",
    "dealer",
    "is_valid_bid",
    "list_points_for",
    "parse_game",
    "penalty_charge",
    "ramsch_results",
    "ramsch_score",
    "ramsch_tie_check",
    "ranking_key",
    "result_to_contract",
    "score",
    "score_mapping",
    "schneider_reached",
    "score_series",
    "score_sheet",
    "sitting_out",
    "valid_bids",
]
