"""Money: fees due, the pot, the prize plan and its winners, payments, the cash summary.

The worked example is the rules §2 sheet (tests/tournaments/helpers.py): lost games A 0,
B 2, C 1, D 5; standings A 1332, C 1320, B 1308, D 108. Fees: entry €10, table €1 per
series, €0.50 per lost game and €1.00 from the 4th lost game of a series (rules §4).
Prize plan: overall 1st 50 % of the pot, 2nd €5, ladies 1st €2 (B and D are ladies).
"""

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import DIAMONDS_LOST, GRAND_1, WORKED_EXAMPLE, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.exporters.prizes import PrizeListPdf
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.formats import format_money
from tournaments.models import Category, Payment, Prize, Tournament
from tournaments.money.forms import PrizePlanError, parse_prize_plan, prize_plan_text
from tournaments.money.selectors import cents, lost_game_fees, shares_of_pot, tournament_money
from tournaments.money.services import (
    _prize_note,
    payment_delete,
    payment_record,
    payment_settle,
    prize_plan_replace,
    tournament_money_update,
)
from tournaments.sheets.services import game_record

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db

D = Decimal
NAMES = {1: "Anna", 2: "Berta", 3: "Carl", 4: "Dora"}
PLAN = [
    {"scope": "overall", "rank": 1, "share": D("50")},
    {"scope": "overall", "rank": 2, "amount": D("5")},
    {"scope": "category", "category": "ladies", "rank": 1, "amount": D("2")},
]


