"""Series totals and Seeger-Fabian list points (rules §2, §3.5, §3.6)."""

import pytest

from scoring import (
    Bonus,
    Game,
    GameResult,
    ScoringError,
    SheetGame,
    dealer,
    list_points_for,
    ranking_key,
    score,
    score_series,
    score_sheet,
    sitting_out,
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
    """A synthetic ISPA result: only score and won matter to the series (an ISPA result
    always carries list points, an NA one never does)."""
    return GameResult(abs(game_score), game_score, won, False, 0, 0, None, None)


def _na_result(game_score, won):
    """A synthetic NA result (no list points, rules §3.6)."""
    return GameResult(abs(game_score), game_score, won, False, None, None, None, None)


def _deal(games_by_seat, table_size=4):
    """Sheet rows (seat, game) in deal order: no seat declares a deal it sits out (rules §4)."""
    queues = {seat: list(games) for seat, games in games_by_seat.items()}
    rows = []
    for number in range(1, sum(map(len, queues.values())) + 1):
        out = sitting_out(number, table_size)
        seat = max((s for s in queues if s not in out and queues[s]), key=lambda s: len(queues[s]))
        rows.append((seat, queues[seat].pop(0)))
    return rows


def _worked_sheet():
    """48 deals whose per-seat game points / won / lost are the rules §2 example."""
    figures = {1: (492, 12, 0), 2: (628, 12, 2), 3: (660, 10, 1), 4: (-32, 6, 5)}
    results = {}
    for seat, (points, won, lost) in figures.items():
        lost_scores = [-48] * lost
        won_scores = [24] * (won - 1)
        last = points - sum(lost_scores) - sum(won_scores)
        results[seat] = [_result(s, True) for s in [*won_scores, last]]
        results[seat] += [_result(s, False) for s in lost_scores]
    return [SheetGame(seat, result) for seat, result in _deal(results)]


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
        SheetGame(1, _na_result(-40, False)),  # seat 1: 0 won, 1 lost
        SheetGame(2, _na_result(100, True)),
        SheetGame(3, _na_result(100, True)),
        SheetGame(3, _na_result(-40, False)),
    ]
    totals = score_series(sheet, rules="na", table_size=3)
    ranked = sorted(totals.values(), key=ranking_key)
    assert [(t.seat, t.list_points) for t in ranked] == [(2, 100), (3, 60), (1, -40)]
    tied = score_series(
        [SheetGame(1, _na_result(60, True)), SheetGame(2, _na_result(-60, False)),
         SheetGame(2, _na_result(120, True))],
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
    # Deal 1 is seat 1's and deal 2 seat 2's (rules §4): they declare deals 2 and 3.
    totals = score_series(
        [SheetGame(2, lost), SheetGame(1, won)], rules="ispa", table_size=4, bonus=bonus
    )
    assert [t.list_points for t in totals.values()] == [20 + 10 + 40, -40 - 20, 40, 40]


def test_na_ramsch_and_penalties():
    # rules §3.5: Ramsch scores the seats described and is no game won or lost;
    # rules §3.6: plain sheet totals, penalties are point fines per player.
    solo = score(Game("na", "solo", trump="hearts", matadors=3, card_points=95))
    sheet = [  # the dealers 1, 2, 3 sit out (rules §4)
        SheetGame(None, None, ramsch=((3, "all_tricks"),)),
        SheetGame(1, solo),
        SheetGame(None, None, ramsch=((2, "no_trick"),)),
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


ISPA3 = {"rules": "ispa", "table_size": 3}
ISPA4 = {"rules": "ispa", "table_size": 4}
NA3 = {"rules": "na", "table_size": 3}
PASSED = score(Game("ispa", "passed"))
RAMSCH = score(Game("na", "ramsch", ramsch="no_trick"))


def _sheet_message(number, reason):
    return f"game {number} of the sheet is not valid: {reason}"


# (arguments, sheet, code, message)
# fmt: off
SERIES_ERRORS = [
    # rules §4: ISPA tables have 3 or 4 seats; rules §3.6: NA 3, 4 or 5.
    pytest.param({"rules": "ispa", "table_size": 5}, [], "series_table_size",
                 "table_size must be between 3 and 4 for ispa rules", id="ispa-5"),
    pytest.param({"rules": "na", "table_size": 6}, [], "series_table_size",
                 "table_size must be between 3 and 5 for na rules", id="na-6"),
    pytest.param({"rules": "skat", "table_size": 3}, [], "unknown_rules",
                 "unknown rules 'skat': use 'ispa' or 'na'", id="rules"),
    pytest.param(ISPA3, [SheetGame(4, _result(20, True))], "bad_seat",
                 "seat 4 is not a seat at a table of 3", id="seat-4-at-3-table"),
    pytest.param(ISPA3, [SheetGame(1, None)], "bad_sheet_game",
                 _sheet_message(1, "a declarer needs a result"), id="declarer-without-result"),
    pytest.param(ISPA3, [SheetGame(None, _result(20, True))], "bad_sheet_game",
                 _sheet_message(1, "a result needs a declarer"), id="result-without-declarer"),
    # rules §1.6: a passed-in deal has no declarer (it used to say "needs a result").
    pytest.param(ISPA3, [SheetGame(2, PASSED)], "bad_sheet_game",
                 _sheet_message(1, "a passed-in deal has no declarer"),
                 id="declarer-with-passed-result"),
    # rules §4: at a 4-table the dealer of game n, seat (n − 1) % 4 + 1, sits out.
    pytest.param(ISPA4, [SheetGame(1, _result(20, True))], "sitting_out",
                 "game 1 of the sheet: seat 1 has no cards in this deal (it deals, and the "
                 "dealer sits out at a table of 4)", id="dealer-declares-game-1"),
    pytest.param(ISPA4, [SheetGame(None, PASSED)] * 6 + [SheetGame(3, _result(20, True))],
                 "sitting_out",
                 "game 7 of the sheet: seat 3 has no cards in this deal (it deals, and the "
                 "dealer sits out at a table of 4)", id="dealer-declares-game-7"),
    # Foster 1909: at a table of 5 the dealer deals to two on his left and one on his
    # right, so in deal 1 seats 1 (dealer) and 4 have no cards.
    pytest.param({"rules": "na", "table_size": 5}, [SheetGame(4, _na_result(20, True))],
                 "sitting_out",
                 "game 1 of the sheet: seat 4 has no cards in this deal (at a table of 5 the "
                 "seat third after the dealer sits out too)", id="na-5-table-fourth-seat"),
    pytest.param({"rules": "na", "table_size": 5},
                 [SheetGame(None, None, ((seat, "no_trick"),)) for seat in (2, 3, 3)],
                 "sitting_out",
                 "game 3 of the sheet: seat 3 has no cards in this deal (it deals, and the "
                 "dealer sits out at a table of 5)", id="na-5-table-ramsch-dealer"),
    # Results of the other rule set (an ISPA result carries list points, an NA one not).
    pytest.param(ISPA3, [SheetGame(1, _na_result(20, True))], "bad_sheet_game",
                 _sheet_message(1, "it is an na result in an ispa series"),
                 id="na-result-in-ispa"),
    pytest.param(NA3, [SheetGame(1, _result(20, True))], "bad_sheet_game",
                 _sheet_message(1, "it is an ispa result in an na series"),
                 id="ispa-result-in-na"),
    pytest.param(NA3, [SheetGame(None, PASSED)], "bad_sheet_game",
                 _sheet_message(1, "it is an ispa result in an na series"),
                 id="ispa-passed-in-na"),
    pytest.param(ISPA3, [SheetGame(None, RAMSCH)], "bad_sheet_game",
                 _sheet_message(1, "it is an na result in an ispa series"),
                 id="na-ramsch-result-in-ispa"),
    # rules §3.5: an NA Ramsch result is not a passed-in deal (it used to count as one).
    pytest.param(NA3, [SheetGame(None, RAMSCH)], "bad_sheet_game",
                 _sheet_message(1, "a Ramsch result goes in ramsch, as (seat, outcome)"),
                 id="ramsch-result-as-game"),
    pytest.param(NA3, [SheetGame(2, RAMSCH)], "bad_sheet_game",
                 _sheet_message(1, "a Ramsch result goes in ramsch, as (seat, outcome)"),
                 id="ramsch-result-with-declarer"),
    # rules §3.5 (NA law 14): when everyone passes, a Ramsch is played.
    pytest.param(NA3, [SheetGame(None, None)], "bad_sheet_game",
                 _sheet_message(1, "na has no passed-in deal: when all pass, Ramsch is played"),
                 id="na-passed-in"),
    # rules §1.6: no Ramsch in ispa.
    pytest.param(ISPA3, [SheetGame(None, None, ((1, "no_trick"),))], "bad_sheet_game",
                 _sheet_message(1, "ispa has no Ramsch"), id="ramsch-in-ispa"),
    pytest.param(NA3, [SheetGame(1, None, ((1, "no_trick"),))], "bad_sheet_game",
                 _sheet_message(1, "a Ramsch has no declarer and no scored result"),
                 id="ramsch-with-declarer"),
    pytest.param(NA3, [SheetGame(None, None, ((1, "most"),))], "unknown_ramsch",
                 "unknown ramsch result 'most': use one of fewest_points, no_trick, all_tricks",
                 id="unknown-ramsch"),
    pytest.param({**NA3, "penalties": [(0, -10)]}, [], "bad_seat",
                 "seat 0 is not a seat at a table of 3", id="penalty-seat-0"),
    pytest.param({**NA3, "penalties": [(1, "-10")]}, [], "bad_type",
                 "penalty points must be an integer", id="penalty-not-int"),
]
# fmt: on


@pytest.mark.parametrize(("arguments", "sheet", "code", "message"), SERIES_ERRORS)
def test_series_errors(arguments, sheet, code, message):
    with pytest.raises(ScoringError) as caught:
        score_series(sheet, **arguments)
    assert (caught.value.code, str(caught.value)) == (code, message)


def test_penalty_may_go_to_the_dealer():
    # Foster 1909, NA penalty 3: "If a dealer looks at either of the Skat cards ... he
    # shall be charged ten points": fines are not deals, the dealer can get one.
    totals = score_series([], rules="na", table_size=4, penalties=[(1, -10)])
    assert totals[1].game_points == -10


@pytest.mark.parametrize(
    ("number", "table_size", "deals"),
    [
        (1, 3, 1), (2, 3, 2), (3, 3, 3), (4, 3, 1), (36, 3, 3),  # rules §4: seat 1 deals game 1
        (1, 4, 1), (4, 4, 4), (5, 4, 1), (48, 4, 4),  # and the deal passes on
        (5, 5, 5), (6, 5, 1),  # Foster 1909: "taking turns" at a table of five
    ],
)  # fmt: skip
def test_the_deal_passes_on_from_seat_1(number, table_size, deals):
    assert dealer(number, table_size) == deals
    if table_size > 3:
        assert deals in sitting_out(number, table_size)


def test_sitting_out():
    # rules §4: dealer (n − 1) % 4 + 1 sits out at a 4-table; nobody at a 3-table.
    assert [sorted(sitting_out(n, 4)) for n in (1, 2, 4, 5, 48)] == [[1], [2], [4], [1], [4]]
    assert sitting_out(7, 3) == frozenset()
    # Foster 1909 at 5: the dealer and the seat third after him (his second on the right).
    assert [sorted(sitting_out(n, 5)) for n in (1, 2, 3, 4, 5, 6)] == [
        [1, 4], [2, 5], [1, 3], [2, 4], [3, 5], [1, 4],
    ]  # fmt: skip


def test_list_points_for_rejects_other_tables():
    with pytest.raises(ScoringError) as caught:
        list_points_for(0, 0, 0, 0, 5)
    assert caught.value.code == "table_size_range"


def _ispa(game, **fields):
    return Game("ispa", game, **fields)


# rules §2, the worked 4-table series from declared games. Each seat's games are real ISPA
# games whose scores give its figures:
# A: 11 × clubs with 2 (36) + grand with 3 (96) = +492, 12 won;
# B: 10 × grand with 1 (48) + grand with 4 (120) + hearts with 8 hand (100) = 700, and
#    2 × diamonds with 1 lost (−36) → +628, 12 won, 2 lost;
# C: 8 × grand with 2 (72) + grand with 1 (48) + hearts with 7 (80) = 704, and spades with
#    1 lost (−44) → +660, 10 won, 1 lost;
# D: 5 × hearts with 1 (20) + grand with 1 (48) = 148, and 5 × diamonds with 1 lost (−36)
#    → −32, 6 won, 5 lost.
WORKED_GAMES = {
    1: [{"game": "clubs", "matadors": 2, "card_points": 75}] * 11
    + [{"game": "grand", "matadors": 3, "card_points": 70, "bid": 96}],
    2: [_ispa("grand", matadors=1, card_points=80)] * 10
    + [
        _ispa("grand", matadors=4, card_points=85, bid=120),
        _ispa("hearts", matadors=8, hand=True, card_points=70),
    ]
    + [_ispa("diamonds", matadors=1, card_points=50)] * 2,
    3: [_ispa("grand", matadors=2, without=True, card_points=66)] * 8
    + [_ispa("grand", matadors=1, won=True), _ispa("hearts", matadors=7, card_points=88)]
    + [_ispa("spades", matadors=1, card_points=45, table_size=4)],
    4: [_ispa("hearts", matadors=1, card_points=61)] * 5
    + [_ispa("grand", matadors=1, card_points=61)]
    + [_ispa("diamonds", matadors=1, without=True, won=False)] * 5,
}


def test_worked_series_from_declared_games():
    # rules §2: A +492/12/0, B +628/12/2, C +660/10/1, D −32/6/5 → A 1332, C 1320,
    # B 1308, D 108; rules §4: 48 deals, the dealer never declares.
    rows = _deal(WORKED_GAMES)
    assert len(rows) == 48
    totals = score_sheet(rows, rules="ispa", table_size=4)
    assert [
        (t.game_points, t.won, t.lost, t.others_lost, t.list_points) for t in totals.values()
    ] == [
        (492, 12, 0, 8, 1332),
        (628, 12, 2, 6, 1308),
        (660, 10, 1, 7, 1320),
        (-32, 6, 5, 3, 108),
    ]
    assert [t.seat for t in sorted(totals.values(), key=ranking_key)] == [1, 3, 2, 4]


def test_sheet_of_declared_games_agrees_with_per_game_list_points():
    # rules §2: per game, declarer ± 50 and each other player 40 when he loses.
    rows = [
        (2, {"game": "grand", "matadors": 2, "card_points": 80}),
        (None, {"game": "passed"}),
        (3, {"game": "clubs", "matadors": 1, "card_points": 70, "bid": 30}),  # overbid
        (1, Game("ispa", "null", ouvert=True, won=False)),
    ]
    totals = score_sheet(rows, rules="ispa", table_size=3)
    assert [(t.game_points, t.won, t.lost, t.list_points) for t in totals.values()] == [
        (-92, 0, 1, -92 - 50 + 40),
        (72, 1, 0, 72 + 50 + 40 + 40),
        (-72, 0, 1, -72 - 50 + 40),
    ]


def test_na_sheet_with_ramsch_at_a_table_of_five():
    # rules §3.5, §3.6: plain totals; the Ramsch seat is the one the result describes.
    rows = [
        (2, {"game": "solo", "trump": "hearts", "matadors": 3, "card_points": 95}),
        (3, Game("na", "ramsch", ramsch="no_trick")),
        (2, Game("na", "null", won=False, bid=24, table_size=5)),  # overbid: −40
    ]
    totals = score_sheet(rows, rules="na", table_size=5, penalties=[(1, -10)])
    assert [(t.game_points, t.won, t.lost, t.list_points) for t in totals.values()] == [
        (-10, 0, 0, -10),
        (50 - 40, 1, 1, 10),
        (20, 0, 0, 20),
        (0, 0, 0, 0),
        (0, 0, 0, 0),
    ]


# (arguments, rows, message): every error names the game of the sheet.
# fmt: off
SHEET_ERRORS = [
    pytest.param(ISPA4, [(1, {"game": "grand", "matadors": 1, "won": True})],
                 "game 1 of the sheet: seat 1 has no cards in this deal (it deals, and the "
                 "dealer sits out at a table of 4)", id="dealer-declares"),
    pytest.param(ISPA3, [(1, {"game": "clubs", "matadors": 12, "won": True})],
                 _sheet_message(1, "matadors must be between 1 and 11 for a suit game"),
                 id="invalid-game"),
    pytest.param(ISPA3, [(2, Game("na", "null", won=True))],
                 _sheet_message(1, "it is a game of rules 'na' in an ispa sheet"),
                 id="na-game-in-ispa-sheet"),
    pytest.param(NA3, [(2, {"rules": "ispa", "game": "null", "won": True})],
                 _sheet_message(1, "it is a game of rules 'ispa' in an na sheet"),
                 id="ispa-mapping-in-na-sheet"),
    pytest.param(ISPA3, [(2, Game("ispa", "null", won=True, table_size=4))],
                 _sheet_message(1, "it is for a table of 4, not 3"), id="game-table-size"),
    pytest.param(ISPA4, [(2, {"game": "null", "won": True, "table_size": 3})],
                 _sheet_message(1, "it is for a table of 3, not 4"), id="mapping-table-size"),
    pytest.param(ISPA3, [(1, {"game": "passed"})],
                 _sheet_message(1, "a passed-in deal has no declarer"), id="passed-with-seat"),
    pytest.param(NA3, [(None, Game("na", "ramsch", ramsch="no_trick"))],
                 _sheet_message(1, "a Ramsch needs the seat it scores"), id="ramsch-no-seat"),
    pytest.param(ISPA3, [(None, {"game": "null", "won": True})],
                 _sheet_message(1, "a result needs a declarer"), id="game-without-seat"),
    pytest.param(ISPA3, [(2, {"game": "grand", "matadors": 1, "card_points": 95,
                              "schneider": False})],
                 _sheet_message(1, "schneider is false, but card_points 95 make it true"),
                 id="explicit-schneider-false"),
    pytest.param(ISPA3, [(2, ["grand"])], _sheet_message(1, "a game must be a JSON object"),
                 id="not-a-mapping"),
    pytest.param(ISPA3, [Game("ispa", "passed")],
                 _sheet_message(1, "a row is (declarer seat, game)"), id="not-a-pair"),
]
# fmt: on


@pytest.mark.parametrize(("arguments", "rows", "message"), SHEET_ERRORS)
def test_sheet_errors(arguments, rows, message):
    with pytest.raises(ScoringError) as caught:
        score_sheet(rows, **arguments)
    assert str(caught.value) == message
