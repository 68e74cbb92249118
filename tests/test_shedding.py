"""Overload is shed (skatclub.middleware.OverloadShedding, around the site in
skatclub/wsgi.py): a request that has waited longer than SHED_AFTER_MS is answered 503 at
once, before Django sees it; its wait comes from the proxy's X-Request-Start when trusted,
else from the connection itself."""

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from wsgiref.util import setup_testing_defaults

import pytest
from django.conf import settings as django_settings
from django.core.wsgi import get_wsgi_application

from skatclub import middleware
from skatclub.middleware import OverloadShedding, header_wait_ms, socket_wait_ms

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the connection's wait is read from Linux"
)


def started(seconds_ago: float) -> str:
    return f"t={time.time() - seconds_ago:.3f}"


def answer(application, **environ) -> tuple[str, dict, bytes]:
    """(status, headers, body) of a WSGI application for a GET of / with `environ`."""
    setup_testing_defaults(environ)
    got = {}

    def start_response(status, headers):
        got.update(status=status, headers=dict(headers))

    body = b"".join(application(environ, start_response))
    return got["status"], got["headers"], body


class Site:
    """The site behind the wrapper, counting the requests it was given."""

    def __init__(self):
        self.requests = 0

    def __call__(self, environ, start_response):
        self.requests += 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"page"]


def shedding(*, after_ms=500, trust_header=True, site=None):
    return OverloadShedding(site or Site(), after_ms=after_ms, trust_header=trust_header)


def test_a_request_queued_too_long_is_answered_busy_without_a_query(
    tournament, django_assert_num_queries
):
    # In front of the real site, asked for the home page (which lists the tournaments).
    application = shedding(site=get_wsgi_application())
    with django_assert_num_queries(0):
        status, headers, body = answer(application, HTTP_X_REQUEST_START=started(2.0))
    assert status == "503 Service Unavailable"
    assert headers["Retry-After"] == str(middleware.RETRY_AFTER)
    assert headers["Cache-Control"] == "no-store"
    assert headers["Content-Length"] == str(len(body))
    assert body == middleware.BUSY_TEXT
    assert "Set-Cookie" not in headers


def test_a_fresh_request_is_served():
    site = Site()
    status, _headers, body = answer(shedding(site=site), HTTP_X_REQUEST_START=started(0.05))
    assert (status, body, site.requests) == ("200 OK", b"page", 1)


@pytest.mark.parametrize(
    "value",
    [
        "t=yesterday",  # not a number
        "1700000000.000",  # no t=
        "t=",
        "t=nan",
        "t=1e400",  # infinity: in the future
    ],
)
def test_an_unreadable_request_start_is_ignored(value):
    site = Site()
    assert answer(shedding(site=site), HTTP_X_REQUEST_START=value)[0] == "200 OK"
    assert site.requests == 1


def test_a_request_start_in_the_future_is_ignored():
    later = f"t={time.time() + 60:.3f}"
    assert answer(shedding(), HTTP_X_REQUEST_START=later)[0] == "200 OK"
    assert header_wait_ms(later, time.time()) is None


def test_the_request_start_is_not_trusted_unless_configured():
    application = shedding(trust_header=False)
    assert answer(application, HTTP_X_REQUEST_START=started(60))[0] == "200 OK"


def test_zero_turns_shedding_off():
    application = shedding(after_ms=0)
    assert answer(application, HTTP_X_REQUEST_START=started(60))[0] == "200 OK"


def test_the_wait_is_read_in_milliseconds():
    # (header, now) -> waited ms
    assert header_wait_ms("t=100.250", 101.0) == pytest.approx(750)
    assert header_wait_ms("t=101.5", 101.0) == 0  # within the clocks' tolerance: no wait


@pytest.mark.parametrize(
    ("env", "after_ms", "trusted"),
    [
        ({}, 500, False),
        ({"DJANGO_SHED_AFTER_MS": "0"}, 0, False),
        ({"DJANGO_SHED_AFTER_MS": "250", "DJANGO_SHED_TRUST_REQUEST_START": "1"}, 250, True),
    ],
)
def test_the_settings_come_from_the_environment(env, after_ms, trusted):
    code = (
        "import django.conf; s = django.conf.settings; "
        "print(s.SHED_AFTER_MS, s.SHED_TRUST_REQUEST_START)"
    )
    done = fresh_settings(code, env)
    assert done.stdout.split() == [str(after_ms), str(trusted)], done.stderr


