"""Every text input refuses control characters alike (issue 12, defect 6): the payment
note, names, reasons, penalties — a refused input changes nothing."""

import uuid

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory
from tournaments.errors import UserError
from tournaments.models import ActionLog, Payment, Penalty, Player
from tournaments.money.services import payment_record
from tournaments.registry.services import club_create, player_create, tournament_update
from tournaments.sheets.services import penalty_record, table_close

pytestmark = pytest.mark.django_db

BAD = ["a\x00b", "a\nb", "a\tb", "a\x1bb", "a\x7fb", "a\u0085b"]


@pytest.mark.parametrize("note", BAD)
def test_the_payment_note_refuses_control_characters(tournament, client_for, secretary, note):
    registration = RegistrationFactory(tournament=tournament, player=PlayerFactory())
    with pytest.raises(UserError):
        payment_record(registration=registration, kind="fees", amount="5", note=note)
    url = reverse(
        "manage:money_pay",
        kwargs={"tournament": tournament.slug, "registration": registration.pk},
    )
    response = client_for(secretary).post(
        url, {"kind": "fees", "amount": "5", "note": note, "once": str(uuid.uuid4())}
    )
    # The money page again, with the message next to the payment's row.
    assert response.status_code == 200
    assert f'id="pay-error-{registration.pk}"' in response.content.decode()
    assert not Payment.objects.exists() and not ActionLog.objects.exists()


@pytest.mark.parametrize("text", BAD)
def test_names_and_reasons_refuse_control_characters_alike(tournament, club, seated_series, text):
    table = seated_series(3).tables.get()
    before = ActionLog.objects.count()
    for call in (
        lambda: player_create(name=text, club=club),
        lambda: player_create(name="Ok", club=club, team=text),
        lambda: club_create(name=text),
        lambda: tournament_update(tournament=tournament, name=text),
        lambda: penalty_record(table=table, seat=1, points=-10, reason=text),
        lambda: table_close(table=table, short_reason=text),
    ):
        with pytest.raises(UserError):
            call()
    # Compared in Python: PostgreSQL refuses a NUL even as a query parameter.
    assert [n for n in Player.objects.values_list("name", flat=True) if n.startswith("a")] == []
    assert not Player.objects.filter(name="Ok").exists()
    assert not Penalty.objects.exists()
    table.refresh_from_db()
    assert not table.closed
    assert ActionLog.objects.count() == before
