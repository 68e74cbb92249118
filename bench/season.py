"""Benchmark: a league season and a club's annual ranking, on PostgreSQL (issue 25).

Generates (once, then reuses: the documents are kept under bench/out/) two seasons with the
league services and the demo's sheet filler (`demo.play_series`):

- *league*: 8 member clubs of 2 teams each (4 regulars and a substitute), 18 match days
  at 2 venues of 8 teams, 3 full series a day, every day confirmed: about 41,000 games;
- *club*: a club's annual ranking of 120 players over 50 evenings, 102 to 118 of them at
  an evening, 3 full series each: about 197,000 games.

Each is exported as `manage.py export_season` writes it; its *half* (the first half of the
match days, renamed so that it can stand beside the whole) is derived from that document.
Then it measures, on the database of DATABASE_URL (default a database of its own, created
if missing):

1. the season workbook (`exporters.season.SeasonWorkbook`) of each season (target for the
   club season: under 5 s);
2. `manage.py import_season` of each document, as a subprocess into a second database
   (DATABASE_URL's name + "_import", emptied before each import): games per second (target
   >= 20,000) and peak resident memory (`ru_maxrss` of the command), which must not grow
   with the document (the half and the whole club season: < 30 MB apart);
3. the season tables (`leagues.selectors.season_tables`) computed cold (cache emptied):
   their number of queries (which must not grow with the match days: the half and the
   whole league season ask as many) and their time against the floor, one SQL aggregate
   over the seats' stored totals that gives the player table's and the team table's
   sums (target: within 5x of it).

The workbooks and tables are a server worker's answers: they are measured in an
interpreter tuned as a worker's (`skatclub/runtime.py`, as bench/load.py's floor is;
`--interpreter stock` keeps Python's defaults). Runs are interleaved (every measurement of
a round before the next round) and medians are quoted, with a PASS or MISS line per target
(exit status 1 if any is missed).

Usage:

    python bench/season.py [--repeat 3] [--seed 1] [--no-import | --import-only | --tables-only]
                           [--interpreter server|stock]
    python bench/season.py --writers    # the Games rows: LeanRows against ws.append
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/skat_bench_season python bench/season.py
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import random
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.importing import _manage, measured  # noqa: E402

OUT = ROOT / "bench" / "out"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/skatclub_bench_season"
SECRET = "benchmark-only"
WORKBOOK_SECONDS = 5.0
GAMES_PER_SECOND = 20_000
MEMORY_GROWTH_MB = 30
FLOOR_RATIO = 5.0

LEAGUE_CLUBS = 8
LEAGUE_DAYS = 18
CLUB_PLAYERS = 120
CLUB_EVENINGS = 50
SERIES = 3


def _create_if_missing(url: str):
    """The PostgreSQL database of `url`, created if it does not exist yet."""
    if not url.startswith("postgres"):
        return
    import psycopg

    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    with psycopg.connect(parsed._replace(path="/postgres").geturl(), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def import_url(url: str) -> str:
    """The second database, which every measured import empties first."""
    parsed = urllib.parse.urlparse(url)
    return parsed._replace(path=parsed.path + "_import").geturl()


def setup_django(url: str):
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", SECRET)
    os.environ.setdefault("DJANGO_DEBUG", "0")
    _create_if_missing(url)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# -- data --------------------------------------------------------------------------------


def season_name(kind: str, seed: int) -> str:
    if kind == "league":
        return f"Bench league {LEAGUE_CLUBS * 2} teams {LEAGUE_DAYS} days seed {seed}"
    return f"Bench club {CLUB_PLAYERS} players {CLUB_EVENINGS} evenings seed {seed}"


def document_path(kind: str, seed: int, half: bool = False) -> Path:
    return OUT / f"season-{kind}-seed{seed}{'-half' if half else ''}.json"


def _names(rng: random.Random, count: int) -> list[str]:
    from tournaments import demo

    return [name for name, _female in demo.player_names(rng, count)]


def generate_league(
    seed: int, *, clubs: int = LEAGUE_CLUBS, days: int = LEAGUE_DAYS, series: int = SERIES
):
    """16 teams of 8 clubs, 18 match days at two venues of 8 teams, 3 series a day."""
    from django.db import transaction

    from tournaments import demo
    from tournaments.leagues.services import (
        league_create,
        league_season_create,
        match_day_confirm,
        match_day_create,
        roster_add,
        team_create,
        venue_create,
    )
    from tournaments.models import Player
    from tournaments.registry.services import club_create

    rng = random.Random(seed)
    with transaction.atomic():
        members = [
            club_create(name=f"Bench Liga Club {n} seed {seed}") for n in range(1, clubs + 1)
        ]
        league = league_create(name=f"Bench Liga seed {seed}", clubs=members)
        season = league_season_create(league=league, name=season_name("league", seed))
        names = iter(_names(rng, clubs * 2 * 5))
        teams = []
        for club in members:
            for numeral in ("I", "II"):
                team = team_create(season=season, club=club, name=f"{club.name} {numeral}")
                players = Player.objects.bulk_create(
                    [Player(name=next(names), club=club) for _n in range(5)]
                )
                for index, player in enumerate(players):
                    roster_add(team=team, player=player, substitute=index == 4)
                teams.append(team)
    start = datetime.date(2026, 9, 5)
    for number in range(1, days + 1):
        with transaction.atomic():
            day = match_day_create(
                season=season,
                name=f"Bench Liga {number}. Spieltag",
                date=start + datetime.timedelta(days=14 * (number - 1)),
                club=members[(number - 1) % len(members)],
                published=True,
            )
            order = teams[:]
            rng.shuffle(order)
            venue_create(tournament=day, name="Nord", teams=order[::2])
            venue_create(tournament=day, name="Süd", teams=order[1::2])
            for _series in range(series):
                demo.play_series(day, rng)
            match_day_confirm(tournament=day)
    return season


def generate_club(
    seed: int, *, players: int = CLUB_PLAYERS, evenings: int = CLUB_EVENINGS, series: int = SERIES
):
    """120 players of one club, 50 evenings of 102 to 118 of them, 3 series each."""
    from django.db import transaction

    from tournaments import demo
    from tournaments.leagues.services import match_day_create
    from tournaments.models import Player
    from tournaments.registry.services import club_create, registration_add, season_create

    rng = random.Random(seed)
    with transaction.atomic():
        club = club_create(name=f"Bench Skatclub seed {seed}")
        season = season_create(club=club, name=season_name("club", seed))
        roster = Player.objects.bulk_create(
            [Player(name=name, club=club) for name in _names(rng, players)]
        )
    start = datetime.date(2026, 1, 7)
    for number in range(1, evenings + 1):
        with transaction.atomic():
            day = match_day_create(
                season=season,
                name=f"Bench Skatabend {number}",
                date=start + datetime.timedelta(days=7 * (number - 1)),
                published=True,
            )
            present = rng.randint(players * 17 // 20, players * 59 // 60)  # 102 to 118 of 120
            registration_add(tournament=day, players=rng.sample(roster, present))
            for _series in range(series):
                demo.play_series(day, rng)
    return season


def halved(document: dict) -> dict:
    """The first half of the season's match days, renamed (season, match days) and without
    the whole season's addresses (slugs) and phone rows, so that it imports beside it."""
    half = json.loads(json.dumps(document))
    half["season"]["name"] += " (half)"
    half["season"].pop("slug", None)
    half["season"]["closed"] = False
    half["match_days"] = half["match_days"][: len(half["match_days"]) // 2]
    for day in half["match_days"]:
        day["tournament"]["tournament"]["name"] += " (half)"
        archive = day["tournament"].get("archive", {})
        archive.get("tournament", {}).pop("slug", None)
        for series in archive.get("series", []):
            for table in series.get("tables", []):
                table["client_ids"] = {}
    return half


def _write(path: Path, text: str):
    partial = path.with_suffix(".part")
    partial.write_text(text, encoding="utf-8")
    partial.rename(path)


def ensure_season(kind: str, seed: int, *, half: bool = False):
    """The season in this database: found by name, else imported from its document, else
    generated (and its document and half written)."""
    from django.core.management import call_command

    from tournaments.leagues.interchange import season_text
    from tournaments.models import Season

    name = season_name(kind, seed) + (" (half)" if half else "")
    season = Season.objects.filter(name=name).first()
    if season is not None:
        return season
    path = document_path(kind, seed, half)
    if not path.exists():
        if half:
            whole = json.loads(document_path(kind, seed).read_text(encoding="utf-8"))
            _write(path, json.dumps(halved(whole), ensure_ascii=False, indent=2) + "\n")
        else:
            started = time.perf_counter()
            print(f"  generating the {kind} season (once) ...", flush=True)
            season = generate_league(seed) if kind == "league" else generate_club(seed)
            _write(path, season_text(season))
            print(f"  generated in {time.perf_counter() - started:.0f} s", flush=True)
            return season
    out = io.StringIO()
    call_command("import_season", str(path), stdout=out)
    return Season.objects.get(slug=out.getvalue().strip())


def games_in(path: Path) -> int:
    """The games of a document, counted as a stream (no document in memory)."""
    import ijson

    with path.open("rb") as file:
        return sum(
            1
            for _game in ijson.items(
                file, "match_days.item.tournament.series.item.tables.item.games.item"
            )
        )


# -- import ------------------------------------------------------------------------------


def import_once(url: str, path: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one `manage.py import_season` into an emptied database."""
    _manage(url, "flush", "--no-input")
    result = measured(url, "import_season", str(path))
    return result["seconds"], result["peak_kb"] / 1024


def export_matches(url: str, path: Path) -> bool:
    """The one season of the import database exports again to the document's bytes."""
    slug = _manage(
        url,
        "shell",
        "-c",
        "from tournaments.models import Season; print(Season.objects.get().slug)",
    ).stdout.strip()
    slug = slug.splitlines()[-1]  # after the shell's own lines
    return _manage(url, "export_season", slug).stdout == path.read_text(encoding="utf-8")


# -- the season tables and their floor ---------------------------------------------------

# The floor: the sums the season tables are made of, in one statement over the seats'
# stored totals (list points, won, lost per seat and series) of the season's published
# match days: per player (the player table) and per team and match day (the team table's
# match-day results), the team being the player's roster team of the season.
FLOOR_SQL = """
WITH seats AS (
    SELECT re.team_id, s.tournament_id, st.player_id, st.list_points, st.won, st.lost
    FROM tournaments_seat st
    JOIN tournaments_series s ON s.id = st.series_id
    JOIN tournaments_tournament t ON t.id = s.tournament_id
    LEFT JOIN tournaments_rosterentry re
        ON re.player_id = st.player_id AND re.season_id = t.season_id
    WHERE t.season_id = %s AND t.published
)
SELECT NULL, NULL, player_id, SUM(list_points), SUM(won), SUM(lost), COUNT(*)
FROM seats GROUP BY player_id
UNION ALL
SELECT team_id, tournament_id, NULL, SUM(list_points), SUM(won), SUM(lost), COUNT(*)
FROM seats GROUP BY team_id, tournament_id
"""


def floor_disagreements(season) -> int:
    """Players and team match-day results where the floor's sums differ from the season
    tables' (every match day counted, no best n: as the generated seasons are)."""
    from tournaments.models import Team

    tables = tables_cold(season)
    teams = dict(Team.objects.filter(season=season).values_list("pk", "name"))
    players, results = {}, {}
    for team_id, tournament_id, player_id, points, won, lost, _seats in floor(season):
        if player_id is not None:
            players[player_id] = (points, won, lost)
        elif team_id is not None:
            results[(teams[team_id], tournament_id)] = points
    wrong = sum(
        1
        for row in tables.players
        if players.pop(row.player_id, None) != (row.list_points, row.won, row.lost)
    ) + len(players)
    for day in tables.day_tables:
        for result in day.teams:
            if results.pop((result.team, day.tournament.pk), None) != result.list_points:
                wrong += 1
    return wrong + len(results)


def floor(season) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(FLOOR_SQL, [season.pk])
        return cursor.fetchall()


def tables_cold(season):
    """`season_tables` as the first request after a write computes it: no cache."""
    from django.core.cache import cache

    from tournaments.caching.standings import standings_forget
    from tournaments.leagues.selectors import season_tables

    cache.clear()
    standings_forget()
    return season_tables(season)


def tables_queries(season) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        tables_cold(season)
    return len(queries)


def workbook(season) -> bytes:
    from tournaments.exporters.season import SeasonWorkbook

    return SeasonWorkbook(season).render()


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


# -- the row writers (--writers) ---------------------------------------------------------


class PublicRows:
    """The Games rows through openpyxl's public `ws.append`, as every other sheet writes its
    rows (`TournamentWorkbook.formatted`: texts as text cells, "" as no cell): what
    `xlsx_rows.LeanRows` is measured against."""

    def __init__(self, ws, header):
        ws.append(header)
        self.ws = ws
        self.count = 0

    def append(self, values):
        from tournaments.exporters.workbook import text_cell

        ws = self.ws
        ws.append(
            [None if v == "" else text_cell(ws, v) if isinstance(v, str) else v for v in values]
        )
        self.count += 1

    def close(self):
        pass


def with_writer(writer, render):
    from unittest import mock

    with mock.patch("tournaments.exporters.workbook.LeanRows", writer):
        return render()


def cells(data: bytes):
    """Every cell's value and number format, sheet by sheet."""
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True)
    for ws in book.worksheets:
        yield ws.title
        for row in ws.iter_rows():
            yield tuple((cell.value, cell.number_format) for cell in row)


def tournament_2000():
    """The 2,000-player, 4-series tournament of bench/importing.py, imported once."""
    from django.core.management import call_command

    from bench import importing
    from tournaments.models import Tournament

    found = Tournament.objects.filter(name="Import bench 2000").first()
    if found is not None:
        return found
    OUT.mkdir(exist_ok=True)
    path = importing.generate(2000, 4, 1)
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    return Tournament.objects.get(slug=out.getvalue().strip())


def writers(args, seasons: dict) -> int:
    """The workbooks with their Games rows written both ways, interleaved; the same cells."""
    from tournaments.exporters.workbook import TournamentWorkbook
    from tournaments.exporters.xlsx_rows import LeanRows

    tournament = tournament_2000()
    books = {
        "tournament 2000 players": lambda: TournamentWorkbook(tournament).render(),
        "league season": lambda: workbook(seasons["league"]),
        "club season": lambda: workbook(seasons["club"]),
    }
    ways = {"LeanRows": LeanRows, "public append": PublicRows}
    times = {(book, way): [] for book in books for way in ways}
    for _round in range(args.repeat):
        for book, render in books.items():
            for way, writer in ways.items():
                times[book, way].append(timed(lambda r=render, w=writer: with_writer(w, r)))
    print(f"{'workbook':<26} {'LeanRows s':>10} {'append s':>9} {'ratio':>6}")
    for book in books:
        lean = statistics.median(times[book, "LeanRows"])
        public = statistics.median(times[book, "public append"])
        print(f"{book:<26} {lean:>10.2f} {public:>9.2f} {public / lean:>6.2f}")
    same = True
    for book in ("tournament 2000 players", "league season"):
        a = cells(with_writer(LeanRows, books[book]))
        b = cells(with_writer(PublicRows, books[book]))
        equal = all(x == y for x, y in zip(a, b, strict=True))
        print(f"{'PASS' if equal else 'MISS'}  {book}: the same cells both ways")
        same &= equal
    return 0 if same else 1


# -- main --------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--writers",
        action="store_true",
        help="only: the workbooks with LeanRows and with openpyxl's public append",
    )
    parser.add_argument(
        "--interpreter",
        choices=["server", "stock"],
        default="server",
        help="the workbooks and tables measured in an interpreter tuned as a server worker's "
        "(skatclub/runtime.py: they are a worker's answers) or with Python's defaults",
    )
    parser.add_argument("--no-import", action="store_true", help="skip the import_season runs")
    parser.add_argument("--import-only", action="store_true", help="the import_season runs only")
    parser.add_argument(
        "--tables-only", action="store_true", help="the season tables and their floor only"
    )
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    setup_django(url)
    print(f"database: {url}, {args.interpreter} interpreter", flush=True)
    seasons = {kind: ensure_season(kind, args.seed) for kind in ("league", "club")}
    halves = {kind: ensure_season(kind, args.seed, half=True) for kind in ("league", "club")}
    if args.writers:
        return writers(args, seasons)
    if args.interpreter == "server":
        # As skatclub/wsgi.py tunes a worker: what was loaded frozen, the collector's
        # thresholds (the import runs as its own command, `collector_for_import`).
        from skatclub import runtime

        runtime.tune()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    from tournaments.models import Game

    games = {
        kind: Game.objects.filter(table__series__tournament__season=season).count()
        for kind, season in seasons.items()
    }
    checks = []
    if not args.import_only:
        checks += tables_and_workbooks(args, seasons, halves, games)
    if not args.no_import and not args.tables_only:
        checks += imports(args, url)
    for label, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {label}")
    return 0 if all(ok for _label, ok in checks) else 1


