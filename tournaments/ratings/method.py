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

import math
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


def place_at_table(own: int, list_points: Sequence[int]) -> int:
    """A seat's place at its table: 1 the most list points, equal points share a place.
    The rating's finishing order and the career page's place at the table both ask here."""
    return 1 + sum(1 for other in list_points if other > own)


def places(list_points: Sequence[int]) -> list[int]:
    """Each seat's place at the table (1, 2, 2, 4 with a tie)."""
    return [place_at_table(own, list_points) for own in list_points]


def rate_table(before: Sequence[Skill], list_points: Sequence[int]) -> list[Skill]:
    """The seated players' ratings after a table, in seat order."""
    if len(before) != len(list_points) or len(before) < 2:
        raise ValueError("a table rates two or more seats, one list-points figure each")
    return plackett_luce(before, places(list_points))


def openskill_rate(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The same update through openskill's own `rate` (what `plackett_luce` must equal)."""
    teams = [[MODEL.create_rating([skill.mu, skill.sigma])] for skill in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma) for team in after]


def plackett_luce(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """`MODEL.rate` for teams of one player with its defaults (no weights, scores, balance
    or sigma limit), step for step in openskill's order of operations, so that the floats
    are the same to the bit (tests/tournaments/ratings/test_method.py compares them).

    Why not `MODEL.rate` itself: most of its time goes to deep-copying the ratings and
    drawing a UUID for each copy. A table of four took 104 µs through it and 27 µs here
    (measured side by side, machine at load 6 on 2 CPUs; 56 µs through it on a quiet
    one): a recompute of 100,000 tables spent 5.6 s of its 10 s budget in it
    (bench/rating.py). openskill 6.2 (requirements.txt); the test fails if an upgrade
    changes its arithmetic."""
    tau_squared = MODEL.tau * MODEL.tau
    beta_squared = MODEL.beta**2
    kappa = MODEL.kappa
    # openskill sorts the teams by rank (stable), computes, and puts them back.
    order = sorted(range(len(ranks)), key=ranks.__getitem__)
    rank = [int(ranks[i]) for i in order]
    mu = [before[i].mu for i in order]
    sigma = [math.sqrt(before[i].sigma * before[i].sigma + tau_squared) for i in order]
    sigma_squared = [s**2 for s in sigma]
    collective = 0.0
    for variance in sigma_squared:
        collective += variance + beta_squared
    c = math.sqrt(collective)
    count = len(order)
    strength = [math.exp(m / c) for m in mu]
    # sum_q: for each place q, the strengths of the places from q down (openskill's order
    # of additions: by team).
    sum_q = [0.0] * count
    started = [False] * count
    for i in range(count):
        for q in range(count):
            if rank[i] >= rank[q]:
                if started[q]:
                    sum_q[q] += strength[i]
                else:
                    sum_q[q], started[q] = strength[i], True
    a = [rank.count(own) for own in rank]
    after = [START] * count
    for i in range(count):
        omega = 0.0
        delta = 0.0
        for q in range(count):
            if rank[q] <= rank[i]:
                share = strength[i] / sum_q[q]
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        omega *= sigma_squared[i] / c
        delta *= sigma_squared[i] / c**2
        delta *= math.sqrt(sigma_squared[i]) / c
        # A team of one: openskill's player share sigma² / team sigma² is exactly 1.0 and
        # its weight 1.0, so both factors leave the floats as they are.
        after[order[i]] = Skill(mu[i] + omega, sigma[i] * math.sqrt(max(1 - delta, kappa)))
    return after


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """The rating as shown, and its uncertainty (± two standard deviations), in points."""
    return round(SHOWN_START + SCALE * (mu - START_MU)), round(2 * SCALE * sigma)
