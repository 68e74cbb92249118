"""Why a public answer is fast and never stale: the one room where speed lives.

Every write that changes what a tournament's pages show bumps its version in the writer's
transaction (`tournaments.versions`). Every public answer, an HTML page or JSON
(`/t/<slug>/standings.json` and the API), starts by reading its *state* from the database
(`states`: one definition each for a tournament, a player, a season and a rating list,
shared by the pages and the API), a query or four, so no worker and no machine answers
from older data than a committed write. From the state:

- `answers`: the ETag (304 Not Modified for a client that holds it) and, for anonymous
  visitors, the answer's bytes kept in Django's cache (`CACHE_URL`: Redis or memcached,
  shared by the workers; LocMem by default), keyed on the release, the address, the
  viewer, a page's language and the state. JSON is kept gzip-compressed too, compressed
  once per state. Signed-in users' answers are never shared.
- `standings`: the standings of a tournament's version, computed once per process for
  its pages and JSON answers (the series standings, the progress line and the series
  page's table cards taken from them), and after writes to score sheets alone advanced
  from the version before (`advance`) rather than computed afresh.

What is cached is keyed on a state read for the request, so an answer can be old only if
its state did not move, and then it is the same answer. Only public interfaces of Django.

Measured at 2,000 players (PostgreSQL, CPU per request, medians, on a loaded machine that
doubled every figure): `/t/<slug>/standings.json` 96-140 ms computed on every request
before, 2.3 ms from the cache; the API's standings 172-200 ms, 2.1 ms; 978 kB and 1.36 MB
sent as they are, 115 kB and 166 kB gzipped. A state read costs 0.4 ms (a tournament's,
one statement) and 1.1 ms (a player's, three; a fourth, the player's rating, came
after that measurement).
"""
