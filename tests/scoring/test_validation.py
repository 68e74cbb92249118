"""Games the rules do not allow: each row is the input, the error code and the message."""

import pytest

from scoring import Game, ScoringError, parse_game, score, score_mapping
from scoring.errors import MESSAGES


def ispa(game, **fields):
    return {"rules": "ispa", "game": game, **fields}


def na(game, **fields):
    return {"rules": "na", "game": game, **fields}


# (input, code, message)
# fmt: off
ERROR_ROWS = [
    # contract example 6 / rules §1.2: suit games have 1..11 matadors.
    pytest.param(ispa("clubs", matadors=12, won=True), "matadors_range",
                 "matadors must be between 1 and 11 for a suit game", id="contract-6"),
    pytest.param(ispa("hearts", matadors=0, won=True), "matadors_range",
                 "matadors must be between 1 and 11 for a suit game", id="matadors-0"),
    # rules §1.2: grand 1..4.
    pytest.param(ispa("grand", matadors=5, won=True), "matadors_range",
                 "matadors must be between 1 and 4 for a grand game", id="grand-matadors-5"),
    pytest.param(na("tournee", trump="grand", matadors=5, won=True), "matadors_range",
                 "matadors must be between 1 and 4 for a grand game", id="na-grand-matadors-5"),
    pytest.param(na("grand_guckser", matadors=-1, won=True), "matadors_range",
                 "matadors must be between 1 and 4 for a grand game", id="na-guckser-matadors"),
    # contract: matadors required for suit and grand games.
    pytest.param(ispa("hearts", won=True), "required_for_game",
                 "matadors is required for a suit game", id="matadors-required-suit"),
    pytest.param(ispa("grand", won=True), "required_for_game",
                 "matadors is required for a grand game", id="matadors-required-grand"),
    pytest.param(na("grand_ouvert", won=True), "required_for_game",
                 "matadors is required for a grand game", id="na-matadors-required"),
    # rules §1.3: null has no matadors and no levels; contract: no card_points for null.
    pytest.param(ispa("null", matadors=1, won=True), "field_not_allowed",
                 "matadors is not allowed for null", id="null-matadors"),
    pytest.param(ispa("null", card_points=0, won=True), "field_not_allowed",
                 "card_points is not allowed for null", id="null-card-points"),
    pytest.param(ispa("null", without=True, won=True), "field_not_allowed",
                 "without is not allowed for null", id="null-without"),
    pytest.param(ispa("null", hand=True, schneider_announced=True, won=True),
                 "field_not_allowed", "schneider_announced is not allowed for null",
                 id="null-announcement"),
    pytest.param(ispa("null", schwarz=True, won=False), "field_not_allowed",
                 "schwarz is not allowed for null", id="null-schwarz"),
    pytest.param(ispa("null"), "required_for_game", "won is required for null",
                 id="null-won-required"),
    # rules §1.5, last sentence: a null below the bid is for the referee.
    pytest.param(ispa("null", won=True, bid=24), "null_below_bid",
                 "null is worth 23, below the bid 24: enter the referee's ruling as a manual "
                 "correction", id="null-below-bid"),
    pytest.param(ispa("null", hand=True, won=False, bid=36), "null_below_bid",
                 "null is worth 35, below the bid 36: enter the referee's ruling as a manual "
                 "correction", id="null-hand-below-bid"),
    # rules §1.6: a passed-in deal has only its table.
    pytest.param(ispa("passed", won=False), "field_not_allowed",
                 "won is not allowed for a passed-in deal", id="passed-won"),
    pytest.param(ispa("passed", bid=18), "field_not_allowed",
                 "bid is not allowed for a passed-in deal", id="passed-bid"),
    pytest.param(ispa("passed", kontra=True), "field_not_allowed",
                 "kontra is not allowed for a passed-in deal", id="passed-kontra"),
    pytest.param(ispa("passed", matadors=2), "field_not_allowed",
                 "matadors is not allowed for a passed-in deal", id="passed-matadors"),
    pytest.param(ispa("passed", table_size=5), "table_size_range",
                 "table_size must be 3 or 4", id="passed-table-size"),
    pytest.param(ispa("null", won=True, table_size=5), "table_size_range",
                 "table_size must be 3 or 4", id="null-table-size-5"),
    # rules §1.3: announcements require a hand game.
    pytest.param(ispa("hearts", matadors=1, schneider_announced=True, won=False),
                 "announce_without_hand", "schneider_announced requires a hand game",
                 id="schneider-announced-without-hand"),
    pytest.param(ispa("hearts", matadors=1, schwarz_announced=True, card_points=120,
                      schwarz=True),
                 "announce_without_hand", "schwarz_announced requires a hand game",
                 id="schwarz-announced-without-hand"),
    # rules §1.5: a bid is one of the 63 game values.
    pytest.param(ispa("hearts", matadors=1, won=True, bid=19), "invalid_bid",
                 "bid 19 is not a valid game value", id="bid-19"),
    pytest.param(ispa("hearts", matadors=1, won=True, bid=0), "invalid_bid",
                 "bid 0 is not a valid game value", id="bid-0"),
    pytest.param(ispa("hearts", matadors=1, won=True, bid=-18), "invalid_bid",
                 "bid -18 is not a valid game value", id="bid-negative"),
    pytest.param(ispa("hearts", matadors=1, won=True, bid=270), "invalid_bid",
                 "bid 270 is not a valid game value", id="bid-above-264"),
    pytest.param(ispa("null", won=True, bid=10**40), "invalid_bid",
                 "bid (a number of more than 18 digits) is not a valid game value",
                 id="bid-huge"),
    # contract: card_points 0..120.
    pytest.param(ispa("grand", matadors=1, card_points=121), "card_points_range",
                 "card_points must be between 0 and 120", id="card-points-121"),
    pytest.param(na("solo", trump="clubs", matadors=1, card_points=-1), "card_points_range",
                 "card_points must be between 0 and 120", id="card-points-negative"),
    # rules §1.3: schwarz implies schneider; with flags both are given.
    pytest.param(ispa("grand", matadors=1, won=True, schwarz=True), "schwarz_without_schneider",
                 "schwarz without schneider: a schwarz game is schneider too",
                 id="schwarz-without-schneider"),
    # Schwarz means one side took every trick. The ISPA declarer keeps the skat even when
    # he takes no trick (rules "Terms"; Wikipedia: "The Skat always belongs to the
    # declarer"), so a schwarz declarer has 0 to 22 card points (two aces), or 120.
    pytest.param(ispa("grand", matadors=1, card_points=70, schwarz=True),
                 "schwarz_skat_points",
                 "schwarz needs card_points 120, or at most 22 (the skat) when the declarer "
                 "took no trick, not 70", id="schwarz-card-points-70"),
    pytest.param(ispa("grand", matadors=1, card_points=23, schwarz=True),
                 "schwarz_skat_points",
                 "schwarz needs card_points 120, or at most 22 (the skat) when the declarer "
                 "took no trick, not 23", id="ispa-schwarz-card-points-23"),
    pytest.param(ispa("hearts", matadors=1, card_points=119, schwarz=True),
                 "schwarz_skat_points",
                 "schwarz needs card_points 120, or at most 22 (the skat) when the declarer "
                 "took no trick, not 119", id="ispa-schwarz-card-points-119"),
    # NA: a schwarz declarer's skat goes to the opponents (Foster 1909: "the skat cards
    # belong to them instead of to the player"): 0 or 120.
    pytest.param(na("solo", trump="hearts", matadors=1, card_points=10, schwarz=True),
                 "schwarz_card_points", "schwarz needs card_points 0 or 120, not 10",
                 id="na-schwarz-card-points-10"),
    # rules §1.3 / §3.2: a won game reached what it announced.
    pytest.param(ispa("hearts", matadors=1, hand=True, schneider_announced=True, won=True),
                 "announced_not_reached",
                 "won is true, but schneider was announced and not reached",
                 id="won-schneider-announced-not-reached"),
    pytest.param(ispa("hearts", matadors=1, hand=True, schwarz_announced=True, won=True,
                      schneider=True),
                 "announced_not_reached",
                 "won is true, but schwarz was announced and not reached",
                 id="won-schwarz-announced-not-reached"),
    pytest.param(ispa("grand", matadors=1, ouvert=True, won=True, schneider=True),
                 "announced_not_reached",
                 "won is true, but schwarz was announced and not reached",
                 id="won-ouvert-not-schwarz"),
    pytest.param(na("solo", trump="hearts", matadors=1, schneider_announced=True, won=True),
                 "announced_not_reached",
                 "won is true, but schneider was announced and not reached",
                 id="na-won-announced-not-reached"),
    # contract: a flag that contradicts card_points is an error.
    pytest.param(ispa("hearts", matadors=1, card_points=50, won=True), "contradiction",
                 "won is true, but card_points 50 make it false", id="won-true-50"),
    pytest.param(ispa("hearts", matadors=1, card_points=70, won=False), "contradiction",
                 "won is false, but card_points 70 make it true", id="won-false-70"),
    pytest.param(ispa("hearts", matadors=1, card_points=70, schneider=True), "contradiction",
                 "schneider is true, but card_points 70 make it false", id="schneider-70"),
    # contract: an explicit "schneider": false contradicts 95 and 20 card points (rules
    # §1.3: schneider at ≥ 90 or ≤ 30); a Game cannot say "false", a mapping can.
    pytest.param(ispa("grand", matadors=1, card_points=95, schneider=False), "contradiction",
                 "schneider is false, but card_points 95 make it true",
                 id="schneider-false-95"),
    pytest.param(ispa("grand", matadors=1, card_points=20, schneider=False), "contradiction",
                 "schneider is false, but card_points 20 make it true",
                 id="schneider-false-20"),
    pytest.param(ispa("grand", matadors=1, card_points=90, schneider=False), "contradiction",
                 "schneider is false, but card_points 90 make it true",
                 id="schneider-false-90"),
    # rules §3.3: NA schneider from 91.
    pytest.param(na("solo", trump="hearts", matadors=1, card_points=91, schneider=False),
                 "contradiction", "schneider is false, but card_points 91 make it true",
                 id="na-schneider-false-91"),
    pytest.param(na("grand_guckser", matadors=1, card_points=30, schneider=False),
                 "contradiction", "schneider is false, but card_points 30 make it true",
                 id="na-schneider-false-30"),
    pytest.param(ispa("hearts", matadors=1, hand=True, schneider_announced=True,
                      card_points=85, won=True),
                 "contradiction", "won is true, but card_points 85 make it false",
                 id="won-true-announced-85"),
    # rules §3.3: at 90 the NA game has no schneider.
    pytest.param(na("solo", trump="hearts", matadors=1, card_points=90, schneider=True),
                 "contradiction", "schneider is true, but card_points 90 make it false",
                 id="na-schneider-at-90"),
    # contract: either won or card_points.
    pytest.param(ispa("hearts", matadors=1), "result_required",
                 "either won or card_points is required", id="result-required"),
    pytest.param(na("tournee", trump="hearts", matadors=1), "result_required",
                 "either won or card_points is required", id="na-result-required"),
    # rules §1.7: Re answers Kontra.
    pytest.param(ispa("hearts", matadors=1, won=True, re=True), "re_without_kontra",
                 "re requires kontra", id="re-without-kontra"),
    pytest.param(ispa("null", won=True, re=True), "re_without_kontra",
                 "re requires kontra", id="null-re-without-kontra"),
    # contract: the game names of each rule set.
    pytest.param(ispa("solo"), "unknown_game",
                 "unknown game 'solo' for ispa rules: use one of diamonds, hearts, spades, "
                 "clubs, grand, null, passed", id="ispa-solo"),
    pytest.param(ispa("ramsch", ramsch="no_trick"), "unknown_game",
                 "unknown game 'ramsch' for ispa rules: use one of diamonds, hearts, spades, "
                 "clubs, grand, null, passed", id="ispa-ramsch"),  # rules §1.6: no Ramsch
    pytest.param(na("passed"), "unknown_game",
                 "unknown game 'passed' for na rules: use one of tournee, passt_mir_nicht, "
                 "solo, grand_guckser, grand_ouvert, null, null_ouvert, ramsch",
                 id="na-passed"),
    pytest.param(na("hearts", matadors=1, won=True), "unknown_game",
                 "unknown game 'hearts' for na rules: use one of tournee, passt_mir_nicht, "
                 "solo, grand_guckser, grand_ouvert, null, null_ouvert, ramsch",
                 id="na-hearts"),
    pytest.param({"rules": "skat", "game": "grand"}, "unknown_rules",
                 "unknown rules 'skat': use 'ispa' or 'na'", id="unknown-rules"),
    pytest.param({"rules": "x" * 100, "game": "grand"}, "unknown_rules",
                 "unknown rules '" + "x" * 39 + "…': use 'ispa' or 'na'",
                 id="unknown-rules-cut-short"),
    # contract: table_size 3 or 4 (rules §4); NA 3, 4 or 5 (rules §3.6).
    pytest.param(ispa("hearts", matadors=1, won=True, table_size=5), "table_size_range",
                 "table_size must be 3 or 4", id="table-size-5"),
    pytest.param(na("null", won=True, table_size=2), "table_size_range",
                 "table_size must be 3, 4 or 5", id="na-table-size-2"),
    pytest.param(na("solo", trump="clubs", matadors=1, won=True, table_size=6),
                 "table_size_range", "table_size must be 3, 4 or 5", id="na-table-size-6"),
    # contract: trump and ramsch are na fields.
    pytest.param(ispa("hearts", trump="hearts", matadors=1, won=True), "na_only",
                 "trump is an na field; in ispa the game names the trump", id="ispa-trump"),
    pytest.param(ispa("null", won=True, ramsch="no_trick"), "na_only",
                 "ramsch is an na field; ispa has no Ramsch (a deal everyone passed is the "
                 "game 'passed')", id="ispa-ramsch-field"),
    pytest.param(ispa("passed", trump="grand"), "na_only",
                 "trump is an na field; in ispa the game names the trump", id="passed-trump"),
    # contract: hand, ouvert, kontra and re are ispa fields.
    pytest.param(na("solo", trump="hearts", matadors=1, won=True, hand=True), "ispa_only",
                 "hand is an ispa field; in na a solo is the hand game", id="na-hand"),
    pytest.param(na("null", won=True, ouvert=True), "ispa_only",
                 "ouvert is an ispa field; in na play grand_ouvert or null_ouvert",
                 id="na-ouvert"),
    pytest.param(na("tournee", trump="clubs", matadors=1, won=True, kontra=True), "ispa_only",
                 "kontra is an ispa field; na has no Kontra or Re", id="na-kontra"),
    pytest.param(na("ramsch", ramsch="no_trick", re=True), "ispa_only",
                 "re is an ispa field; na has no Kontra or Re", id="na-ramsch-re"),
    pytest.param(na("grand_guckser", matadors=1, won=True, hand=True), "ispa_only",
                 "hand is an ispa field; in na a solo is the hand game", id="na-guckser-hand"),
    # rules §3.1: tournée, passt mir nicht and solo name a trump.
    pytest.param(na("tournee", matadors=1, won=True), "required_for_game",
                 "trump is required for tournee", id="na-trump-required"),
    pytest.param(na("solo", trump="nulls", matadors=1, won=True), "unknown_trump",
                 "unknown trump 'nulls': use one of diamonds, hearts, spades, clubs, grand",
                 id="na-unknown-trump"),
    pytest.param(na("grand_guckser", trump="grand", matadors=1, won=True),
                 "field_not_allowed", "trump is not allowed for grand_guckser",
                 id="na-guckser-trump"),
    pytest.param(na("null", trump="hearts", won=True), "field_not_allowed",
                 "trump is not allowed for null", id="na-null-trump"),
    pytest.param(na("null_ouvert", card_points=0, won=True), "field_not_allowed",
                 "card_points is not allowed for null_ouvert", id="na-null-card-points"),
    pytest.param(na("solo", trump="hearts", matadors=1, won=True, ramsch="no_trick"),
                 "field_not_allowed", "ramsch is not allowed for solo", id="na-solo-ramsch"),
    pytest.param(na("grand_ouvert", matadors=1, won=False, ramsch="no_trick"),
                 "field_not_allowed", "ramsch is not allowed for grand_ouvert",
                 id="na-grand-ouvert-ramsch"),
    pytest.param(na("null"), "required_for_game", "won is required for null",
                 id="na-null-won-required"),
    # rules §3.2: announcements only in solo games (NA law 7: not when the skat is used).
    pytest.param(na("tournee", trump="hearts", matadors=1, schneider_announced=True,
                    won=False),
                 "announce_outside_solo", "schneider_announced is only possible in a solo",
                 id="na-tournee-announcement"),
    pytest.param(na("grand_guckser", matadors=1, schwarz_announced=True, won=False),
                 "announce_outside_solo", "schwarz_announced is only possible in a solo",
                 id="na-guckser-announcement"),
    # rules §3.4: bids start at 10 (scoring contract: "NA: ≥ 10", no upper end).
    pytest.param(na("tournee", trump="hearts", matadors=1, won=True, bid=9), "na_bid_range",
                 "bid 9 is not a valid na bid: bids start at 10", id="na-bid-9"),
    pytest.param(na("null", won=True, bid=-(10**40)), "na_bid_range",
                 "bid (a number of more than 18 digits) is not a valid na bid: bids start at "
                 "10", id="na-bid-huge-negative"),
    # rules §3.5: a Ramsch result is one of three.
    pytest.param(na("ramsch"), "required_for_game", "ramsch is required for ramsch",
                 id="na-ramsch-required"),
    pytest.param(na("ramsch", ramsch="most_points"), "unknown_ramsch",
                 "unknown ramsch result 'most_points': use one of fewest_points, no_trick, "
                 "all_tricks", id="na-unknown-ramsch"),
    pytest.param(na("ramsch", ramsch="no_trick", won=True), "field_not_allowed",
                 "won is not allowed for ramsch", id="na-ramsch-won"),
    pytest.param(na("ramsch", ramsch="no_trick", table_size=6), "table_size_range",
                 "table_size must be 3, 4 or 5", id="na-ramsch-table-size"),
    # contract: field names and types.
    pytest.param(ispa("grand", matadors=1, won=True, x=1), "unknown_field",
                 "unknown field 'x'", id="unknown-field"),
    pytest.param({"game": "grand"}, "missing_field", "rules is required", id="rules-missing"),
    pytest.param({"rules": "ispa"}, "missing_field", "game is required", id="game-missing"),
    pytest.param(ispa("grand", matadors="3", won=True), "bad_type",
                 "matadors must be an integer", id="matadors-string"),
    pytest.param(ispa("grand", matadors=True, won=True), "bad_type",
                 "matadors must be an integer", id="matadors-bool"),
    pytest.param(ispa("grand", matadors=2.0, won=True), "bad_type",
                 "matadors must be an integer", id="matadors-float"),
    pytest.param(ispa("grand", matadors=1, won=True, hand=1), "bad_type",
                 "hand must be true or false", id="hand-int"),
    pytest.param(ispa("grand", matadors=1, won="yes"), "bad_type",
                 "won must be true or false", id="won-string"),
    pytest.param(ispa("grand", matadors=1, won=True, hand=None), "bad_type",
                 "hand must be true or false", id="hand-null"),
    pytest.param(ispa("grand", matadors=1, card_points=95.0), "bad_type",
                 "card_points must be an integer", id="card-points-float"),
    pytest.param(ispa("grand", matadors=1, won=True, table_size="4"), "bad_type",
                 "table_size must be an integer", id="table-size-string"),
    pytest.param({"rules": None, "game": "grand"}, "bad_type", "rules must be a string",
                 id="rules-null"),
    pytest.param(na("solo", trump=5, matadors=1, won=True), "bad_type",
                 "trump must be a string", id="trump-int"),
    pytest.param(["ispa", "grand"], "not_an_object", "a game must be a JSON object",
                 id="not-an-object"),
]
# fmt: on


