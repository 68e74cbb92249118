"""Ramsch variants and penalties charged at a game's value (`scoring.variants`).

Each row quotes the line of the source text it follows (`../shared/seeds/`).
"""

import json

import pytest

from scoring import Game, ScoringError, score
from scoring.__main__ import run
from scoring.variants import answer_mapping, penalty_charge, ramsch_score, ramsch_tie_check


def na(game, **fields):
    return {"rules": "na", "game": game, **fields}


# (ramsch rule, rules, result, table size, score, won)
# fmt: off
RAMSCH_ROWS = [
    # rules §3.5: "the player with the fewest card points wins 10, or 20 if he took no trick;
    # a player who takes every trick loses 30".
    pytest.param("league", "na", "fewest_points", 3, 10, None, id="league-fewest"),
    pytest.param("league", "na", "no_trick", 5, 20, None, id="league-no-trick-5-table"),
    pytest.param("league", "na", "all_tricks", 4, -30, None, id="league-all-tricks"),
    # Hoyle: "When one player takes no trick in a Ramsch, the player with the greater
    # number of points loses 30."
    pytest.param("hoyle", "na", "most_points_one_no_trick", 3, -30, None, id="hoyle-30"),
    # Hoyle: "If two players take no trick, the loss is 50 points."
    pytest.param("hoyle", "na", "most_points_two_no_trick", 4, -50, None, id="hoyle-50"),
    # Hoyle gives no figure when everyone took a trick: rules §3.5's 10 stays.
    pytest.param("hoyle", "na", "fewest_points", 5, 10, None, id="hoyle-fewest"),
    # Wikipedia: "the winner is who achieves the lowest score and is awarded 23 points, the
    # score of a won Null. Additionally they are awarded the won game."
    pytest.param("gewinner", "ispa", "fewest_points", 3, 23, True, id="gewinner-3"),
    pytest.param("gewinner", "ispa", "fewest_points", 4, 23, True, id="gewinner-4"),
]
# fmt: on


@pytest.mark.parametrize(("rule", "rules", "result", "size", "points", "won"), RAMSCH_ROWS)
def test_ramsch_rules_score_the_player_described(rule, rules, result, size, points, won):
    game = Game(rules, "ramsch", ramsch=result, table_size=size)
    scored = ramsch_score(game, rule)
    assert (scored.score, scored.won) == (points, won)
    if rule == "league":
        assert scored == score(game)  # the default is the engine's rules §3.5


def test_gewinner_ramsch_earns_the_won_bonus_and_costs_nobody():
    # Wikipedia: "Additionally they are awarded the won game" → rules §2's won bonus.
    scored = ramsch_score(Game("ispa", "ramsch", ramsch="fewest_points"), "gewinner")
    assert (scored.list_declarer, scored.list_others) == (73, 0)


# (mapping, ramsch rule, code, message)
# fmt: off
RAMSCH_ERRORS = [
    pytest.param(na("ramsch", ramsch="no_trick"), "hoyle", "unknown_ramsch_for_rule",
                 "unknown ramsch result 'no_trick' under the hoyle ramsch rule: use one of "
                 "fewest_points, most_points_one_no_trick, most_points_two_no_trick",
                 id="hoyle-has-no-no-trick-win"),
    pytest.param(na("ramsch", ramsch="fewest_points"), "gewinner", "ramsch_rule_rules",
                 "ramsch_rule gewinner belongs to ispa rules", id="gewinner-is-ispa"),
    pytest.param({"rules": "ispa", "game": "ramsch", "ramsch": "fewest_points"}, "hoyle",
                 "ramsch_rule_rules", "ramsch_rule hoyle belongs to na rules",
                 id="hoyle-is-na"),
    pytest.param(na("ramsch", ramsch="fewest_points"), "schieberamsch", "unknown_ramsch_rule",
                 "unknown ramsch_rule 'schieberamsch': use one of league, hoyle, gewinner",
                 id="unknown-rule"),
    pytest.param(na("solo", trump="hearts", matadors=1, won=True), "hoyle",
                 "ramsch_rule_not_ramsch", "ramsch_rule applies to a ramsch, not to solo",
                 id="rule-on-a-solo"),
    pytest.param(na("ramsch", ramsch="fewest_points", won=True), "hoyle", "field_not_allowed",
                 "won is not allowed for ramsch", id="ramsch-with-won"),
    pytest.param(na("ramsch"), "hoyle", "required_for_game", "ramsch is required for ramsch",
                 id="ramsch-result-missing"),
    pytest.param({"rules": "ispa", "game": "ramsch", "ramsch": "fewest_points",
                  "table_size": 5}, "gewinner", "table_size_range",
                 "table_size must be 3 or 4", id="gewinner-5-table"),
]
# fmt: on


