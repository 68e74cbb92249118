"""The rating method: a table's finishing order in, each seated player's new rating out.

The model is Plackett-Luce as openskill implements it (Weng and Lin, "A Bayesian
Approximation Method for Online Ranking", JMLR 12, 2011). Why it: a Skat table is one
contest of 3, 4 or 5 players with a full finishing order (list points, rules §2), not a set
of duels; Plackett-Luce rates a whole order at once, handles ties, and keeps an uncertainty
per player, so a newcomer moves fast and a regular slowly. Each player is a team of one.

A table's order is by list points, more points first; equal list points are a tie (the
same place), as the standings rank them by list points first. Shown ratings are scaled for
reading: `shown` turns (mu, sigma) into "1,530 ± 84" with 1,500 the start and the ± two
standard deviations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
# A rating is shown once a player has this many rated series (tables).
SHOWN_FROM = 10
SCALE = 40  # shown points per unit of mu
SHOWN_START = 1500


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


START = Skill(START_MU, START_SIGMA)


def places(list_points: Sequence[int]) -> list[int]:
    """Each seat's place at the table, 1 the most list points; equal points share a place
    (1, 2, 2, 4)."""
    return [1 + sum(1 for other in list_points if other > own) for own in list_points]


def rate_table(before: Sequence[Skill], list_points: Sequence[int]) -> list[Skill]:
    """The seated players' ratings after a table, in seat order."""
    if len(before) != len(list_points) or len(before) < 2:
        raise ValueError("a table rates two or more seats, one list-points figure each")
    teams = [[MODEL.create_rating([skill.mu, skill.sigma])] for skill in before]
    after = MODEL.rate(teams, ranks=places(list_points))
    return [Skill(team[0].mu, team[0].sigma) for team in after]


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """The rating as shown, and its uncertainty (± two standard deviations), in points."""
    return round(SHOWN_START + SCALE * (mu - START_MU)), round(2 * SCALE * sigma)
