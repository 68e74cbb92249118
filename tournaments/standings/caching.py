"""Public pages that are never stale: ETags and rendered output keyed on versions.

A page's *state* names what it shows: the version of its tournament (`Tournament.version`,
bumped in the transaction of every write that changes its pages), or the versions of the
tournaments a player or a season page draws on. The state is read from the database on
every request, so no worker and no machine can serve a page older than a committed write:
- the ETag is the state with the page's address, language and viewer; a browser that holds
  that page gets 304 Not Modified without anything rendered;
- for anonymous visitors the rendered page is kept in Django's cache framework under the
  same key (LocMem by default, Redis or memcached by `CACHE_URL`): the next visitor of the
  same state gets it without a query beyond the state's. Signed-in users' pages are never
  shared (they show links and forms for their role).

The form token (CSRF) of a shared page is stored as a placeholder and filled in per
request, so every visitor posts their own. A request with messages waiting (shown once) is
rendered afresh.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.urls import get_script_prefix
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.functional import cached_property
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments.standings.advance import (
    series_standings_from,
    standings_advance,
    standings_progress,
)
from tournaments.standings.cards import card_maker, table_cards_html
from tournaments.standings.selectors import (
    ComputedStandings,
    series_progress,
    series_tables,
    standings_computed,
    tournament_standings,
)

CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
CSRF_PLACEHOLDER = b'name="csrfmiddlewaretoken" value="\x00csrf\x00"'
# Rendered pages are kept this long at most (a state that no longer changes drops out).
PAGE_TIMEOUT = 60 * 60
# A request that finds another rendering its page waits this long at most for it (then
# renders it itself), checking every RENDER_POLL seconds; a renderer that died leaves its
# mark for RENDER_LOCK_SECONDS at most.
RENDER_WAIT = 2.0
RENDER_POLL = 0.005
RENDER_LOCK_SECONDS = 10


def _build_id() -> str:
    """Changes with the templates, the code and the static files, so that a new release
    never serves a page rendered by the old one from a shared cache."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in ("templates", "tournaments", "static"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in (".html", ".py", ".css", ".js"):
                stat = path.stat()
                digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return digest.hexdigest()[:12]


BUILD_ID = _build_id()


def _messages_waiting(request) -> bool:
    return bool(len(get_messages(request)))


class VersionedPageMixin:
    """A GET page answered from its state: 304, the shared cache, or a fresh render.

    Subclasses define `page_state()`: a short string that changes whenever anything the
    page shows changes (raise Http404 there for what the viewer may not see).
    """

    def page_state(self) -> str:
        raise NotImplementedError

    @cached_property
    def _page_key(self) -> str:
        request = self.request
        user = request.user
        viewer = f"u{user.pk}" if user.is_authenticated else "anon"
        raw = "|".join(
            (BUILD_ID, request.get_full_path(), get_language() or "", viewer, self.page_state())
        )
        return hashlib.sha256(raw.encode()).hexdigest()[:32]

    def get(self, request, *args, **kwargs):
        etag = f'"{self._page_key}"'
        fresh = not _messages_waiting(request)
        shared = fresh and not request.user.is_authenticated and settings.PAGE_CACHE
        if fresh and etag in _if_none_match(request):
            return self._finish(HttpResponseNotModified(), etag)
        key = f"page:{self._page_key}"
        rendering = f"{key}:rendering"
        owner = False
        if shared:
            cached = cache.get(key)
            # After a write every visitor asks for the new state at once: one request
            # renders it, the others of the same state wait for that render (not for
            # longer than RENDER_WAIT) instead of each rendering the same page.
            if cached is None:
                owner = cache.add(rendering, 1, RENDER_LOCK_SECONDS)
                if not owner:
                    cached = _wait_for(key)
            if cached is not None:
                content_type, body = cached
                token = f'name="csrfmiddlewaretoken" value="{get_token(request)}"'.encode()
                response = HttpResponse(
                    body.replace(CSRF_PLACEHOLDER, token), content_type=content_type
                )
                response["X-Page-Cache"] = "hit"
                return self._finish(response, etag)
        try:
            response = super().get(request, *args, **kwargs)
            if hasattr(response, "render"):
                response.render()
            if shared and response.status_code == 200:
                body = CSRF_INPUT.sub(CSRF_PLACEHOLDER, response.content)
                cache.set(key, (response["Content-Type"], body), PAGE_TIMEOUT)
                response["X-Page-Cache"] = "miss"
        finally:
            if owner:
                cache.delete(rendering)
        return self._finish(response, etag if fresh else None)

    def _finish(self, response, etag):
        if etag and response.status_code in (200, 304):
            response["ETag"] = etag
        # Ask again every time (cheap: 304 or the shared copy); never keep another's page.
        patch_cache_control(
            response, no_cache=True, private=bool(self.request.user.is_authenticated)
        )
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response


