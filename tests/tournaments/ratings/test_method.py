"""The rating method: places from list points, one table's update, the shown figure."""

import random

import pytest

from tournaments.ratings.method import (
    START,
    Skill,
    openskill_rate,
    places,
    plackett_luce,
    rate_table,
    shown,
)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([120, 40, -30], [1, 2, 3]),
        ([10, 5, 5, -3], [1, 2, 2, 4]),
        ([0, 0, 0], [1, 1, 1]),
        ([-50, 200, 200, 10, 10], [5, 1, 1, 3, 3]),
    ],
)
def test_places_follow_list_points_with_ties_shared(points, expected):
    assert places(points) == expected


def test_the_winner_gains_the_last_loses_and_a_tie_moves_alike():
    after = rate_table([START] * 4, [10, 5, 5, -3])
    assert after[0].mu > START.mu > after[3].mu
    assert after[1] == after[2]
    assert all(skill.sigma < START.sigma for skill in after)


def test_beating_a_strong_player_gains_more_than_beating_a_weak_one():
    strong, weak = Skill(35.0, 3.0), Skill(15.0, 3.0)
    over_strong = rate_table([START, strong, START], [50, 10, 0])[0].mu
    over_weak = rate_table([START, weak, START], [50, 10, 0])[0].mu
    assert over_strong > over_weak


def test_a_table_needs_a_figure_per_seat():
    with pytest.raises(ValueError):
        rate_table([START, START], [1, 2, 3])


def test_the_start_is_shown_as_1500():
    assert shown(START.mu, START.sigma) == (1500, round(80 * START.sigma))
    assert shown(START.mu + 1, 2.0) == (1540, 160)


def test_the_update_is_openskills_to_the_bit():
    # Random tables of 2 to 5 seats, ties included, ratings from new to well known.
    rng = random.Random(29)
    for _ in range(3000):
        size = rng.choice([2, 3, 4, 5])
        before = [Skill(rng.uniform(5, 45), rng.uniform(0.5, 8.4)) for _ in range(size)]
        ranks = places([rng.choice([-50, 0, 0, 30, 120, 300]) for _ in range(size)])
        assert plackett_luce(before, ranks) == openskill_rate(before, ranks)
