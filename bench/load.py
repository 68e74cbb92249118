"""Load benchmark: the public pages of a busy evening against `make serve`.

On PostgreSQL (DATABASE_URL, default a database of its own, created if missing), with the
production server (`make serve`: gunicorn, WEB_CONCURRENCY workers, DJANGO_DEBUG=0) on
loopback, in a database that also holds other tournaments (≥ 300k games in the full run):

1. **Open loop**: for a 60-player and a 2,000-player running tournament in turn, requests
   are offered at a fixed rate (default 100/s) for a fixed time (60 s), each on its own
   connection with a client timeout, whatever the server answers: standings (first and
   later pages), the projector, the open series and player pages, `/t/<slug>/standings.json`
   and the API's standings (with and without gzip). Meanwhile a secretary signed in on the
   site enters one game per second through the sheet form. Reported: p50/p95/p99 latency
   (from the moment a request was due, so a slow server cannot hide its queue), also per
   kind of request, errors (status ≠ 200 or timeouts) and stale reads: an answer showing
   an older version (a page's `data-version`, a JSON answer's X-Version) than one the
   secretary saw committed before the request began.
2. **Closed loop**: N clients ask for the 2,000-player standings one after another; the
   completed requests per second are the capacity.
3. **Floor**: in this process, interleaved, per tournament size (250, 2,000, 4,000
   players): the hand-written SQL aggregate over the games (bench/standings.py's floor),
   the standings selector, and the standings page rendered with an empty cache; medians,
   ratios to the floor and the page's number of queries. The process's interpreter is
   tuned as a server worker's (`skatclub/runtime.py`; `--interpreter stock` leaves
   Python's defaults).
4. EXPLAIN of the standings' one query on the seats, and of the games found by their
   tournament (the latest games), with the database's size.

Usage:

    python bench/load.py            # the full run (generates its data once, then reuses it)
    python bench/load.py --short    # a smoke run: smaller data, 10 s phases
    DATABASE_URL=sqlite:////tmp/floor.sqlite3 python bench/load.py --floor-only

The machine must be quiet for figures worth comparing; the run says what it measured and
ends with a PASS or MISS line per target of issue 10 (exit status 1 if any is missed). The
open loop's every request and write are kept in bench/out/open-loop-<id>.json.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import http.cookiejar
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/skatclub_bench_load"
SECRET = "benchmark-only-secret-key-not-for-production-0123456789abcdefghij"
PASSWORD = "bench-load-password"
VERSION = re.compile(rb'data-version="(\d+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def setup_django(database_url: str):
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", SECRET)
    os.environ.setdefault("DJANGO_DEBUG", "0")
    if database_url.startswith("postgres"):
        import psycopg

        parsed = urllib.parse.urlparse(database_url)
        name = parsed.path.lstrip("/")
        admin = parsed._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # The in-process floor renders pages with DJANGO_DEBUG=0: hashed static names.
    call_command("collectstatic", interactive=False, verbosity=0)


# -- data --------------------------------------------------------------------------------


def bench_club():
    from django.contrib.auth import get_user_model

    from tournaments.models import Club

    club = Club.objects.filter(name="Load benchmark").first()
    if club is None:
        club = Club.objects.create(name="Load benchmark")
    user = get_user_model().objects.filter(username="bench-secretary").first()
    if user is None:
        user = get_user_model().objects.create_user("bench-secretary", password=PASSWORD)
    club.secretaries.add(user)
    return club


def tournament(players: int, *, series: int = 4, running: bool, tag: str = "") -> object:
    from tournaments import demo
    from tournaments.models import Tournament

    state = "running" if running else "finished"
    name = f"Load {players} players {series} series {state}{tag}"
    existing = Tournament.objects.filter(name=name).first()
    if existing is not None:
        return existing
    started = time.perf_counter()
    made = demo.generate_tournament(
        club=bench_club(),
        players=players,
        series=series,
        seed=players + series,
        name=name,
        complete=not running,
    )
    print(f"  generated {name} in {time.perf_counter() - started:.0f} s", flush=True)
    return made


def open_games(t) -> int:
    """Games still to be entered at the open tables of a running tournament."""
    from django.db.models import Count

    from tournaments.models import Series, Table

    tables = (
        Table.objects.filter(series__tournament=t, series__status=Series.Status.OPEN)
        .annotate(played=Count("games"))
        .values_list("size", "played")
    )
    return sum(max(0, t.games_per_series(size) - played) for size, played in tables)


def running_tournament(players: int, *, series: int, room: int) -> object:
    """The running tournament of that size with room for `room` more games: every load run
    enters a game a second, so a small one fills up; the next is generated beside it (the
    full ones stay, as a club's past evenings do)."""
    from tournaments.models import Tournament

    number = 1
    while True:
        tag = f" #{number}" if number > 1 else ""
        name = f"Load {players} players {series} series running{tag}"
        new = not Tournament.objects.filter(name=name).exists()
        t = tournament(players, series=series, running=True, tag=tag)
        left = open_games(t)
        if left >= room:
            return t
        if new:
            raise ValueError(f"a new {players}-player tournament has room for {left} games only")
        number += 1


def games_of(t) -> int:
    from tournaments.models import Game

    return Game.objects.filter(tournament=t).count()


def prepare(args):
    """The tournaments under load, the floor's sizes and enough other games."""
    from tournaments.models import Game

    print("data:", flush=True)
    # Room for the secretary's games of an open loop (a game a second), with some to spare.
    room = int(args.duration / args.write_every) + 50 if args.write_every else 0
    small = running_tournament(60, series=3, room=room)
    large = running_tournament(args.players, series=4, room=room)
    floors = {}
    for size in args.floor_sizes:
        floors[size] = large if size == args.players else tournament(size, running=False)
    filler = 0
    while Game.objects.exclude(tournament__in=[small, large]).count() < args.other_games:
        filler += 1
        tournament(2000, running=False, tag=f" filler {filler}")
    # As a database in use has them (autovacuum): the planner's statistics of the new rows.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    total = Game.objects.count()
    others = Game.objects.exclude(tournament__in=[small, large]).count()
    print(f"  {total} games in the database, {others} of other tournaments", flush=True)
    return small, large, floors


# -- the server --------------------------------------------------------------------------


def start_server(args) -> subprocess.Popen:
    checksum = subprocess.run(
        ["cksum", "requirements.txt"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()[0]
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "DJANGO_SECRET_KEY": SECRET,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "WEB_CONCURRENCY": str(args.workers),
        "PORT": str(args.port),
    }
    if args.cache_url:
        env["CACHE_URL"] = args.cache_url
    # -o: the virtualenv is set up already (make setup); do not rebuild it here.
    server = subprocess.Popen(
        ["make", "--no-print-directory", "serve", "-o", f".venv/.installed-{checksum}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(ROOT / "bench" / "out" / "serve.log", "w"),  # noqa: SIM115
        start_new_session=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if get(args.port, "/", timeout=2)[0] == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            raise SystemExit("make serve stopped; see bench/out/serve.log")
        time.sleep(0.5)
    stop_server(server)
    raise SystemExit("the server did not answer within 120 s; see bench/out/serve.log")


def static_files(port: int) -> dict[str, int]:
    """The status of each stylesheet and script the home page links (hashed names)."""
    _status, page = get(port, "/", timeout=10)
    paths = re.findall(rb'(?:href|src)="(/static/[^"]+)"', page)
    return {path.decode(): get(port, path.decode(), timeout=10)[0] for path in paths}


def stop_server(server: subprocess.Popen):
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def get(port: int, path: str, *, timeout: float) -> tuple[int, bytes]:
    status, body, _version = get_versioned(port, path, timeout=timeout)
    return status, body


def get_versioned(
    port: int, path: str, *, timeout: float, gzip_ok: bool = False
) -> tuple[int, bytes, int | None]:
    """The status, the body (unpacked) and the version it shows: a page's `data-version`,
    a JSON answer's X-Version header."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
        response = conn.getresponse()
        body = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        header = response.getheader("X-Version")
        match = VERSION.search(body)
        version = int(match.group(1)) if match else int(header) if header else None
        return response.status, body, version
    finally:
        conn.close()


# -- the secretary -----------------------------------------------------------------------


class Secretary(threading.Thread):
    """Signs in and enters one game per second through the sheet form of open tables;
    after each entry it reads the version endpoint: that version was committed then."""

    def __init__(self, port: int, t, stop: threading.Event, interval: float = 1.0):
        super().__init__(daemon=True)
        self.interval = interval
        self.port, self.tournament, self.stop = port, t, stop
        self.committed: list[tuple[float, int]] = []  # (when seen, version)
        self.entered = 0
        self.errors: list[str] = []
        self.latencies: list[float] = []
        self.writes: list[tuple[float, float]] = []  # (posted, answered)
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.base = f"http://127.0.0.1:{port}"

    def fetch(self, path, data=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        with self.opener.open(self.base + path, body, timeout=10) as response:
            return response.status, response.read().decode()

    def sign_in(self):
        _status, page = self.fetch("/login/")
        token = TOKEN.search(page).group(1)
        self.fetch(
            "/login/",
            {"username": "bench-secretary", "password": PASSWORD, "csrfmiddlewaretoken": token},
        )

    def tables(self):
        from django.db.models import Count

        from tournaments.models import Series, Table

        return list(
            Table.objects.filter(
                series__tournament=self.tournament, series__status=Series.Status.OPEN
            )
            .annotate(played=Count("games"))
            .select_related("series__tournament")
            .order_by("series__number", "number")
        )

    def run(self):
        from tournaments import demo

        rng = random.Random(7)
        self.sign_in()
        tables = [
            t for t in self.tables() if t.played < t.series.tournament.games_per_series(t.size)
        ]
        tokens: dict[int, str] = {}
        next_at = time.time()
        while self.interval and not self.stop.is_set() and tables:
            table = tables[rng.randrange(len(tables))]
            path = (
                f"/manage/t/{self.tournament.slug}/series/{table.series.number}/"
                f"table/{table.number}/"
            )
            try:
                if table.pk not in tokens:
                    tokens[table.pk] = TOKEN.search(self.fetch(path)[1]).group(1)
                row = demo.random_game(
                    rng,
                    rules=self.tournament.rules,
                    table_size=table.size,
                    number=table.played + 1,
                )
                started = time.time()
                self.fetch(path, {**form_fields(row), "csrfmiddlewaretoken": tokens[table.pk]})
                self.latencies.append(time.time() - started)
                self.writes.append((started, time.time()))
                table.played += 1
                self.entered += 1
                answer = self.fetch(f"/t/{self.tournament.slug}/version/")[1]
                version = json.loads(answer)["version"]
                self.committed.append((time.time(), version))
            except Exception as error:  # noqa: BLE001 - every failure is a figure
                self.errors.append(repr(error))
            if table.played >= table.series.tournament.games_per_series(table.size):
                tables.remove(table)
            next_at += self.interval
            self.stop.wait(max(0.0, next_at - time.time()))

    def committed_before(self, moment: float) -> int:
        seen = [version for when, version in self.committed if when < moment]
        return max(seen, default=-1)


def form_fields(row: dict) -> dict:
    """A game mapping as the sheet form posts it."""
    fields = {}
    for key, value in row.items():
        if key == "won":
            fields["won"] = "won" if value else "lost"
        elif key == "matadors" and row.get("without"):
            fields["matadors"] = -value
        elif value is True:
            fields[key] = "on"
        elif key != "without" or "matadors" not in row:
            fields[key] = value
    return fields


# -- the load ----------------------------------------------------------------------------


def page_paths(t) -> list[tuple[str, str]]:
    """(kind, path) in the proportions of an evening: standings most, then the rest."""
    from tournaments.models import Registration, Series

    slug = t.slug
    players = list(
        Registration.objects.filter(tournament=t).values_list("player_id", flat=True)[:200]
    )
    open_series = (
        Series.objects.filter(tournament=t, status=Series.Status.OPEN).order_by("number").last()
    )
    pages = max(1, (Registration.objects.filter(tournament=t).count() + 99) // 100)
    mix = [("standings", f"/t/{slug}/")] * 8
    mix += [("standings", f"/t/{slug}/?page={n}") for n in range(2, min(pages, 4) + 1)]
    mix += [("projector", f"/t/{slug}/projector/")] * 4
    if open_series is not None:
        mix += [("series", f"/t/{slug}/series/{open_series.number}/")] * 2
    mix += [("player", f"/players/{pk}/") for pk in random.Random(3).sample(players, 4)]
    # The JSON answers a scoreboard or another site polls, with and without gzip.
    mix += [("json", f"/t/{slug}/standings.json"), ("json gzip", f"/t/{slug}/standings.json")]
    api = f"/api/v1/tournaments/{slug}/standings"
    mix += [("api", api), ("api gzip", api)]
    return mix


def open_loop(args, t) -> dict:
    mix = page_paths(t)
    for _round in range(2 * args.workers):  # each worker renders each page once first
        for _kind, path in set(mix):
            get(args.port, path, timeout=30)
    stop = threading.Event()
    secretary = Secretary(args.port, t, stop, args.write_every)
    secretary.start()
    time.sleep(1.5)
    rng = random.Random(11)
    results: list[tuple] = []
    lock = threading.Lock()

    def one(due: float, kind: str, path: str):
        began = time.time()
        try:
            status, _body, version = get_versioned(
                args.port, path, timeout=args.timeout, gzip_ok=kind.endswith("gzip")
            )
            error = None if status == 200 else f"status {status}"
        except Exception as exc:  # noqa: BLE001
            error, version = type(exc).__name__, None
        ended = time.time()
        with lock:
            results.append((due, began, ended, kind, error, version))

    count = int(args.rate * args.duration)
    start = time.time() + 0.2
    with ThreadPoolExecutor(max_workers=args.clients) as pool:
        for i in range(count):
            due = start + i / args.rate
            delay = due - time.time()
            if delay > 0:
                time.sleep(delay)
            kind, path = rng.choice(mix)
            pool.submit(one, due, kind, path)
    stop.set()
    secretary.join(timeout=15)
    # Every request and write, for a closer look (bench/out/ is not committed).
    (ROOT / "bench" / "out" / f"open-loop-{t.pk}.json").write_text(
        json.dumps({"requests": results, "writes": secretary.writes})
    )
    latencies = sorted(ended - due for due, _b, ended, _k, error, _v in results if not error)
    errors = [error for *_rest, error, _v in results if error]
    stale = sum(
        1
        for _due, began, _e, _k, error, version in results
        if not error and version is not None and version < secretary.committed_before(began)
    )
    checked = sum(1 for *_rest, error, version in results if not error and version is not None)
    by_kind: dict[str, list[float]] = {}
    for due, _b, ended, kind, error, _v in results:
        if not error:
            by_kind.setdefault(kind, []).append(ended - due)
    return {
        "by_kind": {
            kind: (len(values), pct(sorted(values), 50), pct(sorted(values), 95))
            for kind, values in sorted(by_kind.items())
        },
        "offered": count,
        "ok": len(latencies),
        "errors": len(errors),
        "error_kinds": sorted(set(errors))[:5],
        "p50": pct(latencies, 50),
        "p95": pct(latencies, 95),
        "p99": pct(latencies, 99),
        "stale": stale,
        "stale_checked": checked,
        "entered": secretary.entered,
        "secretary_errors": secretary.errors[:3],
        "secretary_p50": pct(sorted(secretary.latencies), 50),
    }


def closed_loop(args, t) -> float:
    path = f"/t/{t.slug}/"
    done = [0]
    lock = threading.Lock()
    end = time.time() + args.capacity_seconds

    def client():
        while time.time() < end:
            try:
                if get(args.port, path, timeout=args.timeout)[0] == 200:
                    with lock:
                        done[0] += 1
            except OSError:
                pass

    threads = [threading.Thread(target=client) for _ in range(args.capacity_clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0] / args.capacity_seconds


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    return values[min(len(values) - 1, int(len(values) * p / 100))] * 1000


# -- floor and plans ---------------------------------------------------------------------


def floor(args, floors: dict) -> list[dict]:
    from django.core.cache import cache
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.standings import FLOOR_SQL
    from tournaments.caching.standings import standings_forget
    from tournaments.standings.selectors import tournament_standings

    if args.interpreter == "server":
        # The page as a server worker renders it: its interpreter tuned as skatclub/wsgi.py
        # tunes it (the collector's thresholds, what was loaded at start frozen).
        from skatclub import runtime

        runtime.tune()
    rows = []
    client = Client(SERVER_NAME="127.0.0.1")
    for size, t in sorted(floors.items()):
        url = f"/t/{t.slug}/"

        def floor_sql(t=t):
            with connection.cursor() as cursor:
                cursor.execute(FLOOR_SQL, [t.pk] * 4)
                return cursor.fetchall()

        def page(url=url):
            cache.clear()  # cold: no rendered page, no standings computed in this process
            standings_forget()
            response = client.get(url)
            assert response.status_code == 200, response.status_code

        timings = {"floor": [], "selector": [], "page": []}
        steps = {
            "floor": floor_sql,
            "selector": lambda t=t: tournament_standings(t),
            "page": page,
        }
        for step in steps.values():
            step()  # warm-up
        for _ in range(args.repeat):
            for name, step in steps.items():  # interleaved: the machine's mood hits all
                started = time.perf_counter()
                step()
                timings[name].append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as queries:
            page()
        page_queries = len(queries)
        reset_queries()
        median = {name: statistics.median(values) * 1000 for name, values in timings.items()}
        rows.append(
            {
                "players": size,
                "games": games_of(t),
                **median,
                "selector_ratio": median["selector"] / median["floor"],
                "page_ratio": median["page"] / median["floor"],
                "page_queries": page_queries,
            }
        )
    return rows


def explain(t) -> str:
    """EXPLAIN ANALYZE of every query of the tournament's standings, and of the games
    found by their tournament (the latest games, the live feed's query)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.caching.advance import standings_advance
    from tournaments.models import Game
    from tournaments.standings.selectors import standings_computed, tournament_standings

    t.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        tournament_standings(t)
    # After a game: the standings of the version before, advanced (the seats of the tables
    # written since, found through the tables' index on series and sheet version).
    computed = standings_computed(t)
    computed.version -= 1
    with CaptureQueriesContext(connection) as advancing:
        standings_advance(t, computed)
    parts = []
    with connection.cursor() as cursor:
        captured = [
            *((f"standings, query {n}", q) for n, q in enumerate(queries.captured_queries, 1)),
            *(("standings advanced after a game", q) for q in advancing.captured_queries),
        ]
        for title, query in captured:
            cursor.execute("EXPLAIN ANALYZE " + query["sql"])
            plan = "\n".join(row[0] for row in cursor.fetchall())
            parts += [f"-- {title}: {query['sql'][:120]}...", plan]
    latest = Game.objects.filter(tournament=t).order_by("-created", "-pk")[:8]
    changed = (
        Game.objects.filter(tournament=t, version__gt=t.version - 5)
        .order_by("version")
        .values_list("pk", "version")
    )
    return "\n".join(
        [
            *parts,
            "-- the latest games (games found by their tournament)",
            latest.explain(analyze=True),
            "-- games changed since a version (the live feed's query)",
            changed.explain(analyze=True),
        ]
    )


def command_times(t) -> tuple[float, str]:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "manage.py", "standings", t.slug],
            cwd=ROOT,
            env={**os.environ, "DJANGO_DEBUG": "0"},
            capture_output=True,
            check=True,
        )
        times.append(time.perf_counter() - started)
    median = statistics.median(times)
    return median, f"manage.py standings ({games_of(t)} games): median {median:.2f} s"


# -- main --------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="smaller data, 10 s phases")
    parser.add_argument("--floor-only", action="store_true")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DB)
    parser.add_argument("--cache-url", default="", help="CACHE_URL for the server")
    parser.add_argument("--port", type=int, default=8170)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--timeout", type=float, default=2.0, help="client timeout, seconds")
    parser.add_argument("--clients", type=int, default=400, help="open-loop connections at most")
    parser.add_argument("--capacity-clients", type=int, default=16)
    parser.add_argument("--capacity-seconds", type=float, default=20)
    parser.add_argument(
        "--write-every", type=float, default=1.0, help="seconds between games (0: no writes)"
    )
    parser.add_argument("--only", choices=["small", "large"], help="one tournament's open loop")
    parser.add_argument("--skip-floor", action="store_true")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--floor-sizes", type=int, nargs="+", default=[250, 2000, 4000])
    parser.add_argument("--other-games", type=int, default=300_000)
    parser.add_argument(
        "--repeat",
        type=int,
        default=15,
        help="floor: interleaved runs per size (medians; the 250-player page and its floor "
        "vary by a fifth from one run to the next on a shared machine)",
    )
    parser.add_argument(
        "--interpreter",
        choices=["server", "stock"],
        default="server",
        help="floor: the interpreter tuned as a server worker's (skatclub/runtime.py) or not",
    )
    args = parser.parse_args(argv)
    if args.short:
        args.duration, args.capacity_seconds, args.repeat = 10, 5, 3
        args.floor_sizes = [s for s in args.floor_sizes if s <= args.players]
        args.other_games = min(args.other_games, 20_000)
    (ROOT / "bench" / "out").mkdir(exist_ok=True)
    setup_django(args.database_url)
    from django.db import connection

    print(f"database: {connection.vendor}, {'short' if args.short else 'full'} run", flush=True)
    small, large, floors = prepare(args)
    checks: list[tuple[str, bool]] = []
    if not args.skip_floor:
        rows = print_floor(args, floors)
        queries = {row["page_queries"] for row in rows}
        checks.append(
            (f"the page's queries do not grow with the players ({queries})", len(queries) == 1)
        )
        checks += [
            (
                f"cold standings page <= 1x the SQL floor at {row['players']} players "
                f"({row['page']:.1f} ms vs {row['floor']:.1f} ms: {row['page_ratio']:.2f}x)",
                row["page_ratio"] <= 1,
            )
            for row in rows
        ]
    if args.floor_only:
        return report(checks)
    if not args.skip_floor:
        seconds, line = command_times(large)
        print("\n" + line)
        checks.append(
            (f"manage.py standings starts and answers in < 0.5 s ({seconds:.2f} s)", seconds < 0.5)
        )
        print("\nEXPLAIN (60-player tournament):")
        print(explain(small))
    server = start_server(args)
    try:
        statics = static_files(args.port)
        print(f"\nstatic files of the home page under make serve: {statics}")
        checks.append(
            (
                f"static files answer 200 under make serve ({len(statics)} of the home page)",
                bool(statics) and all(status == 200 for status in statics.values()),
            )
        )
        chosen = {"small": [small], "large": [large]}.get(args.only, [small, large])
        for t in chosen:
            players = t.registrations.count()
            print(
                f"\nopen loop, {players} players: {args.rate:.0f} req/s for {args.duration:.0f} s,"
                f" timeout {args.timeout} s, {args.workers} workers, a game every"
                f" {args.write_every} s",
                flush=True,
            )
            result = open_loop(args, t)
            print(
                "  offered {offered}, ok {ok}, errors {errors} {error_kinds}; "
                "p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms; "
                "stale {stale} of {stale_checked} checked; secretary entered {entered} "
                "(p50 {secretary_p50:.0f} ms) {secretary_errors}".format(
                    **{k: (v if v is not None else float("nan")) for k, v in result.items()}
                ),
                flush=True,
            )
            for kind, (n, p50, p95) in result["by_kind"].items():
                print(f"    {kind:12} {n:6} answers, p50 {p50:6.1f} ms, p95 {p95:6.1f} ms")
            checks.append(
                (
                    f"{players} players: no errors, no stale reads, p95 < 50 ms "
                    f"({result['errors']} errors, {result['stale']} stale, p95 "
                    f"{result['p95'] or float('nan'):.1f} ms)",
                    result["errors"] == 0
                    and result["stale"] == 0
                    and result["p95"] is not None
                    and result["p95"] < 50,
                )
            )
        rate = closed_loop(args, large)
        print(
            f"\nclosed loop, {large.registrations.count()} players, {args.capacity_clients} "
            f"clients: {rate:.0f} req/s"
        )
        checks.append((f"closed-loop capacity >= 300 req/s ({rate:.0f})", rate >= 300))
    finally:
        stop_server(server)
    return report(checks)


def report(checks: list[tuple[str, bool]]) -> int:
    print()
    for label, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {label}")
    return 0 if all(ok for _label, ok in checks) else 1


def print_floor(args, floors):
    print(
        "\nfloor (ms, medians of interleaved runs; cold page cache;"
        f" {args.interpreter} interpreter):"
    )
    print("  players   games   floor  selector  page  selector/floor  page/floor  queries")
    rows = floor(args, floors)
    for row in rows:
        print(
            f"  {row['players']:7} {row['games']:7} {row['floor']:7.1f} {row['selector']:9.1f}"
            f" {row['page']:5.1f} {row['selector_ratio']:15.2f} {row['page_ratio']:11.2f}"
            f" {row['page_queries']:8}"
        )
    return rows


if __name__ == "__main__":
    sys.exit(main())
