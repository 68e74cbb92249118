"""Prizes of tied places (issue 12, defect 4): paid only once a draw by lot separates the
players, or split evenly when the tournament says so; shown on the prize list PDF."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import GRAND_1, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.errors import UserError
from tournaments.models import Registration
from tournaments.money.selectors import tournament_money
from tournaments.money.services import payment_settle, prize_plan_replace

pytestmark = pytest.mark.django_db


@pytest.fixture
def tie(tournament, club):
    """Anna and Bert equal on every tie-break at the top; Carl and Dora played nothing."""
    for name in ("Anna", "Bert", "Carl", "Dora"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=1).tables.get()
    seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
    enter(table, sheet_rows({seat_of["Anna"]: [GRAND_1], seat_of["Bert"]: [GRAND_1]}, 4))
    prize_plan_replace(
        tournament=tournament,
        prizes=[
            {"scope": "overall", "rank": 1, "amount": "30"},
            {"scope": "overall", "rank": 2, "amount": "15.01"},
        ],
    )
    return tournament


def registration(name):
    return Registration.objects.get(player__name=name)


def test_tied_places_pay_no_prize_until_the_lot(tie):
    money = tournament_money(tie)
    assert [(p.rank, p.awarded, p.tied) for p in money.prizes] == [
        (1, False, ["Anna", "Bert"]),
        (2, False, ["Anna", "Bert"]),
    ]
    assert money.row_of(registration("Anna").pk).prizes_open == 0
    with pytest.raises(UserError):
        payment_settle(registration=registration("Anna"))  # owes nothing, is owed nothing
    Registration.objects.filter(player__name="Bert").update(lot=1)
    Registration.objects.filter(player__name="Anna").update(lot=2)
    money = tournament_money(tie)
    assert [(p.rank, p.player_name, p.amount) for p in money.prizes] == [
        (1, "Bert", Decimal("30.00")),
        (2, "Anna", Decimal("15.01")),
    ]


def test_an_even_split_shares_the_tied_places_prizes_to_the_cent(tie):
    tie.prizes_split_ties = True
    tie.save()
    money = tournament_money(tie)
    assert [(p.rank, p.player_name, p.amount, p.split) for p in money.prizes] == [
        (1, "Anna", Decimal("22.51"), 2),
        (1, "Bert", Decimal("22.50"), 2),
    ]
    assert money.prizes_planned == Decimal("45.01")
    payments = payment_settle(registration=registration("Bert"))
    assert [p.amount for p in payments if p.kind == "prize"] == [Decimal("-22.50")]


def test_the_prize_list_pdf_shows_the_tie_and_the_shared_rank(tie, client_for, secretary):
    url = reverse("manage:money_prizes_pdf", kwargs={"tournament": tie.slug})
    text = " ".join(pdf_pages(client_for(secretary).get(url).content))
    assert "tied: draw lots between Anna, Bert" in " ".join(text.split())
    standings = client_for(secretary).get(
        reverse("tournament_detail", kwargs={"tournament": tie.slug})
    )
    assert standings.status_code == 200
