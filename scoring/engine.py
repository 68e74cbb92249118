"""The one entry point that scores a game under its rule set.

``score`` dispatches on (rules, game) to the rule set's module, which validates the game
completely and computes its result; ``result_to_contract`` turns a result into the output
object of the command-line contract.
"""

from __future__ import annotations

from typing import Any

from scoring import ispa, north_american
from scoring.errors import ScoringError, fail, show_text
from scoring.game import DEFAULT_BONUS, Bonus, Game, GameResult, parse_game
from scoring.tables import ISPA_BIDS, ISPA_GAMES, NA_GAMES, NA_MAX_BID, NA_MIN_BID, RULE_SETS

__all__ = ["is_valid_bid", "result_to_contract", "score", "score_mapping", "valid_bids"]

_SCORERS = {"ispa": ispa.SCORERS, "na": north_american.SCORERS}
_GAMES = {"ispa": ISPA_GAMES, "na": NA_GAMES}


def score(game: Game, bonus: Bonus = DEFAULT_BONUS) -> GameResult:
    """Validate ``game`` against its rule set and compute what it scores."""
    try:
        scorer = _SCORERS[game.rules][game.game]
    except KeyError:
        raise _unknown_name(game) from None
    return scorer(game, bonus)


def score_mapping(mapping: object, bonus: Bonus = DEFAULT_BONUS) -> GameResult:
    """Score a JSON-decoded object: ``score(parse_game(mapping), bonus)``."""
    return score(parse_game(mapping), bonus)


def _unknown_name(game: Game) -> ScoringError:
    games = _GAMES.get(game.rules)
    if games is None:
        return fail("unknown_rules", value=show_text(game.rules))
    return fail(
        "unknown_game", value=show_text(game.game), rules=game.rules, choices=", ".join(games)
    )


def valid_bids(rules: str) -> frozenset[int]:
    """The bids an ISPA auction allows: the 63 game values (rules §1.5).

    NA bids are not a list but a range (rules §3.4); use :func:`is_valid_bid`.
    """
    if rules == "ispa":
        return ISPA_BIDS
    if rules == "na":
        raise fail("no_bid_list", rules="na", low=NA_MIN_BID, high=NA_MAX_BID)
    raise fail("unknown_rules", value=show_text(rules))


def is_valid_bid(rules: str, bid: int) -> bool:
    """Whether ``bid`` may be the winning bid under ``rules`` (rules §1.5, §3.4)."""
    if type(bid) is not int:
        return False
    if rules == "ispa":
        return bid in ISPA_BIDS
    if rules == "na":
        return NA_MIN_BID <= bid <= NA_MAX_BID
    raise fail("unknown_rules", value=show_text(rules))


def result_to_contract(game: Game, result: GameResult) -> dict[str, Any]:
    """The contract's output object for ``game`` scored as ``result``."""
    if game.rules == "na":
        if game.game == "ramsch":
            return {"score": result.score}
        return {
            "value": result.value,
            "score": result.score,
            "won": result.won,
            "overbid": result.overbid,
        }
    return {
        "value": result.value,
        "score": result.score,
        "won": result.won,
        "overbid": result.overbid,
        "list_points": {
            "declarer": result.list_declarer,
            "each_other_player": result.list_others,
        },
    }


assert set(_SCORERS) == set(RULE_SETS)
assert all(set(_SCORERS[rules]) == set(_GAMES[rules]) for rules in RULE_SETS)
