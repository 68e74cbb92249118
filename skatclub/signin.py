"""Sign-in throttling (django-axes, configured by the AXES_* settings): whose address a
failed sign-in counts against, and the page a locked-out sign-in is answered with.

Address: the connection's own (REMOTE_ADDR), or behind the site's one reverse proxy
(TRUST_X_FORWARDED_FOR) the last entry of X-Forwarded-For, the one that proxy wrote.
Entries before it come from the client and prove nothing; a server reached directly never
trusts the header, so a client cannot choose the address its failures count against.
Lock-out: failures for one user name or from one address reached AXES_FAILURE_LIMIT within
AXES_COOLOFF_TIME. Every refused attempt starts the cool-off again, so it ends no later than
one cool-off after this one: the page names that time.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def client_address(request: HttpRequest) -> str | None:
    """The address a sign-in attempt counts against (AXES_CLIENT_IP_CALLABLE)."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return request.META.get("REMOTE_ADDR")


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """The site's own page for a refused sign-in, status 429 (AXES_LOCKOUT_CALLABLE)."""
    cool_off = settings.AXES_COOLOFF_TIME
    context = {
        "until": timezone.now() + cool_off,
        "minutes": int(cool_off.total_seconds() // 60),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
