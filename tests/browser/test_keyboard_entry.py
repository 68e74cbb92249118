"""A secretary keys a whole 3-table sheet with the keyboard alone, in a real browser.

After each `page.goto` only keys are pressed (type, Tab, Space, Enter; no clicks): sign in,
create a tournament, quick-add three players, draw series 1, open the sheet, key all 36
rows (the live value, a rejected row, an overbid, null, a passed-in deal on the way), close
the sheet with the totals read off the page's summary, and read the standings.

A second test keys a short 4-table sheet: each game's heading names the dealer who sits
out, the dealer's seat is refused as declarer on the spot, and a lost game gives the dealer
the others' bonus too (rules §2, §4).

Playwright drives Debian's chromium (/usr/bin/chromium; `playwright install` is never
used). Its sync API runs an event loop in this thread, hence DJANGO_ALLOW_ASYNC_UNSAFE.
"""

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import en
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.draw.services import series_draw
from tournaments.models import Game, Table, Tournament
from tournaments.sheets.selectors import table_seat_totals
from tournaments.standings.selectors import tournament_standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path("/tmp/sheet.png")

# What to type in the game and won/lost selects (their labels start with these letters).
GAME_KEYS = {
    "diamonds": "d",
    "hearts": "h",
    "spades": "s",
    "clubs": "c",
    "grand": "g",
    "null": "n",
    "passed": "p",
}

# Twelve rows of a paper list, keyed three times with the declarer moving on (rules §1).
# Each: game, matadors (signed), card points or won/lost, bid, hand.
ROWS = [
    {"game": "grand", "matadors": 2, "card_points": 78, "bid": 20},  # 72
    {"game": "clubs", "matadors": 1, "card_points": 70, "bid": 18},  # 24
    {"game": "hearts", "matadors": -2, "card_points": 65, "bid": 30},  # 30
    {"game": "null", "won": "won", "bid": 23},  # 23
    {"game": "passed"},
    {"game": "spades", "matadors": 1, "card_points": 45, "bid": 18},  # 22 lost → −44
    {"game": "diamonds", "matadors": 3, "card_points": 95, "bid": 18},  # schneider: 45
    {"game": "null", "won": "lost", "bid": 18},  # −46
    {"game": "clubs", "matadors": 1, "card_points": 70, "bid": 30},  # overbid: −72
    {"game": "grand", "matadors": -1, "won": "won", "bid": 24},  # 48
    {"game": "hearts", "matadors": 1, "card_points": 80, "bid": 20, "hand": True},  # 30
    {"game": "grand", "matadors": 1, "card_points": 50, "bid": 18},  # 48 lost → −96
]


