"""The money figures (money/selectors.py): fees due, the pot, the prize plan's winners,
the cash summary, lost-game fees flat and tiered per series, and the queries they take.

The worked example is the rules §2 sheet (tests/tournaments/helpers.py): lost games A 0,
B 2, C 1, D 5; standings A 1332, C 1320, B 1308, D 108. Fees: entry €10, table €1 per
series, €0.50 per lost game and €1.00 from the 4th lost game of a series (rules §4).
Prize plan: overall 1st 50 % of the pot, 2nd €5, ladies 1st €2 (B and D are ladies).
"""

from decimal import Decimal

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import DIAMONDS_LOST, GRAND_1, enter, sheet_rows
from tests.tournaments.money.helpers import PLAN, D, registration, rows_by_name, set_fees
from tournaments.draw.services import series_draw
from tournaments.models import Payment, Tournament
from tournaments.money.selectors import lost_game_fees, shares_of_pot, tournament_money
from tournaments.money.services import payment_record, prize_plan_replace
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# The worked example, to the cent
# --------------------------------------------------------------------------------------


def test_fees_due_of_the_worked_example(worked):
    rows = rows_by_name(worked)
    figures = {
        name: (r.lost_games, r.entry_fee, r.table_fees, r.lost_game_fees, r.total_due)
        for name, r in rows.items()
    }
    assert figures == {
        "Anna": (0, D("10.00"), D("1.00"), D("0.00"), D("11.00")),
        "Berta": (2, D("10.00"), D("1.00"), D("1.00"), D("12.00")),
        "Carl": (1, D("10.00"), D("1.00"), D("0.50"), D("11.50")),
        # 3 × 0.50 + 2 × 1.00 (the 4th and 5th lost games at the higher fee)
        "Dora": (5, D("10.00"), D("1.00"), D("3.50"), D("14.50")),
    }
    assert all(isinstance(r.total_due, Decimal) for r in rows.values())


def test_pot_prizes_and_remainder_of_the_worked_example(worked):
    money = tournament_money(worked)
    assert money.pot == D("45.00")  # 4 × 10.00 entry + 5.00 lost-game fees; table fees not
    lines = [(p.ranking_label, p.rank, p.player_name, p.amount, p.share) for p in money.prizes]
    assert lines == [
        ("Overall", 1, "Anna", D("22.50"), D("50.00")),
        ("Overall", 2, "Carl", D("5.00"), None),
        ("Ladies", 1, "Berta", D("2.00"), None),
    ]
    assert money.prizes_planned == D("29.50")
    assert money.remainder == D("15.50")
    assert money.shares_total == D("50.00")
    rows = rows_by_name(worked)
    assert {n: r.prizes_won for n, r in rows.items()} == {
        "Anna": D("22.50"),
        "Berta": D("2.00"),
        "Carl": D("5.00"),
        "Dora": D("0.00"),
    }


def test_cash_summary_balances_to_the_cent_after_payments(worked, secretary):
    def pay(name, kind, amount):
        payment_record(
            registration=registration(worked, name), kind=kind, amount=D(amount), user=secretary
        )

    pay("Anna", "fees", "11.00")
    pay("Anna", "prize", "22.50")
    pay("Berta", "fees", "20.00")
    pay("Berta", "refund", "5.00")
    pay("Dora", "fees", "10.00")
    money = tournament_money(worked)
    rows = {r.player_name: r for r in money.rows}
    assert {n: (r.paid, r.prizes_paid, r.balance) for n, r in rows.items()} == {
        "Anna": (D("11.00"), D("22.50"), D("0.00")),
        "Berta": (D("15.00"), D("0.00"), D("-5.00")),  # overpaid 3.00 and owed the 2.00 prize
        "Carl": (D("0.00"), D("0.00"), D("6.50")),  # owes 11.50, wins 5.00
        "Dora": (D("10.00"), D("0.00"), D("4.50")),
    }
    s = money.summary
    assert (s.entry_fees, s.table_fees, s.lost_game_fees, s.total_due) == (
        D("40.00"),
        D("4.00"),
        D("5.00"),
        D("49.00"),
    )
    assert (s.paid_in, s.refunds, s.outstanding) == (D("41.00"), D("5.00"), D("13.00"))
    assert (s.prizes_won, s.prizes_paid, s.prizes_to_pay) == (D("29.50"), D("22.50"), D("7.00"))
    assert s.cash == D("13.50")  # 41.00 − 5.00 − 22.50
    assert s.balance == D("6.00") == sum(r.balance for r in money.rows)
    # The identities the desk relies on.
    assert s.total_due == s.entry_fees + s.table_fees + s.lost_game_fees
    assert s.outstanding - s.prizes_to_pay == s.balance
    assert s.cash + s.balance == s.club_keeps == s.total_due - s.prizes_won == D("19.50")
    assert s.club_keeps == s.table_fees + money.remainder  # every prize has a winner
    # Stored signed from the cash box's view: in +, out −.
    amounts = sorted(Payment.objects.values_list("kind", "amount"))
    assert amounts == [
        ("fees", D("10.00")),
        ("fees", D("11.00")),
        ("fees", D("20.00")),
        ("prize", D("-22.50")),
        ("refund", D("-5.00")),
    ]


