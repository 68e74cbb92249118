"""Sentences the site writes itself are stored as what happened and put into words when
shown (issue 27, defect 7: no English on German pages): a penalty's reason under a 1908
law, a settling payment's note, a table link's history lines, the action log. Text a person
typed stays as typed; rows stored before (English text only) still show, translated."""

import io
import uuid

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import GRAND_1, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.entry.services import game_record_at_table
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.models import ActionLog, GameChange, Payment, Penalty, PenaltyChange
from tournaments.money.services import payment_record, payment_settle, prize_plan_replace
from tournaments.registry.services import tournament_update
from tournaments.sheets.services import game_record, penalty_law_record, penalty_record

pytestmark = pytest.mark.django_db

TOURNEE = {"declarer": 2, "game": "tournee", "trump": "hearts", "matadors": 2, "card_points": 75}


def german(client, name, **kwargs):
    with translation.override("de"):
        url = reverse(name, kwargs=kwargs)
    assert url.startswith("/de/")
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def sheet_kwargs(table):
    return {
        "tournament": table.series.tournament.slug,
        "series": table.series.number,
        "table": table.number,
    }


@pytest.fixture
def na_table(na_tournament, seated_series):
    return seated_series(3, target=na_tournament).tables.get()


def test_a_law_penalty_is_stored_as_what_happened_and_shown_in_german(
    client_for, secretary, na_table
):
    game_record(table=na_table, data=TOURNEE)
    (penalty,) = penalty_law_record(table=na_table, number=1, seat=1, law=4)
    # The text field keeps the stable English wording (exports, the interchange document).
    assert penalty.reason == "law 4: looked at the skat without right (game 1)"
    assert penalty.phrases == {"reason": {"code": "penalty_law", "law": 4, "game": 1}}
    assert PenaltyChange.objects.get().phrases["penalty_reason"] == penalty.phrases["reason"]
    html = german(client_for(secretary), "manage:sheet", **sheet_kwargs(na_table))
    assert "Strafregel 4: unberechtigt in den Skat geschaut (Spiel 1)" in html
    assert "looked at the skat" not in html


def test_the_workbook_in_german_names_the_law_in_german(na_table):
    game_record(table=na_table, data=TOURNEE)
    penalty_law_record(table=na_table, number=1, seat=1, law=4)
    with translation.override("de"):
        book = load_workbook(io.BytesIO(TournamentWorkbook(na_table.series.tournament).render()))
    cells = [c for row in book["Strafpunkte"].iter_rows(values_only=True) for c in row]
    assert "Strafregel 4: unberechtigt in den Skat geschaut (Spiel 1)" in cells


def test_typed_reasons_stay_as_typed(client_for, secretary, table):
    penalty_record(table=table, seat=1, points=-50, reason="table link")
    penalty = Penalty.objects.get()
    assert penalty.phrases == {}
    # Typed text that happens to read like a phrase is still typed text only when it is
    # not one; this one is the English wording of a phrase, and older rows look the same.
    penalty_record(table=table, seat=2, points=-50, reason="spielte nach dem Klingeln")
    html = german(client_for(secretary), "manage:sheet", **sheet_kwargs(table))
    assert "spielte nach dem Klingeln" in html


def test_settling_notes_are_shown_in_the_readers_language(client_for, secretary, tournament, club):
    for name in ("Anna", "Bert", "Carl", "Dora"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=1).tables.get()
    seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
    enter(table, sheet_rows({seat_of["Anna"]: [GRAND_1]}, 4))
    prize_plan_replace(
        tournament=tournament, prizes=[{"scope": "overall", "rank": 1, "amount": "30"}]
    )
    anna = tournament.registrations.get(player__name="Anna")
    bert = tournament.registrations.get(player__name="Bert")
    payment_record(registration=bert, kind=Payment.Kind.FEES, amount="5", note="bar bezahlt")
    (prize,) = payment_settle(registration=anna)
    assert prize.note == "1. Overall"
    assert prize.phrases["note"]["code"] == "prizes"
    html = german(client_for(secretary), "manage:money", tournament=tournament.slug)
    assert "1. Gesamt" in html and "1. Overall" not in html
    assert "bar bezahlt" in html
    log = german(client_for(secretary), "manage:tournament_log", tournament=tournament.slug)
    # The payment's kind is stored as its code and named in the reader's language.
    assert ActionLog.objects.filter(kind="payment").first().details["kind"] in Payment.Kind.values
    assert "prize paid out" not in log and "fees paid" not in log


def test_table_link_history_is_german_on_german_pages(client_for, secretary, table):
    game_record_at_table(
        table=table, data=sheet_rows({2: [GRAND_1]}, 4)[0], client_id=str(uuid.uuid4())
    )
    change = GameChange.objects.get()
    assert (change.reason, change.by_name) == ("table link", "list keeper 1 of table 1 (phone)")
    html = german(client_for(secretary), "manage:game_correct", **sheet_kwargs(table), game=1)
    assert "Tisch-Link" in html and "Listenführer 1 von Tisch 1 (Handy)" in html
    assert "table link" not in html and "list keeper" not in html


def test_rows_stored_before_as_english_text_still_show_translated(client_for, secretary, table):
    game_record(table=table, data=sheet_rows({2: [GRAND_1]}, 4)[0])
    GameChange.objects.create(
        table=table,
        game_number=1,
        action=GameChange.Action.CORRECTED,
        by_name="list keeper 2 of table 1 (phone)",
        diff={"provisional": [True, False]},
        reason="sheet confirmed",
    )
    html = german(client_for(secretary), "manage:game_correct", **sheet_kwargs(table), game=1)
    assert "Spielliste bestätigt" in html and "sheet confirmed" not in html
    assert "Listenführer 2 von Tisch 1 (Handy)" in html


def test_settings_changes_in_the_log_are_named_in_german(client_for, secretary, na_tournament):
    tournament_update(tournament=na_tournament, ramsch_rule="hoyle", five_tables=True)
    log = german(client_for(secretary), "manage:tournament_log", tournament=na_tournament.slug)
    assert "Fünfertische: nein → ja" in log
    assert "ramsch rule" not in log and "five tables" not in log


@pytest.mark.parametrize(
    "stored, english",
    [
        ({"code": "table_link"}, "table link"),
        ({"code": "keeper", "keeper": 2, "table": 7}, "list keeper 2 of table 7 (phone)"),
        (
            {"code": "penalty_law", "law": 7, "game": 3},
            "law 7: an opponent led wrongly or did not follow suit (game 3)",
        ),
    ],
)
def test_the_english_wording_of_a_phrase_is_recognised_again(stored, english):
    from tournaments import phrases

    assert phrases.Phrase(stored) == english
    assert phrases.recognise(english) == stored
