"""Every kind of page works under the site's Content-Security-Policy, in a real browser.

One page of each kind (public standings, sign-in, manage, the desk's sheet with a game
keyed, the phone's entry with a game tapped, the projector, the API's interactive page, the
admin) is opened with a listener for the browser's `securitypolicyviolation` events and its
console's "Content Security Policy" reports; none may come, and each page's script does its
work: the category filter submits, the standings reload when a game is keyed, the sheet
saves a keyed row, the phone a tapped one, the projector fits its rows, Swagger UI lists
the API. Last, an inline style set on purpose is reported, so the listener does listen.
"""

import pytest

from tests.browser.conftest import en
from tests.browser.test_keyboard_entry import key_row, wait_for_focus, wait_for_path
from tests.browser.test_phone_entry import PHONE, ROWS, save, tap_row
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.draw.services import series_draw
from tournaments.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each page records the violations reported to it; the test reads them before leaving.
LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


class Watch:
    """The violations, console reports and script errors of a browser context's pages."""

    def __init__(self, context):
        self.found: list[str] = []
        context.add_init_script(LISTEN)
        context.on("page", self.attach)

    def attach(self, page):
        page.on("pageerror", lambda error: self.found.append(f"{page.url}: error {error}"))
        page.on("console", lambda message: self.console(page, message))

    def console(self, page, message):
        if "Content Security Policy" in message.text:
            self.found.append(f"{page.url}: {message.text}")

    def check(self, page):
        """The page's own record too, then nothing may have been found."""
        reported = page.evaluate("() => window.cspViolations")
        self.found += [f"{page.url}: {violation}" for violation in reported]
        assert self.found == [], self.found


@pytest.fixture
def evening(db):
    club = ClubFactory(name="Skatfreunde Altenburg")
    secretary = UserFactory(username="sekretaer")
    club.secretaries.add(secretary)
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    tournament = TournamentFactory(club=club, name="Policy cup", slug="policy-cup")
    for n in range(6):
        player = PlayerFactory(club=club, name=f"Spieler {n + 1}")
        RegistrationFactory(tournament=tournament, player=player)
    series = series_draw(tournament=tournament, seed=1)
    return tournament, list(series.tables.order_by("number"))


def sign_in(page, base, username, next_path, *, login=None):
    page.goto(f"{base}{login or en('login')}?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", "skat-password-1")
    page.press("#id_password", "Enter")
    wait_for_path(page, "^" + next_path + "$")


def test_every_kind_of_page_works_under_the_policy(live_server, browser, evening):
    from playwright.sync_api import expect

    tournament, (desk_table, phone_table) = evening
    base = live_server.url
    slug = tournament.slug
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    watch = Watch(context)

    # Public: the standings' category filter submits when chosen (site.js).
    public = context.new_page()
    standings = en("tournament_detail", tournament=slug)
    public.goto(base + standings)
    public.select_option("#category", index=1)
    public.wait_for_url(lambda url: "category=" in url)
    watch.check(public)
    public.goto(base + standings)
    public.evaluate("() => { window.notReloaded = true; }")

    # Manage and the desk's sheet: sign in, key a game; the sheet saves it (sheet.js).
    desk = context.new_page()
    sheet = en("manage:sheet", tournament=slug, series=1, table=desk_table.number)
    sign_in(desk, base, "sekretaer", en("manage:tournament", tournament=slug))
    expect(desk.locator("h1")).to_contain_text("Policy cup")
    watch.check(desk)
    desk.goto(base + sheet)
    wait_for_focus(desk, "declarer")
    key_row(desk, {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20})
    expect(desk.locator(".progress")).to_contain_text("1 / ")
    assert Game.objects.filter(table=desk_table).count() == 1
    watch.check(desk)

    # The public standings noticed the new version and reloaded (live.js).
    public.wait_for_function("() => !window.notReloaded", timeout=25_000)
    watch.check(public)

    # The projector measures the screen and asks for as many rows as fit (projector.js).
    projector = context.new_page()
    projector.goto(base + en("tournament_projector", tournament=slug))
    projector.wait_for_url(lambda url: "fit=1" in url)
    watch.check(projector)

    # The API's interactive page: Swagger UI from the bundled files lists the API.
    api = context.new_page()
    api.goto(base + "/api/v1/docs")
    expect(api.locator(".swagger-ui .info")).to_contain_text("Skat scores")
    expect(api.locator(".opblock").first).to_be_visible()
    watch.check(api)

    # The admin: its sign-in page, its index and a list with its scripts.
    admin = browser.new_context(locale="en-US")
    admin_watch = Watch(admin)
    page = admin.new_page()
    sign_in(page, base, "boss", en("admin:index"), login=en("admin:login"))
    expect(page.locator("#content")).to_contain_text("Site administration")
    page.goto(base + en("admin:auth_user_changelist"))
    page.locator("#action-toggle").check()
    expect(page.locator(".action-counter")).to_contain_text("2 of 2 selected")
    admin_watch.check(page)
    # A change form with its widgets: the calendar's "Today", an inline, an autocomplete.
    page.goto(base + en("admin:tournaments_tournament_change", object_id=tournament.pk))
    page.fill("#id_date", "")
    page.locator("#id_date ~ .datetimeshortcuts a").first.click()
    expect(page.locator("#id_date")).not_to_have_value("")
    page.locator(".add-row a").first.click()
    page.locator(".dynamic-registrations .select2-selection").last.click()
    expect(page.locator(".select2-results__option").first).to_be_visible()
    admin_watch.check(page)
    admin.close()

    # The phone's entry: a tapped row is saved (entry.js).
    phone_context = browser.new_context(**PHONE)
    phone_context.set_default_timeout(15_000)
    phone_watch = Watch(phone_context)
    phone = phone_context.new_page()
    phone.goto(base + en("entry", token=phone_table.entry_token))
    expect(phone.locator("h1")).to_contain_text(f"Table {phone_table.number}")
    tap_row(phone, ROWS[0][0])
    save(phone)
    expect(phone.locator("#game-1")).to_contain_text("+72")
    phone_watch.check(phone)
    phone_context.close()

    # The listener does listen: an inline style is refused and reported (on a page that
    # does not reload itself, as the standings do after the phone's game).
    still = context.new_page()
    still.goto(base + en("api_docs"))
    still.evaluate("() => document.body.setAttribute('style', 'color: red')")
    still.wait_for_function("() => window.cspViolations.length > 0")
    assert "style-src" in still.evaluate("() => window.cspViolations[0]")
    context.close()
