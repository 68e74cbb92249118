"""Every director action writes one log line in its own transaction: who, what, why."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.entry.helpers import keys_both
from tournaments.draw.services import seat_swap, series_delete, series_redraw
from tournaments.entry.services import sheet_settle
from tournaments.errors import UserError
from tournaments.log.services import Replay, action_record, once_key
from tournaments.models import ActionLog
from tournaments.money.services import (
    payment_delete,
    payment_record,
    tournament_money_update,
)
from tournaments.registry.services import registration_add, registration_remove

pytestmark = pytest.mark.django_db

Kind = ActionLog.Kind


def last(kind):
    return ActionLog.objects.filter(kind=kind).latest("id")


def test_draw_changes_are_logged_with_who_and_what(tournament, seated_series, secretary):
    series = seated_series(6)
    series_redraw(series=series, seed=5, user=secretary)
    assert last(Kind.REDRAW).details["seed"] == [1, 5]
    a, b = series.seats.order_by("pk")[:2]
    seat_swap(seat_a=a, seat_b=b, user=secretary)
    swap = last(Kind.SEAT_SWAP)
    assert swap.user == secretary and len(swap.details["seats"]) == 2
    series_delete(series=series, user=secretary)
    assert last(Kind.SERIES_REMOVED).series_number == 1


def test_registrations_and_money_are_logged(tournament, club, secretary):
    player = PlayerFactory(club=club, name="Olga")
    registration_add(tournament=tournament, players=[player], user=secretary)
    assert last(Kind.REGISTRATION_ADDED).details == {"players": ["Olga"]}
    registration = tournament.registrations.get()
    payment = payment_record(
        registration=registration, kind="refund", amount="2.50", note="change", user=secretary
    )
    logged = last(Kind.PAYMENT)
    assert logged.details["amount"] == "-2.50" and logged.details["note"] == "change"
    payment_delete(payment=payment, user=secretary, reason="typed twice")
    assert last(Kind.PAYMENT_DELETED).reason == "typed twice"
    tournament_money_update(tournament=tournament, entry_fee="5", user=secretary)
    assert last(Kind.SETTINGS).details["changes"]["entry_fee"] == ["0.00", "5"]
    registration_remove(registration=registration, user=secretary)
    assert last(Kind.REGISTRATION_REMOVED).details == {"player": "Olga"}


def test_settling_a_double_entry_is_logged(double, client, secretary):
    row = {"declarer": 1, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}
    keys_both(client, double, row)
    from tests.tournaments.entry.helpers import send

    send(client, double.entry_token, {**row, "card_points": 80})
    send(client, double.entry_token_2, {**row, "card_points": 90})
    sheet_settle(table=double, choose="first", user=secretary)
    settled = last(Kind.SETTLED)
    assert settled.details == {"games": [2], "choose": "first"} and settled.table_number == 1


def test_a_once_key_is_used_once_and_a_replay_rolls_back(tournament):
    key = once_key(" not a uuid ")
    assert key is None
    key = once_key("6f1c1f3e-0000-4000-8000-000000000001")
    action_record(tournament=tournament, kind=Kind.LOTS, key=key)
    with pytest.raises(Replay):
        action_record(tournament=tournament, kind=Kind.LOTS, key=key)
    with pytest.raises(UserError):
        action_record(tournament=tournament, kind=Kind.LOTS, reason="bad\x00reason")
    assert ActionLog.objects.count() == 1
    RegistrationFactory(tournament=tournament, player=PlayerFactory())
    with pytest.raises(ValueError):
        action_record(tournament=tournament, kind="nonsense")
