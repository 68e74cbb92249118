"""Playing a league match day in the leagues tests: draw, fill every sheet, close."""

import random

from tournaments.demo import fill_table
from tournaments.draw.services import series_draw
from tournaments.sheets.services import table_close


def play_series(day, *, seed=7, close=True):
    """Draw the next series of `day` and fill (and close) every sheet with random games."""
    rng = random.Random(seed)
    series = series_draw(tournament=day, seed=seed)
    for table in series.tables.order_by("number"):
        fill_table(table, rng)
        if close:
            table_close(table=table)
    return series
