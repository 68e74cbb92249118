"""North American tournée skat values and scores (rules §3), one row per worked example."""

import pytest

from scoring import Game, result_to_contract, score, score_mapping


def na(game, **fields):
    return {"rules": "na", "game": game, **fields}


# (input, value, score, won, overbid)
# fmt: off
VALUE_ROWS = [
    # contract example 5 / rules §3.2 (Hoyle): heart solo with 3, schneider announced and
    # made → 6 × 10 = 60.
    pytest.param(
        na("solo", trump="hearts", matadors=3, schneider_announced=True, card_points=95,
           won=True),
        60, 60, True, False, id="contract-5-heart-solo-schneider-announced",
    ),
    # rules §3.2 (Hoyle): made without announcing → 50.
    pytest.param(
        na("solo", trump="hearts", matadors=3, card_points=95),
        50, 50, True, False, id="hoyle-heart-solo-schneider-not-announced",
    ),
    # Hoyle: "If his adversaries got to 30 ... he would have lost 60": the declarer has 90,
    # which in NA is no schneider (rules §3.3), so the announcement fails.
    pytest.param(
        na("solo", trump="hearts", matadors=3, schneider_announced=True, card_points=90),
        60, -60, False, False, id="hoyle-heart-solo-announced-adversaries-30",
    ),
    # rules §3.2 (Hoyle): diamond tournée with 3 → 5 × 4 = 20.
    pytest.param(
        na("tournee", trump="diamonds", matadors=3, won=True),
        20, 20, True, False, id="hoyle-diamond-tournee-with-3",
    ),
    # Hoyle "A Tourné": a heart tourné with one matadore, won → 12.
    pytest.param(
        na("tournee", trump="hearts", matadors=1, card_points=75),
        12, 12, True, False, id="hoyle-heart-tourne-with-1",
    ),
    # Foster 1909: "the lowest multiplication must be 1 for the game, and 1 matadore; twice
    # the unit value": club tournée with 1 → 16.
    pytest.param(
        na("tournee", trump="clubs", matadors=1, won=True),
        16, 16, True, False, id="foster-1909-twice-the-unit",
    ),
    # rules §3.1: tournée grand (a jack turned) 12: with 2 → 36.
    pytest.param(
        na("tournee", trump="grand", matadors=2, won=True),
        36, 36, True, False, id="rules-3.1-tournee-grand",
    ),
    # Hoyle: "a diamond Solo with five, schneider announced, worth 72".
    pytest.param(
        na("solo", trump="diamonds", matadors=5, schneider_announced=True, card_points=100),
        72, 72, True, False, id="hoyle-diamond-solo-with-5-announced",
    ),
    # Hoyle: "a sure Grand, with four, schneider announced, worth 140" (solo grand 20).
    pytest.param(
        na("solo", trump="grand", matadors=4, schneider_announced=True, card_points=100),
        140, 140, True, False, id="hoyle-grand-with-4-announced",
    ),
    # Hoyle: "a spade Solo, six Matadores, and schneider announced ... worth 99".
    pytest.param(
        na("solo", trump="spades", matadors=6, schneider_announced=True, card_points=91),
        99, 99, True, False, id="hoyle-spade-solo-with-6-announced",
    ),
    # Hoyle multipliers: "Schwarz announced or Schwarz, 3" (club solo with 1 → 4 × 12).
    pytest.param(
        na("solo", trump="clubs", matadors=1, card_points=120, schwarz=True),
        48, 48, True, False, id="hoyle-schwarz-3",
    ),
    # Hoyle: "Schwarz after announcing Schneider, 4".
    pytest.param(
        na("solo", trump="clubs", matadors=1, schneider_announced=True, card_points=120,
           schwarz=True),
        60, 60, True, False, id="hoyle-schwarz-after-schneider-announced-4",
    ),
    # Hoyle: "Schwarz announced, 5" (rules §3.2: the bonus is 2, not 3).
    pytest.param(
        na("solo", trump="clubs", matadors=1, schwarz_announced=True, won=True,
           schneider=True, schwarz=True),
        72, 72, True, False, id="hoyle-schwarz-announced-5",
    ),
    # rules §3.2: an announcement not made loses at the announced value (Wikipedia: "loses
    # the amount that he or she would have won if successful").
    pytest.param(
        na("solo", trump="clubs", matadors=1, schwarz_announced=True, card_points=110),
        72, -72, False, False, id="wikipedia-schwarz-announced-missed",
    ),
    # rules §3.3: 91 makes schneider, 90 does not.
    pytest.param(
        na("solo", trump="hearts", matadors=1, card_points=91),
        30, 30, True, False, id="rules-3.3-91-schneider",
    ),
    pytest.param(
        na("solo", trump="hearts", matadors=1, card_points=90),
        20, 20, True, False, id="rules-3.3-90-no-schneider",
    ),
    # rules §3.3 / NA law 10: the declarer needs 31 to be out of schneider.
    pytest.param(
        na("solo", trump="hearts", matadors=1, card_points=30),
        30, -30, False, False, id="rules-3.3-declarer-schneider-at-30",
    ),
    pytest.param(
        na("solo", trump="hearts", matadors=1, card_points=31),
        20, -20, False, False, id="rules-3.3-31-out-of-schneider",
    ),
    # rules §3.4 / NA law 10: 61 wins, 60 loses; lost games single.
    pytest.param(
        na("tournee", trump="spades", matadors=2, card_points=60),
        21, -21, False, False, id="rules-3.4-60-loses-single",
    ),
    # rules §3.4 / Hoyle: passt mir nicht loses double, wins single.
    pytest.param(
        na("passt_mir_nicht", trump="hearts", matadors=1, won=False),
        12, -24, False, False, id="hoyle-passt-mir-nicht-lost-double",
    ),
    pytest.param(
        na("passt_mir_nicht", trump="hearts", matadors=1, won=True),
        12, 12, True, False, id="hoyle-passt-mir-nicht-won-single",
    ),
    # Hoyle: passt mir nicht turning a jack may be a grand (unit 12 as the tournée).
    pytest.param(
        na("passt_mir_nicht", trump="grand", matadors=1, won=False),
        24, -48, False, False, id="hoyle-passt-mir-nicht-grand",
    ),
    # rules §3.1 / Wikipedia "Grand Guckser: 16, 32 if lost".
    pytest.param(
        na("grand_guckser", matadors=1, won=True),
        32, 32, True, False, id="wikipedia-guckser-won",
    ),
    pytest.param(
        na("grand_guckser", matadors=1, won=False),
        32, -64, False, False, id="foster-guckser-lost-double",
    ),
    # rules §3.2: grand ouvert counts as schwarz announced: matadors + 5 → 24 × 9 = 216.
    pytest.param(
        na("grand_ouvert", matadors=4, card_points=120, schwarz=True),
        216, 216, True, False, id="rules-3.2-grand-ouvert-with-4",
    ),
    pytest.param(
        na("grand_ouvert", matadors=1, card_points=100),
        144, -144, False, False, id="rules-3.2-grand-ouvert-not-schwarz",
    ),
    # rules §3.1: null 20, null ouvert 40, lost single (rules §3.4).
    pytest.param(na("null", won=True), 20, 20, True, False, id="rules-3.1-null"),
    pytest.param(na("null", won=False), 20, -20, False, False, id="rules-3.4-null-lost"),
    pytest.param(
        na("null_ouvert", won=True, bid=40), 40, 40, True, False, id="rules-3.1-null-ouvert"
    ),
    pytest.param(
        na("null_ouvert", won=False), 40, -40, False, False, id="rules-3.4-null-ouvert-lost"
    ),
    # Hoyle: "if he has bid or refused eleven, and plays a tourné in diamonds ... he loses
    # 15, the next higher game than his bid possible in a diamond tourné".
    pytest.param(
        na("tournee", trump="diamonds", matadors=1, won=True, bid=11),
        15, -15, False, True, id="hoyle-diamond-tourne-bid-11",
    ),
    # Hoyle: "a heart Solo with two costs 30 points; but as Vorhand refused 33, and the
    # next best game he could have made with a heart Solo is 40, that is the amount he
    # loses".
    pytest.param(
        na("solo", trump="hearts", matadors=2, won=False, bid=33),
        40, -40, False, True, id="hoyle-heart-solo-refused-33",
    ),
    # Hoyle: the spade solo with two is worth the 33 offered.
    pytest.param(
        na("solo", trump="spades", matadors=2, won=True, bid=33),
        33, 33, True, False, id="hoyle-spade-solo-with-2-bid-33",
    ),
    # rules §3.4: an overbid passt mir nicht is charged double.
    pytest.param(
        na("passt_mir_nicht", trump="diamonds", matadors=1, won=True, bid=12),
        15, -30, False, True, id="rules-3.4-passt-mir-nicht-overbid-double",
    ),
    # rules §3.4: bids start at 10.
    pytest.param(
        na("tournee", trump="diamonds", matadors=1, won=True, bid=10),
        10, 10, True, False, id="rules-3.4-bid-10",
    ),
    # Hoyle "Bidding": a diamond tourné with three is worth 20; "If you go beyond 20, and
    # turn a diamond, you must either find the fourth Matadore in the Skat, or make your
    # adversaries schneider ... If you fail, you lose 24, or 28, according to your bid."
    # Decision: rules §3.4 charges the next multiple of the unit value (5) that reaches the
    # bid, as Hoyle himself does for a bid of 11 ("he loses 15"): bid 24 → 25, 28 → 30.
    pytest.param(
        na("tournee", trump="diamonds", matadors=3, card_points=80, bid=24),
        25, -25, False, True, id="hoyle-diamond-tourne-with-3-bid-24",
    ),
    pytest.param(
        na("tournee", trump="diamonds", matadors=3, card_points=80, bid=28),
        30, -30, False, True, id="hoyle-diamond-tourne-with-3-bid-28",
    ),
    # Hoyle: the fourth matador in the skat, or schneider, saves the bid of 24 (5 × 5 = 25).
    pytest.param(
        na("tournee", trump="diamonds", matadors=4, card_points=80, bid=24),
        25, 25, True, False, id="hoyle-diamond-tourne-fourth-matador",
    ),
    pytest.param(
        na("tournee", trump="diamonds", matadors=3, card_points=91, bid=24),
        25, 25, True, False, id="hoyle-diamond-tourne-schneider",
    ),
    # scoring contract: any NA bid ≥ 10 is valid, also above the best game (216): such a
    # game is overbid (rules §3.4): grand ouvert with 4 against 217 → charged 240.
    pytest.param(
        na("grand_ouvert", matadors=4, card_points=120, schwarz=True, bid=217),
        240, -240, False, True, id="contract-na-bid-217",
    ),
    pytest.param(
        na("tournee", trump="diamonds", matadors=1, won=True, bid=1000),
        1000, -1000, False, True, id="contract-na-bid-1000",
    ),
    # rules §3.4: an overbid null is lost, charged at the next multiple of its value that
    # reaches the bid, single (not doubled: only passt mir nicht and guckser are).
    pytest.param(
        na("null", won=True, bid=24),
        40, -40, False, True, id="rules-3.4-null-overbid-24",
    ),
    pytest.param(
        na("null", won=False, bid=21),
        40, -40, False, True, id="rules-3.4-null-lost-and-overbid",
    ),
    pytest.param(
        na("null", won=True, bid=60),
        60, -60, False, True, id="rules-3.4-null-overbid-60",
    ),
    pytest.param(
        na("null", won=True, bid=20),
        20, 20, True, False, id="rules-3.4-null-bid-equals-value",
    ),
    pytest.param(
        na("null_ouvert", won=True, bid=41),
        80, -80, False, True, id="rules-3.4-null-ouvert-overbid",
    ),
    # rules §3.6: tables of 4 or 5 do not change an NA game's score.
    pytest.param(
        na("solo", trump="hearts", matadors=3, card_points=95, table_size=5),
        50, 50, True, False, id="rules-3.6-table-of-5",
    ),
    pytest.param(
        na("ramsch", ramsch="no_trick", table_size=5),
        None, 20, None, False, id="rules-3.6-ramsch-table-of-5",
    ),
]
# fmt: on


