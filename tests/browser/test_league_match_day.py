"""A league match day at two venues, in real browsers: the two venue secretaries key their
own tables at the same time (their rows interleaved, each signed in in a browser of their
own), a venue secretary is refused the other venue's table, the league director confirms
the match day, and the season page, workbook and PDF show the same match-day points. A
venue secretary finds their venue from the dashboard, on a phone and at a desk: its own
tables with their players, QR codes, phone links and sheet PDFs, no other venue's.

Playwright drives Debian's chromium (tests/browser/conftest.py).
"""

import io
import re

import pytest
from openpyxl import load_workbook

from tests.browser.conftest import en
from tests.browser.test_keyboard_entry import key_row, tab_to, wait_for_focus, wait_for_path
from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.leagues.fixtures import (  # noqa: F401 (fixtures)
    league,
    league_director,
    league_season,
    match_day,
    teams,
    venue_secretary,
    venue_secretary_2,
    zeitz,
    zeitz_secretary,
)
from tournaments.draw.services import series_draw
from tournaments.formats import format_match_points
from tournaments.leagues.selectors import season_tables
from tournaments.models import Game, MatchDayConfirmation, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "skat-password-1"  # tests.factories.UserFactory
WON = {"game": "grand", "matadors": 2, "card_points": 78, "bid": 20}
LOST = {"game": "spades", "matadors": 1, "card_points": 45, "bid": 18}


