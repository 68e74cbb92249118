"""The score-sheet screens (sheets/views.py): who may use them, entering rows, the live
value, corrections, penalties and closing a sheet against the paper list."""

import random

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.demo import fill_table
from tournaments.draw.services import series_draw
from tournaments.models import Game, GameChange, Penalty, PenaltyChange, Table
from tournaments.sheets.selectors import table_seat_totals
from tournaments.sheets.services import game_record, penalty_record, table_close
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


# rules §1.3: grand with 2, 78 card points → game 3 × 24 = 72, won.
GRAND_WITH_2 = {
    "declarer": "2",
    "game": "grand",
    "matadors": "2",
    "card_points": "78",
    "bid": "20",
}


def en(name: str, **kwargs) -> str:
    """The English address: the messages asserted below are the engine's English ones."""
    with translation.override("en"):
        return reverse(name, kwargs=kwargs or None)


def next_row(table: Table, data: dict) -> dict:
    """A desk row as the sheet's form sends it: with the game it fills (the next one)."""
    return {**data, "number": str(table.games.count() + 1)}


def url(name: str, table: Table, **extra) -> str:
    series = table.series
    kwargs = {"tournament": series.tournament.slug, "series": series.number, "table": table.number}
    return en(f"manage:{name}", **kwargs, **extra)


def record(table: Table, **data) -> Game:
    return game_record(table=table, data=data)


# --------------------------------------------------------------------------------------
# Permissions
# --------------------------------------------------------------------------------------


SHEET_REQUESTS = [
    # (method, url name, needs an entered game, POST data, secretary's status)
    ("get", "sheet", False, {}, 200),
    ("post", "sheet", False, {**GRAND_WITH_2, "number": "1"}, 302),
    ("post", "sheet_preview", False, GRAND_WITH_2, 200),
    ("get", "sheet_close", False, {}, 200),
    ("post", "sheet_close", False, {}, 200),
    ("post", "sheet_reopen", False, {}, 302),
    ("post", "sheet_penalty", False, {"seat": "1", "points": "-10"}, 302),
    ("get", "game_correct", True, {}, 200),
    ("post", "game_correct", True, {**GRAND_WITH_2, "card_points": "95"}, 302),
    ("post", "game_delete", True, {}, 302),
]


def _request(client, table, method, name, needs_game, data):
    extra = {"game": 1} if needs_game else {}
    if method == "get":
        return client.get(url(name, table, **extra))
    return client.post(url(name, table, **extra), data)


