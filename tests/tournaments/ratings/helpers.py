"""Ratings written directly for the pages' tests (the rating services write them in use):
`rated(player, shown_rating)` gives a player a rating that `ratings.method.shown` shows as
that figure."""

from tests.factories import RatingFactory
from tournaments.ratings.method import SCALE, SHOWN_FROM, SHOWN_START, START


def mu_of(shown_rating: int) -> float:
    """The skill `shown` turns into `shown_rating` (the inverse of its scale)."""
    return START.mu + (shown_rating - SHOWN_START) / SCALE


def rated(player, shown_rating: int, *, series: int = SHOWN_FROM, sigma: float = 2.0):
    return RatingFactory(player=player, mu=mu_of(shown_rating), sigma=sigma, series=series)
