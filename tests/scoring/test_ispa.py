"""ISPA game values and scores (rules §1), one row per worked example of the sources."""

import pytest

from scoring import DEFAULT_BONUS, Bonus, Game, GameResult, score, score_mapping


def ispa(game, **fields):
    return {"rules": "ispa", "game": game, **fields}


# (input, value, score, won, overbid, list_declarer, list_others)
# fmt: off
VALUE_ROWS = [
    # contract example 1 / rules §1.4 (Wikipedia): grand with 4, 95 points → with 4, game 5,
    # schneider 6 → 144.
    pytest.param(
        ispa("grand", matadors=4, card_points=95, bid=18),
        144, 144, True, False, 194, 0, id="contract-1-grand-with-4-schneider",
    ),
    # contract example 2 / rules §1.4: diamonds without 2 lost with 50 → 27 → −54, 4-table.
    pytest.param(
        ispa("diamonds", matadors=2, without=True, card_points=50, table_size=4),
        27, -54, False, False, -104, 30, id="contract-2-diamonds-without-2-lost",
    ),
    # contract example 3 / rules §1.5 (Wikipedia overbid): bid 30, clubs with 1 → 24 < 30
    # → charged 36 → −72.
    pytest.param(
        ispa("clubs", matadors=1, card_points=70, bid=30),
        36, -72, False, True, -122, 40, id="contract-3-clubs-overbid",
    ),
    # rules §1.5 (Wikipedia): the same hand declared hearts instead → charged 30 → −60.
    pytest.param(
        ispa("hearts", matadors=1, card_points=70, bid=30),
        30, -60, False, True, -110, 40, id="rules-1.5-hearts-instead-overbid",
    ),
    # contract example 4 / rules §1.4: null ouvert lost → −92.
    pytest.param(
        ispa("null", ouvert=True, won=False),
        46, -92, False, False, -142, 40, id="contract-4-null-ouvert-lost",
    ),
    # Wikipedia "Scoring" example 2: bid 30, null ouvert, forced to take a trick → −92.
    pytest.param(
        ispa("null", ouvert=True, won=False, bid=30),
        46, -92, False, False, -142, 40, id="wikipedia-null-ouvert-bid-30-lost",
    ),
    # Wikipedia "Scoring" example 1: bid 20, grand, 78 points, with 2 → 24 × 3 = 72.
    pytest.param(
        ispa("grand", matadors=2, card_points=78, bid=20),
        72, 72, True, False, 122, 0, id="wikipedia-grand-with-2-78-points",
    ),
    # rules §1.3: clubs ouvert with 2 = 9 × 12 = 108 (ouvert implies hand and schwarz
    # announced; hand need not be given).
    pytest.param(
        ispa("clubs", matadors=2, ouvert=True, won=True, schneider=True, schwarz=True),
        108, 108, True, False, 158, 0, id="rules-1.3-clubs-ouvert-with-2",
    ),
    # rules §1.3: grand ouvert with 4 = 11 × 24 = 264, the highest value.
    pytest.param(
        ispa("grand", matadors=4, ouvert=True, hand=True, card_points=120, schwarz=True),
        264, 264, True, False, 314, 0, id="rules-1.3-grand-ouvert-with-4",
    ),
    # rules §1.3 / Wikipedia: maximum level 18: clubs with 11, every level → 216.
    pytest.param(
        ispa("clubs", matadors=11, ouvert=True, card_points=120, schwarz=True),
        216, 216, True, False, 266, 0, id="wikipedia-level-18-clubs",
    ),
    # rules §1.3: an ouvert game not made schwarz is lost at its full level: 264 → −528.
    pytest.param(
        ispa("grand", matadors=4, ouvert=True, card_points=115),
        264, -528, False, False, -578, 40, id="rules-1.3-grand-ouvert-lost",
    ),
    # Wikipedia "Game value" example 1: hearts with 1 → 10 × 2 = 20.
    pytest.param(
        ispa("hearts", matadors=1, won=True),
        20, 20, True, False, 70, 0, id="wikipedia-ex1-hearts-with-1",
    ),
    # Wikipedia example 1: skat not picked up → hand → 30.
    pytest.param(
        ispa("hearts", matadors=1, hand=True, won=True),
        30, 30, True, False, 80, 0, id="wikipedia-ex1-hearts-hand",
    ),
    # Wikipedia example 1: won with at least 90 points → schneider → 30.
    pytest.param(
        ispa("hearts", matadors=1, card_points=90),
        30, 30, True, False, 80, 0, id="wikipedia-ex1-hearts-schneider-at-90",
    ),
    # Wikipedia example 1: the same holding as grand → 24 × 2 = 48.
    pytest.param(
        ispa("grand", matadors=1, won=True),
        48, 48, True, False, 98, 0, id="wikipedia-ex1-grand-with-1",
    ),
    # Wikipedia example 2: hearts with 7, hand, schneider announced, 95 points → 10 × 11.
    pytest.param(
        ispa("hearts", matadors=7, hand=True, schneider_announced=True, card_points=95),
        110, 110, True, False, 160, 0, id="wikipedia-ex2-hearts-with-7-hand-announced",
    ),
    # Wikipedia "More examples": "with 2, plus 1 is 3" (hearts → 30).
    pytest.param(
        ispa("hearts", matadors=2, won=True),
        30, 30, True, False, 80, 0, id="wikipedia-more-with-2-level-3",
    ),
    # Wikipedia "More examples": "with 1 ... plus 1 is 2" (diamonds → 18, the lowest game).
    pytest.param(
        ispa("diamonds", matadors=1, won=True),
        18, 18, True, False, 68, 0, id="wikipedia-more-with-1-level-2",
    ),
    # Wikipedia "More examples": "with 4, plus 1 is 5" (grand → 120).
    pytest.param(
        ispa("grand", matadors=4, won=True),
        120, 120, True, False, 170, 0, id="wikipedia-more-with-4-level-5",
    ),
    # Wikipedia "More examples": "Without 2, plus 1 is 3" (clubs → 36), and "J alone:
    # this is also without 2" (spades → 33).
    pytest.param(
        ispa("clubs", matadors=2, without=True, won=True),
        36, 36, True, False, 86, 0, id="wikipedia-more-without-2-level-3",
    ),
    pytest.param(
        ispa("spades", matadors=2, without=True, card_points=61, table_size=4),
        33, 33, True, False, 83, 0, id="wikipedia-more-jack-alone-without-2",
    ),
    # Wikipedia "More examples": "With 2, plus 1 (game) plus 1 (for Schneider) is 4"
    # (hearts, 92 card points → 40).
    pytest.param(
        ispa("hearts", matadors=2, card_points=92),
        40, 40, True, False, 90, 0, id="wikipedia-more-with-2-schneider-level-4",
    ),
    # Wikipedia "More examples": with 2, game 3, hand 4 (hearts → 40).
    pytest.param(
        ispa("hearts", matadors=2, hand=True, won=True),
        40, 40, True, False, 90, 0, id="wikipedia-with-2-hand-level-4",
    ),
    # Wikipedia: with 2, game, hand, schneider, schwarz → level 6.
    pytest.param(
        ispa("hearts", matadors=2, hand=True, won=True, schneider=True, schwarz=True),
        60, 60, True, False, 110, 0, id="wikipedia-with-2-hand-schneider-schwarz-level-6",
    ),
    # Wikipedia: with 2, game 3, hand 4, schneider 5, announced 6, schwarz 7, announced 8,
    # ouvert 9 (spades → 99).
    pytest.param(
        ispa(
            "spades", matadors=2, hand=True, schneider_announced=True,
            schwarz_announced=True, ouvert=True, card_points=120, schwarz=True,
        ),
        99, 99, True, False, 149, 0, id="wikipedia-with-2-ouvert-level-9",
    ),
    # rules §1.3: schwarz announced includes schneider announced: with 1, game, hand,
    # schneider, announced, schwarz, announced → 7 × 24.
    pytest.param(
        ispa("grand", matadors=1, hand=True, schwarz_announced=True, won=True,
             schneider=True, schwarz=True),
        168, 168, True, False, 218, 0, id="rules-1.3-schwarz-announced-includes-schneider",
    ),
    # rules §1.3: schwarz announced and 120 card points, but the opponents took a trick:
    # lost at the announced level.
    pytest.param(
        ispa("grand", matadors=1, hand=True, schwarz_announced=True, card_points=120),
        168, -336, False, False, -386, 40, id="rules-1.3-schwarz-announced-not-reached",
    ),
    # rules §1.3: schneider against the declarer (≤ 30) counts: grand with 1 → 3 × 24, lost.
    pytest.param(
        ispa("grand", matadors=1, card_points=25),
        72, -144, False, False, -194, 40, id="rules-1.3-declarer-schneider",
    ),
    # rules §1.3: exactly 30 is schneider, 31 is not.
    pytest.param(
        ispa("hearts", matadors=1, card_points=30),
        30, -60, False, False, -110, 40, id="rules-1.3-30-is-schneider",
    ),
    pytest.param(
        ispa("hearts", matadors=1, card_points=31),
        20, -40, False, False, -90, 40, id="rules-1.3-31-not-schneider",
    ),
    # rules §1.3: 89 is not schneider; rules §1.4: 61 wins, 60 loses.
    pytest.param(
        ispa("hearts", matadors=1, card_points=89),
        20, 20, True, False, 70, 0, id="rules-1.3-89-not-schneider",
    ),
    pytest.param(
        ispa("hearts", matadors=1, card_points=61),
        20, 20, True, False, 70, 0, id="rules-1.4-61-wins",
    ),
    pytest.param(
        ispa("hearts", matadors=1, card_points=60),
        20, -40, False, False, -90, 40, id="rules-1.4-60-loses",
    ),
    # rules §1.3: the declarer schwarz himself: schneider and schwarz levels, lost.
    pytest.param(
        ispa("grand", matadors=1, card_points=0, schwarz=True),
        96, -192, False, False, -242, 40, id="rules-1.3-declarer-schwarz",
    ),
    # rules §1.3 with rules "Terms" (card points include the skat, which is the ISPA
    # declarer's even when he takes no trick; Wikipedia: "The Skat always belongs to the
    # declarer"): a schwarz declarer may have the skat's points, up to 22 (two aces).
    # Grand with 1, game 2, schneider 3, schwarz 4 → 96, lost → −192.
    pytest.param(
        ispa("grand", matadors=1, card_points=10, schwarz=True),
        96, -192, False, False, -242, 40, id="rules-terms-ispa-schwarz-with-skat-10",
    ),
    pytest.param(
        ispa("diamonds", matadors=2, without=True, card_points=22, schwarz=True, table_size=4),
        45, -90, False, False, -140, 30, id="rules-terms-ispa-schwarz-with-skat-22",
    ),
    # rules §1.3: schneider announced, declarer himself schneider: the level counts once.
    pytest.param(
        ispa("hearts", matadors=1, hand=True, schneider_announced=True, card_points=20),
        50, -100, False, False, -150, 40, id="rules-1.3-announced-and-schneider-once",
    ),
    # rules §1.3: an announced level counts, reached or not; not reached → lost.
    pytest.param(
        ispa("hearts", matadors=1, hand=True, schneider_announced=True, card_points=80),
        50, -100, False, False, -150, 40, id="rules-1.3-schneider-announced-missed",
    ),
    pytest.param(
        ispa("hearts", matadors=1, hand=True, schneider_announced=True, won=False),
        50, -100, False, False, -150, 40, id="rules-1.3-schneider-announced-lost-flags",
    ),
    # rules §1.4: lost hand games count double too (since 1999).
    pytest.param(
        ispa("spades", matadors=1, hand=True, won=False),
        33, -66, False, False, -116, 40, id="rules-1.4-hand-lost-double",
    ),
    # rules §1.5: schneider against the declarer raises the value to the bid: no overbid.
    pytest.param(
        ispa("clubs", matadors=1, card_points=25, bid=30),
        36, -72, False, False, -122, 40, id="rules-1.5-schneider-against-reaches-bid",
    ),
    # rules §1.5: a won play is lost when overbid: grand with 1 = 48 < 72.
    pytest.param(
        ispa("grand", matadors=1, won=True, bid=72),
        72, -144, False, True, -194, 40, id="rules-1.5-won-but-overbid",
    ),
    # rules §1.5: a value equal to the bid is enough.
    pytest.param(
        ispa("clubs", matadors=1, hand=True, won=True, bid=36),
        36, 36, True, False, 86, 0, id="rules-1.5-value-equals-bid",
    ),
    # rules §1.1: null values 23, hand 35, ouvert 46, ouvert hand 59.
    pytest.param(ispa("null", won=True), 23, 23, True, False, 73, 0, id="rules-1.1-null"),
    pytest.param(
        ispa("null", hand=True, won=True), 35, 35, True, False, 85, 0, id="rules-1.1-null-hand"
    ),
    pytest.param(
        ispa("null", hand=True, won=False),
        35, -70, False, False, -120, 40, id="rules-1.4-null-hand-lost",
    ),
    pytest.param(
        ispa("null", ouvert=True, won=True, bid=46),
        46, 46, True, False, 96, 0, id="rules-1.1-null-ouvert",
    ),
    pytest.param(
        ispa("null", ouvert=True, hand=True, won=True, table_size=4),
        59, 59, True, False, 109, 0, id="rules-1.1-null-ouvert-hand",
    ),
    # rules §1.7: Kontra doubles the score, Re doubles again; never the ±50 / 40 / 30.
    pytest.param(
        ispa("grand", matadors=4, card_points=95, kontra=True),
        144, 288, True, False, 338, 0, id="rules-1.7-kontra-won",
    ),
    pytest.param(
        ispa("grand", matadors=4, card_points=95, kontra=True, re=True),
        144, 576, True, False, 626, 0, id="rules-1.7-re-won",
    ),
    pytest.param(
        ispa("diamonds", matadors=2, without=True, card_points=50, kontra=True),
        27, -108, False, False, -158, 40, id="rules-1.7-kontra-lost",
    ),
    # rules §1.7: Kontra does not change the value used for the overbid test.
    pytest.param(
        ispa("clubs", matadors=1, card_points=70, bid=30, kontra=True, re=True),
        36, -288, False, True, -338, 40, id="rules-1.7-re-overbid",
    ),
    pytest.param(
        ispa("null", won=False, kontra=True, table_size=4),
        23, -92, False, False, -142, 30, id="rules-1.7-kontra-null",
    ),
    # rules §1.6: a passed-in deal scores nothing.
    pytest.param(ispa("passed"), 0, 0, None, False, 0, 0, id="rules-1.6-passed"),
    pytest.param(
        ispa("passed", table_size=4), 0, 0, None, False, 0, 0, id="rules-1.6-passed-4-table"
    ),
]
# fmt: on