def sheet_rows() -> list[dict]:
    rows = []
    for number in range(1, 37):
        row = dict(ROWS[(number - 1) % len(ROWS)])
        if row["game"] != "passed":
            row["declarer"] = (number + (number - 1) // len(ROWS)) % 3 + 1
        rows.append(row)
    return rows


def tab_to(page, selector: str, limit: int = 80):
    """Press Tab until the focused element matches `selector`."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def wait_for_path(page, pattern: str):
    """Wait for a page whose path (not its query) matches `pattern`."""
    page.wait_for_url(lambda url: re.search(pattern, urlsplit(url).path) is not None)


def wait_for_focus(page, name: str):
    page.wait_for_function(
        "(n) => document.activeElement && document.activeElement.name === n", arg=name
    )


def key_row(page, row: dict):
    """One sheet row, key by key, from the focused declarer select; Enter saves it."""
    keys = page.keyboard
    if row["game"] == "passed":
        keys.press("Tab")
        keys.type(GAME_KEYS["passed"])
        keys.press("Enter")
        return
    keys.type(str(row["declarer"]))
    keys.press("Tab")
    keys.type(GAME_KEYS[row["game"]])
    keys.press("Tab")
    if row["game"] != "null":  # null has no matadors and no card points: Tab skips them
        keys.type(str(row["matadors"]))
        keys.press("Tab")
        keys.type(str(row.get("card_points", "")))  # won/lost follows from the points
        keys.press("Tab")
    keys.type(str(row.get("bid", "")))
    keys.press("Tab")  # won / lost: always there, after the bid
    keys.type(row["won"][0] if "won" in row else "")
    if row.get("hand"):
        keys.press("Tab")  # without
        keys.press("Tab")  # hand
        keys.press("Space")
    keys.press("Enter")


def focus_order(page) -> list[str]:
    """The names of the row's fields that Tab reaches, in order."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('#entry .entry-main [name]'))
              .filter((el) => !el.disabled && el.offsetParent !== null)
              .map((el) => el.name)"""
    )


@pytest.fixture
def browser_page(browser):
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_secretary_keys_a_whole_sheet_with_the_keyboard(live_server, browser_page):
    from playwright.sync_api import expect

    page = browser_page
    keys = page.keyboard
    user = UserFactory(username="sekretaer")
    club = ClubFactory(name="Skatfreunde Altenburg")
    club.secretaries.add(user)

    # Sign in; the sign-in page sends us on to "new tournament" (the English pages).
    page.goto(f"{live_server.url}{en('login')}?next={en('manage:tournament_new', club=club.pk)}")
    wait_for_focus(page, "username")
    keys.type("sekretaer")
    keys.press("Tab")
    keys.type("skat-password-1")
    keys.press("Enter")

    # A new tournament with the default settings (36 games at a 3-table).
    wait_for_path(page, r"/tournaments/new/$")
    tab_to(page, "#id_name")
    keys.type("Keyboard cup")
    tab_to(page, "#id_date")
    keys.type("11212026")
    expect(page.locator("#id_date")).to_have_value("2026-11-21")
    keys.press("Enter")
    wait_for_path(page, r"/manage/t/keyboard-cup[^/]*/$")
    tournament = Tournament.objects.get(name="Keyboard cup")
    assert tournament.games_per_series_3 == 36

    # Three new players, each with the quick-add form; after each the cursor is back in
    # Name for the next one.
    tab_to(page, "#id_name")
    for name in ("Anna Schmidt", "Bernd Müller", "Carla Weiß"):
        wait_for_focus(page, "name")
        keys.type(name)
        keys.press("Enter")
        expect(page.locator("ul.messages")).to_contain_text(name)
    assert tournament.registrations.count() == 3

    # Draw series 1 and open the sheet of its one table.
    tab_to(page, "#draw-series")
    keys.press("Enter")
    wait_for_path(page, r"/series/1/$")
    tab_to(page, "a.button.primary[href$='/table/1/']")
    keys.press("Enter")
    wait_for_path(page, r"/table/1/$")
    table = Table.objects.get(series__tournament=tournament)
    assert table.size == 3

    rows = sheet_rows()
    for number, row in enumerate(rows, start=1):
        expect(page.locator(".progress")).to_contain_text(f"{number - 1} / 36")
        wait_for_focus(page, "declarer")

        if number == 1:
            # The live value shows while typing, before the row is saved.
            keys.type("2")
            keys.press("Tab")
            keys.type("g")
            keys.press("Tab")
            order = focus_order(page)
            assert order == ["declarer", "game", "matadors", "card_points", "bid", "won"]
            keys.type("2")
            keys.press("Tab")
            keys.type("78")
            expect(page.locator("output.live")).to_have_text("Value 72 · +72 · won · list +122")
            # Typed card points take no field away: Tab goes on where it went before.
            assert focus_order(page) == order
            keys.press("Tab")
            keys.type("20")
            expect(page.locator("output.live")).to_have_text("Value 72 · +72 · won · list +122")
            keys.press("Enter")
            continue

        if number == 9:
            # A bad row: the reason shows and what was typed stays; fix it and go on.
            keys.type(str(row["declarer"]))
            keys.press("Tab")
            keys.type("c")
            keys.press("Tab")
            keys.type("12")
            keys.press("Tab")
            keys.type("70")
            expect(page.locator("output.live")).to_contain_text("between 1 and 11")
            keys.press("Tab")
            keys.type("30")
            keys.press("Enter")
            expect(page.locator(".message.error")).to_contain_text(
                "matadors must be between 1 and 11"
            )
            expect(page.locator("#id_matadors")).to_have_value("12")
            expect(page.locator("#id_card_points")).to_have_value("70")
            expect(page.locator("#id_bid")).to_have_value("30")
            wait_for_focus(page, "matadors")
            assert Game.objects.filter(table=table).count() == 8
            keys.press("Control+A")
            keys.type("1")
            # The overbid shows in the live value: clubs with 1 = 24 < 30 → 36 → −72.
            expect(page.locator("output.live")).to_contain_text("-72 · lost · overbid")
            keys.press("Enter")
            continue

        if number == 24:
            # One look at the page while a row is typed (with its live value).
            keys.type(str(row["declarer"]))
            keys.press("Tab")
            keys.type(GAME_KEYS[row["game"]])
            keys.press("Tab")
            keys.type(str(row["matadors"]))
            keys.press("Tab")
            keys.type(str(row["card_points"]))
            expect(page.locator("output.live")).to_contain_text("Value 48 · -96")
            page.screenshot(path=str(SCREENSHOT), full_page=True)
            keys.press("Tab")
            keys.type(str(row["bid"]))
            keys.press("Enter")
            continue

        key_row(page, row)

    expect(page.locator(".progress")).to_contain_text("36 / 36")
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert len(games) == 36
    # The dealer rotated by itself and every row is the one keyed.
    for game, row in zip(games, rows, strict=True):
        assert game.game == row["game"]
        assert game.declarer == row.get("declarer")
    first, ninth = games[0], games[8]
    assert (first.value, first.score) == (72, 72)
    assert (ninth.value, ninth.score, ninth.overbid) == (36, -72, True)
    assert games[4].score == 0 and games[4].declarer is None  # passed in
    assert games[10].hand and games[10].value == 30

    # Close the sheet with the totals from the paper list (here: read off the summary).
    totals = page.locator("table.summary tbody tr").last.locator("th").all_inner_texts()[1:]
    assert len(totals) == 3
    tab_to(page, "#id_seat_1")
    for seat, total in enumerate(totals, start=1):
        if seat > 1:
            keys.press("Tab")
        expect(page.locator(f"#id_seat_{seat}")).to_be_focused()
        keys.type(total.strip())
    keys.press("Enter")
    wait_for_path(page, r"/series/1/$")
    expect(page.locator("ul.messages")).to_contain_text("Table 1 is closed")
    table.refresh_from_db()
    assert table.closed
    assert table.paper_totals == {str(s): int(t) for s, t in enumerate(totals, start=1)}

    # The standings: every player with the site's totals, in order.
    standings_url = en("tournament_detail", tournament=tournament.slug)
    tab_to(page, f"a[href='{standings_url}']")
    keys.press("Enter")
    wait_for_path(page, rf"{standings_url}$")
    standings = tournament_standings(tournament)
    shown = page.locator("table.standings tbody tr")
    expect(shown).to_have_count(3)
    for index, expected in enumerate(standings):
        cells = shown.nth(index).locator("td")
        expect(cells.nth(1)).to_have_text(expected.player_name)
        expect(cells.last).to_have_text(str(expected.list_points))
    assert sorted(r.list_points for r in standings) == sorted(int(t) for t in totals)


# A 4-table: the dealer sits out (rules §4).
FOUR_TABLE_GAMES = 8
WON = {"game": "grand", "matadors": 2, "card_points": 78, "bid": 20}  # 72, list +122
LOST = {"game": "spades", "matadors": 1, "card_points": 45, "bid": 18}  # −44, list −94


def test_a_four_table_is_keyed_and_the_dealer_sits_out(live_server, browser_page):
    from playwright.sync_api import expect

    page = browser_page
    keys = page.keyboard
    user = UserFactory(username="sekretaer")
    club = ClubFactory(name="Skatfreunde Altenburg")
    club.secretaries.add(user)
    tournament = TournamentFactory(
        club=club, name="Vierer", slug="vierer", games_per_series_4=FOUR_TABLE_GAMES
    )
    for name in ("Anna", "Bernd", "Carla", "Dieter"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=7).tables.get()
    assert table.size == 4
    names = {s.number: s.player.name for s in table.seats.select_related("player")}

    sheet = en("manage:sheet", tournament="vierer", series=1, table=1)
    page.goto(f"{live_server.url}{en('login')}?next={sheet}")
    wait_for_focus(page, "username")
    keys.type("sekretaer")
    keys.press("Tab")
    keys.type("skat-password-1")
    keys.press("Enter")
    wait_for_path(page, r"/table/1/$")

    for number in range(1, FOUR_TABLE_GAMES + 1):
        dealer = (number - 1) % 4 + 1
        expect(page.locator(".progress")).to_contain_text(f"{number - 1} / {FOUR_TABLE_GAMES}")
        expect(page.locator("#entry h2")).to_contain_text(
            f"seat {dealer} ({names[dealer]}) deals and sits out"
        )
        wait_for_focus(page, "declarer")
        if number == 2:
            # The dealer's digit: refused at once, nothing chosen.
            keys.type(str(dealer))
            expect(page.locator("output.live")).to_contain_text("deals this game and sits out")
            # The reason stays while no playing seat is chosen, also once the game is typed.
            keys.press("Tab")
            keys.type("g")
            page.wait_for_timeout(600)  # the preview has answered
            expect(page.locator("output.live")).to_contain_text("deals this game and sits out")
            keys.press("Shift+Tab")
            page.wait_for_timeout(1200)  # let the select's type-ahead forget the digit
        declarer = dealer % 4 + 1  # the player after the dealer declares
        key_row(page, {**(LOST if number == FOUR_TABLE_GAMES else WON), "declarer": declarer})

    expect(page.locator(".progress")).to_contain_text(f"{FOUR_TABLE_GAMES} / {FOUR_TABLE_GAMES}")
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.declarer for g in games] == [n % 4 + 1 for n in range(1, FOUR_TABLE_GAMES + 1)]
    assert all(g.declarer != table.dealer_of(g.number) for g in games)
    assert games[-1].score == -44 and games[-1].list_others == 30
    # Game 8: seat 4 deals and sits out; seat 1 loses, and seats 2, 3 and 4 get 30 each.
    totals = {t.seat: t.list_points for t in table_seat_totals(table)}
    won_by = {seat: sum(1 for g in games[:-1] if g.declarer == seat) for seat in range(1, 5)}
    assert totals == {
        seat: 122 * won_by[seat] + (-94 if seat == 1 else 30) for seat in range(1, 5)
    }
