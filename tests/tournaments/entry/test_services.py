"""The entry services (entry/services.py): issuing, reissuing and revoking the private
links, recording a row at the table once whatever is sent again, confirming a sheet and
settling two differing copies."""

import uuid

import pytest

from tests.factories import RegistrationFactory
from tests.tournaments.entry.helpers import CLUBS, GRAND, NULL_LOST, keys_both, link, send
from tournaments.draw.services import series_draw, series_redraw
from tournaments.entry import services as entry_services
from tournaments.entry.selectors import sheet_copies_compare
from tournaments.entry.services import (
    game_record_at_table,
    series_links_revoke,
    sheet_confirm,
    sheet_settle,
    table_link_reissue,
    table_link_revoke,
    table_links_issue,
)
from tournaments.errors import UserError
from tournaments.models import Game, GameChange, SheetCopy, Table
from tournaments.registry.services import tournament_update
from tournaments.sheets.selectors import table_sheet

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# Links
# --------------------------------------------------------------------------------------


def test_the_draw_issues_a_private_link_for_every_table(series, table, other_table):
    assert table.entry_token and other_table.entry_token
    assert table.entry_token != other_table.entry_token
    assert len(table.entry_token) >= 32
    assert table.entry_token_2 is None  # no double entry


def test_double_entry_issues_a_second_link(double):
    assert double.entry_token and double.entry_token_2
    assert double.entry_token != double.entry_token_2


def test_a_redraw_issues_new_links(series, table):
    old = table.entry_token
    series_redraw(series=series, seed=5)
    tokens = set(series.tables.values_list("entry_token", flat=True))
    assert None not in tokens and old not in tokens


def test_a_revoked_link_is_404_and_a_reissued_one_replaces_it(phone, table):
    old = table.entry_token
    table_link_revoke(table=table)
    assert phone.get(link(old)).status_code == 404
    assert send(phone, old, GRAND).status_code == 404
    table = table_link_reissue(table=table)
    assert table.entry_token and table.entry_token != old
    assert phone.get(link(old)).status_code == 404
    assert send(phone, old, GRAND).status_code == 404
    assert send(phone, table.entry_token, GRAND).status_code == 201
    assert table.games.count() == 1


def test_revoking_every_link_of_a_series(series, phone, table):
    token = table.entry_token
    assert series_links_revoke(series=series) == 2
    assert phone.get(link(token)).status_code == 404
    assert table_links_issue(series=series) == 2
    assert Table.objects.filter(series=series, entry_token=None).count() == 0


def test_turning_double_entry_on_after_the_draw_issues_the_second_links(tournament, table):
    assert table.entry_token_2 is None
    tournament_update(tournament=tournament, double_entry=True)
    table.refresh_from_db()
    assert table.entry_token_2 and table.entry_token_2 != table.entry_token


def test_a_large_series_gets_its_links_in_one_go(tournament, roster):
    for p in roster(40):
        RegistrationFactory(tournament=tournament, player=p)
    series = series_draw(tournament=tournament, seed=3)
    tokens = list(series.tables.values_list("entry_token", flat=True))
    assert len(tokens) == 10 and len(set(tokens)) == 10 and None not in tokens


# --------------------------------------------------------------------------------------
# Rows at the table
# --------------------------------------------------------------------------------------


def test_the_service_returns_the_stored_game_for_a_resend(table):
    client_id = uuid.uuid4()
    row = {"declarer": 2, "game": "grand", "matadors": 2, "won": True}
    game, created = game_record_at_table(table=table, data=row, client_id=client_id)
    again, created_again = game_record_at_table(table=table, data=dict(row), client_id=client_id)
    assert created and not created_again and again.pk == game.pk
    assert Game.objects.count() == 1


