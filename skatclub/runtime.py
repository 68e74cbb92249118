"""How a server worker's interpreter runs the site (`skatclub/wsgi.py` calls `tune`).

- Threads hand over the interpreter lock every millisecond (PYTHON_SWITCH_INTERVAL,
  seconds; Python's default is 5 ms): the threads of a worker (`make serve`: THREADS) share
  one lock, and a page served from the cache in 2 ms would otherwise wait 5 ms at each step
  while another thread renders.
- Python's cyclic garbage collector is told what a worker is. Everything loaded at start
  (Django, the site's modules, the URLconf and its views: some 140,000 objects) lives as
  long as the process, so it is moved out of the collector's sight (`gc.freeze`) instead of
  being walked again by each full pass: with Python's defaults, a full pass stopped a
  request for 130–220 ms about once every ten games entered (2,000 players, the load mix
  in one process). The collector then looks every GC_YOUNG_OBJECTS new objects (default
  2,000; Python's is 700): fewer passes over a request's short-lived objects, most of
  them freed by their reference counts first. In the same mix the longest pause went down
  to about 12 ms. What a request leaves in reference cycles is still collected.

A command that imports a document (`import_tournament`, `import_season`) runs the collector
less often while it reads (`collector_for_import`): an import makes millions of short-lived
objects, all freed by their reference counts, while it keeps a chunk of rows (20,000
games), which the collector at Python's thresholds walked again and again. Measured on the
2,000-player, 96,000-game import of bench/importing.py (PostgreSQL, the process set up as
manage.py sets it up, the collector timed with `gc.callbacks`; a loaded 2-core machine):
medians of 3 interleaved imports, 4.3 s of collection in 691 passes at Python's
thresholds, 1.3 s in 5 passes at these (wall 55.1 s and 47.5 s); the command's wall time,
7 interleaved runs each: median 63.5 s without, 56.4 s with (noisy: paired differences
from -16 to +16 s).

While Django and the site load, the collector is paused (`collector_pause_for_start`,
first thing in `manage.py` and in `wsgi.py`); once every app is ready (`collector_resume`,
from `skatclub/apps.py`, the last installed app) what was loaded is frozen and the
collector runs again. Loading makes some 350,000 objects that live as long as the process
and leaves almost no garbage (a few hundred objects in cycles, kept), yet the collector
walked them as they were made and, in a command, again in every full pass after:
`manage.py standings` at 2,000 players took 0.45 s with it, 0.34 s without (medians).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import ImproperlyConfigured

SWITCH_INTERVAL = 0.001
YOUNG_OBJECTS = 2_000
# While a document is imported (`collector_for_import`): new objects before a young pass,
# young passes before a middle one, middle passes before a full one.
IMPORT_THRESHOLDS = (50_000, 20, 100)
# Set by `collector_pause_for_start`, so that `collector_resume` turns on only what it paused.
_paused_for_start = False


def _number(name: str, default, kind, low, high):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise ImproperlyConfigured(f"{name} must be a number from {low} to {high}, not {raw!r}")
    return value


def tune() -> None:
    """Call once per worker process, after Django is set up: loads what every request needs
    (the URLconf imports every view), freezes what is loaded, sets the collector's and the
    lock's intervals."""
    interval = _number("PYTHON_SWITCH_INTERVAL", SWITCH_INTERVAL, float, 0.0001, 0.1)
    young = _number("GC_YOUNG_OBJECTS", YOUNG_OBJECTS, int, 100, 1_000_000)
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports the views
    sys.setswitchinterval(interval)
    # A worker lives long: what loading left in cycles (kept by `collector_resume`) goes
    # in one full pass before everything is frozen.
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _young, older, oldest = gc.get_threshold()
    gc.set_threshold(young, older, oldest)


def collector_pause_for_start() -> None:
    """Pause the cyclic collector until `collector_resume` (a process's start-up only)."""
    global _paused_for_start
    if gc.isenabled():
        gc.disable()
        _paused_for_start = True


def collector_resume() -> None:
    """Turn the collector on again if `collector_pause_for_start` paused it (else nothing)."""
    global _paused_for_start
    if _paused_for_start:
        _paused_for_start = False
        gc.freeze()
        gc.enable()


@contextmanager
def collector_for_import() -> Iterator[None]:
    """The cyclic collector run less often while a document is imported (module
    docstring), Python's thresholds (or the worker's) again afterwards."""
    before = gc.get_threshold()
    gc.set_threshold(*IMPORT_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
