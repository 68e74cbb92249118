"""Money in the files: the prize list PDF (exporters/prizes.py) and its download, and the
workbook's Money sheet (exporters/workbook.py), for the secretaries only."""

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.money.helpers import D, registration
from tournaments.exporters.prizes import PrizeListPdf
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.money.selectors import tournament_money
from tournaments.money.services import payment_record

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db


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
