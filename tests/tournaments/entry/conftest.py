"""Fixtures of the entry tests: a series of two 3-tables with their links (`series`, `table`,
`other_table`) and a phone (nobody signed in); `double` (a 3-table under double entry) is
in tests/tournaments/conftest.py."""

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
