"""The work one game entry causes in one worker: every public page of the load mix
rendered once for the new version, page by page (bench/load.py's open loop, without the
network and the other worker). The busiest pages' cost per write bounds the open loop's
latency: requests arriving while a worker renders wait for it.

    python bench/per_write.py [--players 2000] [--writes 20]

Needs bench/load.py's data (it generates it if missing).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=load.DEFAULT_DB)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--writes", type=int, default=20)
    args = parser.parse_args(argv)
    load.setup_django(args.database_url)
    from django.core.cache import cache
    from django.test import Client

    from tournaments import demo
    from tournaments.caching.standings import standings_forget

    t = load.running_tournament(
        args.players, series=4 if args.players != 60 else 3, room=args.writes + 10
    )
    mix = sorted(set(load.page_paths(t)))
    reader = Client(SERVER_NAME="127.0.0.1")
    secretary = Client(SERVER_NAME="127.0.0.1")
    assert secretary.login(username="bench-secretary", password=load.PASSWORD)
    writer = load.Secretary(0, t, None)
    tables = [x for x in writer.tables() if x.played < t.games_per_series(x.size)]
    rng = random.Random(5)
    cache.clear()
    standings_forget()
    for _kind, path in mix:
        reader.get(path)
    timings: dict[str, list[float]] = {path: [] for _k, path in mix}
    hits: dict[str, int] = dict.fromkeys(timings, 0)
    writes, totals = [], []
    for _ in range(args.writes):
        table = tables[rng.randrange(len(tables))]
        path = f"/manage/t/{t.slug}/series/{table.series.number}/table/{table.number}/"
        row = demo.random_game(rng, rules=t.rules, table_size=table.size, number=table.played + 1)
        started = time.perf_counter()
        response = secretary.post(path, load.form_fields(row))
        writes.append(time.perf_counter() - started)
        assert response.status_code in (200, 302), response.status_code
        table.played += 1
        if table.played >= t.games_per_series(table.size):
            tables.remove(table)
        total = 0.0
        for _kind, page in mix:
            started = time.perf_counter()
            response = reader.get(page)
            took = time.perf_counter() - started
            assert response.status_code == 200
            timings[page].append(took)
            hits[page] += response.get("X-Page-Cache") == "hit"
            total += took
        totals.append(total)
    print(f"{args.players} players, {args.writes} writes (medians, ms):")
    print(f"  {'write (sheet form post)':50} {statistics.median(writes) * 1000:7.1f}")
    for page, values in timings.items():
        shown = page.replace(f"/t/{t.slug}", "/t/…")
        median = statistics.median(values) * 1000
        print(f"  {shown:50} {median:7.1f}   {hits[page]} of {len(values)} from the cache")
    print(f"  {'all pages once after a write':50} {statistics.median(totals) * 1000:7.1f}")


if __name__ == "__main__":
    main()
