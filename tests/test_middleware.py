"""Work is shed for clients that have hung up (skatclub.middleware.OverloadShedding)."""

import socket

from skatclub.middleware import OverloadShedding, client_gone


def _site(calls):
    def site(environ, start_response):
        calls.append(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"page"]

    return site


def _answer(application, sock):
    statuses = []
    body = application({"gunicorn.socket": sock}, lambda status, headers: statuses.append(status))
    return statuses[0], b"".join(body)


def test_a_closed_connection_gets_no_page():
    server, client = socket.socketpair()
    client.sendall(b"GET / HTTP/1.1\r\n\r\n")
    server.recv(100)  # the server read the request
    client.close()  # the client gave up
    calls = []
    shedding = OverloadShedding(_site(calls), after_ms=500, trust_header=False)
    assert _answer(shedding, server) == ("499 Client Closed Request", b"")
    assert calls == []
    server.close()


def test_a_waiting_client_is_served():
    server, client = socket.socketpair()
    try:
        assert not client_gone(server)
        shedding = OverloadShedding(_site([]), after_ms=500, trust_header=False)
        assert _answer(shedding, server) == ("200 OK", b"page")
    finally:
        server.close()
        client.close()


def test_without_gunicorn_nothing_is_checked():
    assert not client_gone(None)
