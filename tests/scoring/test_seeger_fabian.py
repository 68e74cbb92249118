"""Series totals and Seeger-Fabian list points (rules §2, §3.5, §3.6)."""

import pytest

from scoring import (
    Bonus,
    Game,
    GameResult,
    ScoringError,
    SheetGame,
    list_points_for,
    ranking_key,
    score,
    score_series,
)

# rules §2, worked 4-table series (preisskat.org): game points / won / lost and the list
# points. "Others lost" is every lost game at the table but the seat's own (8 in all).
# (seat, game points, won, lost, others lost, list points)
WORKED_SERIES = [
    pytest.param("A", 492, 12, 0, 8, 1332, id="preisskat-A"),
    pytest.param("B", 628, 12, 2, 6, 1308, id="preisskat-B"),
    pytest.param("C", 660, 10, 1, 7, 1320, id="preisskat-C"),
    pytest.param("D", -32, 6, 5, 3, 108, id="preisskat-D"),
]


@pytest.mark.parametrize(
    ("seat", "game_points", "won", "lost", "others_lost", "list_points"), WORKED_SERIES
)
def test_list_points_formula(seat, game_points, won, lost, others_lost, list_points):
    assert list_points_for(game_points, won, lost, others_lost, 4) == list_points


def _result(game_score, won):
    """A synthetic scored game: only score and won matter to the series."""
    return GameResult(abs(game_score), game_score, won, False, None, None, None, None)


def _worked_sheet():
    """48 deals whose per-seat game points / won / lost are the rules §2 example."""
    figures = {1: (492, 12, 0), 2: (628, 12, 2), 3: (660, 10, 1), 4: (-32, 6, 5)}
    sheet = []
    for seat, (points, won, lost) in figures.items():
        lost_scores = [-48] * lost
        won_scores = [24] * (won - 1)
        last = points - sum(lost_scores) - sum(won_scores)
        sheet += [SheetGame(seat, _result(s, True)) for s in [*won_scores, last]]
        sheet += [SheetGame(seat, _result(s, False)) for s in lost_scores]
    return sheet


def test_worked_series_reproduced_from_a_sheet():
    # rules §2: A +492/12/0, B +628/12/2, C +660/10/1, D −32/6/5 → 1332, 1308, 1320, 108.
    sheet = _worked_sheet()
    assert len(sheet) == 48  # rules §4: a 4-table series
    totals = score_series(sheet, rules="ispa", table_size=4)
    assert [
        (t.game_points, t.won, t.lost, t.others_lost, t.list_points) for t in totals.values()
    ] == [
        (492, 12, 0, 8, 1332),
        (628, 12, 2, 6, 1308),
        (660, 10, 1, 7, 1320),
        (-32, 6, 5, 3, 108),
    ]


def test_worked_series_ranking():
    # rules §2: A 1332, C 1320, B 1308, D 108.
    totals = score_series(_worked_sheet(), rules="ispa", table_size=4)
    ranked = sorted(totals.values(), key=ranking_key)
    assert [t.seat for t in ranked] == [1, 3, 2, 4]


def test_ranking_ties_go_to_more_won_then_fewer_lost():
    # rules §2: list points desc, then more games won, then fewer games lost.
    sheet = [
        SheetGame(1, _result(-40, False)),  # seat 1: 0 won, 1 lost
        SheetGame(2, _result(100, True)),
        SheetGame(3, _result(100, True)),
        SheetGame(3, _result(-40, False)),
    ]
    totals = score_series(sheet, rules="na", table_size=3)
    ranked = sorted(totals.values(), key=ranking_key)
    assert [(t.seat, t.list_points) for t in ranked] == [(2, 100), (3, 60), (1, -40)]
    tied = score_series(
        [SheetGame(1, _result(60, True)), SheetGame(2, _result(-60, False)),
         SheetGame(2, _result(120, True))],
        rules="na", table_size=3,
    )  # fmt: skip
    assert [t.seat for t in sorted(tied.values(), key=ranking_key)] == [1, 2, 3]