@pytest.mark.parametrize(("method", "name", "needs_game", "data", "status"), SHEET_REQUESTS)
def test_anonymous_users_are_sent_to_sign_in(
    client_for, anonymous, table, method, name, needs_game, data, status
):
    if needs_game:
        record(table, **{"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78})
    response = _request(client_for(anonymous), table, method, name, needs_game, data)
    assert response.status_code == 302
    assert response["Location"].startswith(en("login"))


@pytest.mark.parametrize("user_fixture", ["player", "other_club_secretary"])
@pytest.mark.parametrize(("method", "name", "needs_game", "data", "status"), SHEET_REQUESTS)
def test_other_users_are_forbidden_and_write_nothing(
    request, client_for, table, user_fixture, method, name, needs_game, data, status
):
    if needs_game:
        record(table, **{"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78})
    before = (Game.objects.count(), GameChange.objects.count(), Penalty.objects.count())
    user = request.getfixturevalue(user_fixture)
    response = _request(client_for(user), table, method, name, needs_game, data)
    assert response.status_code == 403
    assert (Game.objects.count(), GameChange.objects.count(), Penalty.objects.count()) == before


@pytest.mark.parametrize(("method", "name", "needs_game", "data", "status"), SHEET_REQUESTS)
def test_the_clubs_secretary_may_use_every_sheet_screen(
    client_for, secretary, table, method, name, needs_game, data, status
):
    if needs_game:
        record(table, **{"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78})
    response = _request(client_for(secretary), table, method, name, needs_game, data)
    assert response.status_code == status


# --------------------------------------------------------------------------------------
# Entering rows
# --------------------------------------------------------------------------------------


def test_entering_a_row_stores_the_engines_value_and_the_deal_passes_on(
    client_for, secretary, table
):
    client = client_for(secretary)
    response = client.post(url("sheet", table), next_row(table, GRAND_WITH_2))

    assert response.status_code == 302
    assert response["Location"] == url("sheet", table) + "#entry"
    game = Game.objects.get(table=table)
    assert (game.number, game.declarer, game.value, game.score) == (1, 2, 72, 72)
    assert game.changes.get().user == secretary

    page = client.get(url("sheet", table))
    assert page.context["next_number"] == 2
    assert page.context["dealer"] == 2  # seat 2 deals game 2 and sits out
    assert page.context["played"] == 1
    html = page.content.decode()
    assert "1 / 48" in html
    assert "Grand" in html and "72" in html
    # The dealer of game 2 cannot be picked as declarer.
    assert '<option value="2" disabled>' in html


def test_the_page_shows_the_seats_the_count_and_the_next_dealer(client_for, secretary, table):
    response = client_for(secretary).get(url("sheet", table))
    html = response.content.decode()
    assert "0 / 48" in html
    assert "Game 1" in html
    assert "deals and sits out" in html
    for seat in table.seats.select_related("player"):
        assert f"{seat.number} {seat.player.name}" in html
    assert "autofocus" in html


def test_the_dealer_of_a_four_table_is_rejected_inline_and_nothing_is_written(
    client_for, secretary, table
):
    response = client_for(secretary).post(
        url("sheet", table), next_row(table, {**GRAND_WITH_2, "declarer": "1"})
    )

    assert response.status_code == 200
    assert not Game.objects.exists() and not GameChange.objects.exists()
    form = response.context["form"]
    assert "sits out" in form.errors["declarer"][0]
    html = response.content.decode()
    assert "sits out (rules §4)" in html
    assert 'value="78"' in html and 'value="2"' in html  # what was typed stays


def test_a_bad_row_shows_the_engines_reason_and_keeps_what_was_typed(client_for, secretary, table):
    bad = {"declarer": "3", "game": "clubs", "matadors": "12", "card_points": "70", "bid": "18"}
    response = client_for(secretary).post(url("sheet", table), next_row(table, bad))

    assert response.status_code == 200
    assert not Game.objects.exists()
    form = response.context["form"]
    assert "between 1 and 11" in form.errors["matadors"][0]
    html = response.content.decode()
    assert "between 1 and 11" in html
    assert 'name="matadors" value="12"' in html
    assert 'name="card_points" value="70"' in html
    assert '<option value="clubs" selected>' in html
    assert '<option value="3" selected>' in html
    # The cursor goes back to the field to fix.
    assert form.fields["matadors"].widget.attrs.get("autofocus")
    assert not form.fields["declarer"].widget.attrs.get("autofocus")


def test_negative_matadors_mean_without(client_for, secretary, table):
    # rules §1.4: diamonds without 2, 50 card points → 3 × 9 = 27, lost → −54.
    row = {"declarer": "3", "game": "diamonds", "matadors": "-2", "card_points": "50"}
    client_for(secretary).post(url("sheet", table), next_row(table, row))
    game = Game.objects.get()
    assert (game.matadors, game.without, game.value, game.score) == (2, True, 27, -54)


def test_the_without_box_means_without_too(client_for, secretary, table):
    row = {"declarer": "3", "game": "diamonds", "matadors": "2", "without": "on", "won": "lost"}
    client_for(secretary).post(url("sheet", table), next_row(table, row))
    assert Game.objects.get().without is True


def test_an_overbid_game_is_detected_from_the_bid(client_for, secretary, table):
    # rules §1.5: bid 30, clubs with 1 → 24 < 30 → charged 36 → −72.
    row = {"declarer": "2", "game": "clubs", "matadors": "1", "card_points": "70", "bid": "30"}
    client_for(secretary).post(url("sheet", table), next_row(table, row))
    game = Game.objects.get()
    assert (game.value, game.score, game.overbid, game.is_lost) == (36, -72, True, True)


def test_a_null_game_is_entered_with_won_or_lost(client_for, secretary, table):
    row = {"declarer": "4", "game": "null", "ouvert": "on", "won": "lost"}
    client_for(secretary).post(url("sheet", table), next_row(table, row))
    game = Game.objects.get()
    assert (game.value, game.score) == (46, -92)  # rules §1.4: null ouvert lost → −92


def test_a_passed_in_deal_uses_a_row_and_scores_nothing(client_for, secretary, table):
    client = client_for(secretary)
    response = client.post(url("sheet", table), next_row(table, {"game": "passed"}))
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.number, game.declarer, game.score) == (1, None, 0)
    assert client.get(url("sheet", table)).context["next_number"] == 2


def test_a_passed_in_deal_with_a_declarer_is_rejected(client_for, secretary, table):
    response = client_for(secretary).post(
        url("sheet", table), next_row(table, {"declarer": "2", "game": "passed"})
    )
    assert response.status_code == 200
    assert "no declarer" in response.context["form"].errors["declarer"][0]
    assert not Game.objects.exists()


def test_kontra_is_offered_only_when_the_tournament_allows_it(
    client_for, secretary, table, tournament
):
    client = client_for(secretary)
    assert 'name="kontra"' not in client.get(url("sheet", table)).content.decode()
    # A Kontra sent anyway is not a field of the form: it is ignored.
    client.post(url("sheet", table), next_row(table, {**GRAND_WITH_2, "kontra": "on"}))
    assert Game.objects.get(number=1).kontra is False

    tournament.kontra_allowed = True
    tournament.save()
    html = client.get(url("sheet", table)).content.decode()
    assert 'name="kontra"' in html and 'name="re"' in html
    client.post(
        url("sheet", table), next_row(table, {**GRAND_WITH_2, "declarer": "3", "kontra": "on"})
    )
    game = Game.objects.get(number=2)
    assert (game.kontra, game.value, game.score) == (True, 72, 144)  # rules §1.7


def test_the_ispa_form_offers_the_ispa_games_only(client_for, secretary, table):
    form = client_for(secretary).get(url("sheet", table)).context["form"]
    games = [value for value, _label in form.fields["game"].choices if value]
    assert games == ["diamonds", "hearts", "spades", "clubs", "grand", "null", "passed"]
    assert "trump" not in form.fields and "ramsch" not in form.fields


def test_a_complete_sheet_takes_no_more_rows(client_for, secretary, table):
    fill_table(table, random.Random(3))
    client = client_for(secretary)
    page = client.get(url("sheet", table))
    assert page.context["complete"]
    assert "All 48 games are entered" in page.content.decode()
    response = client.post(url("sheet", table), next_row(table, {**GRAND_WITH_2, "declarer": "2"}))
    assert response.status_code == 200
    assert Game.objects.filter(table=table).count() == 48


# --------------------------------------------------------------------------------------
# North American rows, ramsch and penalties
# --------------------------------------------------------------------------------------


@pytest.fixture
def na_table(seated_series, na_tournament) -> Table:
    return seated_series(3, target=na_tournament).tables.get()


def test_na_rows_ramsch_and_a_penalty(client_for, secretary, na_table):
    client = client_for(secretary)
    form = client.get(url("sheet", na_table)).context["form"]
    assert [v for v, _label in form.fields["game"].choices if v] == [
        "tournee",
        "passt_mir_nicht",
        "solo",
        "grand_guckser",
        "grand_ouvert",
        "null",
        "null_ouvert",
        "ramsch",
    ]
    assert "hand" not in form.fields and "kontra" not in form.fields

    # rules §3.2: heart solo with 3, schneider announced and made → 6 × 10 = 60.
    solo = {
        "declarer": "1",
        "game": "solo",
        "trump": "hearts",
        "matadors": "3",
        "schneider_announced": "on",
        "card_points": "95",
    }
    assert client.post(url("sheet", na_table), next_row(na_table, solo)).status_code == 302
    # rules §3.2: diamond tournée with 3 → 20.
    tournee = {
        "declarer": "2",
        "game": "tournee",
        "trump": "diamonds",
        "matadors": "3",
        "card_points": "70",
    }
    assert client.post(url("sheet", na_table), next_row(na_table, tournee)).status_code == 302
    # rules §3.5: the ramsch player who took no trick wins 20.
    ramsch = {"declarer": "3", "game": "ramsch", "ramsch": "no_trick"}
    assert client.post(url("sheet", na_table), next_row(na_table, ramsch)).status_code == 302

    games = list(Game.objects.filter(table=na_table).order_by("number"))
    assert [(g.game, g.declarer, g.score) for g in games] == [
        ("solo", 1, 60),
        ("tournee", 2, 20),
        ("ramsch", 3, 20),
    ]

    response = client.post(
        url("sheet_penalty", na_table), {"seat": "2", "points": "-10", "reason": "misdeal"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#penalties")
    penalty = Penalty.objects.get()
    assert (penalty.seat, penalty.points, penalty.reason) == (2, -10, "misdeal")

    page = client.get(url("sheet", na_table))
    summary = {s.seat: s.list_points for s in page.context["sheet"].summary}
    assert summary == {1: 60, 2: 10, 3: 20}  # rules §3.6: plain totals, fines included
    assert "misdeal" in page.content.decode()


def test_a_penalty_law_is_charged_at_a_games_value_from_the_page(client_for, secretary, na_table):
    client = client_for(secretary)
    # rules §3.2: diamond tournée with 3 → 20, won by seat 2.
    game_record(
        table=na_table,
        data={"declarer": 2, "game": "tournee", "trump": "diamonds", "matadors": 3, "won": True},
    )
    page = client.get(url("sheet", na_table)).content.decode()
    assert 'name="law"' in page and "law 7: an opponent led wrongly" in page
    # Penalty 7: "its value charged against the opponent who made the error".
    response = client.post(url("sheet_penalty", na_table), {"seat": "3", "law": "7", "game": "1"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.seat, penalty.points, penalty.law) == (3, -20, 7)
    # A law needs its game, and its points come from the engine.
    for data in (
        {"seat": "1", "law": "7"},
        {"seat": "1", "law": "7", "game": "1", "points": "-5"},
    ):
        response = client.post(url("sheet_penalty", na_table), data, follow=True)
        assert any(m.level_tag == "error" for m in response.context["messages"])
    assert Penalty.objects.count() == 1


def test_ispa_sheets_offer_no_penalty_laws(client_for, secretary, table):
    page = client_for(secretary).get(url("sheet", table)).content.decode()
    assert 'name="law"' not in page


def test_a_ramsch_without_its_result_is_rejected_inline(client_for, secretary, na_table):
    response = client_for(secretary).post(
        url("sheet", na_table), next_row(na_table, {"declarer": "3", "game": "ramsch"})
    )
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Game.objects.exists()


def test_a_penalty_of_zero_is_refused_with_a_message(client_for, secretary, table):
    response = client_for(secretary).post(
        url("sheet_penalty", table), {"seat": "1", "points": "0"}, follow=True
    )
    assert not Penalty.objects.exists()
    assert any(m.level_tag == "error" for m in response.context["messages"])


# --------------------------------------------------------------------------------------
# The live value
# --------------------------------------------------------------------------------------


def test_the_preview_of_a_good_row(client_for, secretary, table):
    response = client_for(secretary).post(url("sheet_preview", table), GRAND_WITH_2)
    assert response.status_code == 200
    data = response.json()
    assert data == {
        "ok": True,
        "value": 72,
        "score": 72,
        "won": True,
        "overbid": False,
        "list_declarer": 122,
        "list_others": 0,
        "text": "Value 72 · +72 · won · list +122",
    }
    assert not Game.objects.exists()


def test_the_preview_of_a_lost_row_shows_the_others_bonus(client_for, secretary, table):
    row = {"declarer": "2", "game": "clubs", "matadors": "1", "card_points": "70", "bid": "30"}
    data = client_for(secretary).post(url("sheet_preview", table), row).json()
    assert (data["score"], data["overbid"], data["list_declarer"], data["list_others"]) == (
        -72,
        True,
        -122,
        30,
    )


def test_the_preview_of_a_bad_row(client_for, secretary, table):
    bad = {"declarer": "2", "game": "clubs", "matadors": "12", "card_points": "70"}
    response = client_for(secretary).post(url("sheet_preview", table), bad)
    assert response.status_code == 200
    data = response.json()
    assert data["ok"] is False
    assert "between 1 and 11" in data["error"]
    assert data["field"] == "matadors"


def test_the_preview_reports_form_errors_and_the_dealer(client_for, secretary, table):
    client = client_for(secretary)
    data = client.post(url("sheet_preview", table), {"declarer": "2"}).json()
    assert (data["ok"], data["field"]) == (False, "game")
    data = client.post(url("sheet_preview", table), {**GRAND_WITH_2, "declarer": "1"}).json()
    assert (data["ok"], data["field"]) == (False, "declarer")


def test_the_preview_of_a_correction_uses_that_games_dealer(client_for, secretary, table):
    record(table, declarer=2, game="grand", matadors=2, card_points=78)
    record(table, declarer=3, game="grand", matadors=2, card_points=78)
    # Game 2 is dealt by seat 2: as a correction of game 1, seat 2 may declare.
    preview = url("sheet_preview", table) + "?game=1"
    data = client_for(secretary).post(preview, GRAND_WITH_2).json()
    assert data["ok"] is True


def test_the_preview_is_post_only(client_for, secretary, table):
    assert client_for(secretary).get(url("sheet_preview", table)).status_code == 405


# --------------------------------------------------------------------------------------
# Corrections
# --------------------------------------------------------------------------------------


def test_the_correction_form_is_prefilled_from_the_stored_game(client_for, secretary, table):
    record(table, declarer=3, game="spades", matadors=2, without=True, card_points=50, bid=18)
    form = client_for(secretary).get(url("game_correct", table, game=1)).context["form"]
    assert form["declarer"].value() == 3
    assert form["game"].value() == "spades"
    assert form["matadors"].value() == -2
    assert form["card_points"].value() == 50
    assert form["bid"].value() == 18


def test_a_correction_is_kept_with_who_and_old_to_new_and_the_standings_follow(
    client_for, secretary, table, tournament
):
    game = record(table, declarer=2, game="grand", matadors=2, card_points=78, bid=20)
    declarer = table.seats.get(number=2).player
    standings = {row.player_id: row for row in tournament_standings(tournament)}
    assert standings[declarer.pk].list_points == 72 + 50

    client = client_for(secretary)
    response = client.post(
        url("game_correct", table, game=1),
        {**GRAND_WITH_2, "card_points": "95", "reason": "typed 78 instead of 95"},
    )

    assert response.status_code == 302
    assert response["Location"] == url("sheet", table) + "#game-1"
    change = GameChange.objects.get(action=GameChange.Action.CORRECTED)
    assert change.user == secretary
    assert change.game_id == game.pk
    assert change.reason == "typed 78 instead of 95"
    # rules §1.3: with 2, game 3, schneider 4 → 96.
    assert change.diff["card_points"] == [78, 95]
    assert change.diff["value"] == [72, 96]

    standings = {row.player_id: row for row in tournament_standings(tournament)}
    assert standings[declarer.pk].list_points == 96 + 50

    sheet = client.get(url("sheet", table)).content.decode()
    assert "corrected" in sheet
    assert "typed 78 instead of 95" in sheet
    page = client.get(url("game_correct", table, game=1))
    html = page.content.decode()
    assert "secretary" in html
    assert '<span class="diff-old">78</span> → <span class="diff-new">95</span>' in html
    assert '<span class="diff-old">72</span> → <span class="diff-new">96</span>' in html


def test_a_correction_that_changes_nothing_writes_no_history(client_for, secretary, table):
    record(table, declarer=2, game="grand", matadors=2, card_points=78, bid=20)
    client_for(secretary).post(url("game_correct", table, game=1), GRAND_WITH_2)
    assert not GameChange.objects.filter(action=GameChange.Action.CORRECTED).exists()


def test_a_bad_correction_is_shown_inline_and_the_game_stays(client_for, secretary, table):
    record(table, declarer=2, game="grand", matadors=2, card_points=78)
    response = client_for(secretary).post(
        url("game_correct", table, game=1),
        {**GRAND_WITH_2, "matadors": "5"},
    )
    assert response.status_code == 200
    assert "matadors" in response.context["form"].errors
    assert 'name="matadors" value="5"' in response.content.decode()
    assert Game.objects.get().matadors == 2


def test_an_unknown_game_is_not_found(client_for, secretary, table):
    assert client_for(secretary).get(url("game_correct", table, game=7)).status_code == 404


def test_only_the_last_game_can_be_deleted(client_for, secretary, table):
    record(table, declarer=2, game="grand", matadors=2, card_points=78)
    record(table, declarer=3, game="grand", matadors=2, card_points=78)
    client = client_for(secretary)

    client.post(url("game_delete", table, game=1))
    assert Game.objects.count() == 2

    response = client.post(url("game_delete", table, game=2))
    assert response.status_code == 302
    assert list(Game.objects.values_list("number", flat=True)) == [1]
    deleted = GameChange.objects.get(action=GameChange.Action.DELETED)
    assert (deleted.game_number, deleted.user) == (2, secretary)


# --------------------------------------------------------------------------------------
# Closing and reopening
# --------------------------------------------------------------------------------------


def test_a_sheet_short_of_the_series_length_does_not_close(client_for, secretary, table):
    record(table, declarer=2, game="grand", matadors=2, card_points=78)
    response = client_for(secretary).post(url("sheet_close", table), {})
    assert response.status_code == 200
    assert "1 of 48 games" in response.content.decode()
    table.refresh_from_db()
    assert not table.closed


def test_wrong_paper_totals_are_listed_and_the_sheet_stays_open_until_accepted(
    client_for, secretary, table
):
    fill_table(table, random.Random(11))
    totals = {line.seat: line.list_points for line in table_seat_totals(table)}
    paper = {f"seat_{seat}": str(points) for seat, points in totals.items()}
    paper["seat_3"] = str(totals[3] + 50)
    client = client_for(secretary)

    response = client.post(url("sheet_close", table), paper)

    assert response.status_code == 200
    differences = response.context["differences"]
    assert [(d["seat"], d["paper"], d["computed"]) for d in differences] == [
        (3, totals[3] + 50, totals[3])
    ]
    html = response.content.decode()
    assert "Close anyway (the paper list is wrong)" in html
    assert table.seats.get(number=3).player.name in html
    table.refresh_from_db()
    assert not table.closed
    assert table.paper_totals["3"] == totals[3] + 50

    response = client.post(url("sheet_close", table), {**paper, "accept": "1"})
    assert response.status_code == 302
    assert response["Location"] == en(
        "manage:series", tournament=table.series.tournament.slug, series=1
    )
    table.refresh_from_db()
    assert table.closed


def test_matching_paper_totals_close_the_sheet_at_once(client_for, secretary, table):
    fill_table(table, random.Random(5))
    totals = {line.seat: line.list_points for line in table_seat_totals(table)}
    paper = {f"seat_{seat}": str(points) for seat, points in totals.items()}
    response = client_for(secretary).post(url("sheet_close", table), paper)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.closed


def test_a_closed_sheet_takes_no_rows_until_reopened(client_for, secretary, table):
    fill_table(table, random.Random(5))
    table_close(table=table)
    client = client_for(secretary)
    html = client.get(url("sheet", table)).content.decode()
    assert "This sheet is closed" in html
    assert 'id="close-sheet"' not in html

    response = client.post(url("sheet_reopen", table))
    assert response.status_code == 302
    table.refresh_from_db()
    assert not table.closed


# --------------------------------------------------------------------------------------
# Penalties: bounded, removable with history; a closed sheet changes only after reopening
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("points", ["99999999999999999999999", "3000000000", "1001", "-1001"])
def test_a_penalty_out_of_range_is_refused_with_a_message(client_for, secretary, table, points):
    response = client_for(secretary).post(
        url("sheet_penalty", table), {"seat": "1", "points": points}, follow=True
    )
    assert response.status_code == 200
    assert not Penalty.objects.exists()
    errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
    assert errors and "1000" in errors[0]


def test_a_mistyped_penalty_is_removed_and_kept_in_its_history(client_for, secretary, table):
    client = client_for(secretary)
    client.post(url("sheet_penalty", table), {"seat": "3", "points": "-100", "reason": "misdeal"})
    penalty = Penalty.objects.get()
    page = client.get(url("sheet", table)).content.decode()
    delete_url = url("sheet_penalty_delete", table, pk=penalty.pk)
    assert f'action="{delete_url}"' in page
    response = client.post(delete_url, {}, follow=True)
    assert "The penalty was removed." in response.content.decode()
    assert not Penalty.objects.exists()
    entered, removed = PenaltyChange.objects.order_by("id")
    assert (entered.action, removed.action) == ("created", "deleted")
    assert (removed.seat, removed.points, removed.penalty_reason) == (3, -100, "misdeal")
    assert removed.user == secretary
    assert "Penalty history" in response.content.decode()
    # The standings no longer count it.
    totals = {t.seat: t for t in table_seat_totals(table)}
    assert totals[3].list_points == 0


@pytest.mark.parametrize("who", ["anonymous", "player", "other_club_secretary"])
def test_only_the_clubs_secretary_removes_a_penalty(request, client_for, table, who):
    penalty = penalty_record(table=table, seat=1, points=-10)
    client = client_for(request.getfixturevalue(who))
    response = client.post(url("sheet_penalty_delete", table, pk=penalty.pk))
    assert response.status_code == (302 if who == "anonymous" else 403)
    assert Penalty.objects.filter(pk=penalty.pk).exists()


def test_a_penalty_of_another_table_is_not_found(client_for, secretary, tournament, roster):
    from tests.factories import RegistrationFactory

    for p in roster(8):
        RegistrationFactory(tournament=tournament, player=p)
    series = series_draw(tournament=tournament, seed=1)
    one, two = series.tables.order_by("number")
    penalty = penalty_record(table=two, seat=1, points=-10)
    response = client_for(secretary).post(url("sheet_penalty_delete", one, pk=penalty.pk))
    assert response.status_code == 404
    assert Penalty.objects.exists()


def _state(table):
    return (
        list(table.games.order_by("number").values_list("number", "card_points")),
        list(table.penalties.values_list("seat", "points")),
        GameChange.objects.count(),
        PenaltyChange.objects.count(),
    )


@pytest.mark.parametrize(
    ("name", "extra", "data"),
    [
        ("game_delete", {"game": 2}, {}),
        ("game_correct", {"game": 1}, {**GRAND_WITH_2, "card_points": "95"}),
        ("sheet_penalty", {}, {"seat": "2", "points": "-10"}),
        ("sheet_penalty_delete", {"pk": None}, {}),
    ],
)
def test_a_closed_sheet_changes_only_after_reopening(
    client_for, secretary, closed_table, name, extra, data
):
    if "pk" in extra:
        extra = {"pk": closed_table.penalties.get().pk}
    before = _state(closed_table)
    response = client_for(secretary).post(url(name, closed_table, **extra), data, follow=True)
    assert response.status_code == 200
    assert "This sheet is closed; reopen it to change it." in response.content.decode()
    assert _state(closed_table) == before
    closed_table.refresh_from_db()
    assert closed_table.closed


def test_a_closed_sheet_offers_no_penalty_buttons(client_for, secretary, closed_table):
    page = client_for(secretary).get(url("sheet", closed_table)).content.decode()
    assert "Add penalty" not in page
    assert "sheet_penalty_delete" not in page and "/delete/" not in page


# --------------------------------------------------------------------------------------
# Keyboard entry: a fixed Tab order and messages in words (issue 12)
# --------------------------------------------------------------------------------------


def test_the_row_fields_come_in_one_order_with_won_lost_after_the_bid(
    client_for, secretary, table
):
    # Won / lost is optional with card points; after the bid it never stands between two
    # fields the secretary types, so the Tab order does not depend on what was typed.
    form = client_for(secretary).get(url("sheet", table)).context["form"]
    names = [field.name for field in form.main_fields()]
    assert names == ["declarer", "game", "matadors", "card_points", "bid", "won"]


@pytest.mark.parametrize(
    ("row", "field", "shown", "hidden"),
    [
        (
            {"declarer": "2", "game": "grand", "matadors": "2", "card_points": "130"},
            "card_points",
            "card points must be between 0 and 120",
            "card_points",
        ),
        (
            {**GRAND_WITH_2, "card_points": "90", "won": "lost"},
            "won",
            "contradicts the card points 90",
            "is false",
        ),
        (
            {"declarer": "2", "game": "grand", "matadors": "2", "schneider_announced": "on"},
            "schneider_announced",
            "schneider announced requires a hand game",
            "schneider_announced",
        ),
    ],
)
def test_english_messages_name_the_fields_by_their_labels(
    client_for, secretary, table, row, field, shown, hidden
):
    response = client_for(secretary).post(url("sheet", table), next_row(table, row))
    message = response.context["form"].errors[field][0]
    assert shown in message.lower() and hidden not in message
    assert not Game.objects.exists()


def test_a_null_game_without_won_or_lost_says_what_to_choose(client_for, secretary, table):
    response = client_for(secretary).post(
        url("sheet", table), next_row(table, {"declarer": "2", "game": "null", "bid": "23"})
    )
    message = response.context["form"].errors["won"][0]
    assert message.startswith("Choose “won” or “lost”")
    assert "won is required" not in message
    assert not Game.objects.exists()
