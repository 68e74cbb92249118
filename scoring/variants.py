"""Rules beyond the two rule sets' defaults: ramsch variants and penalties at a game's value.

Ramsch rules (a tournament setting; ``RAMSCH_RULES``):

``league``
    rules §3.5, the NA default: the player with the fewest card points wins 10, or 20 if he
    took no trick; a player who takes every trick loses 30 (``RAMSCH_RESULTS``).
``hoyle``
    Foster's Complete Hoyle, NA option: "When one player takes no trick in a Ramsch, the
    player with the greater number of points loses 30. If two players take no trick, the
    loss is 50 points." The Hoyle seed gives no figure for a ramsch in which everyone
    took a trick (its table of unit values is lost), so that case keeps rules §3.5: the
    fewest card points win 10. A player who takes every trick leaves two players without
    a trick and has the most points: he loses 50.
``gewinner``
    Gewinner-Ramsch, an ISPA house rule from the Wikipedia seed: "the winner is who achieves
    the lowest score and is awarded 23 points, the score of a won Null. Additionally they
    are awarded the won game." With list scoring the won game earns the winner's bonus
    (rules §2); nobody else at the table scores.

A *tie* for the fewest card points: "If two players achieve the same lowest score they will
both be awarded the 23 points and the won game" (Gewinner-Ramsch); in NA it is a tournament
option ("both win"). Each tied player is scored with the same result, so a tie is one more
scored seat of the deal, never a different value.

Penalties charged at a game's value (the North American Skat League's laws of 1908, in
Foster 1909; ``PENALTY_LAWS``): the erring player is charged the value of the game the
deal was played as (the engine's ``value``: for an overbid game the value charged, law
15). Law 8 also credits the overbid solo player with that value, so the declarer's deal
ends at +value although the sheet row, as the engine scores it, shows the overbid loss:
the credit is 2 × value. The fixed fines (law 1 misdeal, law 3 dealer looks at the skat:
ten points; law 5: 25 points) are plain points and not handled here.

The erring player is named by role: ``declarer``, ``opponent`` (holds cards and plays
against the declarer) or ``sitting_out`` (at a table of 4 or 5, a seat without cards this
deal, rules §3.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from scoring.errors import fail, show_int, show_text
from scoring.game import DEFAULT_BONUS, Bonus, Game, GameResult, first_given
from scoring.tables import ISPA_TABLE_SIZES, NA_TABLE_SIZES, RAMSCH_RESULTS

__all__ = [
    "ERRING_ROLES",
    "GEWINNER_RAMSCH_SCORE",
    "PENALTY_LAWS",
    "RAMSCH_RULES",
    "PenaltyCharge",
    "penalty_charge",
    "ramsch_results",
    "ramsch_score",
    "ramsch_tie_check",
]

RAMSCH_RULES: tuple[str, ...] = ("league", "hoyle", "gewinner")
# Which rule set each ramsch rule belongs to.
_RAMSCH_RULE_SETS = {"league": "na", "hoyle": "na", "gewinner": "ispa"}

# Gewinner-Ramsch (Wikipedia seed): "awarded 23 points, the score of a won Null".
GEWINNER_RAMSCH_SCORE = 23

_RESULTS: dict[str, MappingProxyType[str, int]] = {
    "league": RAMSCH_RESULTS,
    # Hoyle: "the player with the greater number of points loses 30 ... If two players
    # take no trick, the loss is 50 points"; fewest points as rules §3.5 (see above).
    "hoyle": MappingProxyType(
        {
            "fewest_points": RAMSCH_RESULTS["fewest_points"],
            "most_points_one_no_trick": -30,
            "most_points_two_no_trick": -50,
        }
    ),
    "gewinner": MappingProxyType({"fewest_points": GEWINNER_RAMSCH_SCORE}),
}

#: The laws of 1908 that charge a game's value, with the roles that may commit the error.
PENALTY_LAWS: MappingProxyType[int, frozenset[str]] = MappingProxyType(
    {
        # 2. "the player will be charged the full value of the game if he neglects to
        # discard the proper number of cards" (games "in which the aid of the Skat is
        # required").
        2: frozenset({"declarer"}),
        # 4. "In case a participant examines either of the Skat cards (without right)
        # before the termination of a game, such persons shall be charged the full value
        # of the game announced".
        4: frozenset({"declarer", "opponent", "sitting_out"}),
        # 6. "If then one of the opponents makes one of these errors the player wins his
        # game but its value is also charged against the opponent making the error."
        6: frozenset({"opponent"}),
        # 7. "the game is won by the player, and its value charged against the opponent
        # who made the error".
        7: frozenset({"opponent"}),
        # 8. "If, in playing solo, the player has overbid his game and one of the opponents
        # makes one of the errors mentioned, he wins the value of the game which he has bid
        # and the same value shall be charged against the opponent making such error."
        8: frozenset({"opponent"}),
        # 10. "the opponent who erred shall be charged with the full value of the game".
        10: frozenset({"opponent"}),
    }
)
ERRING_ROLES: tuple[str, ...] = ("declarer", "opponent", "sitting_out")
# Law 2 (and law 8 of the laws' text): the games in which the declarer uses the skat.
_SKAT_GAMES = frozenset({"tournee", "passt_mir_nicht", "grand_guckser"})
# Laws 6 and 7: the opponent's error makes the declarer win.
_DECLARER_WINS = frozenset({6, 7})


def ramsch_results(rules: str, ramsch_rule: str) -> MappingProxyType[str, int]:
    """The scored results of one ramsch rule (result name → the scored player's points)."""
    _check_ramsch_rule(rules, ramsch_rule)
    return _RESULTS[ramsch_rule]


def _check_ramsch_rule(rules: str, ramsch_rule: str) -> None:
    if ramsch_rule not in _RAMSCH_RULE_SETS:
        raise fail(
            "unknown_ramsch_rule", value=show_text(ramsch_rule), choices=", ".join(RAMSCH_RULES)
        )
    if _RAMSCH_RULE_SETS[ramsch_rule] != rules:
        raise fail("ramsch_rule_rules", rule=ramsch_rule, rules=_RAMSCH_RULE_SETS[ramsch_rule])


_NOT_FOR_RAMSCH = (
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
)


def ramsch_score(game: Game, ramsch_rule: str, bonus: Bonus = DEFAULT_BONUS) -> GameResult:
    """What one scored player of a ramsch gets under ``ramsch_rule`` (see the module text).

    ``game`` is a ``ramsch`` game whose ``ramsch`` names the scored player's result.
    """
    if game.game != "ramsch":
        raise fail("ramsch_rule_not_ramsch", game=show_text(game.game))
    _check_ramsch_rule(game.rules, ramsch_rule)
    field = first_given(game, _NOT_FOR_RAMSCH)
    if field is not None:
        raise fail("field_not_allowed", field=field, what="ramsch")
    sizes = NA_TABLE_SIZES if game.rules == "na" else ISPA_TABLE_SIZES
    if game.table_size not in sizes:
        raise fail("table_size_range", sizes=" or ".join(str(size) for size in sorted(sizes)))
    if game.ramsch is None:
        raise fail("required_for_game", field="ramsch", what="ramsch")
    results = _RESULTS[ramsch_rule]
    points = results.get(game.ramsch)
    if points is None:
        raise fail(
            "unknown_ramsch_for_rule",
            value=show_text(game.ramsch),
            rule=ramsch_rule,
            choices=", ".join(results),
        )
    if ramsch_rule == "gewinner":
        # "Additionally they are awarded the won game": the won bonus of rules §2; a won
        # game costs nobody else anything.
        return GameResult(points, points, True, False, points + bonus.won, 0, None, None)
    return GameResult(None, points, None, False, None, None, None, None)


def ramsch_tie_check(rules: str, ramsch_rule: str, result: str, *, tie_option: bool) -> None:
    """Whether two players tied for the fewest points may both be scored ``result``.

    Gewinner-Ramsch always shares a tie ("they will both be awarded the 23 points and the
    won game"); the NA rules only with the tournament's tie option. Only the fewest points
    can be tied: two players without a trick leave the third with every trick, and then
    "nobody wins" (rules §3.5) or the most points lose (Hoyle).
    """
    _check_ramsch_rule(rules, ramsch_rule)
    if ramsch_rule != "gewinner" and not tie_option:
        raise fail("ramsch_tie_off", rule=ramsch_rule)
    if result != "fewest_points":
        raise fail("ramsch_tie_result", value=show_text(result))


@dataclass(frozen=True, slots=True)
class PenaltyCharge:
    """A penalty at a game's value: ``charged`` points for the erring seat (negative) and
    ``declarer_credit`` points for the declarer (law 8 only, else 0)."""

    law: int
    charged: int
    declarer_credit: int


def penalty_charge(law: int, game: Game, result: GameResult, erring: str) -> PenaltyCharge:
    """The points a 1908 penalty law takes from the game ``game`` scored as ``result``.

    ``erring`` is the role of the player who erred (``ERRING_ROLES``). Impossible
    combinations (an opponent "neglecting to discard", law 8 for a game that was not an
    overbid solo, ...) raise ScoringError.
    """
    if game.rules != "na":
        raise fail("penalty_na_only")
    if type(law) is not int:
        raise fail("bad_type", field="penalty law", expected="an integer")
    if law not in PENALTY_LAWS:
        raise fail(
            "penalty_law_unknown",
            law=show_int(law),
            laws=", ".join(str(number) for number in PENALTY_LAWS),
        )
    if erring not in ERRING_ROLES:
        raise fail(
            "penalty_role_unknown", value=show_text(erring), choices=", ".join(ERRING_ROLES)
        )
    if game.game == "ramsch" or result.value is None:
        raise fail("penalty_needs_value", law=law)
    if erring not in PENALTY_LAWS[law]:
        raise fail(
            "penalty_role",
            law=law,
            role=erring.replace("_", " "),
            roles=" or ".join(sorted(role.replace("_", " ") for role in PENALTY_LAWS[law])),
        )
    uses_skat = game.game in _SKAT_GAMES
    if law == 2 and not uses_skat:
        raise fail("penalty_law_2_skat", game=game.game)
    if law == 4 and erring == "declarer" and uses_skat:
        # Law 8 of the laws: "except by the player when playing a game with the aid of the
        # Skat": then the declarer has the right to look.
        raise fail("penalty_law_4_right", game=game.game)
    if law in _DECLARER_WINS and result.won is not True:
        raise fail("penalty_declarer_wins", law=law)
    value = result.value
    if law == 8:
        if game.game != "solo" or not result.overbid:
            raise fail("penalty_law_8_overbid_solo")
        # "he wins the value of the game which he has bid": the row's overbid loss
        # (−value, law 15) turns into +value.
        return PenaltyCharge(law, -value, 2 * value)
    return PenaltyCharge(law, -value, 0)


def answer_mapping(mapping: object, bonus: Bonus = DEFAULT_BONUS) -> dict:
    """The command line's answer for one JSON object, with the optional fields of this
    module: ``ramsch_rule`` (a ramsch scored under a variant) and ``penalty``
    (``{"law": n, "by": role}``: adds ``"penalty": {"law", "charged", "declarer_credit"}``).
    """
    # Imported here: engine imports nothing from this module, and this keeps it so.
    from scoring.engine import result_to_contract, score_parsed
    from scoring.game import parse_game

    if not isinstance(mapping, dict):
        raise fail("not_an_object")
    data = dict(mapping)
    ramsch_rule = data.pop("ramsch_rule", None)
    penalty = data.pop("penalty", None)
    if ramsch_rule is not None:
        if type(ramsch_rule) is not str:
            raise fail("bad_type", field="ramsch_rule", expected="a string")
        game = parse_game(data)
        result = ramsch_score(game, ramsch_rule, bonus)
    else:
        game, result = score_parsed(data, bonus)
    answer = result_to_contract(game, result)
    if penalty is not None:
        if not isinstance(penalty, dict) or set(penalty) != {"law", "by"}:
            raise fail("penalty_not_object")
        if type(penalty["by"]) is not str:
            raise fail("bad_type", field="penalty by", expected="a string")
        charge = penalty_charge(penalty["law"], game, result, penalty["by"])
        answer["penalty"] = {
            "law": charge.law,
            "charged": charge.charged,
            "declarer_credit": charge.declarer_credit,
        }
    return answer
