"""A North American table of five keyed with the keyboard alone, in a real browser.

Foster 1909: "When five play, the dealer gives cards to the two players on his left and the
one on his right": each game's heading names the dealer and the other seat without cards,
both are refused as declarer on the spot, and the sheet shades both (rules §3.6). The
standings are the plain sheet totals.
"""

import pytest

from tests.browser.conftest import en
from tests.browser.test_keyboard_entry import wait_for_focus, wait_for_path
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.draw.services import series_draw
from tournaments.models import Game
from tournaments.sheets.selectors import table_seat_totals
from tournaments.standings.selectors import tournament_standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = 10
# rules §3.2: a hearts tournée with 2 is 6 × 3 = 18; lost with 45 card points: −18.
WON = {"trump": "h", "matadors": 2, "card_points": 75}
LOST = {"trump": "h", "matadors": 2, "card_points": 45}


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


def key_tournee(page, declarer: int, row: dict):
    """declarer, game (T: Tournée), trump, matadors, card points, won (left), bid; Enter."""
    keys = page.keyboard
    keys.type(str(declarer))
    keys.press("Tab")
    keys.type("t")
    keys.press("Tab")
    keys.type(row["trump"])
    keys.press("Tab")
    keys.type(str(row["matadors"]))
    keys.press("Tab")
    keys.type(str(row["card_points"]))
    keys.press("Enter")


def test_a_table_of_five_is_keyed_and_two_seats_sit_out(live_server, browser_page):
    from playwright.sync_api import expect

    page = browser_page
    keys = page.keyboard
    user = UserFactory(username="sekretaer")
    club = ClubFactory(name="Milwaukee Skat Club")
    club.secretaries.add(user)
    tournament = TournamentFactory(
        club=club,
        name="Tournée of five",
        slug="five",
        rules="na",
        five_tables=True,
        games_per_series_5=GAMES,
    )
    for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=5).tables.get()
    assert table.size == 5
    names = {s.number: s.player.name for s in table.seats.select_related("player")}

    sheet = en("manage:sheet", tournament="five", series=1, table=1)
    page.goto(f"{live_server.url}{en('login')}?next={sheet}")
    wait_for_focus(page, "username")
    keys.type("sekretaer")
    keys.press("Tab")
    keys.type("skat-password-1")
    keys.press("Enter")
    wait_for_path(page, r"/table/1/$")
    # rules §3.4, shown on every NA sheet.
    expect(page.locator(".null-overbid").first).to_contain_text(
        "next multiple of its value that reaches the bid"
    )

    for number in range(1, GAMES + 1):
        dealer = (number - 1) % 5 + 1
        also_out = (dealer + 2) % 5 + 1  # the seat third after the dealer
        expect(page.locator(".progress")).to_contain_text(f"{number - 1} / {GAMES}")
        expect(page.locator("#entry h2")).to_contain_text(
            f"seat {dealer} ({names[dealer]}) deals; seats {dealer} and {also_out} sit out"
        )
        wait_for_focus(page, "declarer")
        disabled = page.locator("#id_declarer option[disabled]")
        expect(disabled).to_have_count(2)
        if number == 2:
            # The other seat without cards: refused at once, nothing chosen.
            keys.type(str(also_out))
            expect(page.locator("output.live")).to_contain_text("has no cards in this deal")
            expect(page.locator("#id_declarer")).to_have_value("")
            page.wait_for_timeout(1200)  # let the select's type-ahead forget the digit
        declarer = dealer % 5 + 1  # the dealer's left holds cards
        key_tournee(page, declarer, LOST if number == GAMES else WON)

    expect(page.locator(".progress")).to_contain_text(f"{GAMES} / {GAMES}")
    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.declarer for g in games] == [table.dealer_of(n) % 5 + 1 for n in range(1, 11)]
    assert all(g.declarer not in table.sitting_out(g.number) for g in games)
    assert [g.score for g in games] == [18] * (GAMES - 1) + [-18]
    # The sheet shades both seats without cards in every row.
    expect(page.locator("table.sheet tbody tr").first.locator("td.sitting-out")).to_have_count(2)

    # Standings are the plain sheet totals (rules §3.6).
    totals = {line.player_id: line.list_points for line in table_seat_totals(table)}
    standings = {row.player_id: row.list_points for row in tournament_standings(tournament)}
    assert standings == totals
    assert sum(totals.values()) == 18 * (GAMES - 1) - 18


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}


def test_a_phone_at_a_table_of_five_names_both_seats_without_cards(live_server, browser):
    from playwright.sync_api import expect

    club = ClubFactory(name="Milwaukee Skat Club")
    tournament = TournamentFactory(
        club=club, name="Tournée of five", slug="five-phone", rules="na", five_tables=True
    )
    for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=5).tables.get()
    names = {s.number: s.player.name for s in table.seats.select_related("player")}

    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    phone = context.new_page()
    errors = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(live_server.url + en("entry", token=table.entry_token))
    expect(phone.locator(".null-overbid").first).to_contain_text("next multiple of its value")

    for number in range(1, 4):
        dealer = (number - 1) % 5 + 1
        also_out = (dealer + 2) % 5 + 1
        expect(phone.locator("[data-next-number]").first).to_have_text(str(number))
        expect(phone.locator("[data-next-dealer]")).to_have_text(
            f"seat {dealer} ({names[dealer]}) deals; seats {dealer} and {also_out} sit out"
        )
        for seat in range(1, 6):
            option = phone.locator(f"#id_declarer option[value='{seat}']")
            if seat in (dealer, also_out):
                expect(option).to_be_disabled()
            else:
                expect(option).not_to_be_disabled()
        phone.select_option("#id_declarer", str(dealer % 5 + 1))
        phone.select_option("#id_game", "tournee")
        phone.select_option("#id_trump", "hearts")
        for name, value in (("matadors", "2"), ("card_points", "75")):
            phone.locator(f"#id_{name}").tap()
            phone.fill(f"#id_{name}", value)
        expect(phone.locator("output.live")).to_contain_text("Value 18")
        phone.locator("button[data-save]").tap()
        expect(phone.locator(f"#game-{number}")).to_contain_text("+18")

    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [(g.declarer, g.score, g.provisional) for g in games] == [
        (2, 18, True),
        (3, 18, True),
        (4, 18, True),
    ]
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
