"""The tournament day's lifecycle guards (issue 12): provisional games block closing and
finishing, finishing asks once and locks, reopening is logged, sheets close short with a
reason, withdrawn players are not drawn again, drafts can be deleted."""

import pytest
from django.urls import reverse

from tests.tournaments.entry.helpers import send
from tournaments.draw.services import series_close, series_draw, series_reopen
from tournaments.entry.services import provisional_confirm_all
from tournaments.errors import UserError
from tournaments.models import ActionLog, Game, Registration, Series, Tournament
from tournaments.registry.services import (
    registration_withdraw,
    tournament_delete,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)
from tournaments.sheets.services import game_correct, table_close, table_reopen

pytestmark = pytest.mark.django_db

ROW = {"declarer": 1, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}


def kinds(tournament):
    return list(ActionLog.objects.filter(tournament=tournament).values_list("kind", flat=True))


@pytest.fixture
def phone_series(seated_series, client):
    """Series 1 (one 3-table) with one game keyed on the phone (provisional), its sheet
    closed short with a reason."""
    series = seated_series(3)
    table = series.tables.get()
    assert send(client, table.entry_token, ROW).status_code == 201
    table_close(table=table, short_reason="the table stopped early")
    return series


def test_closing_a_series_refuses_while_a_phone_game_is_provisional(phone_series):
    with pytest.raises(UserError) as error:
        series_close(series=phone_series)
    assert error.value.code == "unconfirmed"
    assert "series 1 table 1" in str(error.value)
    phone_series.refresh_from_db()
    assert phone_series.status == Series.Status.OPEN


def test_finishing_refuses_while_a_phone_game_is_provisional(phone_series, tournament):
    Series.objects.filter(pk=phone_series.pk).update(status=Series.Status.CLOSED)
    with pytest.raises(UserError) as error:
        tournament_finish(tournament=tournament)
    assert error.value.code == "unconfirmed"
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED


def test_confirm_all_then_close_and_finish_leave_no_provisional_game(
    phone_series, tournament, secretary
):
    assert provisional_confirm_all(tournament=tournament, series=phone_series, user=secretary) == 1
    series_close(series=phone_series, user=secretary)
    tournament_finish(tournament=tournament, user=secretary)
    assert not Game.objects.filter(provisional=True).exists()
    assert kinds(tournament)[:3] == [
        ActionLog.Kind.FINISHED,
        ActionLog.Kind.SERIES_CLOSED,
        ActionLog.Kind.GAMES_CONFIRMED,
    ]


def test_closing_the_series_page_links_to_the_provisional_sheet(
    phone_series, client_for, secretary
):
    url = reverse("manage:series_action", kwargs={"tournament": "herbstpreisskat", "series": 1})
    response = client_for(secretary).post(url, {"action": "close"}, follow=True)
    confirm = reverse(
        "manage:entry_confirm",
        kwargs={"tournament": "herbstpreisskat", "series": 1, "table": 1},
    )
    assert f'href="{confirm}"' in response.content.decode()
    response = client_for(secretary).post(url, {"action": "confirm_all"}, follow=True)
    assert "1 provisional games confirmed" in response.content.decode()
    client_for(secretary).post(url, {"action": "close"})
    phone_series.refresh_from_db()
    assert phone_series.status == Series.Status.CLOSED


def test_a_sheet_closes_short_only_with_a_reason_shown_on_the_sheet_and_logged(
    seated_series, tournament, client_for, secretary
):
    table = seated_series(3).tables.get()
    with pytest.raises(UserError):
        table_close(table=table)
    table_close(table=table, short_reason="a player fell ill", user=secretary)
    table.refresh_from_db()
    assert table.closed and table.closed_short == "a player fell ill"
    entry = ActionLog.objects.get(kind=ActionLog.Kind.SHEET_CLOSED)
    assert (entry.reason, entry.table_number, entry.user) == ("a player fell ill", 1, secretary)
    page = client_for(secretary).get(
        reverse("manage:sheet", kwargs={"tournament": tournament.slug, "series": 1, "table": 1})
    )
    assert "a player fell ill" in page.content.decode()


