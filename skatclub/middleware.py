"""Shedding work for clients that have gone.

Under overload, requests wait in the server's queue; a phone that gave up meanwhile has
closed its connection, and building its page only delays the next one. Before any work,
`ClientGoneMiddleware` peeks at the request's socket (gunicorn puts it in the WSGI
environment): a connection the client has closed (end of stream waiting) gets an empty 499
at once. Elsewhere (the development server, the test client) it does nothing.
"""

import socket

from django.http import HttpResponse


def client_gone(request) -> bool:
    sock = request.META.get("gunicorn.socket")
    if sock is None:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False  # nothing more to read: the client is waiting for its answer
    except OSError:
        return True  # reset by the peer


class ClientGoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if client_gone(request):
            # 499: nginx's "client closed request"; nobody reads it.
            return HttpResponse(status=499)
        return self.get_response(request)
