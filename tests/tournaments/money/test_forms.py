"""The prize plan as text (money/forms.py), parsed and written in English and German, and
amounts written as each language does (tournaments/formats.py)."""

import pytest
from django.utils import translation

from tests.tournaments.money.helpers import PLAN, D
from tournaments.formats import format_money
from tournaments.money.forms import PrizePlanError, parse_prize_plan, prize_plan_text
from tournaments.money.services import prize_plan_replace

pytestmark = pytest.mark.django_db


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