@pytest.mark.parametrize(
    ("mapping", "value", "game_score", "won", "overbid", "list_declarer", "list_others"),
    VALUE_ROWS,
)
def test_ispa_game_scores(mapping, value, game_score, won, overbid, list_declarer, list_others):
    result = score_mapping(mapping)
    assert (
        result.value,
        result.score,
        result.won,
        result.overbid,
        result.list_declarer,
        result.list_others,
    ) == (value, game_score, won, overbid, list_declarer, list_others)


def test_result_shows_base_and_level():
    # "with 4, game 5, schneider 6 × 24" (rules §1.4 example).
    result = score(Game("ispa", "grand", matadors=4, card_points=95))
    assert (result.base, result.multiplier, result.levels) == (24, 6, 6)


def test_null_has_no_level():
    result = score(Game("ispa", "null", won=True))
    assert (result.base, result.multiplier) == (None, None)


def test_result_is_frozen():
    result = score(Game("ispa", "null", won=True))
    assert isinstance(result, GameResult)
    with pytest.raises(AttributeError):
        result.score = 1


def test_bonus_is_a_tournament_setting():
    # rules §2: the four bonus numbers are per-tournament settings.
    bonus = Bonus(won=60, lost=40, others_3=45, others_4=35)
    won = score(Game("ispa", "hearts", matadors=1, won=True), bonus)
    lost = score(Game("ispa", "hearts", matadors=1, won=False, table_size=4), bonus)
    lost_3 = score(Game("ispa", "hearts", matadors=1, won=False), bonus)
    assert (won.list_declarer, won.list_others) == (80, 0)
    assert (lost.list_declarer, lost.list_others) == (-80, 35)
    assert lost_3.list_others == 45


def test_default_bonus_is_50_50_40_30():
    assert Bonus(50, 50, 40, 30) == DEFAULT_BONUS


def test_without_does_not_change_the_value():
    # rules §1.2: only the number of matadors enters the value.
    with_2 = score(Game("ispa", "hearts", matadors=2, won=True))
    without_2 = score(Game("ispa", "hearts", matadors=2, without=True, won=True))
    assert with_2 == without_2
