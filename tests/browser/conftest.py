"""Shared set-up of the browser tests: Debian's chromium driven by Playwright.

`playwright install` is never used (no browser download works here): the project's
`make test` installs Debian's `chromium`, and these tests launch /usr/bin/chromium. Where it
is missing they skip with the reason, except in CI, where a missing browser is a failure.
Playwright's sync API runs an event loop in the test thread, hence DJANGO_ALLOW_ASYNC_UNSAFE.
"""

import os
import threading
from pathlib import Path

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from django.test.testcases import LiveServerThread

from tests.pages import en  # noqa: F401 (the browser tests import it from here)

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


class OneRequestAtATime(ThreadedWSGIServer):
    """The live server, answering one request at a time on the in-memory SQLite database.

    pytest-django starts the live server before the test database exists, so its request
    threads open connections of their own to the in-memory test database, which SQLite
    shares between them with a lock per table that fails at once instead of waiting: two
    browsers keying at once got "database table is locked: tournaments_table", a server
    error the site never gives on a database file, where a writer waits for the other
    (settings: WAL, BEGIN IMMEDIATE, a busy timeout). So on that database each request,
    with its whole response, runs under one lock. On PostgreSQL the requests still run side
    by side, as on the real site.
    """

    def set_app(self, application):
        lock = threading.Lock()

        def one_at_a_time(environ, start_response):
            database = connections["default"]
            if not (database.vendor == "sqlite" and database.is_in_memory_db()):
                return application(environ, start_response)
            with lock:
                response = application(environ, start_response)
                try:
                    return [b"".join(response)]
                finally:
                    if hasattr(response, "close"):
                        response.close()

        return super().set_app(one_at_a_time)


# pytest-django's live_server builds its LiveServerThread, which starts this server class.
LiveServerThread.server_class = OneRequestAtATime

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items):
    # Under pytest-xdist (`make test`, --dist loadgroup) every browser test runs in the one
    # worker, one after another: two chromiums and two live servers at once on two cores
    # slowed a page enough that keys typed into the desk's sheet went astray (one row of 36
    # lost, once in four full runs).
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture
def browser():
    if not CHROMIUM.exists():
        message = "Debian's chromium is not installed at /usr/bin/chromium (make test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # The test's own queries while Playwright runs use a connection of their own (the
        # sync API's event loop gives them another context); close it here, or PostgreSQL
        # cannot drop the test database at the end ("being accessed by other users").
        connections.close_all()
