"""Benchmark: `manage.py import_tournament` at the scale of a large open tournament.

Generates (once, then reuses from bench/out/) the documents of two demo tournaments,
2,000 and 4,000 players of 4 series (about 96,000 and 192,000 games), exported with their
archive as `manage.py export_tournament` writes them. Then, for each size, in a fresh
database (a new SQLite file, or the PostgreSQL database of DATABASE_URL emptied and
migrated), runs `manage.py import_tournament FILE --replace` as a subprocess and reports:

- the wall-clock time of the command and its games per second (target >= 20,000);
- the peak resident memory of the command (the child's `ru_maxrss`), which must not grow
  with the file: the difference between the two sizes must stay under 30 MB (a document
  held in memory costs hundreds of MB at these sizes);
- that the imported tournament exports again to the same document (byte for byte on
  SQLite; the same JSON on PostgreSQL, whose jsonb reorders the keys of stored objects);
- the same document imported again over it (`--replace`, a director's corrected file):
  its time, and that its peak memory stays within the same 30 MB of the first import's
  (the replaced tournament is deleted without loading its games).

Each size is imported `--repeat` times (fresh database each time; sizes interleaved) and
the median is reported.

Usage:

    python bench/importing.py [--players 2000 4000] [--series 4] [--repeat 3]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/skat_bench_import python bench/importing.py
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
MANAGE = ROOT / "manage.py"
GAMES_PER_SECOND = 20_000
# What the larger file may add to the peak memory of the smaller one.
MEMORY_GROWTH_MB = 30


def _env(database_url: str) -> dict:
    env = dict(os.environ)
    env.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    env.setdefault("DJANGO_DEBUG", "0")
    env["DATABASE_URL"] = database_url
    return env


def _manage(database_url: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(MANAGE), *args],
        env=_env(database_url),
        check=check,
        capture_output=True,
        text=True,
    )


def document_path(players: int, series: int, seed: int) -> Path:
    return OUT / f"import-{players}x{series}-seed{seed}.json"


def generate(players: int, series: int, seed: int) -> Path:
    """The document of a generated tournament (cached under bench/out/)."""
    path = document_path(players, series, seed)
    if path.exists():
        return path
    database = OUT / f"import-generate-{players}.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    url = f"sqlite:///{database}"
    print(f"  generating {players} players x {series} series (once) ...", flush=True)
    _manage(url, "migrate", "--no-input")
    script = (
        "from tournaments import demo;"
        "from tournaments.models import Club;"
        "club = Club.objects.create(name='Bench Club');"
        f"t = demo.generate_tournament(club=club, players={players}, series={series}, "
        f"seed={seed}, name='Import bench {players}');"
        "print(t.slug)"
    )
    slug = _manage(url, "shell", "-c", script).stdout.strip().splitlines()[-1]
    partial = path.with_suffix(".part")
    _manage(url, "export_tournament", slug, "--output", str(partial))
    partial.rename(path)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    return path


def _create_if_missing(url: str):
    """The PostgreSQL database of `url`, created if it does not exist yet."""
    import urllib.parse

    import psycopg

    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    with psycopg.connect(parsed._replace(path="/postgres").geturl(), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def fresh_database(base_url: str | None, label: str) -> str:
    """An empty, migrated database: a new SQLite file, or the given one emptied."""
    if base_url is None:
        database = OUT / f"import-{label}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        url = f"sqlite:///{database}"
    else:
        url = base_url
        _create_if_missing(url)
        _manage(url, "migrate", "--no-input")
        _manage(url, "flush", "--no-input")
    _manage(url, "migrate", "--no-input")
    return url


# Run in a child of its own, so that its RUSAGE_CHILDREN is the import alone (the
# peak of migrate or an earlier import does not count).
_WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - started
print(json.dumps({
    "seconds": seconds,
    "peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    "returncode": result.returncode,
    "stdout": result.stdout,
    "stderr": result.stderr,
}))
"""


def measured(url: str, *args: str) -> dict:
    """One `manage.py ARGS` in a child of its own: its seconds, peak RSS (kB), stdout;
    a failure ends the benchmark with the command's error."""
    command = [sys.executable, str(MANAGE), *args]
    wrapper = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *command],
        env=_env(url),
        check=True,
        capture_output=True,
        text=True,
    )
    result = json.loads(wrapper.stdout)
    if result["returncode"] != 0:
        raise SystemExit(f"{args[0]} failed:\n{result['stderr']}")
    return result