def set_fees(tournament, **overrides):
    """The worked example's fees (overridable); `tournament` is refreshed."""
    fees = {
        "entry_fee": D("10"),
        "table_fee": D("1"),
        "lost_game_fee": D("0.50"),
        "lost_game_fee_from": 4,
        "lost_game_fee_high": D("1.00"),
        **overrides,
    }
    tournament_money_update(tournament=tournament, **fees)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def worked(tournament, seated_series):
    """The rules §2 sheet entered, seats 1–4 named A–D; B and D are ladies; fees and plan set."""
    table = seated_series(4).tables.get()
    for seat in table.seats.select_related("player"):
        seat.player.name = NAMES[seat.number]
        seat.player.category = Category.LADIES if seat.number in (2, 4) else ""
        seat.player.save()
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    set_fees(tournament)
    prize_plan_replace(tournament=tournament, prizes=PLAN)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English (a German request leaves its language active)."""
    with translation.override("en"):
        yield


def rows_by_name(tournament):
    return {row.player_name: row for row in tournament_money(tournament).rows}


def registration(tournament, name):
    return tournament.registrations.get(player__name=name)


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


def test_settling_every_player_leaves_what_the_club_keeps(worked, secretary):
    for reg in worked.registrations.all():
        payment_settle(registration=reg, user=secretary)
    money = tournament_money(worked)
    assert all(row.balance == 0 for row in money.rows)
    assert money.summary.outstanding == money.summary.prizes_to_pay == 0
    assert money.summary.cash == D("19.50")
    with pytest.raises(UserError, match="owes nothing"):
        payment_settle(registration=registration(worked, "Anna"))


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


def test_a_prize_payment_note_is_cut_after_a_whole_title(worked):
    # The note names the prizes settled at once, as far as its 120 characters go.
    anna = next(r for r in tournament_money(worked).rows if r.player_name == "Anna")
    assert _prize_note(anna.prizes) == "1. Overall"
    note = _prize_note(anna.prizes * 20)
    assert len(note) <= 120 and note.endswith("1. Overall…")
    registration = worked.registrations.get(player_id=anna.player_id)
    [_fees, prize] = payment_settle(registration=registration)
    assert prize.note == "1. Overall"


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


# --------------------------------------------------------------------------------------
# Mistakes are refused with a message and nothing is written
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"entry_fee": D("-1")}, "cannot be negative"),
        ({"lost_game_fee_high": D("-1"), "lost_game_fee_from": 4}, "cannot be negative"),
        ({"lost_game_fee_from": 1, "lost_game_fee_high": D("1")}, "2nd lost game or later"),
        ({"lost_game_fee_from": 4, "lost_game_fee_high": None}, "higher fee that applies"),
        ({"lost_game_fee_from": None, "lost_game_fee_high": D("1")}, "from which lost game"),
        ({"currency": "EURO"}, "three-letter code"),
        ({"entry_fee": D("1.005")}, "decimal places"),
        ({"entry_fee": "ten"}, "not an amount"),
    ],
)
def test_invalid_fee_settings_are_refused(tournament, fields, message):
    set_fees(tournament)
    before = Tournament.objects.values().get(pk=tournament.pk)
    with pytest.raises(UserError, match=message):
        tournament_money_update(tournament=tournament, **fields)
    assert Tournament.objects.values().get(pk=tournament.pk) == before


def test_fees_are_never_floats(tournament):
    with pytest.raises(TypeError):
        tournament_money_update(tournament=tournament, entry_fee=0.5)
    with pytest.raises(TypeError):
        cents(0.1)


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ([{"scope": "overall", "rank": 1, "amount": D("5"), "share": D("10")}], "not both"),
        ([{"scope": "overall", "rank": 1}], "fixed amount or a share"),
        ([{"scope": "overall", "rank": 0, "amount": D("5")}], "rank is a whole number"),
        ([{"scope": "overall", "rank": 1, "amount": D("0")}], "above zero"),
        ([{"scope": "overall", "rank": 1, "share": D("120")}], "at most 100"),
        (
            [
                {"scope": "overall", "rank": 1, "share": D("60")},
                {"scope": "overall", "rank": 2, "share": D("45")},
            ],
            "add up to 105",
        ),
        (
            [
                {"scope": "overall", "rank": 1, "amount": D("5")},
                {"scope": "overall", "rank": 1, "amount": D("3")},
            ],
            "Line 2: Overall, rank 1 is already on line 1",
        ),
        ([{"scope": "series", "rank": 1, "amount": D("5")}], "name the series"),
        ([{"scope": "category", "category": "kids", "rank": 1, "amount": D("5")}], "category"),
        ([{"scope": "overall", "series_number": 2, "rank": 1, "amount": D("5")}], "neither"),
        ([{"scope": "team", "rank": 1, "amount": D("5")}], "choose the overall"),
        ([{"scope": "overall", "rank": 1, "amount": D("1.999")}], "decimal places"),
    ],
)
def test_invalid_prize_plans_are_refused_and_the_old_plan_stays(worked, plan, message):
    with pytest.raises(UserError, match=message):
        prize_plan_replace(tournament=worked, prizes=plan)
    assert Prize.objects.filter(tournament=worked).count() == 3


@pytest.mark.parametrize(
    ("kind", "amount", "message"),
    [("fees", D("0"), "above zero"), ("fees", D("-3"), "above zero"), ("tip", D("1"), "Unknown")],
)
def test_invalid_payments_are_refused(worked, kind, amount, message):
    with pytest.raises(UserError, match=message):
        payment_record(registration=registration(worked, "Anna"), kind=kind, amount=amount)
    assert not Payment.objects.exists()


def test_deleting_a_payment_restores_the_balance(worked):
    reg = registration(worked, "Dora")
    payment = payment_record(registration=reg, kind="fees", amount=D("14.50"))
    assert rows_by_name(worked)["Dora"].balance == 0
    payment_delete(payment=payment)
    assert rows_by_name(worked)["Dora"].balance == D("14.50")


# --------------------------------------------------------------------------------------
# The prize plan as text
# --------------------------------------------------------------------------------------


def test_prize_plan_text_is_parsed_in_english_and_german():
    text = """
        overall #1: 50%
        Gesamt 2: 5,00 €
        -- a comment
        serie 2 #1: 10
        damen #1: 2.50
        youth 1 = 2
        Senioren #1: €1,5
    """
    prizes = parse_prize_plan(text)
    assert [
        (p["scope"], p["series_number"], p["category"], p["rank"], p["amount"], p["share"])
        for p in prizes
    ] == [
        ("overall", 0, "", 1, None, D("50")),
        ("overall", 0, "", 2, D("5.00"), None),
        ("series", 2, "", 1, D("10"), None),
        ("category", 0, "ladies", 1, D("2.50"), None),
        ("category", 0, "youth", 1, D("2"), None),
        ("category", 0, "seniors", 1, D("1.5"), None),
    ]
    assert [p["line"] for p in prizes] == [2, 3, 5, 6, 7, 8]


def test_prize_plan_text_names_every_bad_line():
    with pytest.raises(PrizePlanError) as error:
        parse_prize_plan("overall #1: 50%\nbest 1: 5\nseries #1: 3\noverall 2: 1.000,00\nfoo")
    lines = str(error.value).splitlines()
    assert [line.split(":")[0] for line in lines] == ["Line 2", "Line 3", "Line 4", "Line 5"]
    assert "“best” is not a ranking" in lines[0]
    assert "name the series and the rank" in lines[1]
    assert "not an amount" in lines[2]


@pytest.mark.parametrize("language", ["en", "de"])
def test_prize_plan_text_round_trips(worked, language):
    prize_plan_replace(
        tournament=worked,
        prizes=[*PLAN, {"scope": "series", "series_number": 1, "rank": 1, "share": D("12.5")}],
    )
    with translation.override(language):
        text = prize_plan_text(worked.prizes.all())
        prizes = parse_prize_plan(text)
    if language == "de":
        assert "gesamt #1: 50%" in text and "damen #1: 2,00" in text
    else:
        assert text.splitlines() == [
            "overall #1: 50%",
            "overall #2: 5.00",
            "series 1 #1: 12.5%",
            "ladies #1: 2.00",
        ]
    prize_plan_replace(tournament=worked, prizes=prizes)
    assert prize_plan_text(worked.prizes.all()) == prize_plan_text(worked.prizes.all())
    assert worked.prizes.count() == 4


@pytest.mark.parametrize(
    ("language", "amount", "currency", "text"),
    [
        ("de", "1.5", "EUR", "1,50\u00a0€"),
        ("en", "1.5", "EUR", "€1.50"),
        ("de", "-1234.5", "EUR", "−1.234,50\u00a0€"),
        ("en", "-1234.5", "EUR", "−€1,234.50"),
        ("en", "3", "CHF", "CHF\u00a03.00"),
        ("en", "3", "USD", "$3.00"),
    ],
)
def test_amounts_are_written_as_the_language_does(language, amount, currency, text):
    with translation.override(language):
        assert format_money(D(amount), currency) == text


# --------------------------------------------------------------------------------------
# Pages and permissions
# --------------------------------------------------------------------------------------


def money_urls(tournament):
    slug = tournament.slug
    return [
        reverse("manage:money", kwargs={"tournament": slug}),
        reverse("manage:money_prizes_pdf", kwargs={"tournament": slug}),
        reverse("manage:money_workbook", kwargs={"tournament": slug}),
    ]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", 200)],
)
def test_money_pages_are_for_the_clubs_secretaries(who, status, request, client_for, worked):
    client = client_for(request.getfixturevalue(who))
    for url in money_urls(worked):
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(reverse("login"))
    reg = registration(worked, "Anna")
    posts = [
        (reverse("manage:money_pay", args=[worked.slug, reg.pk]), {"kind": "fees", "amount": "5"}),
        (reverse("manage:money_settle", args=[worked.slug, reg.pk]), {}),
        (reverse("manage:money_settings", args=[worked.slug]), {"fees-currency": "USD"}),
        (reverse("manage:money_prizes", args=[worked.slug]), {"prizes-plan": ""}),
    ]
    if status != 200:
        for url, data in posts:
            assert client.post(url, data).status_code == status, url
        assert not Payment.objects.exists()
        assert worked.prizes.count() == 3
        assert Tournament.objects.get(pk=worked.pk).currency == "EUR"


def test_money_page_shows_the_figures(client_for, secretary, worked):
    response = client_for(secretary).get(reverse("manage:money", args=[worked.slug]))
    text = response.content.decode()
    for figure in ("€45.00", "€15.50", "€22.50", "€14.50", "€49.00", "overall #1: 50%"):
        assert figure in text, figure
    manage = client_for(secretary).get(reverse("manage:tournament", args=[worked.slug]))
    assert reverse("manage:money", args=[worked.slug]) in manage.content.decode()


def test_money_page_in_german(client_for, secretary, worked):
    with translation.override("de"):
        url = reverse("manage:money", args=[worked.slug])
    assert url.startswith("/de/")
    text = client_for(secretary).get(url).content.decode()
    assert "45,00\u00a0€" in text and "gesamt #1: 50%" in text
    assert 'value="14,50"' in text  # Dora's open fees, prefilled as German writes them


def test_quick_payment_and_settle_from_the_page(client_for, secretary, worked):
    client = client_for(secretary)
    reg = registration(worked, "Dora")
    url = reverse("manage:money_pay", args=[worked.slug, reg.pk])
    response = client.post(url, {"kind": "fees", "amount": "10.00", "note": "cash"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#r{reg.pk}")
    assert rows_by_name(worked)["Dora"].balance == D("4.50")
    client.post(url, {"kind": "fees", "amount": "abc"})
    assert Payment.objects.count() == 1
    client.post(reverse("manage:money_settle", args=[worked.slug, reg.pk]))
    assert rows_by_name(worked)["Dora"].balance == 0
    payment = Payment.objects.first()
    client.post(reverse("manage:money_payment_delete", args=[worked.slug, payment.pk]))
    assert not Payment.objects.filter(pk=payment.pk).exists()


def test_fees_form_saves_and_shows_mistakes(client_for, secretary, worked):
    client = client_for(secretary)
    url = reverse("manage:money_settings", args=[worked.slug])
    data = {
        "fees-currency": "eur",
        "fees-entry_fee": "12",
        "fees-table_fee": "0",
        "fees-lost_game_fee": "0.50",
        "fees-lost_game_fee_from": "",
        "fees-lost_game_fee_high": "",
    }
    assert client.post(url, data).status_code == 302
    worked.refresh_from_db()
    assert (worked.entry_fee, worked.lost_game_fee_from, worked.currency) == (D("12"), None, "EUR")
    response = client.post(url, {**data, "fees-entry_fee": "15", "fees-lost_game_fee_from": "4"})
    assert response.status_code == 200
    assert "higher fee that applies from lost game no. 4" in response.content.decode()
    worked.refresh_from_db()
    assert worked.entry_fee == D("12")


def test_german_fees_take_a_decimal_comma(client_for, secretary, worked):
    client = client_for(secretary)
    with translation.override("de"):
        url = reverse("manage:money_settings", args=[worked.slug])
    data = {
        "fees-currency": "EUR",
        "fees-entry_fee": "12,50",
        "fees-table_fee": "1",
        "fees-lost_game_fee": "0,50",
        "fees-lost_game_fee_from": "4",
        "fees-lost_game_fee_high": "1,00",
    }
    assert client.post(url, data).status_code == 302
    worked.refresh_from_db()
    assert worked.entry_fee == D("12.50")


def test_prize_plan_form_saves_and_keeps_the_text_on_mistakes(client_for, secretary, worked):
    client = client_for(secretary)
    url = reverse("manage:money_prizes", args=[worked.slug])
    response = client.post(url, {"prizes-plan": "overall #1: 60%\nladies #1: 3,00"})
    assert response.status_code == 302
    assert [(p.scope, p.share, p.amount) for p in worked.prizes.order_by("scope")] == [
        ("category", None, D("3.00")),
        ("overall", D("60.00"), None),
    ]
    bad = "overall #1: 60%\noverall #2: 50%\nladies 1 3"
    response = client.post(url, {"prizes-plan": bad})
    text = response.content.decode()
    assert response.status_code == 200
    assert "Line 3:" in text and "overall #2: 50%" in text
    response = client.post(url, {"prizes-plan": "overall #1: 60%\noverall #2: 50%"})
    assert "add up to 110" in response.content.decode()
    assert worked.prizes.count() == 2


# --------------------------------------------------------------------------------------
# Prize list PDF and the workbook
# --------------------------------------------------------------------------------------


def pdf_text(content: bytes) -> str:
    assert content.startswith(b"%PDF-")
    pages = pypdf.PdfReader(io.BytesIO(content)).pages
    return "\n".join(page.extract_text(extraction_mode="layout") for page in pages)


def test_prize_list_pdf_has_the_prize_lines_and_the_pot(worked):
    text = pdf_text(PrizeListPdf(worked).render())
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "1. Anna 1332 50% €22.50" in lines
    assert "2. Carl 1320 €5.00" in lines
    assert "1. Berta 1308 €2.00" in lines
    for label in ("Prize list", "Overall", "Ladies", "Provisional"):
        assert label in text
    assert "Pot €45.00" in lines
    assert "Remainder for the club €15.50" in lines


def test_prize_list_pdf_download(client_for, secretary, worked):
    response = client_for(secretary).get(reverse("manage:money_prizes_pdf", args=[worked.slug]))
    assert response["Content-Type"] == "application/pdf"
    assert "Anna" in pdf_text(response.content)


def money_sheet(tournament, *, money=True):
    workbook = load_workbook(io.BytesIO(TournamentWorkbook(tournament, money=money).render()))
    return workbook, workbook["Money"] if "Money" in workbook.sheetnames else None


def test_workbook_money_sheet_matches_the_selector(worked):
    payment_record(registration=registration(worked, "Dora"), kind="fees", amount=D("10"))
    _workbook, ws = money_sheet(worked)
    money = tournament_money(worked)
    rows = list(ws.iter_rows(min_row=2, max_row=len(money.rows) + 2, values_only=True))

    def cents(value):
        return D(str(value)).quantize(D("0.01"))

    for row, values in zip(money.rows, rows, strict=False):
        assert values[0] == row.player_name
        assert values[4] == row.lost_games
        assert [cents(v) for v in values[5:13]] == [
            row.entry_fee,
            row.table_fees,
            row.lost_game_fees,
            row.total_due,
            row.paid,
            row.prizes_won,
            row.prizes_paid,
            row.balance,
        ]
    total = rows[len(money.rows)]
    assert total[0] == "Total"
    assert cents(total[8]) == D("49.00") and cents(total[12]) == money.summary.balance
    assert ws.cell(row=2, column=6).number_format == "#,##0.00"
    labels = {r[0]: r[5] for r in ws.iter_rows(values_only=True) if r and r[0]}
    assert cents(labels["Pot (entry fees + lost-game fees)"]) == D("45.00")
    assert cents(labels["Cash in the box"]) == D("10.00")


def test_money_sheet_only_for_the_secretaries_and_only_with_money(worked, club):
    workbook, ws = money_sheet(worked, money=False)
    assert ws is None  # the public workbook says nothing about money
    plain = TournamentFactory(club=club)
    RegistrationFactory(tournament=plain, player=PlayerFactory(club=club))
    _workbook, ws = money_sheet(plain)
    assert ws is None