@pytest.mark.parametrize(("mapping", "value", "game_score", "won", "overbid"), VALUE_ROWS)
def test_na_game_scores(mapping, value, game_score, won, overbid):
    result = score_mapping(mapping)
    assert (result.value, result.score, result.won, result.overbid) == (
        value,
        game_score,
        won,
        overbid,
    )
    # rules §3.6: NA has no list points.
    assert (result.list_declarer, result.list_others) == (None, None)


# rules §3.5: fewest points wins 10, no trick 20, every trick −30.
@pytest.mark.parametrize(
    ("outcome", "points"), [("fewest_points", 10), ("no_trick", 20), ("all_tricks", -30)]
)
def test_ramsch_scores_the_player_described(outcome, points):
    game = Game("na", "ramsch", ramsch=outcome, table_size=4)
    result = score(game)
    assert result.score == points
    assert result_to_contract(game, result) == {"score": points}


def test_solo_shows_unit_and_multiplier():
    # rules §3.2 (Hoyle): "His game multiplier is therefore 3 ... 3 more for the
    # Matadores, 6 altogether."
    result = score(
        Game("na", "solo", trump="hearts", matadors=3, schneider_announced=True, won=True,
             schneider=True)
    )  # fmt: skip
    assert (result.base, result.multiplier) == (10, 6)


def test_highest_na_value_is_216():
    # rules §3.2: grand ouvert with 4 is the most valuable NA game (higher bids are valid
    # but always overbid, see contract-na-bid-217).
    best = max(
        score(Game("na", game, trump=trump, matadors=m, card_points=120, schwarz=True,
                   schwarz_announced=game == "solo")).value
        for game, trumps, top in [
            ("solo", ("diamonds", "hearts", "spades", "clubs"), 11),
            ("solo", ("grand",), 4),
            ("grand_ouvert", (None,), 4),
        ]
        for trump in trumps
        for m in range(1, top + 1)
    )  # fmt: skip
    assert best == 216