def test_a_player_can_win_several_prizes(worked):
    prize_plan_replace(
        tournament=worked,
        prizes=[
            *PLAN,
            {"scope": "category", "category": "ladies", "rank": 2, "amount": D("1")},
            {"scope": "series", "series_number": 1, "rank": 1, "amount": D("3")},
        ],
    )
    rows = rows_by_name(worked)
    assert [(p.ranking_label, p.rank) for p in rows["Anna"].prizes] == [
        ("Overall", 1),
        ("Series 1", 1),
    ]
    assert rows["Anna"].prizes_won == D("25.50")
    assert rows["Dora"].prizes_won == D("1.00")


def test_ranks_beyond_the_players_and_unplayed_series_have_no_winner(worked):
    prize_plan_replace(
        tournament=worked,
        prizes=[
            {"scope": "overall", "rank": 5, "amount": D("1")},
            {"scope": "series", "series_number": 2, "rank": 1, "amount": D("4")},
            {"scope": "category", "category": "youth", "rank": 1, "amount": D("2")},
        ],
    )
    money = tournament_money(worked)
    assert [p.awarded for p in money.prizes] == [False, False, False]
    assert money.unawarded == D("7.00")
    assert money.summary.prizes_won == 0


def test_no_winners_before_the_first_game(tournament, seated_series):
    seated_series(4)
    prize_plan_replace(tournament=tournament, prizes=PLAN)
    money = tournament_money(tournament)
    assert not any(p.awarded for p in money.prizes)
    assert money.pot == 0 and money.prizes[0].amount == D("0.00")


def test_share_prizes_are_shared_out_by_largest_remainder(tournament, roster):
    for player in roster(3):
        RegistrationFactory(tournament=tournament, player=player)
    set_fees(tournament, entry_fee=D("3.35"))  # pot 10.05
    prize_plan_replace(
        tournament=tournament,
        prizes=[
            {"scope": "overall", "rank": 1, "share": D("50")},  # 5.025 → 5.02
            # 3.349665 → 3.35: the larger remainder takes the one cent 83.33 % leaves over
            {"scope": "overall", "rank": 2, "share": D("33.33")},
        ],
    )
    money = tournament_money(tournament)
    assert money.pot == D("10.05")
    assert [p.amount for p in money.prizes] == [D("5.02"), D("3.35")]
    assert money.remainder == D("1.68")


def test_share_prizes_never_add_up_to_more_than_the_pot(tournament, seated_series):
    # The audit's case: 3 × €7.50 + one lost game at €0.05 = €22.55; 50/30/20 rounded half
    # up one by one gave 11.28 + 6.77 + 4.51 = 22.56 (remainder −0.01).
    table = seated_series(3).tables.get()
    set_fees(
        tournament,
        entry_fee=D("7.50"),
        table_fee=D("0"),
        lost_game_fee=D("0.05"),
        lost_game_fee_from=None,
        lost_game_fee_high=None,
    )
    enter(table, [{"declarer": 2, **DIAMONDS_LOST}])
    prize_plan_replace(
        tournament=tournament,
        prizes=[
            {"scope": "overall", "rank": 1, "share": D("50")},
            {"scope": "overall", "rank": 2, "share": D("30")},
            {"scope": "overall", "rank": 3, "share": D("20")},
        ],
    )
    money = tournament_money(tournament)
    assert money.pot == D("22.55")
    # 11.275 and 6.765 tie on the remainder: the higher-placed prize takes the cent.
    assert [p.amount for p in money.prizes] == [D("11.28"), D("6.76"), D("4.51")]
    assert money.remainder == D("0.00")


