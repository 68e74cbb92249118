"""Conditional GETs and the shared cache, for HTML pages and JSON answers alike.

An answer's *key* is a digest of the release (`BUILD_ID`), its address with the query,
the viewer (a user's id or "anon"), a page's language, and its `states.State`. It is
- the ETag: a client that holds the answer of that key gets 304 Not Modified, with
  nothing computed;
- for anonymous visitors, the key of the answer's bytes in Django's cache framework
  (LocMem by default, Redis or memcached by `CACHE_URL`, shared by the workers): the next
  visitor of the same state gets them without a query beyond the state's. A JSON answer is
  kept gzip-compressed as well, compressed once, for the clients that accept it. Signed-in
  users' answers are never shared (drafts; a page's links and forms for their role).

The state is read on every request, so no worker can serve an answer older than a
committed write. The form token (CSRF) of a shared page is stored as a placeholder and
filled in per request; a request with messages waiting (shown once) is rendered afresh.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.utils.translation import get_language

from tournaments.caching.states import State, tournament_state_of

CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
CSRF_PLACEHOLDER = b'name="csrfmiddlewaretoken" value="\x00csrf\x00"'
# Answers are kept this long at most (a state that no longer changes drops out).
PAGE_TIMEOUT = 60 * 60
# A request that finds another computing its answer waits this long at most for it (then
# computes it itself), checking every RENDER_POLL seconds; a computation that died leaves
# its mark for RENDER_LOCK_SECONDS at most.
RENDER_WAIT = 2.0
RENDER_POLL = 0.005
RENDER_LOCK_SECONDS = 10
# Smaller answers are sent as they are (gzip's header would eat the gain).
GZIP_MIN_BYTES = 200
GZIP = re.compile(r"\bgzip\b")
# zlib's level 3, not Django's 6 (`compress_string`): the 2,000-player API standings,
# 1.36 MB, in 9.0 ms CPU to 196 kB instead of 22.7 ms to 166 kB (level 1: 7.7 ms, 238 kB),
# on the first request of every version.
GZIP_LEVEL = 3


def _build_id() -> str:
    """Changes with the templates, the code and the static files, so that a new release
    never serves an answer made by the old one from a shared cache."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in ("templates", "tournaments", "static"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in (".html", ".py", ".css", ".js"):
                stat = path.stat()
                digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return digest.hexdigest()[:12]


BUILD_ID = _build_id()


def answer_key(request, state: State, *, page: bool) -> str:
    user = request.user
    viewer = f"u{user.pk}" if user.is_authenticated else "anon"
    language = (get_language() or "") if page else ""
    raw = "|".join((BUILD_ID, request.get_full_path(), language, viewer, state.key))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def answer(request, state: State, produce: Callable[[], HttpResponse], *, page: bool):
    """The answer of `state`: 304, the shared copy, or `produce()` (kept for the next).

    `page`: an HTML page (its form token per request, its language in the key, no
    Last-Modified); else a JSON answer (gzip for the clients that accept it)."""
    key = answer_key(request, state, page=page)
    etag = quote_etag(key)
    fresh = not (page and len(get_messages(request)))
    modified = None if page or state.changed is None else int(state.changed.timestamp())
    authenticated = request.user.is_authenticated
    shared = fresh and not authenticated and settings.PAGE_CACHE
    finish = functools.partial(
        _finish, request, state, etag=etag if fresh else None, modified=modified, page=page
    )
    if fresh:
        response = get_conditional_response(request, etag=etag, last_modified=modified)
        if response is not None:
            return finish(response)
    cache_key = f"answer:{key}"
    owner = False
    if shared:
        kept = cache.get(cache_key)
        # After a write every visitor asks for the new state at once: one request computes
        # it, the others of the same state wait for it (not longer than RENDER_WAIT)
        # instead of each computing the same answer.
        if kept is None:
            owner = cache.add(f"{cache_key}:computing", 1, RENDER_LOCK_SECONDS)
            if not owner:
                kept = _wait_for(cache_key)
        if kept is not None:
            response = _from_kept(request, kept, page=page)
            response["X-Page-Cache"] = "hit"
            return finish(response)
    try:
        response = produce()
        if hasattr(response, "render"):
            response.render()
        if response.status_code == 200 and not response.streaming:
            if page:
                body = CSRF_INPUT.sub(CSRF_PLACEHOLDER, response.content)
                kept = (response["Content-Type"], body, None)
            else:
                body = response.content
                packed = _packed(body) if len(body) >= GZIP_MIN_BYTES else None
                kept = (response["Content-Type"], body, packed)
                response = _from_kept(request, kept, page=False)
            if shared:
                cache.set(cache_key, kept, PAGE_TIMEOUT)
                response["X-Page-Cache"] = "miss"
    finally:
        if owner:
            cache.delete(f"{cache_key}:computing")
    return finish(response)


