"""Entry at the table (entry/views.py): the players' phone pages behind the private links,
rows sent twice, provisional results and their confirmation, two copies under double
entry, and the director's pages (confirm, settle, links, QR codes)."""

import json
import uuid

import pytest

from tests.tournaments.entry.helpers import (
    CLUBS,
    GRAND,
    NULL_LOST,
    en,
    keys_both,
    link,
    manage,
    send,
)
from tournaments.entry.selectors import sheet_copies_compare
from tournaments.entry.services import game_record_at_table, sheet_confirm, table_link_revoke
from tournaments.errors import UserError
from tournaments.games import game_mapping_of
from tournaments.models import Game, GameChange, Series, SheetCopy, Table
from tournaments.sheets.selectors import table_sheet
from tournaments.sheets.services import game_correct, game_delete, game_record
from tournaments.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# The phone's page and its private link
# --------------------------------------------------------------------------------------


def test_the_phone_page_shows_the_table_and_nothing_else(phone, table):
    response = phone.get(link(table.entry_token))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Herbstpreisskat" in page
    assert "Table 1" in page and "Series 1" in page
    for seat in table.seats.select_related("player"):
        assert seat.player.name in page
    assert "/manage/" not in page
    assert response["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response["X-Robots-Tag"]


def test_an_unpublished_tournament_still_shows_the_names_to_the_link_holder(
    phone, tournament, table
):
    tournament.published = False
    tournament.save()
    response = phone.get(link(table.entry_token))
    assert response.status_code == 200
    assert table.seats.first().player.name in response.content.decode()


@pytest.mark.parametrize("token", ["x" * 32, "short", "a" * 65, "bad token!" * 4])
def test_a_guessed_token_is_a_friendly_404(phone, table, token):
    response = phone.get(f"/entry/{token}/")
    assert response.status_code == 404
    assert "This link does not work" in response.content.decode()
    response = send(phone, token, GRAND)
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_link"
    assert not Game.objects.exists()


def test_another_tables_link_cannot_write_to_this_table(phone, table, other_table):
    response = send(phone, other_table.entry_token, GRAND)
    assert response.status_code == 201
    assert not table.games.exists()
    assert other_table.games.count() == 1


def test_the_second_link_works_only_under_double_entry(phone, tournament, double):
    token_2 = double.entry_token_2
    assert phone.get(link(token_2)).status_code == 200
    tournament.double_entry = False
    tournament.save()
    assert phone.get(link(token_2)).status_code == 404


def test_a_closed_series_takes_no_rows(phone, series, table):
    token = table.entry_token
    Series.objects.filter(pk=series.pk).update(status=Series.Status.CLOSED)
    response = send(phone, token, GRAND)
    assert response.status_code == 410
    assert response.json()["code"] == "closed"
    page = phone.get(link(token))
    assert page.status_code == 200
    assert "This sheet is closed" in page.content.decode()
    assert 'name="game"' not in page.content.decode()
    assert not Game.objects.exists()


def test_a_closed_sheet_takes_no_rows(phone, table):
    Table.objects.filter(pk=table.pk).update(closed=True)
    assert send(phone, table.entry_token, GRAND).status_code == 410
    assert not Game.objects.exists()


def test_a_closed_series_of_an_unpublished_tournament_shows_no_sheet(
    phone, tournament, series, table
):
    send(phone, table.entry_token, GRAND, number=1)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.CLOSED)
    tournament.published = False
    tournament.save()
    page = phone.get(link(table.entry_token))
    assert page.status_code == 200
    text = page.content.decode()
    assert "This series is closed" in text
    assert table.seats.first().player.name not in text
    state = phone.get(link(table.entry_token, "_state"), HTTP_ACCEPT="application/json")
    assert state.status_code == 410 and state.json()["code"] == "closed"
    tournament.published = True
    tournament.save()
    assert table.seats.first().player.name in phone.get(link(table.entry_token)).content.decode()


# --------------------------------------------------------------------------------------
# Rows from the phone
# --------------------------------------------------------------------------------------