@pytest.mark.parametrize("value", ["-1", "soon"])
def test_a_wrong_threshold_stops_the_start(value):
    done = fresh_settings(
        "import django.conf; django.conf.settings.SHED_AFTER_MS", {"DJANGO_SHED_AFTER_MS": value}
    )
    assert done.returncode == 1
    assert "DJANGO_SHED_AFTER_MS must be" in done.stderr


def fresh_settings(code: str, env: dict):
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("DJANGO_SHED")
    }
    environment.update(env, DJANGO_SETTINGS_MODULE="skatclub.settings", DJANGO_DEBUG="1")
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=django_settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


# -- the connection's own clock (Linux struct tcp_info) ---------------------------------


@pytest.fixture
def connection():
    """(server side, client side) of a TCP connection on loopback, the request sent."""
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    server, _address = listener.accept()
    listener.close()
    yield server, client
    server.close()
    client.close()


@linux_only
def test_the_connection_says_how_long_ago_the_request_arrived(connection):
    server, _client = connection
    before = socket_wait_ms(server)
    time.sleep(0.3)
    after = socket_wait_ms(server)
    # The kernel's clock ticks in jiffies (up to 10 ms); the sleep lasted at least 300 ms.
    assert before is not None
    assert after >= before + 280


@linux_only
def test_a_new_request_on_a_kept_connection_starts_a_new_wait(connection):
    server, client = connection
    time.sleep(0.3)
    client.sendall(b"GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
    time.sleep(0.05)  # the bytes cross loopback
    assert socket_wait_ms(server) < 280


@linux_only
def test_a_request_that_waited_on_its_connection_is_answered_busy(connection):
    server, _client = connection
    site = Site()
    application = shedding(after_ms=200, trust_header=False, site=site)
    assert answer(application, **{"gunicorn.socket": server})[0] == "200 OK"  # fresh
    time.sleep(0.3)
    assert answer(application, **{"gunicorn.socket": server})[0] == "503 Service Unavailable"
    assert site.requests == 1


def test_without_a_tcp_connection_the_wait_is_unknown():
    one, other = socket.socketpair()  # a Unix socket
    try:
        assert socket_wait_ms(one) is None
    finally:
        one.close()
        other.close()
    assert socket_wait_ms(None) is None


# -- under gunicorn ------------------------------------------------------------------------

PORT = 8642


def ask(path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


@linux_only
def test_gunicorn_sheds_a_request_that_waited_in_its_queue(tmp_path):
    """A real gunicorn (one worker, one thread) is frozen while a request waits in its
    queue; once it runs again the request is answered 503, the next one is served."""
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "a-test-key-for-the-shedding-test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SHED_AFTER_MS": "300",
        "DJANGO_SHED_TRUST_REQUEST_START": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    server = subprocess.Popen(
        [
            os.path.join(os.path.dirname(sys.executable), "gunicorn"),
            "skatclub.wsgi:application",
            f"--bind=127.0.0.1:{PORT}",
            "--workers=1",
            "--worker-class=gthread",  # as make serve's --threads 4 choose
            "--threads=1",
            "--no-control-socket",
        ],
        cwd=django_settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    # set_language answers a GET with a redirect, without the database. A request that waited while
    # the worker loaded the site is itself answered 503: asked again until served.
    path = "/i18n/setlang/"
    try:
        deadline = time.time() + 60
        while True:
            try:
                if ask(path) == 302:
                    break
            except OSError:
                pass
            assert server.poll() is None and time.time() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        os.killpg(server.pid, signal.SIGSTOP)
        try:
            waiting = socket.create_connection(("127.0.0.1", PORT))
            waiting.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            time.sleep(0.6)
        finally:
            os.killpg(server.pid, signal.SIGCONT)
        waiting.settimeout(10)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += waiting.recv(4096)
        waiting.close()
        head = answer.split(b"\r\n\r\n")[0].decode()
        assert head.startswith("HTTP/1.1 503")
        assert f"Retry-After: {middleware.RETRY_AFTER}" in head
        assert ask(path) == 302
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