def _wait_for(key: str):
    """The page another request is rendering, once it is in the cache (None: not in time)."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        time.sleep(RENDER_POLL)
        cached = cache.get(key)
        if cached is not None:
            return cached
        if cache.get(f"{key}:rendering") is None:  # the render ended without a page
            return None
    return None


def _if_none_match(request) -> set[str]:
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    return {part.strip().removeprefix("W/") for part in header.split(",") if part.strip()}


def tournament_state(tournament) -> str:
    """The tournament's id and version, and when the version last moved: a tournament
    deleted and another created in its place (SQLite may give it the same id) starts
    counting again, so the version alone could repeat."""
    return f"t{tournament.pk}.{tournament.version}.{tournament.changed.isoformat()}"


class TournamentPageMixin(VersionedPageMixin):
    """A page of one tournament (`TournamentMixin`): its state is the tournament's version."""

    def page_state(self) -> str:
        return tournament_state(self.tournament)


# Standings computed per process, for the latest few versions (`standings_of`), and the
# latest computed per tournament and category, from which a newer version is advanced.
STANDINGS_KEPT = 16
_standings: OrderedDict[tuple, list] = OrderedDict()
_latest: OrderedDict[tuple, tuple[str, ComputedStandings]] = OrderedDict()
_standings_lock = threading.Lock()
_compute_lock = threading.Lock()


def standings_forget():
    """Drop this process's computed standings (benchmarks measure a cold start with it)."""
    with _standings_lock:
        _standings.clear()
        _latest.clear()
        _series_earlier.clear()
        _cards.clear()


def standings_of(tournament, *, category: str | None = None):
    """`tournament_standings` computed once per version of the tournament and shared by
    its pages (the standings' pages, the projector, the team table).

    Kept in this process, not in the shared cache: the key holds the version read for
    this request, so no process can answer from older results than the request's, and
    2,000 rows are cheaper to compute again than to pickle through a cache (the rendered
    pages are what the cache shares). A version after writes to score sheets alone (the
    tournament's `layout` unchanged) is advanced from the latest one computed here
    (`standings_advance`: the seats of the tables written since are read again), not
    computed afresh. The caller gets its own list of the shared rows (django-tables2
    sorts a list in place); the rows are not to be changed.
    """
    if not settings.PAGE_CACHE:
        return tournament_standings(tournament, category=category)
    key = (tournament_state(tournament), category or "")
    rows = _kept(key)
    if rows is None:
        # One thread of this process computes; the others asking meanwhile wait for it.
        with _compute_lock:
            rows = _kept(key)
            if rows is None:
                rows = _compute(tournament, category)
                _remember(_standings, key, rows)
    return list(rows)


