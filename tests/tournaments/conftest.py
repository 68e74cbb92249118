"""Fixtures that the tournaments tests of several subjects share (the cast: tests/conftest.py).

- `series`: series 1 of `tournament`, four players drawn at one table;
- `table`: that table;
- `worked_table`: that table with the rules §2 worked example entered (seats 1–4 = A, B, C, D);
- `double`: one 3-table of a tournament with double entry, with both keepers' links;
- `as_user(name)`: a client signed in as the cast member of that name (see `helpers.USERS`).
"""

import pytest

from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows


@pytest.fixture
def series(seated_series):
    return seated_series(4)


@pytest.fixture
def table(series):
    return series.tables.get()


@pytest.fixture
def worked_table(table):
    """rules §2 worked 4-table series, seats 1–4 = A, B, C, D."""
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    return table


@pytest.fixture
def as_user(request, client_for):
    def make(name):
        return client_for(request.getfixturevalue(name))

    return make


@pytest.fixture
def double(tournament, seated_series):
    """Double entry: one 3-table with both keepers' links."""
    tournament.double_entry = True
    tournament.save()
    return seated_series(3).tables.get()


# The league cast and data (leagues tests and the permissions matrix).
from tests.tournaments.leagues.fixtures import (  # noqa: E402, F401
    league,
    league_director,
    league_season,
    match_day,
    teams,
    venue_secretary,
    venue_secretary_2,
    zeitz,
    zeitz_secretary,
)
