"""The money services (money/services.py): settling payments, the prize note, and every
mistake in fees, prize plans and payments refused with a message, nothing written."""

import pytest

from tests.tournaments.money.helpers import D, registration, rows_by_name, set_fees
from tournaments.errors import UserError
from tournaments.models import Payment, Prize, Tournament
from tournaments.money.selectors import cents, tournament_money
from tournaments.money.services import (
    _prize_note,
    payment_delete,
    payment_record,
    payment_settle,
    prize_plan_replace,
    tournament_money_update,
)

pytestmark = pytest.mark.django_db


def test_settling_every_player_leaves_what_the_club_keeps(worked, secretary):
    for reg in worked.registrations.all():
        payment_settle(registration=reg, user=secretary)
    money = tournament_money(worked)
    assert all(row.balance == 0 for row in money.rows)
    assert money.summary.outstanding == money.summary.prizes_to_pay == 0
    assert money.summary.cash == D("19.50")
    with pytest.raises(UserError, match="owes nothing"):
        payment_settle(registration=registration(worked, "Anna"))


def test_a_prize_payment_note_is_cut_after_a_whole_title(worked):
    # The note names the prizes settled at once, as far as its 120 characters go.
    anna = next(r for r in tournament_money(worked).rows if r.player_name == "Anna")
    assert _prize_note(anna.prizes) == "1. Overall"
    note = _prize_note(anna.prizes * 20)
    assert len(note) <= 120 and note.endswith("1. Overall…")
    registration = worked.registrations.get(player_id=anna.player_id)
    [_fees, prize] = payment_settle(registration=registration)
    assert prize.note == "1. Overall"


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