def test_a_row_is_entered_provisionally_with_its_history(phone, table):
    response = send(phone, table.entry_token, GRAND, number=1)
    assert response.status_code == 201
    body = response.json()
    assert body["ok"] and body["created"] and body["number"] == 1
    game = table.games.get()
    assert game.provisional and str(game.client_id) == body["client_id"]
    assert (game.value, game.score) == (72, 72)
    change = GameChange.objects.get(game=game)
    assert change.action == GameChange.Action.CREATED
    assert change.user is None and change.reason == "table link"
    # The answer carries the sheet as it stands: rows, running totals, the next game.
    state = body["state"]
    assert state["rows"][0]["score"] == 72 and state["rows"][0]["provisional"]
    assert state["rows"][0]["running"]["2"] == 72
    assert state["next"] == {
        "number": 2,
        "dealer": 2,
        "dealer_name": state["next"]["dealer_name"],
        "sits_out": False,
    }
    assert "Game" in state["html"] or "grand" in state["html"].lower()


def test_the_same_row_sent_twice_is_entered_once(phone, table):
    client_id = uuid.uuid4()
    first = send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    again = send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["created"] is False and again.json()["number"] == 1
    assert table.games.count() == 1
    # Even after the sheet moved on or closed, the resend is answered with the stored row.
    send(phone, table.entry_token, CLUBS, number=2)
    Table.objects.filter(pk=table.pk).update(closed=True)
    late = send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    assert late.status_code == 200 and late.json()["number"] == 1
    assert table.games.count() == 2


def test_a_row_id_used_at_another_table_is_refused(phone, table, other_table):
    client_id = uuid.uuid4()
    assert send(phone, table.entry_token, GRAND, client_id=client_id).status_code == 201
    response = send(phone, other_table.entry_token, GRAND, client_id=client_id)
    assert response.status_code == 409
    assert response.json()["code"] == "client_id_conflict"
    assert not other_table.games.exists()


def test_the_same_row_id_with_other_content_is_refused(phone, table):
    client_id = uuid.uuid4()
    assert send(phone, table.entry_token, GRAND, client_id=client_id, number=1).status_code == 201
    response = send(phone, table.entry_token, CLUBS, client_id=client_id, number=1)
    assert response.status_code == 409
    assert response.json()["code"] == "client_id_conflict"
    assert "different content" in response.json()["error"]
    game = table.games.get()
    assert game.game == "grand"
    # A row that does not even check is not the stored row either.
    bad = send(phone, table.entry_token, {**GRAND, "matadors": "9"}, client_id=client_id)
    assert bad.status_code == 409 and bad.json()["code"] == "client_id_conflict"
    with pytest.raises(UserError, match="different content"):
        game_record_at_table(table=table, data={"game": "passed"}, client_id=client_id, number=1)


def test_a_resend_after_a_correction_by_the_director_is_still_the_same_row(
    phone, table, secretary
):
    client_id = uuid.uuid4()
    send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    game_correct(
        game=table.games.get(), data={"declarer": 2, "game": "grand", "matadors": 3, "won": True}
    )
    again = send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    assert again.status_code == 200 and again.json()["created"] is False
    assert table.games.get().matadors == 3


def test_the_second_copy_refuses_the_same_row_id_with_other_content(phone, double):
    client_id = uuid.uuid4()
    assert send(phone, double.entry_token_2, GRAND, client_id=client_id).status_code == 201
    same = send(phone, double.entry_token_2, GRAND, client_id=client_id, number=1)
    assert same.status_code == 200 and same.json()["created"] is False
    other = send(phone, double.entry_token_2, CLUBS, client_id=client_id, number=1)
    assert other.status_code == 409 and other.json()["code"] == "client_id_conflict"
    assert len(SheetCopy.objects.get(table=double).rows) == 1


