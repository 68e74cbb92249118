"""Fixtures of the export tests: `named_series` (players with the given names, drawn),
`worked_table` (the rules §2 worked series entered), `double_entry_table` (a 3-table
under double entry with a provisional game, a disputed one and a penalty), `worked` (the
money tests' worked tournament with fees and a prize plan) and `linked_series` (two
3-tables with their phone links)."""

import uuid

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.exporters.helpers import NAMES, TEAMS
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tests.tournaments.money.helpers import worked_tournament
from tournaments.draw.services import series_draw
from tournaments.entry.services import game_record_at_table, sheet_copy_record
from tournaments.sheets.services import game_record, penalty_record


@pytest.fixture
def named_series(tournament, club):
    """Register players with the given names (teams alternate) and draw series 1."""

    def make(names, *, target=None):
        target = target or tournament
        for index, name in enumerate(names):
            player = PlayerFactory(club=club, name=name, team=TEAMS[index % 2])
            RegistrationFactory(tournament=target, player=player)
        return series_draw(tournament=target, seed=1)

    return make


@pytest.fixture
def worked_table(named_series):
    """rules §2 worked 4-table series, seats 1–4 = A, B, C, D (1332, 1308, 1320, 108)."""
    table = named_series(NAMES[:4]).tables.get()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    return table


@pytest.fixture
def double_entry_table(tournament, named_series):
    """A 3-table under double entry: game 1 keyed alike on both phones (provisional), game 2
    keyed differently (disputed: clubs won +24 on one, lost on the other)."""
    tournament.double_entry = True
    tournament.save()
    table = named_series(NAMES[:3]).tables.get()
    grand = {"declarer": 2, "game": "grand", "matadors": 2, "won": True, "bid": 20}
    clubs = {"declarer": 3, "game": "clubs", "matadors": 1, "card_points": 70, "bid": 18}
    for number, first, second in ((1, grand, grand), (2, clubs, {**clubs, "card_points": 50})):
        game_record_at_table(table=table, data=first, client_id=uuid.uuid4(), number=number)
        sheet_copy_record(table=table, data=second, client_id=uuid.uuid4(), number=number)
    penalty_record(table=table, seat=1, points=-10, reason="looked at the skat")
    return table


@pytest.fixture
def worked(tournament, seated_series):
    """The money tests' worked tournament: the rules §2 sheet, fees and a prize plan."""
    return worked_tournament(tournament, seated_series(4).tables.get())


@pytest.fixture
def linked_series(seated_series):
    """Series 1 with two 3-tables (links issued by the draw)."""
    return seated_series(6)


@pytest.fixture
def na_five_table(na_tournament, named_series):
    """An NA table of five (rules §3.6) with 10 games entered and a penalty for each seat."""
    na_tournament.five_tables = True
    na_tournament.save()
    table = named_series(NAMES[:5], target=na_tournament).tables.get()
    assert table.size == 5
    for number in range(1, 11):
        out = table.sitting_out(number)
        declarer = next(seat for seat in range(1, 6) if seat not in out)
        game_record(
            table=table,
            data={
                "declarer": declarer,
                "game": "solo",
                "trump": "hearts",
                "matadors": 2,
                "card_points": 70 if number % 3 else 40,
            },
        )
    for seat in range(1, 6):
        penalty_record(table=table, seat=seat, points=-10 * seat, reason="misdeal")
    return table