@pytest.mark.parametrize(
    ("shares", "pot", "expected"),
    [
        (["100"], "22.55", ["22.55"]),
        (["33.33", "33.33", "33.34"], "10.00", ["3.33", "3.33", "3.34"]),
        (["33.34", "33.33", "33.33"], "0.01", ["0.01", "0.00", "0.00"]),
        (["25", "25", "25", "25"], "0.03", ["0.01", "0.01", "0.01", "0.00"]),
        (["50", "50"], "99.99", ["50.00", "49.99"]),
    ],
)
def test_a_plan_of_100_percent_pays_exactly_the_pot(shares, pot, expected):
    amounts = shares_of_pot([D(s) for s in shares], D(pot))
    assert amounts == [D(e) for e in expected]
    assert sum(amounts) == D(pot)


def test_a_full_share_plan_leaves_no_remainder(worked):
    prize_plan_replace(
        tournament=worked,
        prizes=[
            {"scope": "overall", "rank": r, "share": D(s)}
            for r, s in ((1, "33.33"), (2, "33.33"), (3, "33.34"))
        ],
    )
    money = tournament_money(worked)
    assert sum(p.amount for p in money.prizes) == money.pot
    assert money.remainder == D("0.00")


def test_a_registered_player_who_never_played_wins_no_prize(tournament, seated_series):
    table = seated_series(4).tables.get()
    loser = table.seats.get(number=2).player
    enter(table, sheet_rows({2: [DIAMONDS_LOST], 3: [GRAND_1]}, 4))
    no_show = PlayerFactory(club=tournament.club, name="Nobody", category=loser.category)
    RegistrationFactory(tournament=tournament, player=no_show)
    prize_plan_replace(
        tournament=tournament,
        prizes=[
            {"scope": "overall", "rank": 4, "amount": D("2")},
            {"scope": "overall", "rank": 5, "amount": D("1")},
        ],
    )
    money = tournament_money(tournament)
    # The loser has negative points, the no-show 0: still the loser is 4th of those who
    # played, and there is no 5th.
    assert [(p.rank, p.player_id) for p in money.prizes] == [(4, loser.pk), (5, None)]
    assert next(r for r in money.rows if r.player_id == no_show.pk).prizes == []


def test_plan_beyond_the_pot_gives_a_negative_remainder(worked):
    prize_plan_replace(
        tournament=worked,
        prizes=[
            {"scope": "overall", "rank": 1, "share": D("100")},
            {"scope": "overall", "rank": 2, "amount": D("10")},
        ],
    )
    assert tournament_money(worked).remainder == D("-10.00")


# --------------------------------------------------------------------------------------
# Lost-game fees: flat and tiered, per series
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fee", "start", "high", "lost", "expected"),
    [
        ("0.50", None, None, 0, "0.00"),
        ("0.50", None, None, 5, "2.50"),  # flat
        ("0.50", 4, "1.00", 0, "0.00"),
        ("0.50", 4, "1.00", 3, "1.50"),  # the 3rd still at the low fee
        ("0.50", 4, "1.00", 4, "2.50"),  # rules §4: €1 from the 4th
        ("0.50", 4, "1.00", 5, "3.50"),  # the worked example's D
        ("0.50", 2, "1.00", 1, "0.50"),
        ("0.50", 2, "1.00", 3, "2.50"),  # from the 2nd: 0.50 + 2 × 1.00
        ("0.30", 4, "0.70", 10, "5.80"),  # 3 × 0.30 + 7 × 0.70
        ("0.00", 4, "1.00", 4, "1.00"),  # only the higher games cost
    ],
)
def test_tiered_lost_game_fee(fee, start, high, lost, expected):
    tournament = Tournament(
        lost_game_fee=D(fee),
        lost_game_fee_from=start,
        lost_game_fee_high=None if high is None else D(high),
    )
    assert lost_game_fees(tournament, lost) == D(expected)


