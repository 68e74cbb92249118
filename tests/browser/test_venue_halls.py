"""A league match day at two venues, each kept on a hall site of its own (issue 28): the
league site (the live server) draws the match day and makes a key per venue; each venue's
hall (a site process of its own on a SQLite file) imports the match day, its secretary keys
the venue's tables in a browser, and `manage.py publish --venue --once` sends them. The
league director then confirms, and the league site's match-day table is the one the same
results keyed on the league site directly give.

Playwright drives Debian's chromium (tests/browser/conftest.py).
"""

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import transaction

from tests.browser.conftest import en
from tests.browser.test_keyboard_entry import key_row, wait_for_focus, wait_for_path
from tests.browser.test_league_match_day import close_sheet, rows_for
from tests.tournaments.hall.sites import free_ports
from tests.tournaments.helpers import enter
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
from tournaments.interchange.export import export_document
from tournaments.leagues.selectors import season_tables
from tournaments.leagues.services import match_day_confirm
from tournaments.models import Game, Table
from tournaments.publishing.services import key_create
from tournaments.sheets.services import table_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PORTS = range(8820, 8830)
VENUES = ("Altenburg", "Zeitz")


class Hall:
    """A hall site: its own SQLite file, `manage.py` commands and a development server."""

    def __init__(self, tmp_path: Path, name: str, port: int):
        self.name, self.port = name, port
        self.url = f"http://127.0.0.1:{port}"
        self.database = tmp_path / f"{name}.sqlite3"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE"))}
        self.env.update(
            DATABASE_URL=f"sqlite:///{self.database}",
            DJANGO_DEBUG="1",
            DJANGO_SECRET_KEY="venue-halls-test-only",
            PYTHONDONTWRITEBYTECODE="1",
        )
        self.log = (tmp_path / f"{name}.log").open("w")
        self.server = None

    def start(self, *args) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def manage(self, *args) -> str:
        return self.wait(self.start(*args))

    @staticmethod
    def wait(process) -> str:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, (out + err)[-2000:]
        return out

    def serve(self):
        self.server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for _ in range(120):
            try:
                urllib.request.urlopen(self.url + "/health/", timeout=2).read()
                return
            except OSError:
                assert self.server.poll() is None, "the hall's server ended"
                time.sleep(0.25)
        raise AssertionError("the hall's server never answered")

    def stop(self):
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)
        self.log.close()


def expected_table(day) -> list[tuple[str, str, int]]:
    """The season's team table as the league site gives it when both venues key the same
    rows there directly (keyed, confirmed, read, then rolled back)."""

    class Undo(Exception):
        pass

    try:
        with transaction.atomic():
            for table in Table.objects.filter(series__tournament=day).order_by("number"):
                enter(table, rows_for(table.number))
                table_close(table=Table.objects.get(pk=table.pk))
            match_day_confirm(tournament=day)
            rows = [
                (row.team, format_match_points(row.match_points_won, row.match_points_lost), 0)
                for row in season_tables(day.season).teams
            ]
            raise Undo(rows)
    except Undo as undo:
        return undo.args[0]


def test_two_venue_halls_publish_into_the_league_match_day(
    live_server, browser, request, tmp_path
):
    from playwright.sync_api import expect

    day = request.getfixturevalue("match_day")
    director = request.getfixturevalue("league_director")
    series_draw(tournament=day, seed=11)
    numbers = {
        venue: list(
            Table.objects.filter(series__tournament=day, venue__name=venue)
            .order_by("number")
            .values_list("number", flat=True)
        )
        for venue in VENUES
    }
    assert numbers == {"Altenburg": [1, 2], "Zeitz": [3, 4]}
    expected = expected_table(day)
    assert not Game.objects.filter(table__series__tournament=day).exists()
    assert len(expected) == 4 and len({points for _team, points, _ in expected}) > 1
    keys = {name: key_create(name=f"{name} hall", venue=day.venues.get(name=name))[1]
            for name in VENUES}  # fmt: skip
    document = tmp_path / "match-day.json"
    document.write_text(json.dumps(export_document(day)))

    halls = [
        Hall(tmp_path, name, port) for name, port in zip(VENUES, free_ports(PORTS, 2), strict=True)
    ]
    try:
        # One database migrated, copied for the other hall (two cores, shared).
        halls[0].manage("migrate", "--verbosity", "0")
        for hall in halls[1:]:
            shutil.copyfile(halls[0].database, hall.database)
        setups = [
            hall.start(
                "shell",
                "-c",
                "from django.contrib.auth import get_user_model\n"
                "from django.core.management import call_command\n"
                f"call_command('import_tournament', {str(document)!r}, club='Skat {hall.name}')\n"
                "get_user_model().objects.create_superuser("
                "'secretary', 'secretary@example.org', 'skat-password-1')",
            )
            for hall in halls
        ]
        for process in setups:
            Hall.wait(process)
        for hall in halls:
            hall.serve()

        # Each venue's secretary keys the venue's tables at their own hall.
        for hall in halls:
            context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
            context.set_default_timeout(15_000)
            page = context.new_page()
            first = numbers[hall.name][0]
            path = en("manage:sheet", tournament=day.slug, series=1, table=first)
            page.goto(f"{hall.url}{en('login')}?next={path}")
            wait_for_focus(page, "username")
            page.keyboard.type("secretary")
            page.keyboard.press("Tab")
            page.keyboard.type("skat-password-1")
            page.keyboard.press("Enter")
            for number in numbers[hall.name]:
                if number != first:
                    path = en("manage:sheet", tournament=day.slug, series=1, table=number)
                    page.goto(hall.url + path)
                wait_for_path(page, rf"/table/{number}/$")
                for index, row in enumerate(rows_for(number)):
                    expect(page.locator(".progress")).to_contain_text(f"{index} / 4")
                    wait_for_focus(page, "declarer")
                    key_row(page, row)
                expect(page.locator(".progress")).to_contain_text("4 / 4")
                close_sheet(page)
                expect(page.locator("ul.messages")).to_contain_text(f"Table {number} is closed")
            context.close()

        # Each hall publishes its venue's tables to the league site.
        for process in [
            hall.start(
                "publish",
                day.slug,
                "--to",
                live_server.url,
                "--key",
                keys[hall.name],
                "--venue",
                hall.name,
                "--once",
            )  # fmt: skip
            for hall in halls
        ]:
            Hall.wait(process)
    finally:
        for hall in halls:
            hall.stop()

    assert Game.objects.filter(table__series__tournament=day).count() == 16
    assert not Table.objects.filter(series__tournament=day, closed=False).exists()
    # The director confirms after the evening (the venues' tables stay kept at their halls).
    match_day_confirm(tournament=day, user=director)

    phone = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, is_mobile=True
    ).new_page()
    phone.goto(live_server.url + en("league_season", season=day.season.slug))
    rows = phone.locator("table").first.locator("tbody tr")
    expect(rows).to_have_count(len(expected))
    for index, (team, points, _) in enumerate(expected):
        expect(rows.nth(index).locator("td").nth(1)).to_have_text(team)
        expect(rows.nth(index)).to_contain_text(points)
