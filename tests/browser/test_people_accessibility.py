"""axe-core finds no accessibility violation on the people pages (tournaments.accounts):
the first start on an empty site, the site administrator's pages, a club's and a league's
people, an invitation's form and link, the invitation and password pages a new person
opens. Same checks as tests/browser/test_accessibility.py, at phone and desktop width."""

import re

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.browser.conftest import en
from tests.browser.test_accessibility import (
    DESKTOP,
    PHONE,
    axe_script,
    check,
    report,
    violations,
)
from tests.factories import UserFactory
from tournaments.accounts import services
from tournaments.accounts.models import Role
from tournaments.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_people_pages_have_no_accessibility_violation(live_server, browser, viewport):
    script = axe_script()
    base = live_server.url
    found: dict[str, list[str]] = {}

    # The empty site's first start.
    anybody = browser.new_context(viewport=viewport, locale="en-US")
    page = anybody.new_page()
    check(page, base, [en("home"), en("login")], script, found, public=True)

    admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
    club = services.club_create(user=admin, name="Skatfreunde Altenburg", city="Altenburg")
    league = services.league_add(user=admin, name="Ostthüringer Liga", clubs=[club])
    secretary = UserFactory(username="anna")
    club.secretaries.add(secretary)
    _invitation, token = services.invitation_create(
        user=admin, role=Role.LEAGUE_DIRECTOR, target=league, email="dora@example.org"
    )
    uid = urlsafe_base64_encode(force_bytes(secretary.pk))
    reset = en(
        "password_reset_confirm",
        uidb64=uid,
        token=default_token_generator.make_token(secretary),
    )
    # The invitation and password pages a new person opens (the password link redirects).
    check(page, base, [en("invitation", token=token), reset], script, found)
    anybody.close()

    signed_in = browser.new_context(viewport=viewport, locale="en-US")
    page = signed_in.new_page()
    page.goto(base + en("login"))
    page.fill("#id_username", "admin")
    page.fill("#id_password", "skat-password-1")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    pages = [
        en("manage:dashboard"),
        en("manage:site_clubs"),
        en("manage:site_leagues"),
        en("manage:site_people"),
        en("manage:site_log"),
        en("manage:club_people", club=club.pk),
        en("manage:league_people", league=league.pk),
        en("manage:invite_club", pk=club.pk),
    ]
    check(page, base, pages, script, found)
    # The link page, once.
    page.goto(base + en("manage:invite_club", pk=Club.objects.get().pk))
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/manage/link/$"))
    lines = violations(page, script)
    if lines:
        found["link page"] = lines
    signed_in.close()
    assert not found, report(found)
