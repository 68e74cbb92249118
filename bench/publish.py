"""Benchmark: publishing a large tournament from the hall (protocol `skat-publish/1`,
`tournaments.hall.interchange`).

Generates (once, then reuses from bench/out/) a hall database, SQLite as at the hall, with
one tournament of `--players` players and `--series` series (2,000 x 4: about 96,000
games), then measures against a local endpoint on loopback that reads each batch and
answers 200 (the public site's import is the public side's benchmark):

- the first publish: the document batch built (`batch_build`), serialised and sent, its
  bytes and the time of each step;
- a later batch after one game at one table: its bytes, and bytes per game of the sheet
  (a sheet goes whole);
- a batch of 200 tables' sheets (one game added at each), its bytes and times.

With `--public DATABASE_URL` it measures instead the first publish end to end against a real
public site: gunicorn (2 workers) on that PostgreSQL database (dropped, created, migrated,
given a club key): the hall's build + serialise + the POST, which returns once the public
site has applied the document in its transaction (the interchange import); it checks the
copy there holds every game, then sends the batch of one changed table and applies it there.

Usage:

    python bench/publish.py [--players 2000] [--series 4]
    python bench/publish.py --public postgres://postgres@127.0.0.1:5432/twosites [--port 8830]

Measured (2,000 players x 4 series, 96,000 games; SQLite; a 2-core machine shared with
other work, so times are upper figures): the document 8.1 MB (84 B a game), built in
5.0 s, serialised in 0.34 s, sent in 0.44 s; one table's sheet of 48 games 3,803 B (79 B
a game of the sheet), built in 143 ms (most of it the document's player ids, read for
every batch), sent in 5 ms; 200 tables' sheets 723 kB, built in 611 ms.

End to end with `--public` (same machine, PostgreSQL 127.0.0.1:5432, gunicorn 2 workers):
the first publish of 2,000 players / 96,000 games in 11.4 s (build 4.2 s, serialise 0.3 s,
send + apply at the public site 6.9 s; target < 30 s), 8.1 MB (84 B a game); afterwards one
changed table costs a batch of 3,803 B (its 48-game sheet whole, 79 B a game of the sheet),
sent and applied in 0.3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))


class _Endpoint(BaseHTTPRequestHandler):
    received: list[int] = []

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        batch = json.loads(body)
        self.received.append(len(body))
        answer = json.dumps({"version": batch["version"], "applied": True}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def _setup(database: Path, players: int, series: int):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments import demo
    from tournaments.models import Club, Tournament

    call_command("migrate", "--no-input", verbosity=0)
    tournament = Tournament.objects.filter(name=f"Publish bench {players}").first()
    if tournament is None:
        print(f"  generating {players} players x {series} series (once) ...", flush=True)
        started = time.perf_counter()
        club = Club.objects.get_or_create(name="Bench Club")[0]
        tournament = demo.generate_tournament(
            club=club, players=players, series=series, seed=5, name=f"Publish bench {players}"
        )
        print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)
    return tournament


def _drop(database_url: str, *, create: bool = False):
    """Drop the public site's database (and create it afresh with `create`)."""
    import psycopg

    name = database_url.rsplit("/", 1)[1]
    admin = database_url.rsplit("/", 1)[0].replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin + "/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if create:
            connection.execute(f"CREATE DATABASE {name}")


