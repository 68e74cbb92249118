"""Game values and scores under the International Skat Order (rule set ``ispa``, rules §1).

Terms: the *level* (Spielstufe) is matadors + 1 + one per hand, schneider, schneider
announced, schwarz, schwarz announced and ouvert; the *value* is base value × level (null:
fixed). The *score* is +value for a won game and −2 × value for a lost one.

``SCORERS`` maps each ISPA game name to a function ``(game, bonus) -> GameResult``.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.errors import ScoringError, fail, show_int
from scoring.game import Bonus, Game, GameResult, first_given, result_of
from scoring.outcome import play_outcome
from scoring.tables import (
    ISPA_BASE,
    ISPA_BIDS,
    ISPA_NULL,
    ISPA_SCHNEIDER_FROM,
    ISPA_SCHWARZ_SKAT_MAX,
    ISPA_TABLE_SIZES,
    MAX_MATADORS,
    SUITS,
)

__all__ = ["PASSED_RESULT", "SCORERS"]

Scorer = Callable[[Game, Bonus], GameResult]

# rules §1.6: a passed-in deal scores nothing for anyone.
PASSED_RESULT = GameResult(
    value=0,
    score=0,
    won=None,
    overbid=False,
    list_declarer=0,
    list_others=0,
    multiplier=None,
    base=None,
)

_NA_HINTS = {
    "trump": "in ispa the game names the trump",
    "ramsch": "ispa has no Ramsch (a deal everyone passed is the game 'passed')",
}


def _na_field(game: Game) -> ScoringError:
    field = "trump" if game.trump is not None else "ramsch"
    return fail("na_only", field=field, hint=_NA_HINTS[field])


def _suit_scorer(base: int, max_matadors: int, what: str) -> Scorer:
    """The scorer of a suit game or grand with ``base`` value (rules §1.1-§1.5, §1.7)."""

    def scorer(game: Game, bonus: Bonus) -> GameResult:
        if game.trump is not None or game.ramsch is not None:
            raise _na_field(game)
        matadors = game.matadors
        if matadors is None:
            raise fail("required_for_game", field="matadors", what=what)
        if not 1 <= matadors <= max_matadors:  # rules §1.2
            raise fail("matadors_range", max=max_matadors, what=what)
        table_size = game.table_size
        if table_size not in ISPA_TABLE_SIZES:  # rules §4
            raise fail("table_size_range", sizes="3 or 4")
        # rules §1.3: suit/grand ouvert is a hand game with schwarz announced, and
        # schwarz announced includes schneider announced.
        ouvert = game.ouvert
        hand = game.hand or ouvert
        schwarz_announced = game.schwarz_announced or ouvert
        schneider_announced = game.schneider_announced or schwarz_announced
        if schneider_announced and not hand:  # rules §1.3: announcements need a hand game
            field = "schneider_announced" if game.schneider_announced else "schwarz_announced"
            raise fail("announce_without_hand", field=field)
        if game.re and not game.kontra:  # rules §1.7
            raise fail("re_without_kontra")

        won, schneider, schwarz = play_outcome(
            game,
            schneider_announced,
            schwarz_announced,
            ISPA_SCHNEIDER_FROM,
            ISPA_SCHWARZ_SKAT_MAX,
        )
        # rules §1.3: an announced level counts whether reached or not, and schneider
        # (schwarz) counts once whether the declarer or the opponents are schneider.
        level = (
            matadors
            + 1
            + hand
            + (schneider or schneider_announced)
            + schneider_announced
            + (schwarz or schwarz_announced)
            + schwarz_announced
            + ouvert
        )
        value = base * level

        overbid = False
        bid = game.bid
        if bid is not None:
            if bid not in ISPA_BIDS:  # rules §1.5: a bid is one of the 63 game values
                raise fail("invalid_bid", bid=show_int(bid))
            if value < bid:
                # rules §1.5: lost, charged at the lowest multiple of the base value
                # reaching the bid; the value tested includes schneider against the
                # declarer and ignores Kontra/Re (rules §1.7).
                overbid = True
                won = False
                value = -(-bid // base) * base

        # rules §1.4: lost games count double, hand games included.
        score = value if won else -2 * value
        if game.kontra:  # rules §1.7: Kontra doubles, Re doubles again
            score *= 4 if game.re else 2
        # rules §2: the Seeger-Fabian ±50 / 40 / 30 is never multiplied by Kontra/Re.
        if won:
            return result_of((value, score, won, overbid, score + bonus.won, 0, level, base))
        others = bonus.others_3 if table_size == 3 else bonus.others_4
        return result_of((value, score, won, overbid, score - bonus.lost, others, level, base))

    return scorer


# rules §1.3: null has no matadors and no levels; card points do not decide a null.
_NOT_FOR_NULL = (
    "matadors",
    "without",
    "schneider_announced",
    "schwarz_announced",
    "schneider",
    "schwarz",
    "card_points",
)


def _null(game: Game, bonus: Bonus) -> GameResult:
    if game.trump is not None or game.ramsch is not None:
        raise _na_field(game)
    if (
        game.matadors is not None
        or game.without
        or game.schneider_announced
        or game.schwarz_announced
        or game.schneider
        or game.schwarz
        or game.card_points is not None
    ):
        raise fail("field_not_allowed", field=first_given(game, _NOT_FOR_NULL), what="null")
    if game.table_size not in ISPA_TABLE_SIZES:  # rules §4
        raise fail("table_size_range", sizes="3 or 4")
    if game.re and not game.kontra:  # rules §1.7
        raise fail("re_without_kontra")
    won = game.won
    if won is None:
        raise fail("required_for_game", field="won", what="null")
    # rules §1.1: null 23, hand 35, ouvert 46, ouvert hand 59.
    value = ISPA_NULL[game.hand][game.ouvert]
    bid = game.bid
    if bid is not None:
        if bid not in ISPA_BIDS:  # rules §1.5
            raise fail("invalid_bid", bid=show_int(bid))
        if value < bid:  # rules §1.5, last sentence: the referee decides, not the engine
            raise fail("null_below_bid", what="null", value=value, bid=bid)
    score = value if won else -2 * value  # rules §1.4
    if game.kontra:  # rules §1.7
        score *= 4 if game.re else 2
    if won:
        return result_of((value, score, True, False, score + bonus.won, 0, None, None))
    others = bonus.others_3 if game.table_size == 3 else bonus.others_4
    return result_of((value, score, False, False, score - bonus.lost, others, None, None))


# rules §1.6: a passed-in deal has no declarer, so it has nothing but its table.
_NOT_FOR_PASSED = (
    "trump",
    "matadors",
    "without",
    "hand",
    "schneider_announced",
    "schwarz_announced",
    "ouvert",
    "won",
    "schneider",
    "schwarz",
    "card_points",
    "bid",
    "kontra",
    "re",
    "ramsch",
)


def _passed(game: Game, bonus: Bonus) -> GameResult:
    name = first_given(game, _NOT_FOR_PASSED)
    if name is not None:
        if name == "trump" or name == "ramsch":
            raise _na_field(game)
        raise fail("field_not_allowed", field=name, what="a passed-in deal")
    if game.table_size not in ISPA_TABLE_SIZES:  # rules §4
        raise fail("table_size_range", sizes="3 or 4")
    return PASSED_RESULT


SCORERS: dict[str, Scorer] = {
    **{suit: _suit_scorer(ISPA_BASE[suit], MAX_MATADORS["suit"], "a suit game") for suit in SUITS},
    "grand": _suit_scorer(ISPA_BASE["grand"], MAX_MATADORS["grand"], "a grand game"),
    "null": _null,
    "passed": _passed,
}
