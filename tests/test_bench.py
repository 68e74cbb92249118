"""The benchmarks still run against today's code: a small tournament through every
measurement of bench/standings.py, and a few thousand games through bench/scoring.py.
Timings are the benchmarks' business (they print them); here only the answers are checked."""

import asyncio
import http.server
import threading
import time

import pytest

from tournaments import demo
from tournaments.models import Club


@pytest.mark.django_db
def test_standings_bench_measures_a_small_tournament():
    from bench import standings as bench

    club = Club.objects.create(name="Benchmark")
    tournament = demo.generate_tournament(club=club, players=16, series=2, seed=3, name="Bench")
    assert bench.with_penalties(tournament) > 0
    result = bench.measure(tournament, repeat=1)
    # The hand-written SQL floor and the selector agree, penalties included.
    assert result["floor_mismatches"] == 0 and result["penalised"] > 0
    assert result["players"] == 16 and result["games"] > 0 and result["sheets"] == 4
    assert result["page_queries"] > 0


def test_scoring_bench_agrees_with_the_command_line(capsys):
    from bench import scoring as bench

    # main() checks that every generated game is valid and that `python -m scoring`
    # answers each line as the API does; it returns 1 otherwise.
    assert bench.main(["--games", "3000", "--seed", "7"]) == 0
    assert "score(Game)" in capsys.readouterr().out


@pytest.mark.django_db
def test_the_load_bench_takes_a_running_tournament_with_room_for_its_games():
    from bench import load

    first = load.running_tournament(12, series=2, room=1)
    left = load.open_games(first)
    assert left >= 1 and first.name == "Load 12 players 2 series running"
    assert load.running_tournament(12, series=2, room=left).pk == first.pk
    # Filled up by earlier runs: the next one is generated beside it.
    first.series.filter(status="open").update(status="closed")
    assert load.open_games(first) == 0
    second = load.running_tournament(12, series=2, room=left)
    assert second.pk != first.pk and second.name.endswith(" #2")
    assert load.open_games(second) == left
    with pytest.raises(ValueError):  # more than a new one has
        load.running_tournament(12, series=2, room=left + 1)


@pytest.mark.django_db
def test_the_season_bench_measures_two_small_seasons():
    from bench import season as bench
    from tournaments.leagues.interchange import export_season, import_season

    league = bench.generate_league(5, clubs=2, days=2, series=1)
    club = bench.generate_club(5, players=12, evenings=2, series=1)
    for season in (league, club):
        # The floor's sums are the season tables' (players, and teams per match day).
        assert bench.floor_disagreements(season) == 0
        assert bench.tables_queries(season) > 0
        # Both row writers of --writers give the same cells.
        public = bench.with_writer(bench.PublicRows, lambda s=season: bench.workbook(s))
        assert list(bench.cells(bench.workbook(season))) == list(bench.cells(public))
    # The half of a season's document imports beside the whole.
    half = import_season(bench.halved(export_season(league)))
    assert half.name.endswith(" (half)") and half.tournaments.count() == 1


class _Answers(http.server.BaseHTTPRequestHandler):
    """/ok: 200; /busy: 503 asking for no wait; /slow: 200 after 0.3 s (HTTP/1.1, kept)."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 - the standard library's name
        if self.path == "/slow":
            time.sleep(0.3)
        status = 503 if self.path == "/busy" else 200
        body = b"x" * 10
        self.send_response(status)
        if status == 503:
            self.send_header("Retry-After", "0")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def answers():
    # A port of the system's choosing: two workers of the suite may run this at once.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    ("path", "timeout", "status"),
    [("/ok", 0, 200), ("/busy", 0, 503), ("/slow", 0.1, -1)],  # -1: the client gave up
)
def test_the_shedding_bench_clients_count_each_answer(answers, path, timeout, status):
    from bench import shedding as bench

    spec = {
        "port": answers,
        "path": path,
        "clients": 3,
        "seconds": 0.6,
        "warmup": 0.0,
        "timeout": timeout,
        "honour_retry_after": True,
    }
    outcome = asyncio.run(bench.run_clients(spec))
    statuses = {answer for answer, _latency in outcome["results"]}
    assert statuses == {status} and outcome["errors"] == {}


def test_the_shedding_bench_reads_a_chunked_answer():
    from bench import shedding as bench

    async def read():
        reader = asyncio.StreamReader()
        reader.feed_data(
            b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n"
        )
        answer = await bench.read_answer(reader)
        rest = await reader.readexactly(8)
        return answer, rest

    assert asyncio.run(read()) == ((503, 2.0), b"HTTP/1.1")


@pytest.mark.django_db
def test_the_rating_bench_measures_small_numbers(capsys):
    from bench import rating as bench

    quality = bench.quality(players=24, series=4, unseen=50, seed=3)
    assert 0 < quality["hits_rating"] <= 50 and 0 < quality["hits_average"] <= 50
    assert -1 <= quality["spearman_rating"] <= 1
    speed = bench.speed(tables=300, updates=10, repeat=1, seed=3)
    assert speed["tables"] == 300 and speed["updates"] == 10
    assert 0 < speed["players"] <= bench.PLAYERS
    assert "recompute of 300 tables" in capsys.readouterr().out
