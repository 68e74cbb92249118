"""A finished tournament is final (issue 27, defect 1): every write that changes a result or
the money is refused with one message (`lifecycle.finished_error`) and changes nothing until
the tournament is reopened, which is logged; after the reopening the same write goes
through. A league match day is confirmed by the rule that finishes a tournament (defect
14)."""

import json
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.entry.helpers import GRAND as PHONE_GRAND
from tests.tournaments.entry.helpers import send
from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import complete_tournament
from tests.tournaments.interchange.documents import row_counts, text_of
from tests.tournaments.leagues.helpers import play_series
from tournaments.draw.services import (
    seat_swap,
    series_close,
    series_delete,
    series_draw,
    series_redraw,
    series_reopen,
)
from tournaments.entry.services import provisional_confirm_all, sheet_confirm
from tournaments.errors import UserError
from tournaments.interchange import InterchangeError, import_document
from tournaments.leagues.selectors import season_tables
from tournaments.leagues.services import match_day_confirm
from tournaments.models import (
    ActionLog,
    Category,
    Game,
    MatchDayConfirmation,
    Payment,
    Penalty,
    Prize,
    Registration,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournaments.money.services import (
    payment_delete,
    payment_record,
    payment_settle,
    prize_plan_replace,
    tournament_money_update,
)
from tournaments.registry.services import (
    player_quick_add,
    player_update,
    players_import,
    registration_add,
    registration_remove,
    registration_set_lots,
    registration_withdraw,
    season_create,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    games_bulk_record,
    penalty_delete,
    penalty_record,
    table_close,
    table_reopen,
)
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db

# A 3-table (rules §1.3): grand with 2, 78 card points, won → 3 × 24 = 72.
ROW = {"declarer": 1, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}
ROW_2 = {**ROW, "declarer": 2}


@pytest.fixture
def finished(tournament, seated_series, secretary):
    """Series 1 (one 3-table of 2 games, a penalty) closed, a fee paid, a prize plan, a
    fourth player registered and never seated; then finished."""
    tournament.games_per_series_3 = 2
    tournament.save()
    tournament_money_update(tournament=tournament, entry_fee=Decimal("5.00"))
    series = seated_series(3)
    table = series.tables.get()
    game_record(table=table, data=ROW)
    last = game_record(table=table, data=ROW_2)
    penalty = penalty_record(table=table, seat=1, points=-50, reason="late")
    table_close(table=table)
    series_close(series=series)
    registration = tournament.registrations.order_by("pk").first()
    payment = payment_record(
        registration=registration, kind=Payment.Kind.FEES, amount=Decimal("5.00")
    )
    prize_plan_replace(
        tournament=tournament, prizes=[{"scope": "overall", "rank": 1, "amount": "10.00"}]
    )
    idle = RegistrationFactory(tournament=tournament)
    tournament_finish(tournament=tournament, user=secretary)
    return SimpleNamespace(
        tournament=tournament,
        series=series,
        table=table,
        game=last,
        penalty=penalty,
        payment=payment,
        registration=registration,
        idle=idle,
    )


def snapshot(tournament: Tournament):
    """Everything a refused write must leave as it was: results, money, settings, log."""
    t = tournament.pk
    return (
        list(Registration.objects.filter(tournament=t).values_list("player", "withdrawn", "lot")),
        list(Game.objects.filter(table__series__tournament=t).values_list("pk", "score")),
        list(Penalty.objects.filter(table__series__tournament=t).values_list("pk", "points")),
        list(Payment.objects.filter(registration__tournament=t).values_list("pk", "amount")),
        list(Prize.objects.filter(tournament=t).values_list("rank", "amount")),
        list(Series.objects.filter(tournament=t).values_list("number", "status")),
        list(Table.objects.filter(series__tournament=t).values_list("pk", "closed")),
        list(Seat.objects.filter(series__tournament=t).values_list("pk", "player")),
        Tournament.objects.filter(pk=t).values().get(),
        ActionLog.objects.filter(tournament=t).count(),
    )


# Each write a director could try on a finished tournament (the fixture's objects as `f`).
WRITES = {
    "late registration": lambda f: registration_add(
        tournament=f.tournament, players=[PlayerFactory(club=f.tournament.club)]
    ),
    "quick add of a new player": lambda f: player_quick_add(
        tournament=f.tournament, name="Late Comer"
    ),
    "player list import": lambda f: players_import(
        tournament=f.tournament, rows=[{"name": "Late Comer"}]
    ),
    "removing a registration": lambda f: registration_remove(registration=f.idle),
    "withdrawal": lambda f: registration_withdraw(registration=f.registration),
    "draw by lot": lambda f: registration_set_lots(
        tournament=f.tournament, lots={f.registration.player_id: 1}
    ),
    "game at the desk": lambda f: game_record(table=f.table, data=ROW),
    "games in bulk": lambda f: games_bulk_record(table=f.table, rows=[ROW]),
    "correction": lambda f: game_correct(game=f.game, data={**ROW_2, "card_points": 80}),
    "deleting a game": lambda f: game_delete(game=f.game),
    "penalty": lambda f: penalty_record(table=f.table, seat=2, points=-25, reason="slow"),
    "deleting a penalty": lambda f: penalty_delete(penalty=f.penalty),
    "sheet reopen": lambda f: table_reopen(table=f.table, reason="typo"),
    "confirming a sheet": lambda f: sheet_confirm(table=f.table),
    "draw": lambda f: series_draw(tournament=f.tournament, seed=1),
    "redraw": lambda f: series_redraw(series=f.series, seed=2),
    "seat swap": lambda f: seat_swap(
        seat_a=f.series.seats.order_by("pk")[0], seat_b=f.series.seats.order_by("pk")[1]
    ),
    "series reopen": lambda f: series_reopen(series=f.series),
    "series delete": lambda f: series_delete(series=f.series),
    "payment": lambda f: payment_record(
        registration=f.registration, kind=Payment.Kind.PRIZE, amount=Decimal("10.00")
    ),
    "settling a balance": lambda f: payment_settle(registration=f.registration),
    "deleting a payment": lambda f: payment_delete(payment=f.payment),
    "prize plan": lambda f: prize_plan_replace(
        tournament=f.tournament, prizes=[{"scope": "overall", "rank": 1, "amount": "20.00"}]
    ),
    "fees": lambda f: tournament_money_update(tournament=f.tournament, entry_fee="6.00"),
    "settings": lambda f: tournament_update(tournament=f.tournament, list_scoring=False),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_a_finished_tournament_refuses_the_write_and_changes_nothing(finished, write):
    before = snapshot(finished.tournament)
    with pytest.raises(UserError) as error:
        WRITES[write](finished)
    assert error.value.code == "finished"
    assert "reopen" in str(error.value)
    assert snapshot(finished.tournament) == before


def test_after_the_logged_reopening_a_late_registration_counts(finished, secretary):
    tournament_reopen(tournament=finished.tournament, user=secretary, reason="late entry")
    late = PlayerFactory(club=finished.tournament.club)
    assert registration_add(tournament=finished.tournament, players=[late]) == 1
    kinds = list(
        ActionLog.objects.filter(tournament=finished.tournament)
        .order_by("pk")
        .values_list("kind", flat=True)
    )
    assert kinds[-3:] == [
        ActionLog.Kind.FINISHED,
        ActionLog.Kind.REOPENED,
        ActionLog.Kind.REGISTRATION_ADDED,
    ]


def test_the_phone_entry_of_a_finished_tournament_says_so(finished, client):
    Series.objects.filter(pk=finished.series.pk).update(status=Series.Status.OPEN)
    Table.objects.filter(pk=finished.table.pk).update(closed=False)
    games = Game.objects.count()
    response = send(client, finished.table.entry_token, PHONE_GRAND)
    assert response.status_code >= 400
    assert "The tournament is finished" in response.content.decode()
    assert Game.objects.count() == games
    page = client.get(reverse("entry", kwargs={"token": finished.table.entry_token}))
    assert "The tournament is finished; its results are final." in page.content.decode()
    assert 'id="entry"' not in page.content.decode()


@pytest.mark.parametrize(
    "name, data",
    [
        ("tournament_lots", lambda f: {f"lot_{f.registration.player_id}": "1"}),
        ("money_payment_delete", lambda f: {"reason": "typo"}),
    ],
)
def test_the_lots_and_payment_pages_show_the_refusal(finished, client_for, secretary, name, data):
    kwargs = {"tournament": finished.tournament.slug}
    if name == "money_payment_delete":
        kwargs["pk"] = finished.payment.pk
    before = snapshot(finished.tournament)
    response = client_for(secretary).post(
        reverse(f"manage:{name}", kwargs=kwargs), data(finished), follow=True
    )
    assert response.status_code == 200
    assert "The tournament is finished" in response.content.decode()
    assert snapshot(finished.tournament) == before


def test_the_registration_page_shows_why_a_late_registration_is_refused(
    finished, client_for, secretary
):
    late = PlayerFactory(club=finished.tournament.club)
    response = client_for(secretary).post(
        reverse("manage:registration_add", kwargs={"tournament": finished.tournament.slug}),
        {"players": [late.pk]},
        follow=True,
    )
    assert "The tournament is finished" in response.content.decode()
    assert not Registration.objects.filter(player=late).exists()


def final_outputs(client, tournament, player) -> dict[str, str]:
    """The text of each output that shows the standings: results PDF, standings page,
    series page, projector and the player's page."""
    slug = {"tournament": tournament.slug}
    pdf = client.get(reverse("export_standings_pdf", kwargs=slug))
    return {
        "results PDF": " ".join(pdf_pages(pdf.content)),
        "standings": client.get(reverse("tournament_detail", kwargs=slug)).content.decode(),
        "series": client.get(
            reverse("series_detail", kwargs={**slug, "series": 1})
        ).content.decode(),
        "projector": client.get(reverse("tournament_projector", kwargs=slug)).content.decode(),
        "player": client.get(reverse("player_detail", kwargs={"pk": player.pk})).content.decode(),
    }


def test_every_output_of_a_finished_tournament_says_final_results(finished, client_for, secretary):
    # By hand: seats 1 and 2 each won a grand with 2 (+72 + 50 bonus); seat 1 was fined
    # 50: seat 2 122, seat 1 72, seat 3 and the idle player 0. Seat 2 is first of four.
    first = finished.table.seats.get(number=2).player
    rows = tournament_standings(finished.tournament)
    assert [(r.player_id, r.rank) for r in rows][:1] == [(first.pk, 1)] and len(rows) == 4
    outputs = final_outputs(client_for(secretary), finished.tournament, first)
    for name, text in outputs.items():
        assert "Final results" in text, name
    assert "after 1 series" not in outputs["results PDF"]
    assert "place 1 of 4" in outputs["player"]


def test_after_reopening_no_output_says_final(finished, client_for, secretary):
    tournament_reopen(tournament=finished.tournament, user=secretary)
    player = finished.table.seats.get(number=2).player
    outputs = final_outputs(client_for(secretary), finished.tournament, player)
    for name, text in outputs.items():
        assert "Final results" not in text, name
    assert "Results after 1 series" in outputs["results PDF"]


# Defect 14: a league's match day is confirmed by the rule that finishes a tournament.


def test_a_match_day_with_a_provisional_phone_game_on_a_closed_sheet_is_not_confirmed(
    match_day, league_director
):
    play_series(match_day)
    # A phone's game the sheet's confirmation never made final (closing does not ask).
    table = Table.objects.filter(series__tournament=match_day).order_by("number").first()
    table.games.filter(number=1).update(provisional=True)
    with pytest.raises(UserError) as error:
        match_day_confirm(tournament=match_day, user=league_director)
    assert error.value.code == "unconfirmed"
    assert "series 1 table 1" in str(error.value)
    assert not MatchDayConfirmation.objects.filter(tournament=match_day).exists()
    match_day.refresh_from_db()
    assert match_day.status != Tournament.Status.FINISHED
    provisional_confirm_all(tournament=match_day, user=league_director)
    match_day_confirm(tournament=match_day, user=league_director)
    assert MatchDayConfirmation.objects.filter(tournament=match_day).exists()


def test_the_season_desk_links_the_sheet_to_confirm(match_day, league_director, client_for):
    play_series(match_day)
    table = Table.objects.filter(series__tournament=match_day).order_by("number").first()
    table.games.filter(number=1).update(provisional=True)
    response = client_for(league_director).post(
        reverse("manage:match_day_confirm", kwargs={"tournament": match_day.slug}),
        {"confirmed": "1"},
        follow=True,
    )
    confirm = reverse(
        "manage:entry_confirm", kwargs={"tournament": match_day.slug, "series": 1, "table": 1}
    )
    assert f'href="{confirm}"' in response.content.decode()
    assert not MatchDayConfirmation.objects.filter(tournament=match_day).exists()


# Defect 14: the money form's rule for the tiered lost-game fee holds in the import too.
TIERS = [
    pytest.param(None, "1.00", "Enter from which lost game", id="a higher fee from no game"),
    pytest.param(4, None, "Enter the higher fee", id="a start with no higher fee"),
    pytest.param(1, "1.00", "2nd lost game or later", id="a start at the first game"),
]


@pytest.mark.parametrize("start, high, message", TIERS)
def test_the_money_service_refuses_a_lost_game_fee_tier(tournament, start, high, message):
    with pytest.raises(UserError, match=message):
        tournament_money_update(
            tournament=tournament, lost_game_fee_from=start, lost_game_fee_high=high
        )


@pytest.mark.parametrize("start, high, message", TIERS)
def test_the_archive_import_refuses_the_lost_game_fee_tier_the_money_form_refuses(
    tournament, roster, secretary, start, high, message
):
    document = json.loads(text_of(complete_tournament(tournament, roster, secretary)))
    tournament.delete()
    document["archive"]["money"]["lost_game_fee_from"] = start
    document["archive"]["money"]["lost_game_fee_high"] = high
    counts = row_counts()
    with pytest.raises(InterchangeError) as raised:
        import_document(document)
    assert any(
        text.startswith("archive, money") and message in text for text in raised.value.messages
    ), raised.value.messages
    assert row_counts() == counts


def test_a_players_page_is_not_answered_304_after_the_match_day_is_confirmed(
    match_day, league_director, client_for
):
    """Confirming sets the match day's status alone (no new version): the player's page
    must still change, to show the final place."""
    play_series(match_day)
    player = Seat.objects.filter(series__tournament=match_day).order_by("pk").first().player
    client = client_for(league_director)
    url = reverse("player_detail", kwargs={"pk": player.pk})
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    match_day_confirm(tournament=match_day, user=league_director)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert "Final results" in response.content.decode()


def test_a_finished_tournament_keeps_its_season(finished, secretary):
    # Issue 27, leftover (c): moving it would change two seasons' final tables.
    other = season_create(club=finished.tournament.club, name="Jahreswertung 2027")
    before = snapshot(finished.tournament)
    with pytest.raises(UserError) as error:
        tournament_update(tournament=finished.tournament, season=other)
    assert error.value.code == "finished"
    assert snapshot(finished.tournament) == before


def test_a_player_of_a_finished_tournament_keeps_their_category(finished):
    # Issue 27, leftover (d): the category ranks them in the final category standings.
    player = finished.registration.player
    old = player.category
    new = next(c for c in Category.values if c and c != old)
    with pytest.raises(UserError) as error:
        player_update(player=player, category=new)
    assert error.value.code == "finished"
    player.refresh_from_db()
    assert player.category == old
    # Their name may still be corrected; the category once the tournament is reopened.
    player_update(player=player, name="Anna Schmidt", category=old)
    tournament_reopen(tournament=finished.tournament, reason="wrong category")
    player_update(player=player, category=new)
    player.refresh_from_db()
    assert player.category == new


def test_confirming_a_match_day_is_logged_as_its_finishing(match_day, league_director):
    # Issue 27, leftover (a).
    play_series(match_day)
    match_day_confirm(tournament=match_day, user=league_director)
    entry = ActionLog.objects.get(tournament=match_day, kind=ActionLog.Kind.FINISHED)
    assert entry.user == league_director
    assert entry.league_id == match_day.season.league_id
    assert entry.details == {"confirmed": True}


def test_reopening_a_confirmed_match_day_withdraws_its_confirmation(match_day, league_director):
    # Issue 27, leftover (b): reopened, the day is provisional until confirmed anew.
    play_series(match_day)
    match_day_confirm(tournament=match_day, user=league_director)
    tournament_reopen(tournament=match_day, user=league_director, reason="a wrong score")
    assert not MatchDayConfirmation.objects.filter(tournament=match_day).exists()
    assert season_tables(match_day.season).day_tables[0].provisional
    entry = ActionLog.objects.get(tournament=match_day, kind=ActionLog.Kind.REOPENED)
    assert entry.details == {"confirmation_withdrawn": True}
    match_day_confirm(tournament=match_day, user=league_director)
    assert MatchDayConfirmation.objects.filter(tournament=match_day).exists()
