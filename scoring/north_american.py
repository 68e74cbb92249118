"""Game values and scores of North American tournée skat (rule set ``na``, rules §3).

Terms: the *unit value* depends on the game and trump (rules §3.1); the *multiplier* is
matadors + stage + bonus, where the stage is 1 game, 2 schneider, 3 schwarz and the bonus
+1 for schneider announced, +2 for schwarz announced (rules §3.2). A won game scores
+value, a lost one −value; passt mir nicht and grand guckser lose double (rules §3.4).
NA has no list points: standings are plain sheet totals (rules §3.6).

``SCORERS`` maps each NA game name to a function ``(game, bonus) -> GameResult``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from scoring.errors import ScoringError, fail, show_int, show_text
from scoring.game import Bonus, Game, GameResult, first_given, result_of
from scoring.outcome import play_outcome
from scoring.tables import (
    MAX_MATADORS,
    NA_GRAND_GUCKSER,
    NA_GRAND_OUVERT,
    NA_MIN_BID,
    NA_NULL,
    NA_NULL_OUVERT,
    NA_SCHNEIDER_FROM,
    NA_SOLO_UNITS,
    NA_TABLE_SIZES,
    NA_TOURNEE_UNITS,
    RAMSCH_RESULTS,
    TRUMPS,
)

__all__ = ["SCORERS"]

Scorer = Callable[[Game, Bonus], GameResult]

_ISPA_HINTS = {
    "hand": "in na a solo is the hand game",
    "ouvert": "in na play grand_ouvert or null_ouvert",
    "kontra": "na has no Kontra or Re",
    "re": "na has no Kontra or Re",
}


def _ispa_field(game: Game) -> ScoringError:
    for field in ("hand", "ouvert", "kontra", "re"):
        if getattr(game, field):
            return fail("ispa_only", field=field, hint=_ISPA_HINTS[field])
    raise AssertionError("no ispa field given")  # pragma: no cover


def _check_bid(bid: int) -> None:
    # rules §3.4: bids start at 10; the scoring contract: any integer bid "≥ 10".
    if bid < NA_MIN_BID:
        raise fail("na_bid_range", bid=show_int(bid), low=NA_MIN_BID)


def _trump_game(
    units: Mapping[str, int], name: str, loss_factor: int, announcements: bool
) -> Scorer:
    """Tournée, passt mir nicht or solo: the declarer names a trump or grand (rules §3.1)."""

    def scorer(game: Game, bonus: Bonus) -> GameResult:
        if game.hand or game.ouvert or game.kontra or game.re:
            raise _ispa_field(game)
        if game.ramsch is not None:
            raise fail("field_not_allowed", field="ramsch", what=name)
        trump = game.trump
        if trump is None:
            raise fail("required_for_game", field="trump", what=name)
        unit = units.get(trump)
        if unit is None:
            raise fail("unknown_trump", value=show_text(trump), choices=", ".join(TRUMPS))
        kind = "grand" if trump == "grand" else "suit"
        return _play(game, kind, unit, loss_factor, announcements, False)

    return scorer


def _grand_game(unit: int, name: str, loss_factor: int, ouvert: bool) -> Scorer:
    """Grand guckser or grand ouvert: jacks are trumps, no trump is named (rules §3.1)."""

    def scorer(game: Game, bonus: Bonus) -> GameResult:
        if game.hand or game.ouvert or game.kontra or game.re:
            raise _ispa_field(game)
        if game.trump is not None or game.ramsch is not None:
            field = "trump" if game.trump is not None else "ramsch"
            raise fail("field_not_allowed", field=field, what=name)
        # rules §3.2: only solos take announcements; grand ouvert is a solo whose
        # schwarz announcement is implied (rules §3.2), so saying it again is harmless.
        return _play(game, "grand", unit, loss_factor, ouvert, ouvert)

    return scorer


def _play(
    game: Game,
    kind: str,
    unit: int,
    loss_factor: int,
    announcements: bool,
    ouvert: bool,
) -> GameResult:
    """Validate and score a game with matadors; ``ouvert`` implies schwarz announced."""
    matadors = game.matadors
    what = "a grand game" if kind == "grand" else "a suit game"
    if matadors is None:
        raise fail("required_for_game", field="matadors", what=what)
    max_matadors = MAX_MATADORS[kind]
    if not 1 <= matadors <= max_matadors:  # rules §1.2 applies to both rule sets
        raise fail("matadors_range", max=max_matadors, what=what)
    if game.table_size not in NA_TABLE_SIZES:  # rules §3.6
        raise fail("table_size_range", sizes="3, 4 or 5")
    schwarz_announced = game.schwarz_announced or ouvert
    schneider_announced = game.schneider_announced or schwarz_announced
    if schneider_announced and not announcements:  # rules §3.2: announcements only in solos
        field = "schneider_announced" if game.schneider_announced else "schwarz_announced"
        raise fail("announce_outside_solo", field=field)

    # Foster 1909: a schwarz declarer's skat cards "belong to them [the opponents] instead
    # of to the player", so schwarz means card points 0 or 120.
    won, schneider, schwarz = play_outcome(
        game, schneider_announced, schwarz_announced, NA_SCHNEIDER_FROM, 0
    )
    # rules §3.2: stage 1 game / 2 schneider / 3 schwarz, reached by either side or
    # announced; bonus +1 schneider announced, +2 schwarz announced (not +3).
    if schwarz or schwarz_announced:
        stage = 3
    elif schneider or schneider_announced:
        stage = 2
    else:
        stage = 1
    if schwarz_announced:
        stage += 2
    elif schneider_announced:
        stage += 1
    multiplier = matadors + stage
    value = unit * multiplier

    overbid = False
    bid = game.bid
    if bid is not None:
        _check_bid(bid)
        if value < bid:
            # rules §3.4: lost, charged at the next multiple of the unit value reaching
            # the bid (NA law 15, Foster 1909: "the next higher value of the respective
            # game is counted and charged against the player").
            overbid = True
            won = False
            value = -(-bid // unit) * unit
    # rules §3.4: lost single, passt mir nicht and guckser double.
    score = value if won else -loss_factor * value
    return result_of((value, score, won, overbid, None, None, multiplier, unit))


_NOT_FOR_NULL = (
    "trump",
    "matadors",
    "without",
    "schneider_announced",
    "schwarz_announced",
    "schneider",
    "schwarz",
    "card_points",
    "ramsch",
)


def _null_game(value: int, name: str) -> Scorer:
    """Null or null ouvert: fixed values, lost single (rules §3.1, §3.4).

    An overbid null is lost and charged at the next multiple of its value that reaches the
    bid, single (rules §3.4, which unlike ISPA's rules §1.5 names no exception for null).
    """

    def scorer(game: Game, bonus: Bonus) -> GameResult:
        if game.hand or game.ouvert or game.kontra or game.re:
            raise _ispa_field(game)
        field = first_given(game, _NOT_FOR_NULL)
        if field is not None:
            raise fail("field_not_allowed", field=field, what=name)
        if game.table_size not in NA_TABLE_SIZES:  # rules §3.6
            raise fail("table_size_range", sizes="3, 4 or 5")
        won = game.won
        if won is None:
            raise fail("required_for_game", field="won", what=name)
        bid = game.bid
        if bid is not None:
            _check_bid(bid)
            if value < bid:  # rules §3.4: overbid, charged at the next multiple of the value
                charged = -(-bid // value) * value
                return result_of((charged, -charged, False, True, None, None, None, None))
        if won:
            return result_of((value, value, True, False, None, None, None, None))
        return result_of((value, -value, False, False, None, None, None, None))

    return scorer


_NOT_FOR_RAMSCH = (
    "trump",
    "matadors",
    "without",
    "schneider_announced",
    "schwarz_announced",
    "won",
    "schneider",
    "schwarz",
    "card_points",
    "bid",
)

_RAMSCH: dict[str, GameResult] = {
    outcome: GameResult(None, points, None, False, None, None, None, None)
    for outcome, points in RAMSCH_RESULTS.items()
}


def _ramsch(game: Game, bonus: Bonus) -> GameResult:
    """rules §3.5: every player plays for himself; the result is one player's score."""
    if game.hand or game.ouvert or game.kontra or game.re:
        raise _ispa_field(game)
    field = first_given(game, _NOT_FOR_RAMSCH)
    if field is not None:
        raise fail("field_not_allowed", field=field, what="ramsch")
    if game.table_size not in NA_TABLE_SIZES:  # rules §3.6
        raise fail("table_size_range", sizes="3, 4 or 5")
    outcome = game.ramsch
    if outcome is None:
        raise fail("required_for_game", field="ramsch", what="ramsch")
    result = _RAMSCH.get(outcome)
    if result is None:
        raise fail("unknown_ramsch", value=show_text(outcome), choices=", ".join(RAMSCH_RESULTS))
    return result


SCORERS: dict[str, Scorer] = {
    # rules §3.1. A tournée may be grand when a jack is turned; passt mir nicht is a
    # tournée on the second skat card, so it may be grand too (Foster's Hoyle: "This second
    # one must be the trump; or a Grand may be played if the card is a Jack").
    "tournee": _trump_game(NA_TOURNEE_UNITS, "tournee", 1, False),
    "passt_mir_nicht": _trump_game(NA_TOURNEE_UNITS, "passt_mir_nicht", 2, False),
    "solo": _trump_game(NA_SOLO_UNITS, "solo", 1, True),
    # rules §3.1: guckser uses the skat, so no announcements (NA law 7, Foster 1909).
    "grand_guckser": _grand_game(NA_GRAND_GUCKSER, "grand_guckser", 2, False),
    "grand_ouvert": _grand_game(NA_GRAND_OUVERT, "grand_ouvert", 1, True),
    "null": _null_game(NA_NULL, "null"),
    "null_ouvert": _null_game(NA_NULL_OUVERT, "null_ouvert"),
    "ramsch": _ramsch,
}