def test_reclosing_after_a_correction_asks_for_the_paper_totals_again(seated_series, tournament):
    tournament.games_per_series_3 = 1
    tournament.save()
    table = seated_series(3).tables.get()
    from tournaments.sheets.services import game_record

    game = game_record(table=table, data=ROW)
    table_close(table=table)
    table_reopen(table=table, reason="typo in game 1")
    game_correct(game=game, data={**ROW, "card_points": 80}, reason="typo")
    with pytest.raises(UserError) as error:
        table_close(table=table)
    assert error.value.code == "paper_totals_again"
    total = {1: 72 + 50, 2: 0, 3: 0}
    table_close(table=table, paper_totals=total, accept_differences=True)
    table.refresh_from_db()
    assert table.closed


def test_finishing_asks_once_then_locks_settings_and_draws(
    tournament, seated_series, client_for, secretary
):
    series = seated_series(3)
    table = series.tables.get()
    table_close(table=table, short_reason="test")
    series_close(series=series)
    client = client_for(secretary)
    url = reverse("manage:tournament_action", kwargs={"tournament": tournament.slug})
    asked = client.post(url, {"action": "finish"})
    assert asked.status_code == 200 and 'name="confirmed"' in asked.content.decode()
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
    done = client.post(url, {"action": "finish", "confirmed": "1"}, follow=True)
    assert "The tournament is finished" in done.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert 'id="draw-series"' not in done.content.decode()
    with pytest.raises(UserError):
        tournament_update(tournament=tournament, bonus_won=60)
    with pytest.raises(UserError):
        series_draw(tournament=tournament)
    with pytest.raises(UserError):
        series_reopen(series=series)
    tournament_update(tournament=tournament, published=True)  # still allowed
    client.post(url, {"action": "reopen", "confirmed": "1", "reason": "late protest"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    reopened = ActionLog.objects.get(kind=ActionLog.Kind.REOPENED)
    assert (reopened.reason, reopened.user) == ("late protest", secretary)


def test_reopening_a_running_tournament_is_refused(tournament):
    with pytest.raises(UserError):
        tournament_reopen(tournament=tournament)


def test_a_withdrawn_player_is_not_drawn_again_and_keeps_the_results(
    tournament, seated_series, secretary
):
    series = seated_series(7)
    table = series.tables.order_by("number").first()
    from tournaments.sheets.services import game_record

    game_record(table=table, data={**ROW, "declarer": 2})
    leaver = table.seats.get(number=1).player
    registration = Registration.objects.get(tournament=tournament, player=leaver)
    registration_withdraw(registration=registration, user=secretary, reason="went home")
    for t in series.tables.all():
        table_close(table=t, short_reason="test")
    series_close(series=series)
    second = series_draw(tournament=tournament)
    seated = set(second.seats.values_list("player_id", flat=True))
    assert leaver.pk not in seated and len(seated) == 6
    assert Game.objects.filter(table=table).count() == 1
    entry = ActionLog.objects.get(kind=ActionLog.Kind.REGISTRATION_WITHDRAWN)
    assert entry.details == {"player": leaver.name} and entry.reason == "went home"


def test_a_draft_is_deleted_after_a_confirmation_and_a_drawn_one_is_not(
    tournament, club, client_for, secretary, seated_series
):
    from tests.factories import TournamentFactory

    draft = TournamentFactory(club=club, name="Draft", slug="draft")
    client = client_for(secretary)
    url = reverse("manage:tournament_delete", kwargs={"tournament": "draft"})
    assert "confirmed" in client.get(url).content.decode()
    client.post(url)  # no confirmation: nothing happens
    assert Tournament.objects.filter(pk=draft.pk).exists()
    client.post(url, {"confirmed": "1"})
    assert not Tournament.objects.filter(pk=draft.pk).exists()
    seated_series(3)
    with pytest.raises(UserError):
        tournament_delete(tournament=tournament)
