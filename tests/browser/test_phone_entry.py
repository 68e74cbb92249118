"""A list keeper enters games on a phone through the table's link, loses the connection
for two games, gets it back, and the director confirms the sheet, in a real browser.

The phone is a phone-sized touch context (390 × 844); rows are keyed by tapping. While
offline the rows wait on the phone; when the connection returns they are sent, each
exactly once, also when an answer is lost on the way (the row is sent again with the same
id). The director, signed in in another context, confirms the sheet and the public
standings lose their provisional marker.

Playwright drives Debian's chromium (/usr/bin/chromium; `playwright install` is never
used). Its sync API runs an event loop in this thread, hence DJANGO_ALLOW_ASYNC_UNSAFE.
"""

from pathlib import Path

import pytest
from django.test import Client

from tests.browser.conftest import en
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.draw.services import series_draw
from tournaments.models import Game
from tournaments.sheets.services import game_record
from tournaments.standings.selectors import tournament_standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path("/tmp/phone.png")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}

# A 3-table (seat 1 deals first and plays): four rows and the value each scores (rules §1).
ROWS = [
    ({"declarer": "2", "game": "grand", "matadors": "2", "card_points": "78", "bid": "20"}, 72),
    ({"declarer": "3", "game": "clubs", "matadors": "1", "card_points": "70", "bid": "18"}, 24),
    ({"declarer": "1", "game": "null", "won": "lost", "bid": "23"}, -46),
    ({"declarer": "2", "game": "hearts", "matadors": "-2", "card_points": "65", "bid": "30"}, 30),
    ({"declarer": "3", "game": "passed"}, 0),
]


def tap_row(page, row: dict):
    """Key one row by tapping and picking, as a thumb does, then tap "Save": the declarer
    and the game are large buttons (the selects behind them stay hidden)."""
    if row["game"] != "passed":
        page.locator(f".choices-declarer button[data-value='{row['declarer']}']").tap()
    page.locator(f".choices-game button[data-value='{row['game']}']").tap()
    for name in ("matadors", "card_points", "bid"):
        if name in row:
            page.locator(f"#id_{name}").tap()
            page.fill(f"#id_{name}", row[name])
    if "won" in row:
        page.select_option("#id_won", row["won"])


def save(page):
    page.locator("button[data-save]").tap()


