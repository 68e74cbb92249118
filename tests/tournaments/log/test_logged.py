"""Issue 27, tests that see the action log: the writes whose entry no other test checked.

Every kind of `ActionLog.Kind` and where its entry is checked:
- draw, redraw, seat swap, series removed, registrations, payments, settings (fees),
  settled: log/test_services.py; series closed, sheet closed, finished, reopened:
  log/test_lifecycle.py; lots, prizes: money and registry tests; season, club, league,
  invitations, roles, password links: accounts and registry tests; provisional games
  confirmed: entry tests;
- here: sheet reopened, series reopened, penalty, prize plan changed, tournament created,
  player created (no test looked for their entries).
"""

import uuid

import pytest
from django.urls import reverse

from tests.tournaments.helpers import GRAND, enter
from tournaments.draw.services import series_close
from tournaments.models import ActionLog, Player, Tournament
from tournaments.money.services import prize_plan_replace
from tournaments.registry.services import player_create, tournament_create
from tournaments.sheets.services import penalty_record, table_close

pytestmark = pytest.mark.django_db

Kind = ActionLog.Kind


def test_reopening_a_sheet_is_logged_with_who_which_table_and_why(
    tournament, seated_series, client_for, secretary
):
    table = seated_series(4).tables.get()
    enter(table, [GRAND])
    table_close(table=table, short_reason="a player fell ill", user=secretary)
    url = reverse(
        "manage:sheet_reopen", kwargs={"tournament": tournament.slug, "series": 1, "table": 1}
    )
    client = client_for(secretary)
    client.post(url, {"reason": "typo in game 1"})
    table.refresh_from_db()
    assert not table.closed
    entry = ActionLog.objects.get(kind=Kind.SHEET_REOPENED)
    assert (entry.tournament, entry.series_number, entry.table_number) == (tournament, 1, 1)
    assert (entry.user, entry.reason) == (secretary, "typo in game 1")
    # The log page shows it.
    page = client.get(reverse("manage:tournament_log", kwargs={"tournament": tournament.slug}))
    assert "typo in game 1" in page.content.decode()
    # Reopening an open sheet changes nothing and logs nothing.
    client.post(url, {"reason": "again"})
    assert ActionLog.objects.filter(kind=Kind.SHEET_REOPENED).count() == 1


def test_reopening_a_series_is_logged(tournament, seated_series, client_for, secretary):
    series = seated_series(3)
    table_close(table=series.tables.get(), short_reason="test")
    series_close(series=series, user=secretary)
    url = reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1})
    client_for(secretary).post(url, {"action": "reopen", "reason": "late protest"})
    entry = ActionLog.objects.get(kind=Kind.SERIES_REOPENED)
    assert (entry.tournament, entry.series_number) == (tournament, 1)
    assert (entry.user, entry.reason) == (secretary, "late protest")


def test_a_penalty_is_logged(tournament, seated_series, secretary):
    table = seated_series(4).tables.get()
    penalty_record(table=table, seat=2, points=-10, reason="misdeal", user=secretary)
    entry = ActionLog.objects.get(kind=Kind.PENALTY)
    assert (entry.tournament, entry.series_number, entry.table_number) == (tournament, 1, 1)
    assert (entry.user, entry.reason) == (secretary, "misdeal")


def test_a_prize_plan_change_is_logged(tournament, secretary):
    prize_plan_replace(
        tournament=tournament,
        prizes=[{"scope": "overall", "rank": 1, "amount": "5"}],
        user=secretary,
    )
    entry = ActionLog.objects.get(kind=Kind.PRIZE_PLAN)
    assert (entry.tournament, entry.user) == (tournament, secretary)


def test_a_tournament_and_a_player_created_from_a_form_are_logged(club, secretary):
    import datetime

    tournament = tournament_create(
        club=club,
        name="Herbstpreisskat",
        date=datetime.date(2026, 10, 3),
        user=secretary,
        key=str(uuid.uuid4()),
    )
    entry = ActionLog.objects.get(kind=Kind.TOURNAMENT_CREATED)
    assert (entry.tournament, entry.club, entry.user) == (tournament, club, secretary)
    assert entry.details == {"name": "Herbstpreisskat"}
    player = player_create(name="Olga  Berg", club=club, user=secretary, key=str(uuid.uuid4()))
    entry = ActionLog.objects.get(kind=Kind.PLAYER_CREATED)
    assert (entry.club, entry.user, entry.details) == (club, secretary, {"name": "Olga Berg"})
    assert Player.objects.get(pk=player.pk).name == "Olga Berg"
    assert Tournament.objects.filter(name="Herbstpreisskat").count() == 1