def _public_site(database_url: str, port: int, club: str):
    """A public site as it runs: gunicorn on PostgreSQL (the database dropped, created and
    migrated here), with a publishing key for the hall's club. (process, url, key)."""
    import urllib.request

    _drop(database_url, create=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    env.update(DATABASE_URL=database_url, DJANGO_DEBUG="1", DJANGO_SECRET_KEY="benchmark-only")

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    manage("migrate", "--verbosity", "0")
    key = manage("publishing_key", "create", "--club", club).strip().splitlines()[-1]
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    bind = ["--bind", f"127.0.0.1:{port}", "--workers", "2", "--timeout", "600"]
    process = subprocess.Popen(
        [gunicorn, "skatclub.wsgi:application", *bind],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    address = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(address + "/health/", timeout=2).read()
            break
        except OSError:
            time.sleep(0.5)
    process.manage = manage
    return process, address + "/api/v1/publish", key


def _timed(function, *args, **kwargs):
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--series", type=int, default=4)
    parser.add_argument("--database", type=Path, default=None)
    parser.add_argument(
        "--public",
        metavar="DATABASE_URL",
        help="also apply at a real public site: gunicorn on this PostgreSQL database"
        " (dropped and created), e.g. postgres://postgres@127.0.0.1:5432/twosites",
    )
    parser.add_argument("--port", type=int, default=8830, help="the public site's port")
    options = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    database = options.database or OUT / f"publish-hall-{options.players}.sqlite3"
    tournament = _setup(database, options.players, options.series)

    from tournaments.hall.interchange import batch_build, post
    from tournaments.models import Game, Table, Tournament
    from tournaments.versions import version_bump

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/api/v1/publish"
    if options.public:
        try:
            return _end_to_end(tournament, options)
        finally:
            server.shutdown()
    games = Game.objects.filter(table__series__tournament=tournament).count()
    print(f"tournament: {options.players} players, {games:,} games")

    tournament = Tournament.objects.get(pk=tournament.pk)
    batch, build = _timed(batch_build, tournament, base=0, layout="")
    data, encode = _timed(batch.encoded)
    (status, _answer), send = _timed(post, url, "bench", data)
    assert status == 200 and batch.is_document
    print(
        f"first publish (document): {len(data) / 1e6:.1f} MB, {len(data) / games:.0f} B/game;"
        f" build {build:.2f} s, serialise {encode:.2f} s, send {send:.2f} s"
    )

    # One more game's worth of change at one table: the sheet is stamped as a write does.
    ack = batch
    table = Table.objects.filter(series__tournament=tournament).order_by("pk").first()
    version_bump(tournament_id=tournament.pk, sheets=[table.pk])
    batch, build = _timed(batch_build, tournament, base=ack.version, layout=ack.layout)
    data = batch.encoded()
    (status, _answer), send = _timed(post, url, "bench", data)
    sheet_games = len(batch.body["sheets"][0]["sheet"]["games"])
    print(
        f"one table's sheet ({sheet_games} games): {len(data):,} B,"
        f" {len(data) / sheet_games:.0f} B/game of the sheet;"
        f" build {build * 1000:.0f} ms, send {send * 1000:.0f} ms"
    )

    ack = batch
    tables = list(
        Table.objects.filter(series__tournament=tournament)
        .order_by("pk")[:200]
        .values_list("pk", flat=True)
    )
    for pk in tables:
        version_bump(tournament_id=tournament.pk, sheets=[pk])
    batch, build = _timed(batch_build, tournament, base=ack.version, layout=ack.layout)
    data, encode = _timed(batch.encoded)
    (status, _answer), send = _timed(post, url, "bench", data)
    print(
        f"200 tables' sheets: {len(batch.body['sheets'])} sheets, {len(data) / 1e3:.0f} kB;"
        f" build {build * 1000:.0f} ms, serialise {encode * 1000:.0f} ms,"
        f" send {send * 1000:.0f} ms"
    )
    server.shutdown()
    return 0


def _end_to_end(tournament, options) -> int:
    """The first publish as it happens: build + serialise + send + the public site's apply
    (gunicorn, PostgreSQL), then one game's batch applied there."""
    from tournaments.hall.interchange import batch_build, post
    from tournaments.models import Game, Table, Tournament
    from tournaments.versions import version_bump

    games = Game.objects.filter(table__series__tournament=tournament).count()
    print(f"tournament: {options.players} players, {games:,} games; public site on PostgreSQL")
    process, url, key = _public_site(options.public, options.port, tournament.club.name)
    try:
        tournament = Tournament.objects.get(pk=tournament.pk)
        started = time.perf_counter()
        batch, build = _timed(batch_build, tournament, base=0, layout="")
        data, encode = _timed(batch.encoded)
        (status, answer), send = _timed(post, url, key, data, timeout=600)
        total = time.perf_counter() - started
        assert status == 200 and answer.get("applied"), (status, answer)
        print(
            f"first publish end to end: {total:.1f} s (build {build:.2f} s, serialise"
            f" {encode:.2f} s, send + apply at the public site {send:.2f} s);"
            f" {len(data) / 1e6:.1f} MB, {len(data) / games:.0f} B/game"
        )
        held = process.manage(
            "shell",
            "-c",
            "from tournaments.models import Game;"
            f"print(Game.objects.filter(table__series__tournament__slug='{tournament.slug}')"
            ".count())",
        )
        assert int(held.split()[-1]) == games, f"the public copy holds {held} games"
        ack = batch
        table = Table.objects.filter(series__tournament=tournament).order_by("pk").first()
        # The sheets are closed: the table's sheet is stamped as a game's write does.
        version_bump(tournament_id=tournament.pk, sheets=[table.pk])
        batch, build = _timed(batch_build, tournament, base=ack.version, layout=ack.layout)
        data = batch.encoded()
        (status, answer), send = _timed(post, url, key, data)
        assert status == 200 and answer.get("applied"), (status, answer)
        sheet_games = len(batch.body["sheets"][0]["sheet"]["games"])
        print(
            f"a later one-game batch (the table's sheet of {sheet_games} games goes whole):"
            f" {len(data):,} B, {len(data) / sheet_games:.0f} B/game of the sheet;"
            f" build {build * 1000:.0f} ms, send + apply {send * 1000:.0f} ms"
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
        _drop(options.public)
    return 0


if __name__ == "__main__":
    sys.exit(main())
