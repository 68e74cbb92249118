"""Benchmark: standings, Excel and PDF at the scale of a large open tournament.

Generates (once, then reuses) a tournament of 2,000 players and 4 series (about 96,000
games) with the demo generator, plus a small one of 200 players for comparison, and
measures:

- the tournament standings page: server time and number of SQL queries (the number must
  not grow with the number of players), against the floor: the same standings (list
  points, game points, won, lost; penalties included) by one hand-written SQL aggregate over
  the games (target: the page within 3× of it). The standings selector alone is shown too,
  and its rows must agree with the floor's;
- the Excel workbook of every game: time (target < 10 s) and peak Python memory while it is
  written into a temporary file, which must not grow with the number of games (write-only
  mode; the finished file itself grows with the games by design and is not counted);
- the PDF of all blank score sheets of a series as the view renders it, with each table's
  phone link as a QR code (500 at 2,000 players; target < 10 s); for information, the
  filled sheets of every table of series 1 and the results list.

The generated tournaments get a few penalties (seeded here, once: one table in ten, seats 1
and 2) so that the floor's agreement with the selector covers them.

Usage (the database comes from DATABASE_URL; default a SQLite file under bench/out/):

    python bench/standings.py [--players 2000] [--series 4] [--repeat 5]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/skat_bench python bench/standings.py
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
os.environ.setdefault("DJANGO_DEBUG", "0")
(ROOT / "bench" / "out").mkdir(exist_ok=True)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'bench' / 'out' / 'bench.sqlite3'}")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, RequestFactory  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournaments import demo  # noqa: E402
from tournaments.exporters.results import ResultsPdf  # noqa: E402
from tournaments.exporters.sheets import ScoreSheetsPdf  # noqa: E402
from tournaments.exporters.workbook import TournamentWorkbook  # noqa: E402
from tournaments.models import Club, Game, Penalty, Table, Tournament  # noqa: E402
from tournaments.shared_views import entry_url  # noqa: E402
from tournaments.sheets.totals import seat_totals_rebuild  # noqa: E402
from tournaments.standings.selectors import tournament_standings  # noqa: E402

# The floor: the same standings (list points, game points, won, lost per player, penalties
# included as the selector adds them: to the game points and the list points) as one SQL
# statement. (The generated tournaments have no double entry, so no disputed games.)
FLOOR_SQL = """
WITH own AS (
    SELECT g.table_id, g.declarer AS seat, SUM(g.score) AS gp,
           SUM(g.list_declarer) AS lp, SUM(g.list_others) AS lo,
           SUM(CASE WHEN g.is_won THEN 1 ELSE 0 END) AS won,
           SUM(CASE WHEN g.is_lost THEN 1 ELSE 0 END) AS lost
    FROM tournaments_game g
    JOIN tournaments_table t ON t.id = g.table_id
    JOIN tournaments_series s ON s.id = t.series_id
    WHERE s.tournament_id = %s AND g.declarer IS NOT NULL
    GROUP BY g.table_id, g.declarer
), tab AS (
    SELECT g.table_id, SUM(g.list_others) AS lo
    FROM tournaments_game g
    JOIN tournaments_table t ON t.id = g.table_id
    JOIN tournaments_series s ON s.id = t.series_id
    WHERE s.tournament_id = %s
    GROUP BY g.table_id
), pen AS (
    SELECT p.table_id, p.seat, SUM(p.points) AS points
    FROM tournaments_penalty p
    JOIN tournaments_table t ON t.id = p.table_id
    JOIN tournaments_series s ON s.id = t.series_id
    WHERE s.tournament_id = %s
    GROUP BY p.table_id, p.seat
)
SELECT st.player_id,
       SUM(COALESCE(own.lp, 0) + COALESCE(tab.lo, 0) - COALESCE(own.lo, 0)
           + COALESCE(pen.points, 0)) AS list_points,
       SUM(COALESCE(own.gp, 0) + COALESCE(pen.points, 0)) AS game_points,
       SUM(COALESCE(own.won, 0)) AS won,
       SUM(COALESCE(own.lost, 0)) AS lost