def _packed(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


def _from_kept(request, kept: tuple, *, page: bool) -> HttpResponse:
    content_type, body, packed = kept
    if page:
        token = f'name="csrfmiddlewaretoken" value="{get_token(request)}"'.encode()
        return HttpResponse(body.replace(CSRF_PLACEHOLDER, token), content_type=content_type)
    if packed is not None and GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response = HttpResponse(packed, content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(body, content_type=content_type)
    if packed is not None:
        patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _finish(request, state: State, response, *, etag, modified, page):
    if response.status_code not in (200, 304):
        return response
    if etag:
        response["ETag"] = etag
    authenticated = request.user.is_authenticated
    if page:
        # Ask again every time (cheap: 304 or the shared copy); never keep another's page.
        patch_cache_control(response, no_cache=True, private=bool(authenticated))
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response
    if modified is not None:
        response["Last-Modified"] = http_date(modified)
    if state.version is not None:
        # The version the answer shows (a page has it in its body, `data-version`).
        response["X-Version"] = str(state.version)
    # Always ask again: a 304 costs the state's queries.
    private = state.private and authenticated
    response["Cache-Control"] = "private, no-cache" if private else "public, no-cache"
    if state.private:
        patch_vary_headers(response, ("Cookie",))
    return response


def _wait_for(key: str):
    """The answer another request is computing, once it is in the cache (None: not in
    time, or the computation ended without one)."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        time.sleep(RENDER_POLL)
        kept = cache.get(key)
        if kept is not None:
            return kept
        if cache.get(f"{key}:computing") is None:
            return None
    return None


def conditional(state: Callable[..., State | None]):
    """A decorator of a JSON view (a Django view, or a django-ninja operation through
    `ninja.decorators.decorate_view`, whose answers are already HttpResponses): the answer
    of `state(request, **kwargs)`; a view whose state is None runs as it is (its 404)."""

    def decorator(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            found = state(request, *args, **kwargs) if request.method in ("GET", "HEAD") else None
            if found is None:
                return view(request, *args, **kwargs)
            return answer(request, found, lambda: view(request, *args, **kwargs), page=False)

        return wrapped

    return decorator


class VersionedPageMixin:
    """A GET page answered from its state: 304, the shared cache, or a fresh render.

    Subclasses define `page_state()`, a `State` (raise Http404 there for what the viewer
    may not see)."""

    def page_state(self) -> State:
        raise NotImplementedError

    def get(self, request, *args, **kwargs):
        parent = super().get
        return answer(
            request, self.page_state(), lambda: parent(request, *args, **kwargs), page=True
        )


class TournamentPageMixin(VersionedPageMixin):
    """A page of one tournament (`TournamentMixin`): its state is the tournament's, read
    by itself (`tournament_state_of`); the tournament with its club, season and league is
    read only for a page rendered afresh."""

    def page_state(self) -> State:
        state = tournament_state_of(self.request.user, self.kwargs["tournament"])
        if state is None:
            raise Http404
        return state