def test_two_records_of_one_row_at_the_same_moment_enter_it_once(table, monkeypatch):
    """A race: the second request does not see the first one's row before it saves; the
    unique client_id holds and the second gets the stored row, not a server error."""
    client_id = uuid.uuid4()
    row = {"declarer": 2, "game": "grand", "matadors": 2, "won": True}
    game, _created = game_record_at_table(table=table, data=row, client_id=client_id)
    real_filter = Game.objects.filter

    class Blind:
        """The queryset the racing request saw: no row with this id yet, and the sheet
        still empty (so that it tries game 1 again)."""

        def __init__(self, *args, **kwargs):
            self.kwargs = kwargs

        def first(self):
            return None

        def exclude(self, **kwargs):
            return self

        def exists(self):
            return False

    calls = {"n": 0}

    def racing_filter(*args, **kwargs):
        if kwargs.get("client_id") == client_id and calls["n"] < 2:
            calls["n"] += 1
            return Blind()
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(Game.objects, "filter", racing_filter)
    # It saw the sheet before game 1 went in.
    monkeypatch.setattr(entry_services, "check_row_number", lambda **kwargs: None)
    again, created = game_record_at_table(table=table, data=row, client_id=client_id)
    assert calls["n"] == 2
    assert not created and again.pk == game.pk
    assert Game.objects.filter(client_id=client_id).count() == 1


# --------------------------------------------------------------------------------------
# Confirming and settling
# --------------------------------------------------------------------------------------


def test_a_confirmation_is_not_shown_as_a_correction(phone, table):
    send(phone, table.entry_token, GRAND)
    sheet_confirm(table=table)
    sheet = table_sheet(table, blank_rows=False)
    assert sheet.rows[0].game.changes_count == 0


def test_settling_rows_only_one_copy_has(phone, secretary, double):
    keys_both(phone, double, GRAND)
    send(phone, double.entry_token, CLUBS)  # the second keeper has not got there yet
    with pytest.raises(UserError, match="differ in game 2"):
        sheet_confirm(table=double)
    # Pending, not disputed: it counts (provisionally).
    assert not sheet_copies_compare(double)[1].disputed
    assert sheet_settle(table=double, choose="first", user=secretary) == [2]
    assert len(SheetCopy.objects.get(table=double).rows) == 2
    # The second keeper is ahead: its extra row is entered as a game, or removed.
    send(phone, double.entry_token_2, NULL_LOST)
    sheet_settle(table=double, number=3, choose="second", user=secretary)
    assert double.games.get(number=3).score == -46
    send(phone, double.entry_token_2, GRAND)
    sheet_settle(table=double, number=4, choose="first", user=secretary)
    assert len(SheetCopy.objects.get(table=double).rows) == 3
    assert GameChange.objects.filter(action=GameChange.Action.DELETED, game_number=4).exists()
    assert sheet_confirm(table=double) == 3


# --------------------------------------------------------------------------------------
# The row number: the desk and the phones say the same (`sheets.services.check_row_number`)
# --------------------------------------------------------------------------------------


# A won grand with 2 (seat 2 declares; seat 1 deals game 1 of a 3-table).
ROW = {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}


def _refusal(write) -> tuple[str, str]:
    with pytest.raises(UserError) as refused:
        write()
    return refused.value.code, str(refused.value)


@pytest.mark.parametrize(
    ("number", "code"),
    [
        (3, "number_gap"),  # game 2 is next
        (1, "number_taken"),  # game 1 entered meanwhile (with other content)
    ],
)
def test_the_desk_and_the_phone_refuse_a_row_number_alike(table, number, code):
    from tournaments.sheets.services import game_record

    game_record(table=table, data=ROW)
    row = {**ROW, "declarer": 3}
    desk = _refusal(lambda: game_record(table=table, data=row, number=number))
    phone = _refusal(
        lambda: game_record_at_table(table=table, data=row, client_id=uuid.uuid4(), number=number)
    )
    assert desk == phone
    assert desk[0] == code


def test_the_desk_and_the_phone_refuse_a_row_on_a_full_sheet_alike(table):
    from tournaments.sheets.services import game_record

    tournament_update(tournament=table.series.tournament, games_per_series_3=1)
    game_record(table=table, data=ROW)
    desk = _refusal(lambda: game_record(table=table, data=ROW, number=2))
    phone = _refusal(
        lambda: game_record_at_table(table=table, data=ROW, client_id=uuid.uuid4(), number=2)
    )
    assert (
        desk
        == phone
        == (
            "complete",
            "The sheet is complete: a table of 3 plays 1 games.",
        )
    )
