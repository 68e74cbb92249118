"""axe-core finds no accessibility violation on any page, in a real browser.

Every kind of page is opened with the demo data (a finished, a running and a North American
tournament, a league season, money, a phone link with a provisional row): the public pages
as anybody sees them, the secretary's pages signed in, the phone's entry page at phone
size, the projector at 1920 × 1080 and 1280 × 720. axe-core (WCAG 2.0 / 2.1 / 2.2 A and AA
and its best practices, target size included) runs on each, at phone and desktop width
(colour contrast at desktop width only: the stylesheets set no colour by width, which a
test here checks).

axe-core comes with the pinned PyPI package `axe-playwright-python` (its bundled
axe.min.js; nothing is downloaded at test time). Two checks axe leaves to a person are made
here too: every `aria-describedby` names an element on the page, and every public page has
a meta description.

Playwright drives Debian's chromium (/usr/bin/chromium; `playwright install` is never
used). Its sync API runs an event loop in this thread, hence DJANGO_ALLOW_ASYNC_UNSAFE.
"""

import uuid
from importlib import resources

import pytest

from tests.browser.conftest import en
from tests.pages import manage_pages, public_pages
from tournaments import demo
from tournaments.entry.services import game_record_at_table, table_links_issue
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PROJECTOR = {"width": 1920, "height": 1080}
SMALL_PROJECTOR = {"width": 1280, "height": 720}


def axe_script() -> str:
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def violations(page, script: str, *, disabled: tuple[str, ...] = ()) -> list[str]:
    """axe's violations on the open page, one line each (rule, impact, first targets)."""
    page.evaluate(script)
    found = page.evaluate(
        """([tags, disabled]) => axe.run(document, {
              runOnly: {type: "tag", values: tags},
              rules: Object.fromEntries(disabled.map((id) => [id, {enabled: false}])),
            }).then((r) => r.violations.map((v) => `${v.id} (${v.impact}): ` +
              v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))""",
        [AXE_TAGS, list(disabled)],
    )
    # What axe leaves to a person: descriptions that point nowhere.
    dangling = page.evaluate(
        """() => Array.from(document.querySelectorAll("[aria-describedby]")).flatMap((el) =>
              el.getAttribute("aria-describedby").split(/\\s+/)
                .filter((id) => id && !document.getElementById(id))
                .map((id) => `aria-describedby of #${el.id || el.name}: no #${id}`))"""
    )
    return found + dangling


@pytest.fixture
def demo_site(db):
    made = demo.demo_create()
    running = made["running"]
    series = running.series.get(number=1)
    table_links_issue(series=series)
    # A table with rows keyed at the desk, then one keyed on the phone (provisional).
    table = (
        Table.objects.filter(series=series, closed=False, games__isnull=False)
        .distinct()
        .order_by("number")
        .first()
    )
    number = table.games.count() + 1
    dealer = table.dealer_of(number)
    declarer = next(s for s in range(1, table.size + 1) if s != dealer)
    game_record_at_table(
        table=table,
        data={"declarer": declarer, "game": "null", "won": True, "bid": 23},
        client_id=uuid.uuid4(),
        number=number,
    )
    table.refresh_from_db()
    return {**made, "table": table}


def sign_in(page, base: str):
    page.goto(f"{base}{en('login')}")
    page.fill("#id_username", demo.DEMO_USERNAME)
    page.fill("#id_password", demo.DEMO_PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(lambda url: "/login/" not in url)


def check(page, base: str, paths: list[str], script: str, found: dict, public=False, **kwargs):
    """Open each page and note what is wrong with it in `found` (path → lines)."""
    for path in paths:
        response = page.goto(f"{base}{path}")
        assert response.status == 200, f"{path}: HTTP {response.status}"
        page.wait_for_load_state("load")
        lines = violations(page, script, **kwargs)
        description = page.evaluate(
            "() => document.querySelector('meta[name=description]')?.content || ''"
        )
        if public and not description.strip():
            lines.append("no meta description")
        if lines:
            found.setdefault(path, []).extend(lines)


def report(found: dict) -> str:
    return "\n".join(f"{path}: {line}" for path, lines in found.items() for line in lines)


def test_no_page_has_an_accessibility_violation_at_any_width(live_server, browser, demo_site):
    """Every page at phone and desktop width, the projector at both its sizes: one demo
    site for all four (building it is a good part of the test's time)."""
    script = axe_script()
    base = live_server.url
    found: dict[str, list[str]] = {}

    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        # Colour contrast, four fifths of axe's time on a page, is checked at desktop width
        # only: the stylesheets change no colour by width (tests/test_stylesheets.py), so
        # a phone's contrast is the desktop's.
        disabled = ("color-contrast",) if viewport is PHONE else ()
        seen: dict[str, list[str]] = {}
        anybody = browser.new_context(viewport=viewport, locale="en-US")
        page = anybody.new_page()
        check(page, base, public_pages(demo_site), script, seen, public=True, disabled=disabled)
        # The phone's page of the table with the provisional row.
        entry = [f"/entry/{demo_site['table'].entry_token}/"]
        check(page, base, entry, script, seen, disabled=disabled)
        anybody.close()

        secretary = browser.new_context(viewport=viewport, locale="en-US")
        page = secretary.new_page()
        sign_in(page, base)
        check(page, base, manage_pages(demo_site), script, seen, disabled=disabled)
        secretary.close()
        found.update({f"{name} {path}": lines for path, lines in seen.items()})

    for name, viewport in (("1080p", PROJECTOR), ("720p", SMALL_PROJECTOR)):
        seen = {}
        context = browser.new_context(viewport=viewport, locale="en-US")
        page = context.new_page()
        paths = [
            en("tournament_projector", tournament=demo_site[kind].slug)
            for kind in ("running", "finished", "tournee")
        ]
        # "meta-refresh": the projector turns its pages by reloading itself; the live
        # reload of issue 12 replaces the <meta http-equiv="refresh">, and this exclusion
        # goes with it.
        check(page, base, paths, script, seen, disabled=("meta-refresh",))
        context.close()
        found.update({f"projector {name} {path}": lines for path, lines in seen.items()})

    assert not found, report(found)
