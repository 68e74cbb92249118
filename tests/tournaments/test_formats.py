"""tournaments/formats.py: how figures are written on pages and printouts."""

from fractions import Fraction

import pytest

from tournaments.formats import format_points


@pytest.mark.parametrize(
    ("value", "text"),
    [(3, "3"), (0, "0"), (Fraction(5, 2), "2½"), (Fraction(1, 2), "½"), (Fraction(-1, 2), "−½")],
)
def test_match_points_are_written_with_halves(value, text):
    assert format_points(value) == text