def test_a_row_for_a_game_entered_elsewhere_meanwhile_is_refused(phone, table, secretary):
    game_record(table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    response = send(phone, table.entry_token, GRAND, number=1)
    assert response.status_code == 409
    assert response.json()["code"] == "number_taken"
    assert table.games.count() == 1
    # The answer carries the sheet as it stands, so the phone shows the desk's game 1 and
    # makes its own row game 2 (static/js/entry.js renumbers its queue from `next`).
    state = response.json()["state"]
    assert state["next"]["number"] == 2
    assert [row["number"] for row in state["rows"]] == [1]
    client_id = uuid.uuid4()
    later = send(phone, table.entry_token, CLUBS, number=3, client_id=client_id)
    assert later.status_code == 409 and later.json()["code"] == "number_gap"
    assert later.json()["state"]["next"]["number"] == 2
    # Sent again as game 2 with the same id: entered.
    assert send(phone, table.entry_token, CLUBS, number=2, client_id=client_id).status_code == 201


def test_a_row_without_its_game_number_is_refused(phone, table):
    body = {"client_id": str(uuid.uuid4()), "number": None, "data": GRAND}
    response = phone.post(
        link(table.entry_token, "_games"),
        json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400
    assert not table.games.exists()


def test_phone_posts_need_the_csrf_token(table):
    from django.test import Client

    phone = Client(enforce_csrf_checks=True)
    page = phone.get(link(table.entry_token))
    token = page.cookies["csrftoken"].value
    body = json.dumps({"client_id": str(uuid.uuid4()), "number": 1, "data": GRAND})
    url = link(table.entry_token, "_games")
    refused = phone.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    assert not table.games.exists()
    entered = phone.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert entered.status_code == 201
    plain = {**CLUBS, "client_id": str(uuid.uuid4()), "number": "2"}
    assert phone.post(url, plain).status_code == 403
    assert phone.post(url, {**plain, "csrfmiddlewaretoken": token}).status_code == 302
    assert phone.post(link(table.entry_token, "_preview"), {**GRAND}).status_code == 403
    assert table.games.count() == 2


def test_a_row_stored_before_the_link_was_revoked_is_not_offered_again(phone, table):
    client_id = uuid.uuid4()
    old = table.entry_token
    assert send(phone, old, GRAND, client_id=client_id, number=1).status_code == 201
    table_link_revoke(table=table)  # the answer was lost; the phone sends again
    response = send(phone, old, GRAND, client_id=client_id, number=1)
    assert response.status_code == 410
    assert response.json()["code"] == "gone_entered" and response.json()["number"] == 1
    # A row not stored: the plain 404, which tells nothing about the table.
    other = send(phone, old, CLUBS, number=2)
    assert other.status_code == 404 and other.json()["code"] == "unknown_link"
    assert table.games.count() == 1


def test_a_row_the_director_deleted_is_not_entered_again_by_a_late_resend(phone, table, secretary):
    client_id = uuid.uuid4()
    send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    game_delete(game=table.games.get(), user=secretary)
    response = send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    assert response.status_code == 410
    assert response.json()["code"] == "deleted"
    assert "deleted by the director" in response.json()["error"]
    assert not table.games.exists()


def test_the_phones_row_id_stays_out_of_the_history_page(phone, table, client_for, secretary):
    client_id = uuid.uuid4()
    send(phone, table.entry_token, GRAND, client_id=client_id, number=1)
    page = client_for(secretary).get(manage("entry_confirm", table)).content.decode()
    assert "table link" in page and str(client_id) not in page


def test_a_wrong_row_says_why_and_enters_nothing(phone, table):
    response = send(phone, table.entry_token, {**GRAND, "matadors": "12"})
    assert response.status_code == 400
    assert "between 1 and 4" in response.json()["error"]
    assert response.json()["field"] == "matadors"
    assert not Game.objects.exists()


def test_the_row_can_be_posted_without_script(phone, table):
    response = phone.post(
        link(table.entry_token, "_games"),
        {**GRAND, "client_id": str(uuid.uuid4()), "number": "1"},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(link(table.entry_token) + "#sheet")
    assert table.games.get().provisional
    wrong = phone.post(
        link(table.entry_token, "_games"),
        {**CLUBS, "matadors": "15", "client_id": str(uuid.uuid4()), "number": "2"},
    )
    assert wrong.status_code == 200
    assert "between 1 and 11" in wrong.content.decode()
    assert table.games.count() == 1


def test_the_live_value_on_the_phone(phone, table):
    response = phone.post(link(table.entry_token, "_preview"), {**GRAND, "number": "1"})
    assert response.json()["ok"]
    assert response.json()["text"] == "Value 72 · +72 · won · list +122"
    assert not Game.objects.exists()


def test_the_sheet_as_json(phone, table):
    send(phone, table.entry_token, GRAND)
    answer = send(phone, table.entry_token, NULL_LOST).json()  # without a number
    assert [row["number"] for row in answer["state"]["rows"]] == [1, 2]
    state = phone.get(link(table.entry_token, "_state")).json()["state"]
    assert [row["number"] for row in state["rows"]] == [1, 2]
    assert state["rows"][1]["score"] == -46
    assert state["next"]["number"] == 3 and state["next"]["dealer"] == 3
    assert {line["seat"] for line in state["summary"]} == {1, 2, 3}


# --------------------------------------------------------------------------------------
# Provisional results and confirmation
# --------------------------------------------------------------------------------------


def test_standings_show_provisional_games_until_the_director_confirms(
    phone, client_for, secretary, tournament, table
):
    send(phone, table.entry_token, GRAND)
    rows = tournament_standings(tournament)
    at_table = {seat.player_id for seat in table.seats.all()}
    assert {row.player_id for row in rows if row.provisional} == at_table
    assert next(r for r in rows if r.provisional and r.list_points == 122)
    page = client_for(None).get(en("tournament_detail", tournament=tournament.slug))
    assert 'class="provisional"' in page.content.decode()
    assert "provisional: includes games entered at the table" in page.content.decode()

    director = client_for(secretary)
    response = director.post(manage("entry_confirm", table))
    assert response.status_code == 302
    assert not Game.objects.filter(provisional=True).exists()
    rows = tournament_standings(tournament)
    assert not any(row.provisional for row in rows)
    assert next(r for r in rows if r.list_points == 122)  # the same figures, now final
    change = GameChange.objects.get(diff__has_key="provisional")
    assert change.diff == {"provisional": [True, False]}
    assert change.user == secretary and change.reason == "sheet confirmed"
    page = client_for(None).get(en("tournament_detail", tournament=tournament.slug))
    assert 'class="provisional"' not in page.content.decode()


def test_a_correction_keeps_a_phone_row_provisional_and_resendable(phone, table):
    client_id = uuid.uuid4()
    send(phone, table.entry_token, GRAND, client_id=client_id)
    game = table.games.get()
    game_correct(game=game, data={**game_mapping_of(game), "bid": 18})
    game.refresh_from_db()
    assert game.provisional and game.client_id == client_id
    assert send(phone, table.entry_token, GRAND, client_id=client_id).status_code == 200
    assert table.games.count() == 1


def test_the_sheet_page_marks_provisional_rows_and_offers_confirmation(
    phone, client_for, secretary, table
):
    send(phone, table.entry_token, GRAND)
    page = client_for(secretary).get(manage("sheet", table)).content.decode()
    assert 'class="badge provisional"' in page
    assert 'id="confirm-provisional"' in page


# --------------------------------------------------------------------------------------
# Double entry
# --------------------------------------------------------------------------------------


def test_the_second_keeper_fills_the_second_copy(phone, double):
    response = send(phone, double.entry_token_2, GRAND, number=1)
    assert response.status_code == 201
    assert not double.games.exists()
    copy = SheetCopy.objects.get(table=double)
    assert copy.rows[0]["number"] == 1
    assert copy.rows[0]["data"] == {
        "declarer": 2,
        "game": "grand",
        "matadors": 2,
        "won": True,
        "bid": 20,
    }
    state = response.json()["state"]
    assert state["rows"][0]["score"] == 72 and state["rows"][0]["running"]["2"] == 72
    # The same row again: once.
    client_id = copy.rows[0]["client_id"]
    assert send(phone, double.entry_token_2, GRAND, client_id=client_id).status_code == 200
    assert len(SheetCopy.objects.get(table=double).rows) == 1


def test_equal_copies_can_be_confirmed_by_the_second_keeper(phone, double, tournament):
    keys_both(phone, double, GRAND, CLUBS)
    page = phone.get(link(double.entry_token_2)).content.decode()
    assert 'id="confirm-sheet"' in page
    assert 'id="confirm-sheet"' not in phone.get(link(double.entry_token)).content.decode()
    response = phone.post(link(double.entry_token_2, "_phone_confirm"))
    assert response.status_code == 302
    assert not double.games.filter(provisional=True).exists()
    assert (
        GameChange.objects.filter(
            reason="sheet confirmed by the second list keeper", user=None
        ).count()
        == 2
    )
    # The first keeper's link cannot confirm.
    assert phone.post(link(double.entry_token, "_phone_confirm")).status_code == 404


def test_a_differing_row_is_shown_side_by_side_and_does_not_count(
    phone, client_for, secretary, tournament, double
):
    keys_both(phone, double, GRAND)
    send(phone, double.entry_token, CLUBS)
    send(phone, double.entry_token_2, {**CLUBS, "card_points": "50"})  # lost: −48
    compare = sheet_copies_compare(double)
    assert [(row.number, row.equal, row.disputed) for row in compare] == [
        (1, True, False),
        (2, False, True),
    ]
    # Game 2 counts nowhere: seat 3's list points are those without it.
    rows = {row.player_id: row for row in tournament_standings(tournament)}
    seat_3 = double.seats.get(number=3).player_id
    assert rows[seat_3].list_points == 0 and rows[seat_3].provisional
    assert table_sheet(double, blank_rows=False).rows[1].disputed

    director = client_for(secretary)
    page = director.get(manage("entry_confirm", double)).content.decode()
    assert 'id="copy-2"' in page and 'data-settle="2-first"' in page
    assert 'data-settle="2-second"' in page
    assert "70 pts" in page and "50 pts" in page
    assert 'id="confirm-sheet" disabled' in page
    with pytest.raises(UserError, match="differ in game 2"):
        sheet_confirm(table=double, user=secretary)
    director.post(manage("entry_confirm", double))
    assert double.games.filter(provisional=True).count() == 2
    # The second keeper cannot confirm either.
    assert 'id="confirm-sheet"' not in phone.get(link(double.entry_token_2)).content.decode()


def test_settling_with_the_first_copy(phone, client_for, secretary, tournament, double):
    keys_both(phone, double, GRAND)
    send(phone, double.entry_token, CLUBS)
    send(phone, double.entry_token_2, {**CLUBS, "card_points": "50"})
    response = client_for(secretary).post(
        manage("entry_settle", double), {"number": "2", "choose": "first"}
    )
    assert response.status_code == 302
    copy = SheetCopy.objects.get(table=double)
    assert copy.rows[1]["data"]["card_points"] == 70
    change = GameChange.objects.get(game__number=2, action=GameChange.Action.CORRECTED)
    assert change.user == secretary and change.reason.startswith("settled")
    assert change.diff["card_points"] == [50, 70]
    rows = {row.player_id: row for row in tournament_standings(tournament)}
    assert rows[double.seats.get(number=3).player_id].list_points == 24 + 50
    assert sheet_confirm(table=double, user=secretary) == 2


def test_settling_with_the_second_copy(phone, client_for, secretary, double):
    keys_both(phone, double, GRAND)
    send(phone, double.entry_token, CLUBS)
    send(phone, double.entry_token_2, {**CLUBS, "card_points": "50"})
    client_for(secretary).post(manage("entry_settle", double), {"number": "2", "choose": "second"})
    game = double.games.get(number=2)
    assert (game.card_points, game.score, game.provisional) == (50, -48, True)
    change = GameChange.objects.get(game=game, action=GameChange.Action.CORRECTED)
    assert change.reason == "settled: the second copy's version"
    assert change.diff["card_points"] == [70, 50]
    assert all(row.equal for row in sheet_copies_compare(double))
    assert sheet_confirm(table=double, user=secretary) == 2


# --------------------------------------------------------------------------------------
# The director's pages
# --------------------------------------------------------------------------------------


DIRECTOR_REQUESTS = [
    ("get", "entry_confirm", {}),
    ("post", "entry_confirm", {}),
    ("post", "entry_settle", {"choose": "first"}),
    ("post", "entry_link", {"action": "reissue"}),
    ("get", "entry_qr", {}),
]


@pytest.mark.parametrize(
    "who, status",
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", None)],
)
@pytest.mark.parametrize("method, name, data", DIRECTOR_REQUESTS)
def test_the_directors_pages_are_for_the_clubs_secretaries(
    request, client_for, table, who, status, method, name, data
):
    client = client_for(request.getfixturevalue(who))
    response = getattr(client, method)(manage(name, table), data)
    if status is None:
        assert response.status_code == (200 if method == "get" else 302)
    else:
        assert response.status_code == status
        if status == 302:
            assert "/login/" in response["Location"]


@pytest.mark.parametrize(
    "who, status",
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", 302)],
)
def test_series_links_are_for_the_clubs_secretaries(request, client_for, series, who, status):
    url = en("manage:entry_links", tournament=series.tournament.slug, series=series.number)
    response = client_for(request.getfixturevalue(who)).post(url, {"action": "reissue"})
    assert response.status_code == status


def test_the_director_reissues_and_revokes_a_tables_link(client_for, secretary, table):
    director = client_for(secretary)
    old = table.entry_token
    director.post(manage("entry_link", table), {"action": "reissue"})
    table.refresh_from_db()
    assert table.entry_token and table.entry_token != old
    director.post(manage("entry_link", table), {"action": "revoke"})
    table.refresh_from_db()
    assert table.entry_token is None


@pytest.mark.parametrize(
    "target", ["/\\evil.com", "//evil.com", "https://evil.com/", "/\\/evil.com", "javascript:x"]
)
def test_the_next_address_stays_on_the_site(client_for, secretary, table, target):
    response = client_for(secretary).post(
        manage("entry_link", table), {"action": "reissue", "next": target}
    )
    assert response.status_code == 302
    assert response["Location"] == manage("entry_confirm", table)


def test_the_next_address_may_be_a_page_of_the_site(client_for, secretary, table):
    response = client_for(secretary).post(
        manage("entry_link", table), {"action": "reissue", "next": "/manage/x/?a=1#b"}
    )
    assert response["Location"] == "/manage/x/?a=1#b"


def test_the_series_page_shows_each_tables_link_and_qr_code(client_for, secretary, series, table):
    url = en("manage:series", tournament=series.tournament.slug, series=series.number)
    page = client_for(secretary).get(url).content.decode()
    assert f"http://testserver/entry/{table.entry_token}/" in page
    assert manage("entry_qr", table) in page
    qr = client_for(secretary).get(manage("entry_qr", table))
    assert qr["Content-Type"] == "image/svg+xml"
    assert qr.content.lstrip().startswith(b"<svg")


def test_the_confirm_page_shows_the_qr_code_inline(client_for, secretary, table):
    page = client_for(secretary).get(manage("entry_confirm", table)).content.decode()
    assert "<svg" in page and f"/entry/{table.entry_token}/" in page


# --------------------------------------------------------------------------------------
# Taking back the phone's own last row (issue 12)
# --------------------------------------------------------------------------------------


def _undo(client, token: str, client_id):
    return client.post(
        en("entry_undo", token=token),
        json.dumps({"client_id": str(client_id)}),
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )


def test_a_keeper_takes_back_their_last_provisional_row_with_history(phone, table):
    first, second = uuid.uuid4(), uuid.uuid4()
    send(phone, table.entry_token, GRAND, client_id=first)
    send(phone, table.entry_token, CLUBS, client_id=second)

    # Not the last row: refused, nothing changes.
    refused = _undo(phone, table.entry_token, first)
    assert refused.status_code == 409 and refused.json()["code"] == "not_last"
    assert table.games.count() == 2

    answer = _undo(phone, table.entry_token, second)
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] and body["number"] == 2 and body["state"]["played"] == 1
    assert list(table.games.values_list("number", flat=True)) == [1]
    change = GameChange.objects.get(action=GameChange.Action.DELETED)
    assert change.game_number == 2 and change.diff["client_id"] == str(second)
    assert change.reason == "taken back on the phone"
    # The row can be keyed again (a new id) and becomes game 2 again.
    assert send(phone, table.entry_token, CLUBS).status_code == 201


def test_another_phone_cannot_take_back_a_row(phone, table):
    send(phone, table.entry_token, GRAND, client_id=uuid.uuid4())
    answer = _undo(phone, table.entry_token, uuid.uuid4())
    assert answer.status_code == 409 and answer.json()["code"] == "not_last"
    assert _undo(phone, table.entry_token, "not-an-id").status_code == 400
    assert phone.post(
        en("entry_undo", token=table.entry_token), "[[[", content_type="application/json"
    ).status_code in (400, 409)
    assert table.games.count() == 1
    assert not GameChange.objects.filter(action=GameChange.Action.DELETED).exists()


def test_a_confirmed_row_is_not_taken_back(phone, table):
    row = uuid.uuid4()
    send(phone, table.entry_token, GRAND, client_id=row)
    sheet_confirm(table=table)
    answer = _undo(phone, table.entry_token, row)
    assert answer.status_code == 409 and answer.json()["code"] == "confirmed"
    assert "ask the director" in answer.json()["error"]
    assert table.games.count() == 1


def test_the_second_keeper_takes_back_their_own_copy_row(phone, double):
    row = uuid.uuid4()
    send(phone, double.entry_token_2, GRAND, client_id=row)
    answer = _undo(phone, double.entry_token_2, row)
    assert answer.status_code == 200 and answer.json()["number"] == 1
    assert SheetCopy.objects.get(table=double).rows == []
    change = GameChange.objects.get(action=GameChange.Action.DELETED)
    assert change.reason == "taken back on the phone, second copy"