def tables_and_workbooks(args, seasons: dict, halves: dict, games: dict) -> list:
    """1 and 3: the workbooks and the season tables against the floor."""
    checks = []

    # 1 and 3, interleaved: workbook, tables cold, floor; season by season, round by round.
    steps = {
        "workbook": workbook,
        "tables": tables_cold,
        "floor": floor,
    }
    if args.tables_only:
        del steps["workbook"]
    times = {(kind, step): [] for kind in seasons for step in steps}
    for season in seasons.values():
        for step in steps.values():
            step(season)  # warm-up: the process's first query plans and imports
    for _round in range(args.repeat):
        for kind, season in seasons.items():
            for step, function in steps.items():
                times[kind, step].append(timed(lambda f=function, s=season: f(s)))
    median = {key: statistics.median(values) for key, values in times.items()}
    if args.tables_only:  # no workbook runs to show
        median.update({(kind, "workbook"): float("nan") for kind in seasons})
        times.update({(kind, "workbook"): [] for kind in seasons})
    queries = {kind: tables_queries(season) for kind, season in seasons.items()}
    half_queries = {kind: tables_queries(season) for kind, season in halves.items()}
    print(
        f"{'season':<8} {'days':>4} {'games':>7} {'workbook s':>10} {'tables s':>9} "
        f"{'floor s':>8} {'ratio':>6} {'queries':>7} {'(half)':>6}"
    )
    for kind, season in seasons.items():
        days = season.tournaments.count()
        ratio = median[kind, "tables"] / median[kind, "floor"]
        print(
            f"{kind:<8} {days:>4} {games[kind]:>7} {median[kind, 'workbook']:>10.2f} "
            f"{median[kind, 'tables']:>9.3f} {median[kind, 'floor']:>8.3f} {ratio:>6.1f} "
            f"{queries[kind]:>7} {half_queries[kind]:>6}"
            f"   (workbook runs: {', '.join(f'{t:.2f}' for t in times[kind, 'workbook'])} s)"
        )
        checks.append(
            (
                f"{kind} season tables within {FLOOR_RATIO:g}x of the SQL floor "
                f"({median[kind, 'tables']:.3f} s vs {median[kind, 'floor']:.3f} s)",
                ratio <= FLOOR_RATIO,
            )
        )
        checks.append(
            (
                f"{kind} season tables' queries do not grow with the match days "
                f"({half_queries[kind]} at {halves[kind].tournaments.count()} days, "
                f"{queries[kind]} at {days})",
                queries[kind] <= half_queries[kind],
            )
        )
    if args.tables_only:
        return checks
    checks.insert(
        0,
        (
            f"club season workbook under {WORKBOOK_SECONDS:g} s "
            f"({median['club', 'workbook']:.2f} s, {games['club']} games)",
            median["club", "workbook"] < WORKBOOK_SECONDS,
        ),
    )

    return checks


