"""Fixtures of the money tests: `worked` (the rules §2 sheet entered with fees and a prize
plan) and every test in English.

The worked example is the rules §2 sheet (tests/tournaments/helpers.py): lost games A 0,
B 2, C 1, D 5; standings A 1332, C 1320, B 1308, D 108. Fees: entry €10, table €1 per
series, €0.50 per lost game and €1.00 from the 4th lost game of a series (rules §4).
Prize plan: overall 1st 50 % of the pot, 2nd €5, ladies 1st €2 (B and D are ladies).
"""

import pytest
from django.utils import translation

from tests.tournaments.money.helpers import worked_tournament


@pytest.fixture
def worked(tournament, seated_series):
    """The rules §2 sheet entered, seats 1–4 named A–D; B and D are ladies; fees and plan set."""
    return worked_tournament(tournament, seated_series(4).tables.get())


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English (a German request leaves its language active)."""
    with translation.override("en"):
        yield
