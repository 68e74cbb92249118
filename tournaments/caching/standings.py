"""The standings of each version of a tournament, computed once per process.

Kept per process, not in the shared cache, for the latest STANDINGS_KEPT versions: the key
holds the version read for the request, so no process answers
from older results than the request's; 2,000 rows are cheaper to compute again than to
pickle through a cache (the answers' bytes are what the cache shares, `answers`). A version
after writes to score sheets alone (the tournament's `layout` unchanged) is advanced from
the latest one computed here (`advance.standings_advance`) instead of computed afresh; the
series standings, the progress line and the series page's table cards are taken from the
same version, sharing what did not change. A JSON answer of the rows is written row by
row, each row's text kept with the row (`rows_json`), so that a new version writes only the
rows that changed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable

from django.conf import settings
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments.caching.advance import standings_advance, standings_progress
from tournaments.permissions import tournament_names_by_initials
from tournaments.standings.cards import card_maker, table_cards_html
from tournaments.standings.selectors import (
    ComputedStandings,
    series_progress,
    series_standings_from,
    series_tables,
    standing_json,
    standing_json_by_initials,
    standings_computed,
    tournament_standings,
)

# Standings computed per process, for the latest few versions (`standings_of`), and the
# latest computed per tournament and category, from which a newer version is advanced.
STANDINGS_KEPT = 16
_standings: OrderedDict[tuple, list] = OrderedDict()
_latest: OrderedDict[tuple, tuple[str, ComputedStandings]] = OrderedDict()
_standings_lock = threading.Lock()
_compute_lock = threading.Lock()


def _version_key(tournament) -> str:
    """The tournament's id, version and when the version last moved (a tournament deleted
    and another created in its place may get the same id and count again from 0)."""
    return f"t{tournament.pk}.{tournament.version}.{tournament.changed.isoformat()}"


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
    key = (_version_key(tournament), category or "")
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
    key = (_version_key(tournament), category or "", number)
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
    key = (_version_key(tournament), "progress")
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
    initials = tournament_names_by_initials(tournament)
    if not settings.PAGE_CACHE:
        return table_cards_html(
            tournament_slug=tournament.slug,
            series_number=series.number,
            cards=series_tables(series),
            initials=initials,
        )
    make = card_maker(
        tournament_slug=tournament.slug, series_number=series.number, initials=initials
    )
    key = (
        tournament.pk,
        tournament.layout,
        series.pk,
        get_language(),
        get_script_prefix(),
        initials,
    )
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


def rows_json(rows: Iterable, layout: Callable[[object], dict], *, ensure_ascii: bool) -> str:
    """`json.dumps([layout(row) for row in rows], ensure_ascii=...)`, the same text, with
    each row's text kept with the row (as the pages keep their HTML rows,
    `public.tables.QuickBodyMixin.keep_rows`): the rows of a version advanced from an older
    one are the older rows but for those that changed (`advance`), so after a game only
    those are laid out and written again. A row must not change once laid out; a copy is
    a new row (`dataclasses.replace`).

    Measured at 2,000 players (CPU, medians of 7): laying the API's rows out took 12.5 ms
    and writing them 24.0 ms on every version; the join of kept texts takes 0.1 ms."""
    name = (layout.__module__, layout.__qualname__, ensure_ascii)
    encode = json.JSONEncoder(ensure_ascii=ensure_ascii).encode
    texts = []
    for row in rows:
        kept = row.__dict__.setdefault("_json_texts", {})
        text = kept.get(name)
        if text is None:
            text = kept[name] = encode(layout(row))
        texts.append(text)
    # json.dumps's separator between the items of a list.
    return "[" + ", ".join(texts) + "]"


def standings_json_text(rows: Iterable, *, initials: bool = False) -> str:
    """The text of the standings JSON (interchange.md "Standings JSON"), one document with
    a closing newline: what `manage.py standings SLUG --format json` prints and
    `/t/<slug>/standings.json` serves, byte for byte (the README says "exactly"). Written
    as `json.dumps(rows)` writes it, on one line (`rows_json`: a row's text is kept while
    the row lasts); `python -m json.tool` indents it for reading. `initials`: the public
    answer of a club that shows players not listed publicly by initials
    (`permissions.names_by_initials`); the command keeps every name."""
    layout = standing_json_by_initials if initials else standing_json
    return rows_json(rows, layout, ensure_ascii=False) + "\n"