@pytest.mark.parametrize(("mapping", "rule", "code", "message"), RAMSCH_ERRORS)
def test_impossible_ramsch_variants_are_rejected(mapping, rule, code, message):
    with pytest.raises(ScoringError) as caught:
        answer_mapping({**mapping, "ramsch_rule": rule})
    assert (caught.value.code, str(caught.value)) == (code, message)


# (rules, ramsch rule, result, tie option, error code or None)
# fmt: off
TIE_ROWS = [
    # Wikipedia: "If two players achieve the same lowest score they will both be awarded the
    # 23 points and the won game."
    pytest.param("ispa", "gewinner", "fewest_points", False, None, id="gewinner-shares"),
    # The NA tie option: "a tie for fewest points (both win)".
    pytest.param("na", "league", "fewest_points", True, None, id="league-option-on"),
    pytest.param("na", "hoyle", "fewest_points", True, None, id="hoyle-option-on"),
    pytest.param("na", "league", "fewest_points", False, "ramsch_tie_off", id="option-off"),
    # rules §3.5: "a player who takes every trick loses 30 and nobody wins".
    pytest.param("na", "league", "no_trick", True, "ramsch_tie_result", id="no-trick-tie"),
    pytest.param("na", "hoyle", "most_points_one_no_trick", True, "ramsch_tie_result",
                 id="hoyle-loser-tie"),
]
# fmt: on


@pytest.mark.parametrize(("rules", "rule", "result", "option", "code"), TIE_ROWS)
def test_a_tie_for_the_fewest_points(rules, rule, result, option, code):
    if code is None:
        ramsch_tie_check(rules, rule, result, tie_option=option)
        return
    with pytest.raises(ScoringError) as caught:
        ramsch_tie_check(rules, rule, result, tie_option=option)
    assert caught.value.code == code


HEART_SOLO_60 = na(
    "solo", trump="hearts", matadors=3, schneider_announced=True, card_points=95
)  # contract example 5: value 60
TOURNEE_20 = na("tournee", trump="diamonds", matadors=3, card_points=70)  # rules §3.2: 20
GUCKSER_LOST = na("grand_guckser", matadors=1, card_points=50)  # 32, lost double: −64
OVERBID_SOLO = na("solo", trump="hearts", matadors=1, card_points=70, bid=40)  # 2×10 → 40

# (game, law, erring, charged, declarer credit)
# fmt: off
PENALTY_ROWS = [
    # Penalty 2: "the player will be charged the full value of the game if he neglects to
    # discard the proper number of cards."
    pytest.param(TOURNEE_20, 2, "declarer", -20, 0, id="law-2-tournee"),
    # The full value, not the double loss of a guckser (rules §3.4).
    pytest.param(GUCKSER_LOST, 2, "declarer", -32, 0, id="law-2-guckser-single-value"),
    # Penalty 4: "such persons shall be charged the full value of the game announced, but
    # the opposing person or persons shall have the privilege of continuing the game for
    # the purpose of increasing the value thereof by making Schneider."
    pytest.param(HEART_SOLO_60, 4, "opponent", -60, 0, id="law-4-opponent"),
    pytest.param(HEART_SOLO_60, 4, "declarer", -60, 0, id="law-4-solo-declarer"),
    pytest.param(TOURNEE_20, 4, "sitting_out", -20, 0, id="law-4-seat-without-cards"),
    # Penalty 6: "If then one of the opponents makes one of these errors the player wins
    # his game but its value is also charged against the opponent making the error."
    pytest.param(HEART_SOLO_60, 6, "opponent", -60, 0, id="law-6"),
    # Penalty 7: "the game is won by the player, and its value charged against the
    # opponent who made the error".
    pytest.param(TOURNEE_20, 7, "opponent", -20, 0, id="law-7"),
    # Penalty 8: "he wins the value of the game which he has bid and the same value shall
    # be charged against the opponent making such error" (law 15: the next higher value).
    pytest.param(OVERBID_SOLO, 8, "opponent", -40, 80, id="law-8-overbid-solo"),
    # Penalty 10: "the opponent who erred shall be charged with the full value of the game."
    pytest.param(na("null", won=True), 10, "opponent", -20, 0, id="law-10-null"),
    pytest.param(na("null_ouvert", won=False), 10, "opponent", -40, 0, id="law-10-lost"),
]
# fmt: on


@pytest.mark.parametrize(("mapping", "law", "erring", "charged", "credit"), PENALTY_ROWS)
def test_penalty_charges_the_games_value(mapping, law, erring, charged, credit):
    game = Game(**mapping)
    charge = penalty_charge(law, game, score(game), erring)
    assert (charge.law, charge.charged, charge.declarer_credit) == (law, charged, credit)


def test_law_8_leaves_the_declarer_at_plus_the_value_charged():
    # "he wins the value of the game which he has bid": −40 on the row, +80 credit → +40.
    game = Game(**OVERBID_SOLO)
    result = score(game)
    assert result.score + penalty_charge(8, game, result, "opponent").declarer_credit == 40