FROM tournaments_seat st
JOIN tournaments_series s ON s.id = st.series_id
LEFT JOIN tab ON tab.table_id = st.table_id
LEFT JOIN own ON own.table_id = st.table_id AND own.seat = st.number
LEFT JOIN pen ON pen.table_id = st.table_id AND pen.seat = st.number
WHERE s.tournament_id = %s
GROUP BY st.player_id
ORDER BY list_points DESC, won DESC, lost ASC
"""


def tournament_of(players: int, series: int, seed: int) -> Tournament:
    name = f"Benchmark {players} players {series} series seed {seed}"
    existing = Tournament.objects.filter(name=name).first()
    if existing is not None:
        return existing
    club = Club.objects.filter(name="Benchmark").first() or Club.objects.create(name="Benchmark")
    started = time.perf_counter()
    tournament = demo.generate_tournament(
        club=club, players=players, series=series, seed=seed, name=name
    )
    print(f"  generated {name} in {time.perf_counter() - started:.1f} s")
    return tournament


def with_penalties(tournament: Tournament) -> int:
    """Seed a few penalties once (one table in ten: seat 1 −10, seat 2 −25), so that the
    floor's agreement covers them. Benchmark data, saved in bulk like the demo generator's
    games: the tables are closed, and the services rightly refuse to change closed tables."""
    existing = Penalty.objects.filter(table__series__tournament=tournament).count()
    if existing:
        return existing
    tables = Table.objects.filter(series__tournament=tournament).order_by("id")
    penalties = [
        Penalty(table_id=table_id, table_size=size, seat=seat, points=points, reason="benchmark")
        for table_id, size in tables.values_list("id", "size")[::10]
        for seat, points in ((1, -10), (2, -25))
    ]
    Penalty.objects.bulk_create(penalties)
    # Written past the services, so the seats' totals are rebuilt as recompute_scores does.
    seat_totals_rebuild(tournament=tournament)
    return len(penalties)


def workbook_peak(tournament: Tournament) -> float:
    """Peak Python memory (MB) while the workbook is written into a temporary file: the
    finished file is on disk, not counted (it grows with the games by design)."""
    with tempfile.TemporaryFile() as target:
        tracemalloc.start()
        try:
            TournamentWorkbook(tournament).save(target)
            return tracemalloc.get_traced_memory()[1] / 2**20
        finally:
            tracemalloc.stop()


def timed(function, repeat: int) -> tuple[float, object]:
    """The median wall time of `repeat` runs (after one warm-up run), and the last result."""
    result = function()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def measure(tournament: Tournament, repeat: int) -> dict:
    games = Game.objects.filter(table__series__tournament=tournament).count()
    client = Client()
    url = reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    # Count with an execute wrapper: Django clears its own query log at request start.
    queries = []
    with connection.execute_wrapper(
        lambda execute, sql, *a: queries.append(sql) or execute(sql, *a)
    ):
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    page_time, _ = timed(lambda: client.get(url), repeat)
    selector_time, rows = timed(lambda: tournament_standings(tournament), repeat)

    def floor():
        with connection.cursor() as cursor:
            cursor.execute(FLOOR_SQL, [tournament.pk] * 4)
            return cursor.fetchall()

    floor_time, floor_rows = timed(floor, repeat)
    by_player = {
        row.player_id: (row.list_points, row.game_points, row.won, row.lost) for row in rows
    }
    mismatches = sum(
        1 for pid, *figures in floor_rows if by_player.get(pid) != tuple(figures)
    ) + abs(len(floor_rows) - sum(1 for row in rows if row.series))
    penalised = (
        Penalty.objects.filter(table__series__tournament=tournament)
        .values("table_id", "seat")
        .distinct()
        .count()
    )

    started = time.perf_counter()
    workbook = TournamentWorkbook(tournament).render()
    workbook_time = time.perf_counter() - started
    # A second run under tracemalloc (which slows Python down) for the peak memory.
    peak = workbook_peak(tournament)

    series = tournament.series.get(number=1)
    # As BlankSheetsPdfView renders them: each table's phone link as a QR code.
    request = RequestFactory().get("/")
    started = time.perf_counter()
    pdf = ScoreSheetsPdf.blank(series, link_url=lambda token: entry_url(request, token)).render()
    pdf_time = time.perf_counter() - started
    started = time.perf_counter()
    tables = series.tables.select_related("series__tournament").order_by("number")
    pages = [page for table in tables for page in ScoreSheetsPdf.filled(table).pages]
    filled = ScoreSheetsPdf(tournament, pages, filename="bench.pdf").render()
    filled_time = time.perf_counter() - started
    started = time.perf_counter()
    results = ResultsPdf(tournament).render()
    results_time = time.perf_counter() - started
    return {
        "players": len(rows),
        "games": games,
        "page_queries": len(queries),
        "page_time": page_time,
        "selector_time": selector_time,
        "floor_time": floor_time,
        "floor_mismatches": mismatches,
        "floor_rows": len(floor_rows),
        "penalised": penalised,
        "workbook_time": workbook_time,
        "workbook_peak_mb": peak,
        "workbook_mb": len(workbook) / 2**20,
        "sheets": series.tables.count(),
        "pdf_time": pdf_time,
        "pdf_mb": len(pdf) / 2**20,
        "filled_time": filled_time,
        "filled_mb": len(filled) / 2**20,
        "results_time": results_time,
        "results_mb": len(results) / 2**20,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--small", type=int, default=200, help="players of the comparison")
    parser.add_argument("--series", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    vendor = connection.vendor
    print(f"database: {vendor} ({connection.settings_dict['NAME']})")
    call_command("migrate", verbosity=0)
    small = tournament_of(args.small, args.series, args.seed)
    large = tournament_of(args.players, args.series, args.seed)
    one_series = tournament_of(args.players, 1, args.seed)
    for tournament in (small, large):
        print(f"  {with_penalties(tournament)} penalties in {tournament.name}")
    results = [measure(small, args.repeat), measure(large, args.repeat)]
    # Same players, a quarter of the games: the workbook's peak memory must stay put.
    one_series_peak = workbook_peak(one_series)
    one_series_games = Game.objects.filter(table__series__tournament=one_series).count()
    per_game = (
        (results[1]["workbook_peak_mb"] - one_series_peak)
        * 2**20
        / max(results[1]["games"] - one_series_games, 1)
    )
    header = (
        f"{'players':>8} {'games':>7} {'queries':>7} {'page s':>7} {'floor s':>8} "
        f"{'page/floor':>10} {'selector s':>10} {'sel/floor':>9} {'xlsx s':>7} "
        f"{'xlsx peak MB':>12} {'sheets':>6} {'blank pdf s':>11} {'filled pdf s':>12} "
        f"{'results pdf s':>13}"
    )
    print(header)
    for r in results:
        print(
            f"{r['players']:>8} {r['games']:>7} {r['page_queries']:>7} {r['page_time']:>7.3f} "
            f"{r['floor_time']:>8.3f} {r['page_time'] / r['floor_time']:>10.2f} "
            f"{r['selector_time']:>10.3f} {r['selector_time'] / r['floor_time']:>9.2f} "
            f"{r['workbook_time']:>7.2f} {r['workbook_peak_mb']:>12.1f} {r['sheets']:>6} "
            f"{r['pdf_time']:>11.2f} {r['filled_time']:>12.2f} {r['results_time']:>13.2f}"
        )
        print(
            f"  floor: {r['floor_rows']} seated players, {r['penalised']} seats with a "
            f"penalty; {r['floor_mismatches']} differ from the selector"
        )
    small_r, large_r = results
    checks = [
        ("queries do not grow with players", small_r["page_queries"] == large_r["page_queries"]),
        (
            "standings page within 3x of the SQL floor "
            f"({large_r['page_time']:.3f} s vs {large_r['floor_time']:.3f} s)",
            large_r["page_time"] <= 3 * large_r["floor_time"],
        ),
        (
            "selector agrees with the SQL floor (penalties included)",
            small_r["floor_mismatches"] == 0 and large_r["floor_mismatches"] == 0,
        ),
        ("workbook under 10 s", large_r["workbook_time"] < 10),
        (
            # The 4-series workbook has 4x the games of the 1-series one with the same
            # players; what grows is per seat (standings, names), not per game: a row kept
            # in memory by openpyxl would cost kilobytes, so < 100 bytes a game means the
            # games are streamed.
            f"workbook memory does not grow with games ({one_series_peak:.1f} MB at "
            f"{one_series_games} games, {large_r['workbook_peak_mb']:.1f} MB at "
            f"{large_r['games']} games: {per_game:.0f} bytes per extra game)",
            per_game < 100,
        ),
        ("blank sheets PDF (with the QR codes) under 10 s", large_r["pdf_time"] < 10),
    ]
    for label, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {label}")
    return 0 if all(ok for _label, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
