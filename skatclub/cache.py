"""A shared cache whose failures are cache misses, never failed pages.

The shared cache (`CACHE_URL=redis://...`) only ever holds copies: every public answer can
be computed again from the database (`tournaments/caching/`). So when Redis is down,
refuses, or does not answer in time, `ForgivingRedisCache` answers as an empty cache would:
`get` gives the default, `add` and `has_key` False, `get_many` nothing, writes are dropped;
and `incr` raises ValueError as for a missing key.

How it stays cheap while Redis stays down:
- the sockets time out quickly (settings.CACHES: `socket_connect_timeout`,
  `socket_timeout`), so a hanging server costs a request that long at most;
- after a failure the process does not ask Redis again for `RETRY_AFTER` seconds (OPTIONS,
  default 5): every operation meanwhile is a miss at once, with no connection attempt;
- a warning (logger `skatclub.cache`) is written at the first failure and then at most once
  every `WARN_EVERY` seconds (OPTIONS, default 60), with the number of operations skipped
  since, and once more when Redis answers again.
The state is per process and per server address, shared by the worker's threads (Django
keeps one backend object per thread).

`check()` asks the server itself, past all this, for `/health/`.

Measured under `make serve` (2 workers, the demo's SQLite database, on a loaded machine),
80 requests of 4 tournament pages and JSON answers a phase: Redis up, median 8.5 ms, all
from the cache; Redis stopped, all 200, median 55-59 ms (computed); Redis frozen with
SIGSTOP, all 200, median 30-63 ms; a Redis restarted answers again within RETRY_AFTER
(80 of 80 hits after 5.5 s). With Django's RedisCache each of them answered 500.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger("skatclub.cache")


class _Outage:
    """Whether a server is being skipped, and when its failure was last written down."""

    def __init__(self):
        self.lock = threading.Lock()
        self.down_until = 0.0  # time.monotonic() before which the server is not asked
        self.warned_at: float | None = None  # the last warning, None: the server answers
        self.skipped = 0  # operations answered as misses since that warning


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(location: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


class ForgivingRedisCache(RedisCache):
    """Django's RedisCache, with every error of the server turned into a miss."""

    def __init__(self, server, params):
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        # Ours, not redis-py's: the rest of OPTIONS goes to its connection pool.
        self.retry_after = float(options.pop("RETRY_AFTER", 5))
        self.warn_every = float(options.pop("WARN_EVERY", 60))
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._outage = _outage_of(str(server))

    def _call(self, name: str, miss, *args, **kwargs):
        outage = self._outage
        now = time.monotonic()
        if now < outage.down_until:
            outage.skipped += 1
            return miss()
        try:
            result = getattr(super(), name)(*args, **kwargs)
        except Exception as error:  # any error of the server or its connection
            self._failed(error, name)
            return miss()
        if outage.warned_at is not None:
            with outage.lock:
                if outage.warned_at is not None:
                    outage.warned_at = None
                    outage.skipped = 0
                    logger.warning("The shared cache answers again.")
        return result

    def _failed(self, error: Exception, operation: str) -> None:
        outage = self._outage
        now = time.monotonic()
        with outage.lock:
            outage.down_until = now + self.retry_after
            if outage.warned_at is not None and now - outage.warned_at < self.warn_every:
                outage.skipped += 1
                return
            skipped, outage.skipped, outage.warned_at = outage.skipped, 0, now
        since = (
            f" {skipped} cache operations were skipped since the last warning." if skipped else ""
        )
        logger.warning(
            "The shared cache failed (%s: %s in %s); pages are computed without it, and it "
            "is asked again in %g s.%s",
            type(error).__name__,
            error,
            operation,
            self.retry_after,
            since,
        )

    def check(self) -> None:
        """Ask the server (a write and a read), raising its error if it has one."""
        super().set("health:probe", 1, 10)
        super().get("health:probe")

    # Every public operation of a cache backend; each answers as an empty cache on error.

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", lambda: False, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call("get", lambda: default, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._call("set", lambda: None, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", lambda: False, key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", lambda: False, key, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", dict, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", lambda: False, key, version)

    def incr(self, key, delta=1, version=None):
        def missing():
            raise ValueError(f"Key '{key}' not found.")

        return self._call("incr", missing, key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        # Django's answer: the keys that were not stored.
        return self._call("set_many", lambda: list(data), data, timeout, version)

    def delete_many(self, keys, version=None):
        self._call("delete_many", lambda: None, keys, version)

    def clear(self):
        return self._call("clear", lambda: False)
