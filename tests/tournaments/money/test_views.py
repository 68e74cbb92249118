"""The money desk's pages (money/views.py): for the club's secretaries only, the figures in
English and German, quick payments and settling, the fees and the prize plan forms."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.money.helpers import D, registration, rows_by_name
from tournaments.models import Payment, Tournament

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("typed", ["10,00", "10.00", "10", "10,5", "€10.00"])
def test_an_amount_reads_the_same_with_a_point_or_a_comma_in_both_languages(
    client_for, secretary, worked, language, typed
):
    with translation.override(language):
        url = reverse("manage:money_pay", args=[worked.slug, registration(worked, "Dora").pk])
    response = client_for(secretary).post(url, {"kind": "fees", "amount": typed})
    assert response.status_code == 302
    expected = D("10.5") if typed == "10,5" else D("10")
    assert Payment.objects.get().amount == expected


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_wrong_amount_is_shown_next_to_its_row_and_nothing_is_paid(
    client_for, secretary, worked, language
):
    reg = registration(worked, "Dora")
    with translation.override(language):
        url = reverse("manage:money_pay", args=[worked.slug, reg.pk])
    response = client_for(secretary).post(url, {"kind": "fees", "amount": "1.000,00"})
    assert response.status_code == 200
    assert not Payment.objects.exists()
    text = response.content.decode()
    row = text[text.index(f'id="pay-error-{reg.pk}"') - 600 :]
    assert 'value="1.000,00"' in row and 'aria-invalid="true"' in row
    assert "“1.000,00”" in text[text.index(f'id="pay-error-{reg.pk}"') :].split("</span>")[0]
    assert not list(response.context["messages"])  # not at the top of the page


def test_fees_take_a_point_in_german_too(client_for, secretary, worked):
    with translation.override("de"):
        url = reverse("manage:money_settings", args=[worked.slug])
    data = {
        "fees-currency": "EUR",
        "fees-entry_fee": "12.50",
        "fees-table_fee": "0",
        "fees-lost_game_fee": "0,50",
        "fees-lost_game_fee_from": "",
        "fees-lost_game_fee_high": "",
    }
    assert client_for(secretary).post(url, data).status_code == 302
    worked.refresh_from_db()
    assert (worked.entry_fee, worked.lost_game_fee) == (D("12.50"), D("0.50"))
