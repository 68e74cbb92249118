"""Fixtures of the entry tests: a series of two 3-tables with their links (`series`, `table`,
`other_table`), a phone (nobody signed in) and a 3-table under double entry (`double`)."""

import pytest

from tournaments.models import Series, Table


@pytest.fixture
def series(seated_series) -> Series:
    """Series 1 with two 3-tables (links issued by the draw)."""
    return seated_series(6)


@pytest.fixture
def table(series) -> Table:
    return series.tables.get(number=1)


@pytest.fixture
def other_table(series) -> Table:
    return series.tables.get(number=2)


@pytest.fixture
def phone(client):
    """Nobody signed in: a player's phone."""
    return client


@pytest.fixture
def double(tournament, seated_series) -> Table:
    """Double entry: one 3-table with both keepers' links."""
    tournament.double_entry = True
    tournament.save()
    return seated_series(3).tables.get()
