"""The whole evening in a real browser (issue 12, "Done when"): register, draw, phone and
keyboard entry, a correction, a double submit, close sheets short with a reason, confirm
the phone's games, a tie resolved by lot, finish (asked once), the prize paid, the log
page; the final results carry no "*" (nothing provisional).

Series of 3 games at a 3-table keep it short. Playwright drives Debian's chromium
(/usr/bin/chromium), as in the other browser tests.
"""

import pytest

from tests.browser.conftest import en
from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tournaments.models import ActionLog, Game, Payment, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "locale": "en-US"}
NAMES = ["Anna Schmidt", "Bernd Müller", "Carla Weiß", "Dieter Jung", "Erika Roth", "Fritz Lang"]


def desk_row(page, *, declarer, game, matadors, card_points, bid):
    page.select_option("#entry #id_declarer", str(declarer))
    page.select_option("#entry #id_game", game)
    page.fill("#entry #id_matadors", str(matadors))
    page.fill("#entry #id_card_points", str(card_points))
    page.fill("#entry #id_bid", str(bid))


def test_the_whole_evening(live_server, browser):
    from playwright.sync_api import expect

    director = UserFactory(username="director")
    club = ClubFactory(name="Skatfreunde Altenburg")
    club.secretaries.add(director)
    tournament = TournamentFactory(
        club=club, name="Evening cup", slug="evening-cup", games_per_series_3=3, published=True
    )
    url = live_server.url
    t = {"tournament": tournament.slug}
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # Sign in and register six players with the quick-add form.
    page.goto(url + en("login") + "?next=" + en("manage:tournament", **t))
    page.fill("#id_username", "director")
    page.fill("#id_password", "skat-password-1")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{en('manage:tournament', **t)}")
    for name in NAMES:
        page.fill("#id_name", name)
        page.get_by_role("button", name="Add and register").click()
        expect(page.locator("ul.messages")).to_contain_text(name)
    assert tournament.registrations.count() == 6

    # Draw series 1: two 3-tables, each with its phone link.
    page.locator("#draw-series").click()
    expect(page.locator("ul.messages")).to_contain_text("Series 1 drawn")
    series = tournament.series.get()
    first, second = series.tables.order_by("number")

    # Table 1 keys on a phone: one game, provisional.
    phone_context = browser.new_context(**PHONE)
    phone_context.set_default_timeout(15_000)
    phone = phone_context.new_page()
    phone.goto(url + en("entry", token=first.entry_token))
    phone.select_option("#id_declarer", "2")
    phone.select_option("#id_game", "grand")
    phone.fill("#id_matadors", "2")
    phone.fill("#id_card_points", "78")
    phone.fill("#id_bid", "20")
    phone.locator("button[data-save]").click()
    expect(phone.locator("#game-1")).to_contain_text("+72")
    assert Game.objects.get(table=first).provisional

    # Table 2 is keyed at the desk; game 2 is sent twice and stored once.
    sheet = en("manage:sheet", **t, series=1, table=2)
    page.goto(url + sheet)
    desk_row(page, declarer=1, game="grand", matadors=1, card_points=70, bid=18)
    page.locator("#entry button[type=submit]").click()
    expect(page.locator("#entry h2")).to_contain_text("Game 2")
    desk_row(page, declarer=2, game="clubs", matadors=1, card_points=70, bid=18)
    posted = page.evaluate(
        "() => Array.from(new FormData(document.querySelector('#entry')).entries())"
    )
    page.locator("#entry button[type=submit]").click()
    expect(page.locator("#entry h2")).to_contain_text("Game 3")
    replay = page.evaluate(
        """async (fields) => {
            const body = new URLSearchParams(fields);
            const response = await fetch(location.pathname, {method: "POST", body});
            return await response.text();
        }""",
        posted,
    )
    assert "sent twice and counts once" in replay
    assert Game.objects.filter(table=second).count() == 2

    # A correction of game 2, with its reason.
    page.goto(url + en("manage:game_correct", **t, series=1, table=2, game=2))
    page.fill("#id_card_points", "90")
    page.fill("#id_reason", "misread the paper")
    page.locator("form button[type=submit].primary").first.click()
    expect(page.locator("ul.messages")).to_contain_text("Game 2 was corrected")

    # Both sheets close short (2 of 3 and 1 of 3 games), each with its reason.
    for number, reason in ((2, "the hall closed early"), (1, "the hall closed early")):
        page.goto(url + en("manage:sheet_close", **t, series=1, table=number))
        page.fill("#id_short_reason", reason)
        page.locator("main form.card button[type=submit]").last.click()
        expect(page.locator("ul.messages")).to_contain_text(f"Table {number} is closed")

    # Closing the series waits for the phone's game; "confirm all", then it closes.
    series_page = en("manage:series", **t, series=1)
    page.goto(url + series_page)
    page.get_by_role("button", name="Close series").click()
    expect(page.locator("ul.messages")).to_contain_text("still provisional")
    page.get_by_role("button", name="Confirm all provisional games of the series").click()
    expect(page.locator("ul.messages")).to_contain_text("1 provisional games confirmed")
    page.get_by_role("button", name="Close series").click()
    expect(page.locator("ul.messages")).to_contain_text("The series is closed")

    # The players who declared nothing are tied: a draw by lot separates them.
    page.goto(url + en("manage:tournament", **t))
    lots = page.locator("input[name^=lot_]")
    assert lots.count() >= 2
    for index in range(lots.count()):
        lots.nth(index).fill(str(index + 1))
    page.get_by_role("button", name="Save the draw by lot").click()
    expect(page.locator("ul.messages")).to_contain_text("The draw by lot is recorded")

    # The prize plan and the winner's prize paid out, before finishing: a finished
    # tournament takes no payment until it is reopened (issue 27).
    page.goto(url + en("manage:money", **t))
    page.fill("#id_prizes-plan", "overall #1: 10")
    page.locator("#prizes button[type=submit]").click()
    expect(page.locator("ul.messages")).to_contain_text("The prize plan is saved")
    winner = page.locator("#prizes tbody tr td").nth(2).inner_text()
    page.locator(f"tr:has(td.name:has-text('{winner}')) button:has-text('Settle')").click()
    expect(page.locator("ul.messages")).to_contain_text("settled")
    assert Payment.objects.filter(kind=Payment.Kind.PRIZE).count() == 1

    # Finishing asks once, then locks the draw.
    page.goto(url + en("manage:tournament", **t))
    page.get_by_role("button", name="Finish tournament").click()
    expect(page.locator("#confirm-action")).to_contain_text("Finish the tournament?")
    page.locator("#confirm-button").click()
    expect(page.locator("ul.messages")).to_contain_text("The tournament is finished")
    expect(page.locator("#draw-series")).to_have_count(0)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED

    # The log: every step with who, what and why.
    page.goto(url + en("manage:tournament_log", **t))
    log = page.locator("#log").inner_text()
    for text in (
        "Series drawn",
        "Sheet closed",
        "the hall closed early",
        "Provisional games confirmed",
        "Series closed",
        "Draw by lot",
        "Tournament finished",
        "Prize plan changed",
        "Payment",
        "director",
    ):
        assert text in log, text
    assert ActionLog.objects.filter(tournament=tournament).count() >= 10

    # The final results carry no "*": nothing is provisional any more.
    page.goto(url + en("tournament_detail", **t))
    expect(page.locator(".provisional")).to_have_count(0)
    results = page.locator("main").inner_text()
    assert "*" not in results
    context.close()
    phone_context.close()
    assert not errors, f"JavaScript errors: {errors}"
