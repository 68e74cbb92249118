"""Overload: answer at once what cannot be answered in time, drop work for clients that
have gone.

Under overload, requests wait in the server's queue. `OverloadShedding` wraps the site's
WSGI application (skatclub/wsgi.py) and checks each request before Django sees it (no
request object, no signal, no middleware, no session, no database query, no warning of
Django's request logger; gunicorn's access log still has its line):

- a request that has waited longer than `SHED_AFTER_MS` (DJANGO_SHED_AFTER_MS, default
  500 ms; 0 turns it off) gets a 503 with `Retry-After` and a two-line body at once. Its
  client would most likely have given up before a page rendered now reached it, and the
  requests queued behind it would wait longer still: answering them "busy" keeps the
  server's time for requests that can still be answered in time;
- a connection the client has closed (end of stream waiting) gets an empty 499 at once;
  building its page only delays the next one.

Both checks sit in front of Django, not in a middleware, because under overload they run
for most requests and must cost next to nothing: through Django's handler a 503 from the
first middleware took 1.56 ms (request object, request_started/finished signals, the
response object, and the django.request logger's warning for every 5xx), the checks alone
0.07 ms (one process, a loaded 2-core machine; bench/shedding.py measures the server).

The wait of a request ("queued" below) is known in one of two ways:

1. Behind the reverse proxy, when `SHED_TRUST_REQUEST_START` is on
   (DJANGO_SHED_TRUST_REQUEST_START=1): from the proxy's `X-Request-Start: t=<unix seconds
   with milliseconds>` (nginx: `proxy_set_header X-Request-Start "t=${msec}";`). Only the
   proxy may set it (it replaces what a client sent), so it is trusted only when configured.
   A header that cannot be read, or that lies more than `FUTURE_TOLERANCE` seconds ahead of
   this machine's clock, is ignored (then the second way applies).
2. Otherwise from the connection itself: how long ago the kernel received the request's
   last bytes, which Linux keeps for every TCP socket (`tcpi_last_data_recv` of `struct
   tcp_info`, in milliseconds, read with one `getsockopt(TCP_INFO)` on the socket gunicorn
   puts in the WSGI environment as `gunicorn.socket`). It counts all the queueing: in the
   kernel's backlog before gunicorn accepted the connection, and in the worker's queue of
   accepted connections until a thread took it; with `make serve` alone it is the only
   clock. It needs no hook in gunicorn, so it holds whatever worker class runs the site.
   `struct tcp_info` is part of Linux's user interface (linux/tcp.h): fields are only ever
   appended, and `tcpi_last_data_recv` has been at byte 52 since Linux 2.6;
   tests/test_shedding.py checks it on a real connection. On other systems, on a Unix
   socket, or where gunicorn is not the server (the development server, the test client),
   the wait is unknown and nothing is shed.

A shed answer is a fixed text in both languages, not a translated template: it must cost
next to nothing, and it is written before the language is chosen.
"""

from __future__ import annotations

import socket
import struct
import sys
import time

# Seconds a client is told to wait before asking again (Retry-After): about the time a
# person takes to read the two lines and reload. Well-behaved clients then come back at
# half the rate they would after one second, and each shed answer costs the server a
# little (gunicorn still reads the request and writes the answer).
RETRY_AFTER = 2
# X-Request-Start ahead of this machine's clock by more than this (seconds) is not believed.
FUTURE_TOLERANCE = 1.0
BUSY_TEXT = (
    "Too busy right now: please try again in a moment.\n"
    "Gerade überlastet: bitte gleich noch einmal versuchen.\n"
).encode()
# struct tcp_info (linux/tcp.h): eight one-byte fields, nine 32-bit ones (tcpi_rto to
# tcpi_fackets), then tcpi_last_data_sent, tcpi_last_ack_sent and tcpi_last_data_recv
# (milliseconds since data last arrived) at byte 52.
_TCP_INFO_SIZE = 56
_LAST_DATA_RECV = struct.Struct("=I")
_LAST_DATA_RECV_OFFSET = 52
_TCP_INFO = getattr(socket, "TCP_INFO", None) if sys.platform.startswith("linux") else None


def socket_wait_ms(sock) -> int | None:
    """Milliseconds since the kernel received the last bytes on this TCP connection (the
    request's), or None where that is unknown."""
    if sock is None or _TCP_INFO is None:
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, _TCP_INFO_SIZE)
    except (OSError, AttributeError):
        return None  # not a TCP socket (a Unix socket), or closed
    if len(info) < _LAST_DATA_RECV_OFFSET + 4:
        return None
    return _LAST_DATA_RECV.unpack_from(info, _LAST_DATA_RECV_OFFSET)[0]


def header_wait_ms(value: str, now: float) -> float | None:
    """Milliseconds since the proxy's `t=<unix seconds>` (X-Request-Start), or None for a
    value that cannot be read or lies in the future."""
    if not value.startswith("t="):
        return None
    try:
        started = float(value[2:])
    except ValueError:
        return None
    if started != started or started > now + FUTURE_TOLERANCE:  # NaN, or the future
        return None
    return max(0.0, (now - started) * 1000)


def queued_ms(environ, sock, *, trust_header: bool) -> float | None:
    """How long this request waited before the site began on it (None: unknown)."""
    if trust_header:
        value = environ.get("HTTP_X_REQUEST_START")
        if value:
            waited = header_wait_ms(value, time.time())
            if waited is not None:
                return waited
    return socket_wait_ms(sock)


def client_gone(sock) -> bool:
    """Whether the client has closed this connection (or reset it)."""
    if sock is None:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False  # nothing more to read: the client is waiting for its answer
    except OSError:
        return True  # reset by the peer


BUSY_HEADERS = [
    ("Content-Type", "text/plain; charset=utf-8"),
    ("Content-Length", str(len(BUSY_TEXT))),
    ("Retry-After", str(RETRY_AFTER)),
    ("Cache-Control", "no-store"),
]


class OverloadShedding:
    """WSGI wrapper around the site (skatclub/wsgi.py): the two checks, then the site."""

    def __init__(self, application, *, after_ms: int, trust_header: bool):
        self.application = application
        self.after_ms = after_ms
        self.trust_header = trust_header

    def __call__(self, environ, start_response):
        sock = environ.get("gunicorn.socket")
        if self.after_ms:
            waited = queued_ms(environ, sock, trust_header=self.trust_header)
            if waited is not None and waited > self.after_ms:
                start_response("503 Service Unavailable", list(BUSY_HEADERS))
                return [BUSY_TEXT]
        if client_gone(sock):
            # 499: nginx's "client closed request"; nobody reads it.
            start_response("499 Client Closed Request", [("Content-Length", "0")])
            return []
        return self.application(environ, start_response)
