"""The career page on a phone (issue 29): at 390 px the page does not scroll sideways (its
wide tables scroll in their own boxes), and head to head is one tap away, from the list of
table mates and from the search by name. The history is the hand-built one of
tests/tournaments/careers/history.py; Debian's chromium, as in the other browser tests."""

import pytest

from tests.browser.conftest import en
from tests.factories import ClubFactory
from tests.tournaments.careers.history import build_history

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_career_page_on_a_phone_leads_to_head_to_head(live_server, browser):
    from playwright.sync_api import expect

    history = build_history(ClubFactory(name="Skatfreunde Altenburg"))
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(live_server.url + en("player_detail", pk=history.p.pk))
    expect(page.locator("h1")).to_have_text("Paula Pohl")
    expect(page.locator("#average-48")).to_have_text("1020.0")
    expect(page.locator("svg.chart")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.locator(".table-mates a", has_text="Quirin Quast").click()
    expect(page.locator(".h2h-summary")).to_contain_text("At the same table 3 times")
    expect(page.locator("#h2h-above")).to_have_text("1")
    expect(page.locator("#h2h-tied")).to_have_text("1")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.goto(live_server.url + en("player_detail", pk=history.p.pk))
    page.fill("#h2h-q", "Rita")
    page.locator("#h2h-q").press("Enter")
    page.locator(".player-found a", has_text="Rita Roth").click()
    # Rita sat with Paula at all three tables of a game, each time with fewer points.
    expect(page.locator("#h2h-together")).to_have_text("3")
    expect(page.locator("#h2h-above")).to_have_text("3")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert errors == []
    context.close()