def test_three_table_gives_others_40():
    # rules §2: every other player gets +40 at a 3-player table.
    lost = score(Game("ispa", "hearts", matadors=1, won=False))
    totals = score_series([SheetGame(1, lost)], rules="ispa", table_size=3)
    assert [t.list_points for t in totals.values()] == [-40 - 50, 40, 40]
    assert lost.list_declarer == -90 and lost.list_others == 40


def test_four_table_dealer_sitting_out_gets_30():
    # rules §2: at a 4-table the dealer, who sits out, gets the 30 too.
    lost = score(Game("ispa", "hearts", matadors=1, won=False, table_size=4))
    totals = score_series([SheetGame(2, lost)], rules="ispa", table_size=4)
    assert [t.list_points for t in totals.values()] == [30, -90, 30, 30]


def test_overbid_counts_as_lost():
    # rules §2: "declarer lost (overbid included)".
    overbid = score(Game("ispa", "grand", matadors=1, won=True, bid=72))
    assert overbid.overbid
    totals = score_series([SheetGame(1, overbid)], rules="ispa", table_size=3)
    assert (totals[1].won, totals[1].lost, totals[2].others_lost) == (0, 1, 1)
    assert totals[1].list_points == -144 - 50


def test_kontra_multiplies_the_score_not_the_bonus():
    # rules §1.7: Kontra does not multiply the Seeger-Fabian ±50 / 40 / 30.
    game = score(Game("ispa", "hearts", matadors=1, won=True, kontra=True, re=True))
    totals = score_series([SheetGame(1, game)], rules="ispa", table_size=3)
    assert (totals[1].game_points, totals[1].list_points) == (80, 130)
    assert game.list_declarer == 130


def test_series_agrees_with_per_game_list_points():
    # rules §2: the per-game and the per-series formulation give the same totals.
    games = [
        (1, Game("ispa", "grand", matadors=2, card_points=80)),
        (2, Game("ispa", "clubs", matadors=1, card_points=70, bid=30)),
        (3, Game("ispa", "null", ouvert=True, won=False, kontra=True)),
        (1, Game("ispa", "passed")),
        (2, Game("ispa", "diamonds", matadors=3, without=True, card_points=100)),
    ]
    sheet, per_game = [], {1: 0, 2: 0, 3: 0}
    for seat, game in games:
        result = score(game)
        if game.game == "passed":
            sheet.append(SheetGame(None, result))
            continue
        sheet.append(SheetGame(seat, result))
        for other in per_game:
            per_game[other] += result.list_declarer if other == seat else result.list_others
    totals = score_series(sheet, rules="ispa", table_size=3)
    assert {seat: t.list_points for seat, t in totals.items()} == per_game


def test_passed_deal_counts_nothing():
    # rules §1.6, §2: passed-in: 0 for all, no game won or lost.
    passed = score(Game("ispa", "passed"))
    totals = score_series(
        [SheetGame(None, passed), SheetGame(None, None)], rules="ispa", table_size=3
    )
    assert all(
        (t.game_points, t.won, t.lost, t.others_lost, t.list_points) == (0, 0, 0, 0, 0)
        for t in totals.values()
    )


def test_list_scoring_off_gives_plain_game_points():
    # rules §2: a tournament can switch list scoring off.
    lost = score(Game("ispa", "hearts", matadors=1, won=False))
    totals = score_series([SheetGame(1, lost)], rules="ispa", table_size=3, list_scoring=False)
    assert [t.list_points for t in totals.values()] == [-40, 0, 0]