def signed_in(browser, live_server, username, path, *, width=1280, height=900):
    context = browser.new_context(
        locale="en-US", viewport={"width": width, "height": height}, is_mobile=width < 500
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{live_server.url}{en('login')}?next={path}")
    wait_for_focus(page, "username")
    page.keyboard.type(username)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    return context, page


def rows_for(table_number: int) -> list[dict]:
    """Four rows (the player after the dealer declares); each table wins a different number
    of games, so the teams' points differ."""
    rows = []
    for number in range(1, 5):
        dealer = (number - 1) % 4 + 1  # sits out (rules §4)
        game = LOST if number <= table_number % 4 else WON
        rows.append({**game, "declarer": dealer % 4 + 1})
    return rows


def close_sheet(page):
    totals = page.locator("table.summary tbody tr").last.locator("th").all_inner_texts()[1:]
    tab_to(page, "#id_seat_1")
    for seat, total in enumerate(totals, start=1):
        if seat > 1:
            page.keyboard.press("Tab")
        page.keyboard.type(total.strip())
    page.keyboard.press("Enter")


def test_two_venues_key_their_tables_and_the_director_confirms(live_server, browser, request):
    from playwright.sync_api import expect

    # The league cast and match day of tests/tournaments/leagues/fixtures.py.
    day = request.getfixturevalue("match_day")
    altenburg = request.getfixturevalue("venue_secretary")
    zeitz_venue = request.getfixturevalue("venue_secretary_2")
    director_user = request.getfixturevalue("league_director")

    series_draw(tournament=day, seed=11)
    tables = {
        venue: list(
            Table.objects.filter(series__tournament=day, venue__name=venue).order_by("number")
        )
        for venue in ("Altenburg", "Zeitz")
    }
    assert [t.number for t in tables["Altenburg"]] == [1, 2]
    assert [t.number for t in tables["Zeitz"]] == [3, 4]

    def sheet(table):
        return en("manage:sheet", tournament=day.slug, series=1, table=table.number)

    first_context, first = signed_in(
        browser, live_server, altenburg.username, sheet(tables["Altenburg"][0])
    )
    second_context, second = signed_in(
        browser, live_server, zeitz_venue.username, sheet(tables["Zeitz"][0])
    )
    # Each secretary keys a table of their own venue while the other keys theirs: row by
    # row, turn about, both sessions open.
    for index in range(2):
        pages = [(first, tables["Altenburg"][index]), (second, tables["Zeitz"][index])]
        if index:
            for page, table in pages:
                page.goto(live_server.url + sheet(table))
        for number in range(4):
            for page, table in pages:
                wait_for_path(page, rf"/table/{table.number}/$")
                expect(page.locator(".progress")).to_contain_text(f"{number} / 4")
                wait_for_focus(page, "declarer")
                key_row(page, rows_for(table.number)[number])
        for page, table in pages:
            expect(page.locator(".progress")).to_contain_text("4 / 4")
            close_sheet(page)
            wait_for_path(page, r"/venues/\d+/$")
            expect(page.locator("ul.messages")).to_contain_text(f"Table {table.number} is closed")
    assert Game.objects.filter(table__series__tournament=day).count() == 16
    assert Table.objects.filter(series__tournament=day, closed=False).count() == 0

    # The Altenburg secretary may not open a Zeitz table.
    response = first.goto(live_server.url + sheet(tables["Zeitz"][1]))
    assert response.status == 403
    expect(first.locator("main")).to_contain_text("Only the secretary of this table's venue")
    first_context.close()
    second_context.close()

    # The league director confirms the match day on the season's desk.
    desk = en("manage:league_season", season=day.season.slug)
    director_context, director = signed_in(browser, live_server, director_user.username, desk)
    wait_for_path(director, r"/manage/seasons/")
    director.get_by_role("button", name="Confirm the match day").click()
    # It asks first (issue 27, defect 6): nothing is confirmed until the page's button.
    expect(director.locator("#not-yet")).to_contain_text("Nothing has been changed yet")
    assert not MatchDayConfirmation.objects.filter(tournament=day).exists()
    director.locator("#confirm-button").click()
    expect(director.locator("ul.messages")).to_contain_text("is confirmed")
    assert MatchDayConfirmation.objects.filter(tournament=day).exists()

    # The season page (public, on a phone) shows the match-day points.
    phone = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, is_mobile=True
    ).new_page()
    phone.goto(live_server.url + en("league_season", season=day.season.slug))
    expected = season_tables(day.season).teams
    assert sum(row.match_points_won for row in expected) == 6  # four teams: 3 + 2 + 1 + 0
    rows = phone.locator("table").first.locator("tbody tr")
    expect(rows).to_have_count(4)
    figures = {}
    for index, row in enumerate(expected):
        cells = rows.nth(index).locator("td")
        expect(cells.nth(1)).to_have_text(row.team)
        points = format_match_points(row.match_points_won, row.match_points_lost)
        expect(rows.nth(index)).to_contain_text(points)
        figures[row.team] = (points, row.list_points)

    # The workbook and the PDF give the same figures.
    workbook = director_context.request.get(
        live_server.url + en("season_workbook", season=day.season.slug)
    )
    book = load_workbook(io.BytesIO(workbook.body()))
    in_book = {r[1]: (r[-4], r[-1]) for r in book["Teams"].iter_rows(min_row=2, values_only=True)}
    assert in_book == figures
    pdf = director_context.request.get(
        live_server.url + en("season_results_pdf", season=day.season.slug)
    )
    text = "\n".join(pdf_pages(pdf.body(), layout=True))
    for team, (points, list_points) in figures.items():
        line = next(line for line in text.splitlines() if re.search(rf"\b{team}\b", line))
        assert points in line and str(list_points) in line
    director_context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_venue_secretary_finds_their_tables_links_and_sheets(
    live_server, browser, request, width
):
    from playwright.sync_api import expect

    day = request.getfixturevalue("match_day")
    altenburg = request.getfixturevalue("venue_secretary")
    series_draw(tournament=day, seed=11)
    own = Table.objects.filter(series__tournament=day, venue__name="Altenburg")
    other = Table.objects.filter(series__tournament=day, venue__name="Zeitz")

    context, page = signed_in(
        browser, live_server, altenburg.username, en("manage:dashboard"), width=width, height=844
    )
    wait_for_path(page, r"/manage/$")
    expect(page.locator("main")).not_to_contain_text("not a secretary of any club")
    expect(page.locator("main")).to_contain_text(day.name)
    page.get_by_role("link", name="Your tables, links and sheets").click()
    wait_for_path(page, r"/venues/\d+/$")
    cards = page.locator(".card")
    expect(cards).to_have_count(own.count())
    for table in own.prefetch_related("seats__player"):
        card = cards.filter(has_text=f"Table {table.number}")
        for seat in table.seats.all():
            expect(card).to_contain_text(seat.player.name)
        expect(card.locator("code.link-url")).to_contain_text(table.entry_token)
        qr = card.locator(".qr-pair img")
        qr.scroll_into_view_if_needed()
        page.wait_for_function(
            "(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle()
        )
        pdf = context.request.get(
            live_server.url
            + card.get_by_role("link", name="Blank sheet (PDF)").get_attribute("href")
        )
        assert pdf.status == 200 and pdf.body().startswith(b"%PDF-")
    for table in other:
        expect(page.locator("main")).not_to_contain_text(table.entry_token)
    # Nothing wider than the screen: no sideways scrolling on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