def import_once(url: str, path: Path) -> tuple[float, float, str]:
    """(seconds, peak RSS in MB, slug) of one `import_tournament --replace` subprocess."""
    result = measured(url, "import_tournament", str(path), "--replace")
    return result["seconds"], result["peak_kb"] / 1024, result["stdout"].strip()


def games_in(path: Path) -> int:
    with path.open(encoding="utf-8") as file:
        document = json.load(file)
    return sum(len(t.get("games", [])) for s in document["series"] for t in s["tables"])


def round_trip(url: str, slug: str, path: Path) -> bool:
    """The imported tournament exports as the document: byte for byte on SQLite; on
    PostgreSQL as the same JSON (jsonb keeps an object's keys in its own order, so the
    archive's stored objects, such as a director action's details, come back reordered)."""
    exported = _manage(url, "export_tournament", slug).stdout
    text = path.read_text(encoding="utf-8")
    if exported.rstrip("\n") == text.rstrip("\n"):
        return True
    return not url.startswith("sqlite") and json.loads(exported) == json.loads(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2000, 4000])
    parser.add_argument("--series", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    base_url = os.environ.get("DATABASE_URL") or None
    print(f"database: {'SQLite files under bench/out/' if base_url is None else base_url}")
    paths = {n: generate(n, args.series, args.seed) for n in args.players}
    games = {n: games_in(paths[n]) for n in args.players}
    times: dict[int, list[float]] = {n: [] for n in args.players}
    peaks: dict[int, list[float]] = {n: [] for n in args.players}
    replace_times: dict[int, list[float]] = {n: [] for n in args.players}
    replace_peaks: dict[int, list[float]] = {n: [] for n in args.players}
    same: dict[int, bool] = {}
    for _round in range(args.repeat):
        for n in args.players:  # interleaved: the machine's noise hits every size alike
            url = fresh_database(base_url, f"{n}")
            seconds, peak, slug = import_once(url, paths[n])
            times[n].append(seconds)
            peaks[n].append(peak)
            if n not in same:
                same[n] = round_trip(url, slug, paths[n])
            seconds, peak, _slug = import_once(url, paths[n])  # over the first: --replace
            replace_times[n].append(seconds)
            replace_peaks[n].append(peak)
    print(
        f"{'players':>8} {'games':>7} {'MB file':>8} {'median s':>9} {'games/s':>8} {'peak MB':>8}"
    )
    rates = {}
    for n in args.players:
        median = statistics.median(times[n])
        rates[n] = games[n] / median
        print(
            f"{n:>8} {games[n]:>7} {paths[n].stat().st_size / 2**20:>8.1f} {median:>9.2f} "
            f"{rates[n]:>8.0f} {statistics.median(peaks[n]):>8.1f}"
            f"   (runs: {', '.join(f'{t:.2f}' for t in times[n])} s)"
        )
    print("the same document again over it (--replace):")
    for n in args.players:
        print(
            f"{n:>8} {games[n]:>7} {'':>8} {statistics.median(replace_times[n]):>9.2f} "
            f"{games[n] / statistics.median(replace_times[n]):>8.0f} "
            f"{statistics.median(replace_peaks[n]):>8.1f}"
            f"   (runs: {', '.join(f'{t:.2f}' for t in replace_times[n])} s)"
        )
    checks = [
        (
            f"import >= {GAMES_PER_SECOND} games/s at {n} players ({rates[n]:.0f} games/s)",
            rates[n] >= GAMES_PER_SECOND,
        )
        for n in args.players
    ]
    if len(args.players) > 1:
        small, large = min(args.players), max(args.players)
        growth = statistics.median(peaks[large]) - statistics.median(peaks[small])
        checks.append(
            (
                f"peak memory does not grow with the file ({growth:+.1f} MB from {games[small]} "
                f"to {games[large]} games; limit {MEMORY_GROWTH_MB} MB)",
                growth < MEMORY_GROWTH_MB,
            )
        )
    for n in args.players:
        extra = statistics.median(replace_peaks[n]) - statistics.median(peaks[n])
        checks.append(
            (
                f"replacing the tournament of {n} players does not load it ({extra:+.1f} MB "
                f"over the first import's peak; limit {MEMORY_GROWTH_MB} MB)",
                extra < MEMORY_GROWTH_MB,
            )
        )
    checks += [
        (f"export -> import -> export gives the document at {n} players", same[n])
        for n in args.players
    ]
    for label, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {label}")
    return 0 if all(ok for _label, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