# (game, law, erring, code, message)
# fmt: off
PENALTY_ERRORS = [
    pytest.param({"rules": "ispa", "game": "grand", "matadors": 1, "won": True}, 7,
                 "opponent", "penalty_na_only",
                 "penalties at a game's value are laws of na (1908); ispa has none",
                 id="ispa"),
    pytest.param(TOURNEE_20, 1, "declarer", "penalty_law_unknown",
                 "law 1 does not charge a game's value: use one of 2, 4, 6, 7, 8, 10 "
                 "(laws 1, 3 and 5 are fixed fines, entered as points)", id="law-1-is-a-fine"),
    pytest.param(TOURNEE_20, 7, "kibitz", "penalty_role_unknown",
                 "unknown erring player 'kibitz': use one of declarer, opponent, sitting_out",
                 id="unknown-role"),
    pytest.param(na("ramsch", ramsch="no_trick"), 4, "opponent", "penalty_needs_value",
                 "law 4 charges a game's value, and a ramsch has none", id="ramsch"),
    pytest.param(TOURNEE_20, 2, "opponent", "penalty_role",
                 "law 2 charges the declarer, not the opponent", id="law-2-opponent"),
    pytest.param(TOURNEE_20, 7, "declarer", "penalty_role",
                 "law 7 charges the opponent, not the declarer", id="law-7-declarer"),
    pytest.param(HEART_SOLO_60, 2, "declarer", "penalty_law_2_skat",
                 "law 2 applies to a game with the aid of the skat "
                 "(tournee, passt_mir_nicht, grand_guckser), not to solo", id="law-2-solo"),
    # Law 8: "except by the player when playing a game with the aid of the Skat".
    pytest.param(TOURNEE_20, 4, "declarer", "penalty_law_4_right",
                 "in a tournee the declarer has the right to look at the skat",
                 id="law-4-tournee-declarer"),
    pytest.param(GUCKSER_LOST, 7, "opponent", "penalty_declarer_wins",
                 "law 7 makes the declarer win: the game must be won", id="law-7-lost"),
    pytest.param(HEART_SOLO_60, 8, "opponent", "penalty_law_8_overbid_solo",
                 "law 8 applies to an overbid solo only", id="law-8-not-overbid"),
    pytest.param({**TOURNEE_20, "bid": 30}, 8, "opponent", "penalty_law_8_overbid_solo",
                 "law 8 applies to an overbid solo only", id="law-8-tournee"),
]
# fmt: on


@pytest.mark.parametrize(("mapping", "law", "erring", "code", "message"), PENALTY_ERRORS)
def test_impossible_penalties_are_rejected(mapping, law, erring, code, message):
    with pytest.raises(ScoringError) as caught:
        answer_mapping({**mapping, "penalty": {"law": law, "by": erring}})
    assert (caught.value.code, str(caught.value)) == (code, message)


# (input line, output line): the command line's optional fields.
# fmt: off
CLI_ROWS = [
    pytest.param({**OVERBID_SOLO, "penalty": {"law": 8, "by": "opponent"}},
                 {"value": 40, "score": -40, "won": False, "overbid": True,
                  "penalty": {"law": 8, "charged": -40, "declarer_credit": 80}}, id="law-8"),
    pytest.param(na("ramsch", ramsch="most_points_two_no_trick", ramsch_rule="hoyle",
                    table_size=5), {"score": -50}, id="hoyle"),
    pytest.param({"rules": "ispa", "game": "ramsch", "ramsch": "fewest_points",
                  "ramsch_rule": "gewinner", "table_size": 4},
                 {"value": 23, "score": 23, "won": True, "overbid": False,
                  "list_points": {"declarer": 73, "each_other_player": 0}}, id="gewinner"),
    pytest.param({**TOURNEE_20, "ramsch_rule": None}, {"value": 20, "score": 20, "won": True,
                                                       "overbid": False}, id="null-rule"),
    pytest.param({**TOURNEE_20, "penalty": {"law": 7}},
                 {"error": 'penalty must be an object like {"law": 7, "by": "opponent"}'},
                 id="penalty-without-by"),
    pytest.param({**TOURNEE_20, "penalty": {"law": "7", "by": "opponent"}},
                 {"error": "penalty law must be an integer"}, id="law-as-text"),
    pytest.param({**TOURNEE_20, "penalty": {"law": 7, "by": 2}},
                 {"error": "penalty by must be a string"}, id="by-as-number"),
    pytest.param(na("ramsch", ramsch="no_trick", ramsch_rule=1),
                 {"error": "ramsch_rule must be a string"}, id="rule-as-number"),
]
# fmt: on


@pytest.mark.parametrize(("line", "answer"), CLI_ROWS)
def test_command_line_takes_the_optional_fields(line, answer):
    import io

    out = io.BytesIO()
    ok = run([json.dumps(line).encode()], out)
    assert json.loads(out.getvalue()) == answer
    assert ok == ("error" not in answer)