def test_custom_bonus():
    # rules §2: the four bonus numbers are per-tournament settings.
    bonus = Bonus(won=10, lost=20, others_3=30, others_4=40)
    won = score(Game("ispa", "hearts", matadors=1, won=True), bonus)
    lost = score(Game("ispa", "hearts", matadors=1, won=False), bonus)
    totals = score_series(
        [SheetGame(1, won), SheetGame(2, lost)], rules="ispa", table_size=4, bonus=bonus
    )
    assert [t.list_points for t in totals.values()] == [20 + 10 + 40, -40 - 20, 40, 40]


def test_na_ramsch_and_penalties():
    # rules §3.5: Ramsch scores the seats described and is no game won or lost;
    # rules §3.6: plain sheet totals, penalties are point fines per player.
    solo = score(Game("na", "solo", trump="hearts", matadors=3, card_points=95))
    sheet = [
        SheetGame(1, solo),
        SheetGame(None, None, ramsch=((2, "no_trick"),)),
        SheetGame(None, None, ramsch=((3, "all_tricks"),)),
    ]
    totals = score_series(sheet, rules="na", table_size=4, penalties=[(4, -10), (1, -25)])
    assert [(t.game_points, t.won, t.lost, t.list_points) for t in totals.values()] == [
        (25, 1, 0, 25),
        (20, 0, 0, 20),
        (-30, 0, 0, -30),
        (-10, 0, 0, -10),
    ]


def test_na_table_of_five():
    # rules §3.6: NA tables of 4 or 5.
    solo = score(Game("na", "null", won=False))
    totals = score_series([SheetGame(5, solo)], rules="na", table_size=5)
    assert totals[5].game_points == -20 and len(totals) == 5


# (arguments, sheet, code)
# fmt: off
SERIES_ERRORS = [
    # rules §4: ISPA tables have 3 or 4 seats.
    pytest.param({"rules": "ispa", "table_size": 5}, [], "series_table_size", id="ispa-5"),
    pytest.param({"rules": "na", "table_size": 6}, [], "series_table_size", id="na-6"),
    pytest.param({"rules": "skat", "table_size": 3}, [], "unknown_rules", id="rules"),
    pytest.param(
        {"rules": "ispa", "table_size": 3}, [SheetGame(4, _result(20, True))], "bad_seat",
        id="seat-4-at-3-table",
    ),
    pytest.param(
        {"rules": "ispa", "table_size": 3}, [SheetGame(1, None)], "bad_sheet_game",
        id="declarer-without-result",
    ),
    pytest.param(
        {"rules": "ispa", "table_size": 3}, [SheetGame(None, _result(20, True))],
        "bad_sheet_game", id="result-without-declarer",
    ),
    # rules §1.6: no Ramsch in ispa.
    pytest.param(
        {"rules": "ispa", "table_size": 3}, [SheetGame(None, None, ((1, "no_trick"),))],
        "bad_sheet_game", id="ramsch-in-ispa",
    ),
    pytest.param(
        {"rules": "na", "table_size": 3}, [SheetGame(1, None, ((1, "no_trick"),))],
        "bad_sheet_game", id="ramsch-with-declarer",
    ),
    pytest.param(
        {"rules": "na", "table_size": 3}, [SheetGame(None, None, ((1, "most"),))],
        "unknown_ramsch", id="unknown-ramsch",
    ),
    pytest.param(
        {"rules": "na", "table_size": 3, "penalties": [(0, -10)]}, [], "bad_seat",
        id="penalty-seat-0",
    ),
    pytest.param(
        {"rules": "na", "table_size": 3, "penalties": [(1, "-10")]}, [], "bad_type",
        id="penalty-not-int",
    ),
]
# fmt: on


@pytest.mark.parametrize(("arguments", "sheet", "code"), SERIES_ERRORS)
def test_series_errors(arguments, sheet, code):
    with pytest.raises(ScoringError) as caught:
        score_series(sheet, **arguments)
    assert caught.value.code == code


def test_list_points_for_rejects_other_tables():
    with pytest.raises(ScoringError) as caught:
        list_points_for(0, 0, 0, 0, 5)
    assert caught.value.code == "table_size_range"
