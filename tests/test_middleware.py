"""Work is shed for clients that have hung up (skatclub.middleware)."""

import socket

from django.http import HttpResponse
from django.test import RequestFactory

from skatclub.middleware import ClientGoneMiddleware, client_gone


def _request_on(sock):
    request = RequestFactory().get("/")
    request.META["gunicorn.socket"] = sock
    return request


def test_a_closed_connection_gets_no_page():
    server, client = socket.socketpair()
    client.sendall(b"GET / HTTP/1.1\r\n\r\n")
    server.recv(100)  # the server read the request
    client.close()  # the client gave up
    calls = []
    middleware = ClientGoneMiddleware(lambda request: calls.append(request) or HttpResponse())
    assert middleware(_request_on(server)).status_code == 499
    assert calls == []
    server.close()


def test_a_waiting_client_is_served():
    server, client = socket.socketpair()
    try:
        assert not client_gone(_request_on(server))
        middleware = ClientGoneMiddleware(lambda request: HttpResponse("page"))
        assert middleware(_request_on(server)).content == b"page"
    finally:
        server.close()
        client.close()


def test_without_gunicorn_nothing_is_checked():
    assert not client_gone(RequestFactory().get("/"))