@pytest.mark.parametrize(("mapping", "code", "message"), ERROR_ROWS)
def test_invalid_games_are_rejected(mapping, code, message):
    with pytest.raises(ScoringError) as caught:
        score_mapping(mapping)
    error = caught.value
    assert (error.code, str(error)) == (code, message)
    assert MESSAGES[code].format(**error.params) == message


# JSON null means "not given" for the fields whose default is null.
def test_null_means_not_given():
    mapping = ispa("grand", matadors=4, card_points=95, trump=None, won=None, bid=None)
    assert score_mapping(mapping).value == 144


def test_ouvert_with_hand_false_is_a_hand_game():
    # contract: ouvert implies hand rules, so hand=false is not an error.
    result = score_mapping(
        ispa("clubs", matadors=2, hand=False, ouvert=True, won=True, schneider=True, schwarz=True)
    )
    assert result.value == 108


def test_game_checks_types_when_built_directly():
    with pytest.raises(ScoringError) as caught:
        Game("ispa", "grand", matadors="4")
    assert caught.value.code == "bad_type"


def test_parse_game_does_not_apply_rules():
    # parse_game checks names and types only; the rules are score()'s business.
    game = parse_game(ispa("clubs", matadors=12, won=True))
    assert game.matadors == 12
    with pytest.raises(ScoringError):
        score(game)


