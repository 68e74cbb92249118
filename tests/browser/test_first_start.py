"""A club's first start in real browsers (issue 26, "Done when"): from an empty database
the first site administrator is made by the documented command, signs in, creates a club
and a league and invites a secretary and a director; the director starts a season, a match
day and a venue and invites its secretary; each opens their link in a browser of their
own, chooses a password and sees only their own; the secretary runs a small tournament to
its results. No request of any of them goes to the Django admin.

Playwright drives Debian's chromium (tests/browser/conftest.py).
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.browser.conftest import en
from tournaments.models import Club, Game, League, Tournament, Venue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADMIN_PASSWORD = "first-admin-pass-2026"
PASSWORD = "a-long-new-pass-4711"
PLAYERS = ["Anna Schmidt", "Bernd Müller", "Carla Weiß", "Dieter Jung"]
ADMIN_PATH = re.compile(r"^/([a-z]{2}/)?admin(/|$)")


class Browsers:
    """One browser context per person; every request of each is recorded."""

    def __init__(self, browser, live_server):
        self.browser, self.url, self.requests, self.contexts = browser, live_server.url, [], []

    def new(self):
        context = self.browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        context.on("request", lambda request: self.requests.append(request.url))
        self.contexts.append(context)
        return context.new_page()

    def admin_paths(self):
        paths = [re.sub(r"^https?://[^/]+", "", url) for url in self.requests]
        return [path for path in paths if ADMIN_PATH.match(path)]

    def close(self):
        for context in self.contexts:
            context.close()


def sign_in(page, url, username, password):
    page.goto(url + en("login"))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{url}/")


def invite(page, expect, url, path) -> str:
    """Open an invitation form, send it, and return the link shown once."""
    page.goto(url + path)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("ul.messages")).to_contain_text("The invitation was created.")
    return page.locator("#one-time-link").input_value()


def accept(page, expect, link, username):
    """A new person opens their link, chooses a user name and password, is signed in."""
    page.goto(link)
    expect(page.locator("main")).to_contain_text("You are invited as")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.fill("#id_password_again", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator("ul.messages")).to_contain_text(f"Welcome, {username}")
    expect(page.locator("nav")).to_contain_text(f"Sign out ({username})")


def desk_row(page, *, declarer, game, matadors, card_points, bid):
    page.select_option("#entry #id_declarer", str(declarer))
    page.select_option("#entry #id_game", game)
    page.fill("#entry #id_matadors", str(matadors))
    page.fill("#entry #id_card_points", str(card_points))
    page.fill("#entry #id_bid", str(bid))


def wait_until(page, condition):
    for _ in range(150):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the condition was not met in 15 s")


def test_a_club_starts_from_an_empty_database(live_server, browser, monkeypatch):
    from playwright.sync_api import expect

    User = get_user_model()
    assert not User.objects.exists()
    people = Browsers(browser, live_server)
    url = live_server.url
    try:
        # An empty site says how to begin; the README's command makes the administrator.
        admin = people.new()
        admin.goto(url + en("home"))
        expect(admin.locator(".first-start")).to_contain_text("manage.py createsuperuser")
        monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", ADMIN_PASSWORD)
        call_command(
            "createsuperuser", interactive=False, username="admin", email="admin@example.org"
        )
        sign_in(admin, url, "admin", ADMIN_PASSWORD)
        expect(admin.locator(".first-start")).to_have_count(0)

        # The site administrator: a club, a league of it, a secretary and a director.
        admin.get_by_role("link", name="Manage").click()
        admin.locator("main").get_by_role("link", name="Clubs").click()
        admin.fill("#id_name", "Skatfreunde Altenburg")
        admin.fill("#id_city", "Altenburg")
        admin.get_by_role("button", name="Create club").click()
        expect(admin.locator("ul.messages")).to_contain_text("was created")
        club = Club.objects.get(name="Skatfreunde Altenburg")
        admin.locator("main").get_by_role("link", name="Leagues").click()
        admin.fill("#id_name", "Ostthüringer Liga")
        admin.get_by_label("Skatfreunde Altenburg").check()
        admin.get_by_role("button", name="Create league").click()
        expect(admin.locator("ul.messages")).to_contain_text("was created")
        league = League.objects.get(name="Ostthüringer Liga")
        secretary_link = invite(admin, expect, url, en("manage:invite_club", pk=club.pk))
        director_link = invite(admin, expect, url, en("manage:invite_league", pk=league.pk))

        # The secretary accepts and sees their club, not the league's pages.
        secretary = people.new()
        accept(secretary, expect, secretary_link, "anna")
        expect(secretary.locator("main")).to_contain_text("Skatfreunde Altenburg")
        league_page = en("manage:league_people", league=league.pk)
        assert secretary.goto(url + league_page).status == 403
        assert secretary.goto(url + en("manage:site_people")).status == 403

        # The director accepts, sees their league (not the club's people) and starts a season.
        director = people.new()
        accept(director, expect, director_link, "dora")
        director.get_by_role("link", name="Ostthüringer Liga").click()
        director.fill("#id_name", "Liga 2026/27")
        director.get_by_role("button", name="New season").click()
        expect(director.locator("h1")).to_contain_text("Liga 2026/27")
        season_page = director.url
        assert director.goto(url + en("manage:club_people", club=club.pk)).status == 403

        # The secretary enters their club's team; the director a match day and its venue.
        secretary.goto(season_page)
        team_form = secretary.locator("form[action$='/teams/new/']")
        team_form.locator("[name=name]").fill("Altenburg I")
        team_form.locator("[name=club]").select_option(label="Skatfreunde Altenburg")
        team_form.get_by_role("button", name="Add the team").click()
        expect(secretary.locator("ul.messages")).to_contain_text("Altenburg I was created")
        director.goto(season_page)
        day_form = director.locator("form[action$='/match-days/new/']")
        day_form.locator("[name=name]").fill("1. Spieltag")
        day_form.locator("[name=date]").fill("2026-09-19")
        day_form.get_by_role("button", name="Add the match day").click()
        expect(director.locator("ul.messages")).to_contain_text("1. Spieltag was created")
        director.locator("summary", has_text="Add a venue").click()
        venue_form = director.locator("form[action$='/venues/new/']")
        venue_form.locator("input[name$='-name']").fill("Altenburg")
        venue_form.get_by_label("Altenburg I").check()
        venue_form.get_by_role("button", name="Add the venue").click()
        expect(director.locator("ul.messages")).to_contain_text("The venue Altenburg was added")
        director.get_by_role("link", name="Invite a venue secretary").click()
        director.locator("main form button[type=submit]").click()
        venue_link = director.locator("#one-time-link").input_value()

        # The venue secretary accepts and sees their venue, nothing of the league or club.
        keeper = people.new()
        accept(keeper, expect, venue_link, "vera")
        keeper.goto(url + en("manage:leagues"))
        expect(keeper.locator("main")).to_contain_text("1. Spieltag: Altenburg")
        venue = Venue.objects.get(name="Altenburg")
        assert venue.secretary.username == "vera"
        assert keeper.goto(url + league_page).status == 403
        assert keeper.goto(url + en("manage:club_people", club=club.pk)).status == 403

        # The secretary runs a small evening of four players to its results.
        secretary.goto(url + en("manage:dashboard"))
        secretary.get_by_role("link", name="New tournament").click()
        secretary.fill("#id_name", "Clubabend")
        secretary.fill("#id_date", "2026-11-27")
        secretary.fill("#id_games_per_series_4", "4")
        secretary.check("#id_published")
        secretary.locator("main form button[type=submit]").click()
        expect(secretary.locator("ul.messages")).to_contain_text("The tournament was created")
        tournament = Tournament.objects.get(name="Clubabend")
        t = {"tournament": tournament.slug}
        for name in PLAYERS:
            secretary.fill("#id_name", name)
            secretary.get_by_role("button", name="Add and register").click()
            expect(secretary.locator("ul.messages")).to_contain_text(name)
        secretary.locator("#draw-series").click()
        expect(secretary.locator("ul.messages")).to_contain_text("Series 1 drawn")
        table = tournament.series.get().tables.get()
        secretary.goto(url + en("manage:sheet", **t, series=1, table=1))
        for number in range(1, 5):
            dealer = (number - 1) % 4 + 1  # sits out at a table of four
            won = number % 2 == 1
            desk_row(
                secretary,
                declarer=dealer % 4 + 1,
                game="grand" if won else "spades",
                matadors=2 if won else 1,
                card_points=78 if won else 45,
                bid=20 if won else 18,
            )
            secretary.locator("#entry button[type=submit]").click()
            wait_until(secretary, lambda n=number: Game.objects.filter(table=table).count() == n)
        secretary.goto(url + en("manage:sheet_close", **t, series=1, table=1))
        secretary.locator("main form.card button[type=submit]").last.click()
        expect(secretary.locator("ul.messages")).to_contain_text("Table 1 is closed")
        secretary.goto(url + en("manage:series", **t, series=1))
        secretary.get_by_role("button", name="Close series").click()
        expect(secretary.locator("ul.messages")).to_contain_text("The series is closed")
        secretary.goto(url + en("manage:tournament", **t))
        secretary.get_by_role("button", name="Finish tournament").click()
        secretary.locator("#confirm-button").click()
        expect(secretary.locator("ul.messages")).to_contain_text("The tournament is finished")
        secretary.goto(url + en("tournament_detail", **t))
        results = secretary.locator("main").inner_text()
        for name in PLAYERS:
            assert name in results
        assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED

        # The site log shows every step; nobody's browser asked for the Django admin.
        admin.goto(url + en("manage:site_log"))
        log = admin.locator("main").inner_text()
        for text in (
            "Club created",
            "League created",
            "Invitation created",
            "Invitation accepted",
        ):
            assert text in log, text
        assert len(people.requests) > 50
        assert people.admin_paths() == []
    finally:
        people.close()