def imports(args, url: str) -> list:
    """2: import_season in a subprocess, into the emptied second database."""
    checks = []
    target = import_url(url)
    _create_if_missing(target)
    _manage(target, "migrate", "--no-input")
    documents = {
        "league": document_path("league", args.seed),
        "club half": document_path("club", args.seed, half=True),
        "club": document_path("club", args.seed),
    }
    counted = {name: games_in(path) for name, path in documents.items()}
    runs = {name: [] for name in documents}
    peaks = {name: [] for name in documents}
    same = {}
    for _round in range(args.repeat):
        for name, path in documents.items():  # interleaved
            seconds, peak = import_once(target, path)
            runs[name].append(seconds)
            peaks[name].append(peak)
            if name not in same and not name.endswith("half"):
                same[name] = export_matches(target, path)
    print(
        f"{'document':<10} {'games':>7} {'MB file':>8} {'median s':>9} {'games/s':>8} "
        f"{'peak MB':>8}"
    )
    rates = {}
    for name, path in documents.items():
        rates[name] = counted[name] / statistics.median(runs[name])
        print(
            f"{name:<10} {counted[name]:>7} {path.stat().st_size / 2**20:>8.1f} "
            f"{statistics.median(runs[name]):>9.2f} {rates[name]:>8.0f} "
            f"{statistics.median(peaks[name]):>8.1f}"
            f"   (runs: {', '.join(f'{t:.2f}' for t in runs[name])} s)"
        )
    for name in ("league", "club"):
        checks.append(
            (
                f"import_season >= {GAMES_PER_SECOND} games/s, {name} season "
                f"({rates[name]:.0f} games/s)",
                rates[name] >= GAMES_PER_SECOND,
            )
        )
    growth = statistics.median(peaks["club"]) - statistics.median(peaks["club half"])
    checks.append(
        (
            f"import_season's peak memory does not grow with the document ({growth:+.1f} MB "
            f"from {counted['club half']} to {counted['club']} games; limit "
            f"{MEMORY_GROWTH_MB} MB)",
            growth < MEMORY_GROWTH_MB,
        )
    )
    checks += [
        (f"export -> import -> export gives the same bytes, {name} season", ok)
        for name, ok in same.items()
    ]
    return checks


if __name__ == "__main__":
    sys.exit(main())
