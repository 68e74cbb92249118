"""The one entry point that scores a game under its rule set.

``score`` dispatches on (rules, game) to the rule set's module, which validates the game
completely and computes its result; ``score_mapping`` does the same for a JSON-decoded
object (the command line's path) and also rejects a ``schneider`` flag given explicitly as
false that the card points contradict; ``result_to_contract`` turns a result into the
output object of the command-line contract.
"""

from __future__ import annotations

from typing import Any

from scoring import ispa, north_american
from scoring.errors import ScoringError, fail, show_text
from scoring.game import DEFAULT_BONUS, Bonus, Game, GameResult, parse_game
from scoring.tables import (
    ISPA_BIDS,
    ISPA_GAMES,
    ISPA_SCHNEIDER_FROM,
    NA_GAMES,
    NA_MIN_BID,
    NA_SCHNEIDER_FROM,
    RULE_SETS,
)

__all__ = [
    "is_valid_bid",
    "result_to_contract",
    "score",
    "score_mapping",
    "score_parsed",
    "valid_bids",
]

_SCORERS = {"ispa": ispa.SCORERS, "na": north_american.SCORERS}
_GAMES = {"ispa": ISPA_GAMES, "na": NA_GAMES}
_SCHNEIDER_FROM = {"ispa": ISPA_SCHNEIDER_FROM, "na": NA_SCHNEIDER_FROM}


def score(game: Game, bonus: Bonus = DEFAULT_BONUS) -> GameResult:
    """Validate ``game`` against its rule set and compute what it scores."""
    try:
        scorer = _SCORERS[game.rules][game.game]
    except KeyError:
        raise _unknown_name(game) from None
    return scorer(game, bonus)


def score_mapping(mapping: object, bonus: Bonus = DEFAULT_BONUS) -> GameResult:
    """Score a JSON-decoded object: ``score(parse_game(mapping), bonus)``, plus one check.

    The contract: "when card_points is given, won and schneider follow from it, and a flag
    that contradicts it is an error". A Game cannot tell ``schneider=False`` from "not
    given", but a mapping can: an explicit ``"schneider": false`` that the card points
    make true is rejected here (``true`` against the card points is rejected by ``score``).
    """
    return score_parsed(mapping, bonus)[1]


def score_parsed(mapping: object, bonus: Bonus = DEFAULT_BONUS) -> tuple[Game, GameResult]:
    """:func:`score_mapping` that also returns the Game it built (the command line's path)."""
    game = parse_game(mapping)
    result = score(game, bonus)
    # "in" first: most mappings have no schneider field, and it is cheaper than get().
    if (
        game.card_points is not None
        and "schneider" in mapping  # parse_game checked it is a Mapping
        and mapping["schneider"] is False
    ):
        _check_given_schneider(game)
    return game, result


def _check_given_schneider(game: Game) -> None:
    """Reject a scored game's explicit ``schneider: false`` that its card points make true.

    The scorer accepted the game, so its card points are in range and the game takes them;
    schneider is ≥ 90 (ISPA, rules §1.3) or ≥ 91 (NA, rules §3.3), or ≤ 30 for the declarer.
    """
    card_points = game.card_points
    assert card_points is not None
    if card_points >= _SCHNEIDER_FROM[game.rules] or card_points <= 30:
        raise fail(
            "contradiction",
            field="schneider",
            given="false",
            card_points=card_points,
            derived="true",
        )


def _unknown_name(game: Game) -> ScoringError:
    games = _GAMES.get(game.rules)
    if games is None:
        return fail("unknown_rules", value=show_text(game.rules))
    return fail(
        "unknown_game", value=show_text(game.game), rules=game.rules, choices=", ".join(games)
    )


def valid_bids(rules: str) -> frozenset[int]:
    """The bids an ISPA auction allows: the 63 game values (rules §1.5).

    NA bids are not a list but every integer from 10 (rules §3.4, the scoring contract);
    use :func:`is_valid_bid`.
    """
    if rules == "ispa":
        return ISPA_BIDS
    if rules == "na":
        raise fail("no_bid_list", rules="na", low=NA_MIN_BID)
    raise fail("unknown_rules", value=show_text(rules))


def is_valid_bid(rules: str, bid: int) -> bool:
    """Whether ``bid`` may be the winning bid under ``rules`` (rules §1.5, §3.4)."""
    if type(bid) is not int:
        return False
    if rules == "ispa":
        return bid in ISPA_BIDS
    if rules == "na":
        return bid >= NA_MIN_BID
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
