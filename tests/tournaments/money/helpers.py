"""Money figures shared by the money tests: `D` (Decimal), the worked example's prize
plan, its fees (`set_fees`), the whole worked tournament (`worked_tournament`, the `worked`
fixture of the money and exporters tests) and the rows of the money table by player or
registration."""

from decimal import Decimal

from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.models import Category
from tournaments.money.selectors import tournament_money
from tournaments.money.services import prize_plan_replace, tournament_money_update

D = Decimal

PLAN = [
    {"scope": "overall", "rank": 1, "share": D("50")},
    {"scope": "overall", "rank": 2, "amount": D("5")},
    {"scope": "category", "category": "ladies", "rank": 1, "amount": D("2")},
]


def set_fees(tournament, **overrides):
    """The worked example's fees (overridable); `tournament` is refreshed."""
    fees = {
        "entry_fee": D("10"),
        "table_fee": D("1"),
        "lost_game_fee": D("0.50"),
        "lost_game_fee_from": 4,
        "lost_game_fee_high": D("1.00"),
        **overrides,
    }
    tournament_money_update(tournament=tournament, **fees)
    tournament.refresh_from_db()
    return tournament


def rows_by_name(tournament):
    return {row.player_name: row for row in tournament_money(tournament).rows}


def registration(tournament, name):
    return tournament.registrations.get(player__name=name)


NAMES = {1: "Anna", 2: "Berta", 3: "Carl", 4: "Dora"}


def worked_tournament(tournament, table):
    """The rules §2 sheet entered at `table` (a 4-table of `tournament`), seats 1–4 named
    A–D; B and D are ladies; the fees and the prize plan set. Returns the tournament."""
    for seat in table.seats.select_related("player"):
        seat.player.name = NAMES[seat.number]
        seat.player.category = Category.LADIES if seat.number in (2, 4) else ""
        seat.player.save()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    set_fees(tournament)
    prize_plan_replace(tournament=tournament, prizes=PLAN)
    tournament.refresh_from_db()
    return tournament