def test_error_repr_names_code():
    error = ScoringError("invalid_bid", "bid 19 is not a valid game value")
    assert repr(error) == "ScoringError('invalid_bid', 'bid 19 is not a valid game value')"
    assert error.params == {}


# contract: a schneider flag that agrees with the card points is fine, false included.
@pytest.mark.parametrize(
    "mapping",
    [
        pytest.param(ispa("grand", matadors=1, card_points=89, schneider=False), id="ispa-89"),
        pytest.param(ispa("grand", matadors=1, card_points=31, schneider=False), id="ispa-31"),
        pytest.param(ispa("grand", matadors=1, card_points=95, schneider=True), id="ispa-95"),
        # rules §3.3: at 90 the NA game has no schneider.
        pytest.param(
            na("solo", trump="spades", matadors=1, card_points=90, schneider=False), id="na-90"
        ),
    ],
)
def test_schneider_flag_agreeing_with_card_points_is_accepted(mapping):
    assert score_mapping(mapping).won is (mapping["card_points"] >= 61)


def test_game_api_reads_schneider_false_as_not_given():
    # Game docstring: with card_points, schneider=False is the default, i.e. "not given".
    result = score(Game("ispa", "grand", matadors=1, card_points=95, schneider=False))
    assert (result.multiplier, result.value) == (3, 72)
