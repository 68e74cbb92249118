"""Final means final, in a real browser (issue 27, "Done when"): an evening is finished
(asked once); then a late registration, a game on the phone, a payment and a settings
change are each refused with a message and change nothing; the director reopens it (with
a reason), registers the late player, finishes again, and the log page shows both finishes
and the reopening.

The evening is played through the services (one 3-table, a one-game series) so that the
browser spends its time on what this test is about. Playwright drives Debian's chromium
(/usr/bin/chromium), as in the other browser tests.
"""

import pytest

from tests.browser.conftest import en
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.draw.services import series_close, series_draw
from tournaments.models import ActionLog, Game, Payment, Registration, Tournament
from tournaments.sheets.services import game_record, table_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSED = "The tournament is finished: its results and money are final."
# A 3-table (rules §1.3): grand with 2, 78 card points, won → 3 × 24 = 72.
ROW = {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}


def test_a_finished_evening_refuses_changes_until_it_is_reopened(live_server, browser):
    from playwright.sync_api import expect

    director = UserFactory(username="director")
    club = ClubFactory(name="Skatfreunde Altenburg")
    club.secretaries.add(director)
    tournament = TournamentFactory(
        club=club, name="Evening cup", slug="evening-cup", games_per_series_3=1, published=True
    )
    for name in ("Anna Schmidt", "Bernd Müller", "Carla Weiß"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    series = series_draw(tournament=tournament, seed=1)
    table = series.tables.get()
    game_record(table=table, data=ROW)
    table_close(table=table)
    series_close(series=series)

    url = live_server.url
    t = {"tournament": tournament.slug}
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url + en("login") + "?next=" + en("manage:tournament", **t))
    page.fill("#id_username", "director")
    page.fill("#id_password", "skat-password-1")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{en('manage:tournament', **t)}")

    # Finishing asks once.
    page.get_by_role("button", name="Finish tournament").click()
    expect(page.locator("#confirm-action")).to_contain_text("Finish the tournament?")
    page.locator("#confirm-button").click()
    expect(page.locator("ul.messages")).to_contain_text("its results are final")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED

    # A late registration is refused.
    page.fill("#id_name", "Late Comer")
    page.get_by_role("button", name="Add and register").click()
    expect(page.locator("ul.messages")).to_contain_text(REFUSED)
    assert not Registration.objects.filter(player__name="Late Comer").exists()

    # A game: the phone's link says the tournament is finished and offers no row; a row
    # sent all the same (from the director's page, with its CSRF token) is refused.
    phone = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    phone.set_default_timeout(15_000)
    phone_page = phone.new_page()
    phone_page.goto(url + en("entry", token=table.entry_token))
    expect(phone_page.locator("main")).to_contain_text("The tournament is finished")
    expect(phone_page.locator("#entry")).to_have_count(0)
    answer = page.evaluate(
        """async (address) => {
            const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
            const body = JSON.stringify({client_id: crypto.randomUUID(), number: 2,
                data: {declarer: "1", game: "grand", matadors: "1", won: "won", bid: "18"}});
            const response = await fetch(address, {method: "POST", body, headers: {
                "Content-Type": "application/json", "Accept": "application/json",
                "X-CSRFToken": token}});
            return [response.status, await response.text()];
        }""",
        url + en("entry_games", token=table.entry_token),
    )
    assert answer[0] >= 400 and "The tournament is finished" in answer[1], answer
    assert Game.objects.filter(table=table).count() == 1

    # A payment is refused.
    page.goto(url + en("manage:money", **t))
    page.locator("form.pay-form").first.locator("input[name=amount]").fill("5.00")
    page.locator("form.pay-form").first.get_by_role("button", name="Record").click()
    expect(page.locator("form.pay-form .field-error")).to_contain_text(REFUSED)
    assert not Payment.objects.exists()

    # A settings change is refused.
    page.goto(url + en("manage:tournament_settings", **t))
    page.fill("#id_games_per_series_3", "2")
    page.locator("main form button[type=submit]").last.click()
    expect(page.locator("main")).to_contain_text(REFUSED)
    assert Tournament.objects.get(pk=tournament.pk).games_per_series_3 == 1

    # Reopening asks once, with a reason; then the late player registers.
    page.goto(url + en("manage:tournament", **t))
    page.get_by_role("button", name="Reopen tournament").click()
    expect(page.locator("#confirm-action")).to_contain_text("Reopen the finished tournament?")
    page.fill("#id_reason", "late registration accepted")
    page.locator("#confirm-button").click()
    expect(page.locator("ul.messages")).to_contain_text("The tournament is open again")
    page.fill("#id_name", "Late Comer")
    page.get_by_role("button", name="Add and register").click()
    expect(page.locator("ul.messages")).to_contain_text("Late Comer registered")

    # Finished again; the log shows both finishes and the reopening with its reason.
    page.get_by_role("button", name="Finish tournament").click()
    page.locator("#confirm-button").click()
    expect(page.locator("ul.messages")).to_contain_text("its results are final")
    page.goto(url + en("manage:tournament_log", **t))
    log = page.locator("#log").inner_text()
    assert log.count("Tournament finished") == 2, log
    assert "Tournament reopened" in log and "late registration accepted" in log, log
    kinds = list(
        ActionLog.objects.filter(tournament=tournament)
        .filter(kind__in=[ActionLog.Kind.FINISHED, ActionLog.Kind.REOPENED])
        .order_by("pk")
        .values_list("kind", flat=True)
    )
    assert kinds == [ActionLog.Kind.FINISHED, ActionLog.Kind.REOPENED, ActionLog.Kind.FINISHED]
    context.close()
    phone.close()
    assert not errors, f"JavaScript errors: {errors}"
