"""The interchange document's table rules: table sizes, tables of five, the optional rule
settings, and penalties (`../shared/rules/interchange.md`; split off `interchange`). Named
for the table rules it holds: a `tables.py` holds django-tables2 tables.

Field for field as the contract has them:
- `games_per_series` has the key `"5"` for an `na` tournament with tables of five (rules
  §3.6); export writes it exactly when the tournament allows tables of five, and import
  allows them when the key is there or a table has five seats. `ispa` tables have 3 or 4
  seats.
- Who sits out each deal at a 5-seat table is not written: it follows from the seat order
  (the dealer and the third seat after him, `scoring.sitting_out`), and a declarer who
  sits out is refused like the dealer of a 4-table.

Optional fields this project adds (an older document simply lacks them, so it still reads):
- `tournament.ramsch_rule`: `"hoyle"` (`na`) or `"gewinner"` (`ispa`), written only when
  such a variant is on (`scoring.variants`), and `tournament.ramsch_tie_both_win`: true
  when two players tied for the fewest points both win (`na` option), written only then;
- a ramsch's `ramsch` list holds two entries with the same result for such a tie;
- a penalty's `game` (the game number on the sheet) and `law` (2, 4, 6, 7, 8 or 10 of the
  laws of 1908) when it is charged at a game's value; its `points` are then what the
  engine charges (`games.penalty_charges`) and a document that says otherwise is refused.
  Law 8 is two entries: the erring opponent's charge and the overbid declarer's credit.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.games import penalty_charges
from tournaments.models import (
    PENALTY_LIMIT,
    Penalty,
    PenaltyLaw,
    RamschRule,
    RuleSet,
    Tournament,
)

PENALTY_FIELDS = ("seat", "points", "reason", "game", "law")
NAME_MAX = 120  # Penalty.reason
# The ramsch rules a document may name, per rule set (the defaults are left out).
DOCUMENT_RAMSCH_RULES = {RuleSet.NA: (RamschRule.HOYLE,), RuleSet.ISPA: (RamschRule.GEWINNER,)}


def table_sizes(rules: str) -> tuple[int, ...]:
    """The seats a table may have: 3 or 4; `na` also 5 (rules §3.6)."""
    return (3, 4, 5) if rules == RuleSet.NA else (3, 4)


def export_lengths(tournament: Tournament) -> dict[str, int]:
    lengths = {"3": tournament.games_per_series_3, "4": tournament.games_per_series_4}
    if tournament.five_tables:
        lengths["5"] = tournament.games_per_series_5
    return lengths


def export_rules(tournament: Tournament) -> dict:
    """The optional rule settings of the tournament object (only when one is on)."""
    rules = {}
    if tournament.ramsch_variant_shown:
        rules["ramsch_rule"] = tournament.ramsch
    if tournament.ramsch_tie_both_win and tournament.rules == RuleSet.NA:  # no effect in ispa
        rules["ramsch_tie_both_win"] = True
    return rules


def export_penalty(penalty: Penalty, game_numbers: Mapping[int, int]) -> dict:
    entry = {"seat": penalty.seat, "points": penalty.points, "reason": penalty.reason}
    if penalty.law is not None:
        entry["game"] = game_numbers[penalty.game_id]
        entry["law"] = penalty.law
    return entry


# `checker` is `interchange._Checker` and `plan` its `_TablePlan` (not imported: that module
# imports this one).


def check_rules(checker, place: str, data: Mapping, lengths: Mapping):
    """`games_per_series["5"]` and `ramsch_rule` of the tournament object."""
    t = checker.tournament
    t.five_tables = "5" in lengths
    if t.five_tables and t.rules != RuleSet.NA:
        checker.error(place, _('tables of five (games_per_series "5") are for na only'))
        t.five_tables = False
    t.ramsch_tie_both_win = checker.boolean(place, data, "ramsch_tie_both_win", False)
    if t.ramsch_tie_both_win and t.rules != RuleSet.NA:
        checker.error(place, _("ramsch_tie_both_win is an na option"))
        t.ramsch_tie_both_win = False
    rule = data.get("ramsch_rule")
    if rule is None:
        t.ramsch_rule = ""
    elif rule in DOCUMENT_RAMSCH_RULES.get(t.rules, ()):
        t.ramsch_rule = rule
    else:
        allowed = ", ".join(DOCUMENT_RAMSCH_RULES.get(t.rules, ()))
        checker.error(
            place,
            _("ramsch_rule must be %(allowed)s under these rules, not %(given)s")
            % {"allowed": allowed, "given": repr(rule)},
        )


def check_penalties(checker, table_place: str, plan, entries: list):
    size = plan.table.size
    for index, data in enumerate(entries):
        place = _("%(table)s, penalties[%(index)s]") % {"table": table_place, "index": index}
        if not isinstance(data, Mapping):
            checker.error(place, _("must be a JSON object"))
            continue
        checker.unknown_fields(place, data, PENALTY_FIELDS)
        seat = checker.integer(place, data, "seat", low=1, high=size)
        points = data.get("points")
        if type(points) is not int or points == 0 or abs(points) > PENALTY_LIMIT:
            checker.error(
                place,
                _("points must be a whole number from %(low)s to %(high)s other than 0")
                % {"low": -PENALTY_LIMIT, "high": PENALTY_LIMIT},
            )
            points = None
        reason = checker.text(
            place, data, "reason", required=False, max_length=NAME_MAX, strip=False
        )
        game = law = None
        if "law" in data or "game" in data:
            game, law = _law_of(checker, place, plan, data, seat, points)
            if game is None:
                continue
        if seat is not None and points is not None:
            plan.penalties.append(
                Penalty(
                    table=plan.table,
                    table_size=size,
                    seat=seat,
                    points=points,
                    reason=reason or "",
                    game=game,
                    law=law,
                )
            )


def _law_of(checker, place, plan, data, seat, points):
    """The game and law of a penalty charged at a game's value, once its points are checked."""
    law = data.get("law")
    if type(law) is not int or law not in PenaltyLaw.values:
        checker.error(
            place,
            _("law must be one of %(laws)s") % {"laws": ", ".join(map(str, PenaltyLaw.values))},
        )
        return None, None
    number = checker.integer(place, data, "game", low=1, high=len(plan.games) or 1)
    if number is None or number > len(plan.games) or seat is None or points is None:
        if number is not None and number > len(plan.games):
            checker.error(place, _("game %(number)s is not on the sheet") % {"number": number})
        return None, None
    game = plan.game(number)
    try:
        expected = dict(_charges(game, seat, law))[seat]
    except UserError as error:
        checker.error(place, str(error))
        return None, None
    if points != expected:
        checker.error(
            place,
            _("points must be %(expected)s: law %(law)s at the value of game %(number)s")
            % {"expected": expected, "law": law, "number": number},
        )
        return None, None
    return game, law


def _charges(game, seat: int, law: int) -> list[tuple[int, int]]:
    """The charges of `law` at `game`, also for law 8's credit entry (seat = declarer)."""
    if law == PenaltyLaw.OVERBID_SOLO and seat == game.declarer:
        table = game.table
        out = table.sitting_out(game.number)
        opponents = [s for s in range(1, table.size + 1) if s != seat and s not in out]
        return penalty_charges(game=game, seat=opponents[0], law=law)
    return penalty_charges(game=game, seat=seat, law=law)
