"""Errors reach the operator: logged with their traceback to standard error, and sent to
Sentry when SENTRY_DSN is set (skatclub/settings.py: LOGGING, SENTRY_DSN).

Each case runs the site in a fresh interpreter with DJANGO_DEBUG=0, as on a club's server,
and breaks a page and an API operation on purpose; what the process writes to its standard
error is what gunicorn and the systemd journal would get. The Sentry case points the DSN
at a tiny HTTP server of the test (port 8621, this project's test range) and reads the
events that arrive there.
"""

import gzip
import json
import os
import secrets
import subprocess
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings

SENTRY_PORT = 8621

# A page (the home page) and an API operation (/api/v1/seasons) that fail, answered with
# DEBUG off as a club's server answers them.
FAILING_SITE = """
import sys
import django

django.setup()
from django.test import Client
from tournaments.api import views as api_views
from tournaments.public import views as public_views


def page_fails(self, **kwargs):
    raise RuntimeError("the home page failed on purpose")


def api_fails(request):
    raise RuntimeError("the API failed on purpose")


public_views.HomeView.get_context_data = page_fails
api_views._visible_seasons = api_fails
client = Client(raise_request_exception=False)
print(client.get("/").status_code, client.get("/api/v1/seasons").status_code)
print("sentry_sdk" in sys.modules)
if "sentry_sdk" in sys.modules:
    import sentry_sdk

    print(sentry_sdk.get_client().is_active())
    sentry_sdk.flush(timeout=10)
"""


def run_failing_site(tmp_path, **env) -> subprocess.CompletedProcess:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "CACHE_URL", "REDIS_URL", "SENTRY_"))
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="skatclub.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **env,
    )
    return subprocess.run(
        [sys.executable, "-c", FAILING_SITE],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_request_errors_are_logged_with_their_traceback_to_standard_error(tmp_path):
    done = run_failing_site(tmp_path)
    assert done.stdout.split() == ["500", "500", "False"], done.stderr
    errors = done.stderr
    # One record each, with the traceback down to the line that raised.
    assert "ERROR django.request" in errors and "Internal Server Error: /\n" in errors
    assert "Internal Server Error: /api/v1/seasons" in errors
    assert errors.count("Traceback (most recent call last):") == 2
    assert "RuntimeError: the home page failed on purpose" in errors
    assert "RuntimeError: the API failed on purpose" in errors
    assert ", in page_fails\n" in errors and ", in api_fails\n" in errors


def test_the_log_level_comes_from_the_environment(tmp_path):
    done = run_failing_site(tmp_path, DJANGO_LOG_LEVEL="CRITICAL")
    assert done.stdout.split()[:2] == ["500", "500"], done.stderr
    # django.request stays at ERROR at least, so request errors are always written.
    assert "RuntimeError: the API failed on purpose" in done.stderr
    wrong = run_failing_site(tmp_path, DJANGO_LOG_LEVEL="LOUD")
    assert "DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL" in wrong.stderr


class SentryInbox(BaseHTTPRequestHandler):
    """Stores every envelope posted to it (the server's `envelopes`), answers 200."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding == "br":
            brotli = pytest.importorskip("brotli")
            body = brotli.decompress(body)
        self.server.envelopes.append((self.path, body.decode("utf-8", "replace")))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def sentry_inbox():
    server = ThreadingHTTPServer(("127.0.0.1", SENTRY_PORT), SentryInbox)
    server.envelopes = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


def events_of(envelopes) -> list[dict]:
    """The error events in Sentry envelopes (a header line, then item header and payload
    lines)."""
    found = []
    for _path, text in envelopes:
        lines = text.splitlines()
        for header, payload in zip(lines[1::2], lines[2::2], strict=False):
            if json.loads(header).get("type") == "event":
                found.append(json.loads(payload))
    return found


def test_with_a_sentry_dsn_errors_are_reported_without_personal_data(tmp_path, sentry_inbox):
    done = run_failing_site(
        tmp_path,
        SENTRY_DSN=f"http://public@127.0.0.1:{SENTRY_PORT}/1",
        SENTRY_ENVIRONMENT="club-test",
    )
    assert done.stdout.split() == ["500", "500", "True", "True"], done.stderr
    assert {path for path, _ in sentry_inbox.envelopes} == {"/api/1/envelope/"}
    events = events_of(sentry_inbox.envelopes)
    messages = {
        value["value"]
        for event in events
        for value in event["exception"]["values"]
        if value["type"] == "RuntimeError"
    }
    assert messages == {"the home page failed on purpose", "the API failed on purpose"}
    assert {event["environment"] for event in events} == {"club-test"}
    # send_default_pii=False: no address, cookies or user of the visitor.
    assert all("user" not in event or "ip_address" not in event["user"] for event in events)
    assert all("cookies" not in event.get("request", {}) for event in events)


@pytest.mark.parametrize("rate", ["lots", "2"])
def test_a_bad_traces_sample_rate_stops_with_a_clear_message(tmp_path, rate):
    done = run_failing_site(
        tmp_path,
        SENTRY_DSN=f"http://public@127.0.0.1:{SENTRY_PORT}/1",
        SENTRY_TRACES_SAMPLE_RATE=rate,
    )
    assert done.returncode == 1
    assert f"SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1, not '{rate}'" in done.stderr


def test_without_a_sentry_dsn_sentry_is_not_even_imported(tmp_path):
    done = run_failing_site(tmp_path)
    assert done.stdout.split() == ["500", "500", "False"], done.stderr


def test_make_serve_writes_an_access_log_with_the_time_taken():
    stamp = subprocess.run(
        ["cksum", "requirements.txt"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[0]
    # -n: the commands only; -o: the virtualenv counts as set up.
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "serve", "-o", f".venv/.installed-{stamp}"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    gunicorn = done.stdout.split("gunicorn skatclub.wsgi:application", 1)[1]
    assert "--access-logfile - --error-logfile -" in gunicorn
    assert "%(M)sms" in gunicorn  # the request's time in milliseconds
