"""`card_points_band`: games that differ only in card points of one band are judged alike.

Each test scores one kind of game at every card point from -1 to 121 with the outcome
flags and announcements in every combination, and checks that within a band the engine
gives the same result, or refuses with the same code. A cache of results keyed on the band
(the import's, `tournaments.games`) relies on it.
"""

import itertools

import pytest

from scoring import ScoringError, card_points_band, parse_game, ramsch_score, score_mapping

CARD_POINTS = range(-1, 122)
# The outcome flags as a document may give them: absent, true or false.
FLAGS = [{}, {"won": True}, {"won": False}]
PLAY = [
    {},
    {"schneider": True},
    {"schneider": False},
    {"schneider": True, "schwarz": True},
    {"schwarz": True},
    {"schneider": False, "schwarz": False},
]


def _outcome(mapping, ramsch_rule=""):
    try:
        if ramsch_rule:
            return ramsch_score(parse_game(mapping), ramsch_rule)
        return score_mapping(mapping)
    except ScoringError as error:
        return error.code


def _bands_agree(base: dict, ramsch_rule: str = ""):
    """Every combination of flags on `base`: one outcome per band."""
    for flags, play in itertools.product(FLAGS, PLAY):
        seen = {}
        for card_points in CARD_POINTS:
            mapping = {**base, **flags, **play, "card_points": card_points}
            outcome = _outcome(mapping, ramsch_rule)
            band = card_points_band(card_points)
            if band in seen:
                assert outcome == seen[band][1], (mapping, seen[band])
            else:
                seen[band] = (card_points, outcome)


# (rules, game fields) — every kind of game of both rule sets (rules §1.1, §3.1), with the
# announcements that change how card points are read (rules §1.3, §3.2).
# fmt: off
GAMES = [
    ("ispa", {"game": "clubs", "matadors": 2}),
    ("ispa", {"game": "hearts", "matadors": 1, "without": True, "bid": 18}),
    ("ispa", {"game": "grand", "matadors": 1, "bid": 72}),
    ("ispa", {"game": "grand", "matadors": 4, "hand": True}),
    ("ispa", {"game": "spades", "matadors": 3, "hand": True, "schneider_announced": True}),
    ("ispa", {"game": "diamonds", "matadors": 1, "hand": True, "schwarz_announced": True}),
    ("ispa", {"game": "grand", "matadors": 2, "ouvert": True}),
    ("ispa", {"game": "clubs", "matadors": 2, "kontra": True, "re": True}),
    ("ispa", {"game": "null"}),
    ("ispa", {"game": "passed"}),
    ("na", {"game": "tournee", "trump": "hearts", "matadors": 2}),
    ("na", {"game": "tournee", "trump": "grand", "matadors": 1, "bid": 40}),
    ("na", {"game": "passt_mir_nicht", "trump": "spades", "matadors": 1}),
    ("na", {"game": "solo", "trump": "clubs", "matadors": 3}),
    ("na", {"game": "solo", "trump": "diamonds", "matadors": 1, "schneider_announced": True}),
    ("na", {"game": "solo", "trump": "grand", "matadors": 2, "schwarz_announced": True}),
    ("na", {"game": "grand_guckser", "matadors": 1}),
    ("na", {"game": "grand_ouvert", "matadors": 2}),
    ("na", {"game": "null"}),
    ("na", {"game": "null_ouvert"}),
    ("na", {"game": "ramsch", "ramsch": "fewest_points"}),
]
# fmt: on


@pytest.mark.parametrize(("rules", "game"), GAMES)
def test_games_within_a_band_score_alike(rules, game):
    _bands_agree({"rules": rules, "table_size": 3, **game})


@pytest.mark.parametrize(
    ("rules", "ramsch_rule"), [("na", "hoyle"), ("na", "league"), ("ispa", "gewinner")]
)
def test_ramsch_variants_within_a_band_score_alike(rules, ramsch_rule):
    _bands_agree(
        {"rules": rules, "game": "ramsch", "ramsch": "fewest_points", "table_size": 3},
        ramsch_rule,
    )


def test_the_band_limits_are_the_rules_limits():
    # rules §1.3, §1.4, §3.3: 0, the ISPA skat (22), schneider (30), 61, 90 / 91, 120.
    limits = [-1, 0, 1, 22, 23, 30, 31, 60, 61, 89, 90, 91, 119, 120, 121]
    bands = [card_points_band(points) for points in limits]
    assert bands == [0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 8, 9]
