"""Conditional GETs for the API: ETag and Last-Modified from the tournament versions.

A tournament's version (`tournaments.versions`) moves with every write that changes what
its pages show, so `"v1-t<pk>-<version>-<row>"` names one state of everything the API says
about it (the row digest covers the tournament's own settings as well); a list names the
versions of every tournament in it. `state` functions return
(etag, last modified) or None when the viewer may not see the thing (the view then answers
404, never 304).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
from collections.abc import Callable, Iterable

from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, quote_etag

from tournaments import permissions
from tournaments.models import Tournament

# (ETag, Last-Modified, the answer depends on who asks: drafts are or may be in it)
State = tuple[str, datetime.datetime | None, bool]
# Bump when the shape of the answers changes, so that no client keeps an old one.
API_REVISION = "v1"


def visible_tournaments(user):
    """The tournaments `user` may read: published ones, and drafts of the clubs they run."""
    published = Tournament.objects.filter(published=True)
    if not user.is_authenticated:
        return published
    return published | Tournament.objects.filter(club__in=permissions.managed_clubs(user))


def _row_digest(tournament: Tournament) -> str:
    """The tournament's own settings (name, status, rules, ...): an edit of the row shows
    even where the writer does not bump the version."""
    values = [
        getattr(tournament, field.attname)
        for field in Tournament._meta.concrete_fields
        if field.name not in ("version", "changed", "created")
    ]
    return hashlib.sha256(repr(values).encode()).hexdigest()[:12]


def tournament_state(tournament: Tournament) -> State:
    return (
        f"{API_REVISION}-t{tournament.pk}-{tournament.version}-{_row_digest(tournament)}",
        tournament.changed,
        not tournament.published,
    )


def tournaments_state(tournaments: Iterable[Tournament], *extra) -> State:
    """One ETag for a set of tournaments: their ids, versions and publication; `extra`
    (e.g. who asks) goes into it too. Such answers always depend on who asks."""
    digest = hashlib.sha256(repr(extra).encode())
    latest = None
    for pk, version, published, changed in sorted(
        (t.pk, t.version, t.published, t.changed) for t in tournaments
    ):
        digest.update(f"{pk}:{version}:{published};".encode())
        latest = changed if latest is None or changed > latest else latest
    return f"{API_REVISION}-{digest.hexdigest()[:32]}", latest, True


def conditional(state: Callable[..., State | None]):
    """A view decorator: 304 for an unchanged state, else the view with ETag and
    Last-Modified; an answer that depends on who asks varies on the session cookie."""

    def decorator(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            found = state(request, *args, **kwargs) if request.method in ("GET", "HEAD") else None
            if found is None:
                return view(request, *args, **kwargs)
            etag, changed, varies = found
            etag = quote_etag(etag)
            modified = int(changed.timestamp()) if changed else None
            response = get_conditional_response(request, etag=etag, last_modified=modified)
            if response is None:
                response = view(request, *args, **kwargs)
            if response.status_code in (200, 304):
                response["ETag"] = etag
                if modified is not None:
                    response["Last-Modified"] = http_date(modified)
                # Always ask again: a 304 costs one small query.
                private = varies and request.user.is_authenticated
                response["Cache-Control"] = "private, no-cache" if private else "public, no-cache"
                if varies:
                    patch_vary_headers(response, ["Cookie"])
            return response

        return wrapped

    return decorator