def _compute(tournament, category: str | None) -> list:
    latest_key = (tournament.pk, category or "")
    latest = _latest.get(latest_key)
    computed = None
    if latest is not None and latest[0] == tournament.layout:
        base = latest[1]
        if base.version == tournament.version:
            return base.rows
        if base.version < tournament.version:
            computed = standings_advance(tournament, base, category=category)
    if computed is None:
        computed = standings_computed(tournament, category=category)
    if latest is None or latest[0] != tournament.layout or latest[1].version < computed.version:
        _remember(_latest, latest_key, (tournament.layout, computed))
    return computed.rows


# Per tournament, layout, category and series: the rows of its latest series standings.
_series_earlier: OrderedDict[tuple, dict] = OrderedDict()


def series_standings_of(tournament, number: int, *, category: str | None = None):
    """`series_standings_from` the tournament's standings (`standings_of`), computed once
    per version in this process, sharing the rows of players whose result in the series
    did not change since the version before."""
    standings = standings_of(tournament, category=category)
    if not settings.PAGE_CACHE:
        return series_standings_from(standings, number)
    key = (tournament_state(tournament), category or "", number)
    rows = _kept(key)
    if rows is None:
        with _compute_lock:
            rows = _kept(key)
            if rows is None:
                earlier_key = (tournament.pk, tournament.layout, category or "", number)
                earlier = _series_earlier.get(earlier_key, {})
                _remember(_series_earlier, earlier_key, earlier)
                rows = series_standings_from(standings, number, earlier=earlier)
                _remember(_standings, key, rows)
    return list(rows)


def progress_of(tournament):
    """`series_progress` once per version of the tournament in this process (the standings'
    pages and the series page show it)."""
    if not settings.PAGE_CACHE:
        return series_progress(tournament)
    key = (tournament_state(tournament), "progress")
    progress = _kept(key)
    if progress is None:
        # From the standings of the same version when this process holds them (the
        # standings' pages compute those first): their seats and tables, no query.
        latest = _latest.get((tournament.pk, ""))
        if (
            latest is not None
            and latest[0] == tournament.layout
            and latest[1].version == tournament.version
        ):
            progress = standings_progress(latest[1], tournament)
        else:
            progress = series_progress(tournament)
        _remember(_standings, key, progress)
    return progress


# Per tournament, layout, series, language and script prefix: the version they were made
# for and each table's card (by table number).
_cards: OrderedDict[tuple, tuple[int, dict[int, str]]] = OrderedDict()


def series_cards_of(tournament, series):
    """The series page's table cards (`cards.table_cards_html`), made again for the tables
    written since the version the cards were made for (`Table.sheet_version`): after a game
    one card of 500 is new. Anything else that changes a card (a draw, a seat, the series'
    length) draws a new layout, and the cards are made afresh."""
    if not settings.PAGE_CACHE:
        return table_cards_html(
            tournament_slug=tournament.slug,
            series_number=series.number,
            cards=series_tables(series),
        )
    make = card_maker(tournament_slug=tournament.slug, series_number=series.number)
    key = (tournament.pk, tournament.layout, series.pk, get_language(), get_script_prefix())
    with _compute_lock:
        kept = _cards.get(key)
        if kept is None or kept[0] > tournament.version:
            cards = {card.number: make(card) for card in series_tables(series)}
        else:
            cards = dict(kept[1])
            if kept[0] < tournament.version:
                written = series_tables(series, written_after=kept[0])
                cards.update((card.number, make(card)) for card in written)
        _remember(_cards, key, (tournament.version, cards))
    return mark_safe("\n".join(cards[number] for number in sorted(cards)))  # noqa: S308


def _remember(store: OrderedDict, key, value):
    """Keep `value` under `key` as the latest of `store`, which holds STANDINGS_KEPT."""
    with _standings_lock:
        store[key] = value
        store.move_to_end(key)
        while len(store) > STANDINGS_KEPT:
            store.popitem(last=False)


def _kept(key):
    with _standings_lock:
        rows = _standings.get(key)
        if rows is not None:
            _standings.move_to_end(key)
        return rows