def test_a_phone_keeps_the_games_through_a_network_drop(live_server, browser):
    from playwright.sync_api import expect

    director = UserFactory(username="director")
    club = ClubFactory(name="Skatfreunde Altenburg")
    club.secretaries.add(director)
    tournament = TournamentFactory(club=club, name="Phone cup", slug="phone-cup")
    for name in ("Anna Schmidt", "Bernd Müller", "Carla Weiß"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=1).tables.get()
    assert table.entry_token

    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    phone = context.new_page()
    errors = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(live_server.url + en("entry", token=table.entry_token))
    expect(phone.locator("h1")).to_contain_text("Table 1")
    expect(phone.locator("[data-next-number]").first).to_have_text("1")

    # Online: each saved row shows on the sheet at once, with its value and the totals.
    tap_row(phone, ROWS[0][0])
    expect(phone.locator("output.live")).to_have_text("Value 72 · +72 · won · list +122")
    save(phone)
    expect(phone.locator("#game-1")).to_contain_text("+72")
    tap_row(phone, ROWS[1][0])
    expect(phone.locator("output.live")).to_contain_text("+24")
    save(phone)
    expect(phone.locator("#game-2")).to_contain_text("+24")
    expect(phone.locator("[data-next-number]").first).to_have_text("3")
    assert Game.objects.filter(table=table).count() == 2

    # The keeper takes back their last game while it is provisional, and keys it again.
    undo = phone.locator("[data-undo] button")
    expect(undo).to_have_text("Take back game 2")
    phone.once("dialog", lambda dialog: dialog.accept())
    undo.tap()
    expect(phone.locator("#game-2")).to_have_count(0)
    expect(phone.locator("[data-status]")).to_contain_text("Game 2 was taken back")
    expect(phone.locator("[data-next-number]").first).to_have_text("2")
    expect(undo).to_have_text("Take back game 1")
    assert Game.objects.filter(table=table).count() == 1
    tap_row(phone, ROWS[1][0])
    save(phone)
    expect(phone.locator("#game-2")).to_contain_text("+24")
    assert Game.objects.filter(table=table).count() == 2

    # The connection drops: two more games wait on the phone, in order, not lost.
    context.set_offline(True)
    tap_row(phone, ROWS[2][0])
    save(phone)
    expect(phone.locator("[data-queue] li")).to_have_count(1)
    expect(phone.locator("[data-next-number]").first).to_have_text("4")
    expect(phone.locator("#id_declarer option[value='1']")).not_to_be_disabled()
    tap_row(phone, ROWS[3][0])
    save(phone)
    queue = phone.locator("[data-queue] li")
    expect(queue).to_have_count(2)
    expect(queue.first).to_contain_text("waiting to send")
    expect(queue.nth(1)).to_contain_text("Bernd Müller")
    expect(phone.locator("[data-connection]")).to_contain_text("No connection. 2 game(s)")
    assert Game.objects.filter(table=table).count() == 2
    # A reload while offline is impossible, but the rows are on the phone already.
    stored = phone.evaluate(f"localStorage.getItem('skat-entry:{table.entry_token}')")
    assert '"number":3' in stored and '"number":4' in stored

    # The next row half typed, for a look at the page as the thumb sees it.
    phone.locator(".choices-declarer button[data-value='3']").tap()
    phone.locator(".choices-game button[data-value='spades']").tap()
    expect(phone.locator(".choices-game button[data-value='spades']")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert phone.locator(".choices-declarer button").count() == 3
    expect(phone.locator("#id_declarer")).to_have_attribute("aria-hidden", "true")
    expect(phone.locator("#id_declarer")).to_have_value("3")
    assert phone.locator("#id_declarer").bounding_box()["height"] <= 1
    # A script (or a test) may still pick in the select: the buttons follow it.
    phone.select_option("#id_declarer", "2")
    expect(phone.locator(".choices-declarer button[data-value='2']")).to_have_attribute(
        "aria-pressed", "true"
    )
    phone.locator(".choices-declarer button[data-value='3']").tap()
    phone.screenshot(path=str(SCREENSHOT), full_page=False)
    phone.evaluate(
        """() => { const form = document.querySelector('#entry'); form.reset();
                   form.dispatchEvent(new Event('change', {bubbles: true})); }"""
    )
    expect(phone.locator(".choices-game button[aria-pressed='true']")).to_have_count(0)

    # The connection returns: both rows are sent, each once.
    context.set_offline(False)
    expect(phone.locator("[data-queue] li")).to_have_count(0)
    expect(phone.locator("#game-4")).to_contain_text("+30")
    expect(phone.locator("[data-connection]")).to_be_hidden()
    assert list(
        Game.objects.filter(table=table).order_by("number").values_list("number", "score")
    ) == [(n, score) for n, (_row, score) in enumerate(ROWS[:4], start=1)]
    assert phone.evaluate(f"localStorage.getItem('skat-entry:{table.entry_token}')") is None

    # An answer lost on the way: the server entered the row, the phone did not hear it and
    # sends it again with the same id; the game is not entered twice.
    lost = []

    def drop_answer(route):
        if not lost:
            route.fetch()  # reaches the server, which enters the row
            lost.append(route.request.post_data)
            route.abort("connectionreset")
        else:
            route.continue_()

    phone.route("**/games/", drop_answer)
    tap_row(phone, ROWS[4][0])
    save(phone)
    expect(phone.locator("#game-5")).to_be_visible()
    expect(phone.locator("[data-queue] li")).to_have_count(0)
    assert lost
    assert Game.objects.filter(table=table).count() == 5
    assert Game.objects.filter(table=table, provisional=True).count() == 5

    # The public standings count the games, marked provisional.
    standings = context.new_page()
    standings.goto(live_server.url + en("tournament_detail", tournament=tournament.slug))
    expect(standings.locator("table.standings abbr.provisional")).to_have_count(3)

    # The director confirms the sheet from the desk.
    desk = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    signed_in = Client()
    signed_in.force_login(director)
    desk.add_cookies(
        [
            {
                "name": "sessionid",
                "value": signed_in.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )
    page = desk.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(
        live_server.url
        + en(
            "manage:entry_confirm",
            tournament=tournament.slug,
            series=1,
            table=1,
        )
    )
    expect(page.locator("#confirm")).to_contain_text("5 of 5 games are provisional")
    page.locator("#confirm-sheet").click()
    expect(page.locator("ul.messages")).to_contain_text("the sheet is confirmed (5 games)")
    assert not Game.objects.filter(table=table, provisional=True).exists()
    # Confirmed games are the director's to correct: the phone offers no take-back.
    phone.reload()
    expect(phone.locator("#game-5")).to_be_visible()
    expect(phone.locator("[data-undo]")).to_be_hidden()

    standings.reload()
    expect(standings.locator("table.standings tbody tr")).to_have_count(3)
    expect(standings.locator("table.standings abbr.provisional")).to_have_count(0)
    totals = sorted(row.list_points for row in tournament_standings(tournament))
    shown = sorted(
        int(text)
        for text in standings.locator("table.standings tbody td:last-child").all_inner_texts()
    )
    assert shown == totals
    desk.close()
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_game_entered_at_the_desk_meanwhile_moves_the_phones_row_on(live_server, browser):
    """The desk enters game 1 while the phone still shows game 1 as next: the phone's row
    is refused ("already on the sheet"), the desk's game shows, and the phone's row becomes
    game 2, sent again with one tap, without a reload."""
    from playwright.sync_api import expect

    club = ClubFactory(name="Skatfreunde Altenburg")
    tournament = TournamentFactory(club=club, name="Phone cup", slug="phone-cup")
    for name in ("Anna Schmidt", "Bernd Müller", "Carla Weiß"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=1).tables.get()

    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    phone = context.new_page()
    errors = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(live_server.url + en("entry", token=table.entry_token))
    expect(phone.locator("[data-next-number]").first).to_have_text("1")

    game_record(table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    tap_row(phone, ROWS[1][0])
    save(phone)
    expect(phone.locator("#game-1")).to_be_visible()  # the desk's game
    queue = phone.locator("[data-queue] li")
    expect(queue).to_have_count(1)
    expect(queue.first).to_contain_text("not entered")
    expect(queue.first.locator(".no")).to_have_text("2")
    expect(phone.locator("[data-next-number]").first).to_have_text("2")
    assert Game.objects.filter(table=table).count() == 1

    # The refused row is back in the form as game 2: one tap sends it.
    save(phone)
    expect(phone.locator("#game-2")).to_contain_text("+24")
    expect(queue).to_have_count(0)
    assert list(Game.objects.filter(table=table).values_list("number", "score")) == [
        (1, 48),
        (2, 24),
    ]
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