def test_tiers_count_per_series(tournament, seated_series):
    series_1 = seated_series(4)
    set_fees(tournament)
    player = series_1.tables.get().seats.get(number=2).player
    series_2 = series_draw(tournament=tournament, seed=7)
    for series in (series_1, series_2):
        table = series.tables.get()
        seat = table.seats.get(player=player).number
        others = [s for s in (1, 2, 3, 4) if s != seat]
        enter(table, sheet_rows({seat: [DIAMONDS_LOST] * 3, others[0]: [GRAND_1] * 3}, 4))
    row = next(r for r in tournament_money(tournament).rows if r.player_id == player.pk)
    assert row.lost_by_series == {1: 3, 2: 3}
    assert row.lost_game_fees == D("3.00")  # 2 × 3 × 0.50, not 3 × 0.50 + 3 × 1.00
    assert row.table_fees == D("2.00")  # two series played


def test_overbid_and_provisional_games_count_as_lost(tournament, seated_series):
    table = seated_series(4).tables.get()
    set_fees(tournament, lost_game_fee_from=None, lost_game_fee_high=None)
    overbid = {"declarer": 2, "game": "clubs", "matadors": 1, "won": True, "bid": 30}
    game = game_record(table=table, data=overbid)
    assert game.overbid and game.is_lost
    lost = game_record(table=table, data={"declarer": 3, **DIAMONDS_LOST})
    type(lost).objects.filter(pk=lost.pk).update(provisional=True)
    rows = {r.player_id: r for r in tournament_money(tournament).rows}
    by_seat = {s.number: rows[s.player_id] for s in table.seats.all()}
    assert by_seat[2].lost_game_fees == D("0.50")
    assert by_seat[3].lost_game_fees == D("0.50")


def test_money_takes_a_bounded_number_of_queries(
    django_assert_max_num_queries, tournament, roster
):
    for p in roster(40):
        RegistrationFactory(tournament=tournament, player=p)
    series = series_draw(tournament=tournament, seed=2)
    for table in series.tables.all():
        game_record(table=table, data={"declarer": 2, **DIAMONDS_LOST})
    set_fees(tournament)
    prize_plan_replace(
        tournament=tournament,
        prizes=[*PLAN, {"scope": "series", "series_number": 1, "rank": 1, "amount": D("3")}],
    )
    for reg in tournament.registrations.all()[:10]:
        payment_record(registration=reg, kind="fees", amount=D("11"))
    # Registrations, payments, prizes, games per series, and the standings of the three
    # rankings the plan names (overall, ladies, series 1): 20 queries, whatever the players.
    with django_assert_max_num_queries(20):
        money = tournament_money(tournament)
    assert len(money.rows) == 40
    assert money.summary.paid_in == D("110.00")


def test_the_money_and_the_workbook_compute_the_standings_once(worked, monkeypatch):
    """Every ranking the prize plan names (overall, a category, a series) is taken from
    the one computation of the tournament's standings: the same rows as computed apart."""
    from tournaments.exporters.workbook import TournamentWorkbook
    from tournaments.money.selectors import tournament_money
    from tournaments.standings import selectors

    calls = []
    computed = selectors.standings_computed

    def counting(*args, **kwargs):
        calls.append(kwargs.get("category"))
        return computed(*args, **kwargs)

    ladies = [
        (row.rank, row.player_id, row.list_points)
        for row in selectors.tournament_standings(worked, category="ladies")
    ]
    taken = selectors.category_standings_from(selectors.tournament_standings(worked), "ladies")
    assert [(row.rank, row.player_id, row.list_points) for row in taken] == ladies
    monkeypatch.setattr(selectors, "standings_computed", counting)
    tournament_money(worked)
    assert calls == [None]
    TournamentWorkbook(worked, money=True).render()
    assert calls == [None, None]
