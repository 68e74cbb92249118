"""Shedding benchmark: capacity and goodput of `make serve` under 1,000 clients, with the
overload shed (DJANGO_SHED_AFTER_MS, skatclub/middleware.py) and without.

On PostgreSQL (DATABASE_URL, default a database of its own, created if missing), two
production servers run side by side, each started as bench/load.py starts it (`make serve`:
gunicorn, WEB_CONCURRENCY workers of THREADS threads, DJANGO_DEBUG=0), one with shedding
on (DJANGO_SHED_AFTER_MS, default 500) and one with it off (0). Both serve the standings of
a finished 250-player tournament (a big club evening) with the page cache off
(DJANGO_PAGE_CACHE=0): every request renders the page, as each does when phones ask for
pages the cache does not hold (signed-in pages, a new version of the standings after each
game, many tournaments at once). That is the overload of the issue: a page the server can
render about a hundred times a second, asked for by a thousand phones.

Each round measures, for both servers in turn (the order alternates from one round to the
next, so that the machine's mood hits both):

1. capacity: a closed loop of --capacity-clients patient clients (64: enough to keep every
   thread of both workers busy, though each kept connection stays with the worker that
   accepted it; with 16, one worker was often half idle and the closed loop found less
   than the 1,000 clients were served): pages answered 200 per second; the ratios below
   take the capacity of the server without shedding (the one with shedding may shed in
   this phase too on a loaded machine, which would flatter them);
2. patient: 1,000 clients without a timeout, each asking again as soon as it has its
   answer: pages answered per second, the latency of the answered pages (median, p95,
   max), and how many were told 503;
3. impatient: 1,000 clients that give up after 1 s (the connection closed, as a phone's
   browser does when its user leaves or reloads) and ask again at once; a client told 503
   waits the answer's Retry-After before asking again (a browser shows the page "try again
   in a moment" and its user reloads: some reload at once, most wait a moment; the page's
   script waits its own interval). Goodput: pages answered 200 within the client's second,
   per second; its ratio to the capacity is the figure of the issue (target >= 0.90 with
   shedding on).

The clients run in a process of their own (asyncio; each client keeps its HTTP/1.1
connection as a browser does, and opens a new one after giving up or when the server closed
it), and it reports its own CPU time: the load generator must not eat
the server's two cores. Printed: the figures of each round, then medians over the rounds
and the ratios.

Usage:

    python bench/shedding.py            # 3 rounds, 10 s capacity, 15 s patient and
                                        # impatient phases (about 5 minutes)
    python bench/shedding.py --short    # 1 round, 5 s phases (a smoke run)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/skatclub_shed_bench"
HOST = "127.0.0.1"


# -- the clients (a process of their own, without Django) --------------------------------


async def read_answer(reader) -> tuple[int, float]:
    """(status, Retry-After seconds) of one answer on a kept connection, its body read."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length, chunked, retry = None, False, 0.0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
        elif name == b"retry-after":
            retry = float(value)
    if length is not None:
        await reader.readexactly(length)
    elif chunked:
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    return status, retry


class Client:
    """A phone: one kept connection (a browser's), a new one when it was closed."""

    def __init__(self, port: int, request: bytes):
        self.port, self.request = port, request
        self.reader = self.writer = None

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def ask(self) -> tuple[int, float]:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            try:
                self.writer.write(self.request)
                return await read_answer(self.reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                # The server closed the kept connection (its keep-alive timeout): once more
                # on a new one, as a browser does.
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


async def client_loop(spec: dict, start: float, results: list, errors: dict):
    loop = asyncio.get_running_loop()
    request = f"GET {spec['path']} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
    client = Client(spec["port"], request)
    measure_from = start + spec["warmup"]
    end = measure_from + spec["seconds"]
    timeout = spec["timeout"]
    try:
        while (now := loop.time()) < end:
            try:
                if timeout:
                    status, retry = await asyncio.wait_for(client.ask(), timeout)
                else:
                    status, retry = await client.ask()
            except TimeoutError:
                # Gave up: the connection closed, and asked again at once (its user reloads).
                client.close()
                status, retry = -1, 0.0
            except (OSError, asyncio.IncompleteReadError) as error:
                client.close()
                errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
                await asyncio.sleep(0.1)
                continue
            done = loop.time()
            if measure_from <= done <= end:
                results.append((status, done - now))
            if status == 503 and spec["honour_retry_after"]:
                await asyncio.sleep(retry)
    finally:
        client.close()


async def run_clients(spec: dict) -> dict:
    loop = asyncio.get_running_loop()
    start = loop.time()
    results: list[tuple[int, float]] = []
    errors: dict[str, int] = {}
    tasks = []
    for n in range(spec["clients"]):
        # Spread the first connections over the first half second (no SYN flood at once).
        tasks.append(asyncio.create_task(client_loop(spec, start, results, errors)))
        if n % 50 == 49:
            await asyncio.sleep(0.5 * 50 / spec["clients"])
    # The measured window ends for everyone at once: a request still waiting is abandoned
    # (its connection closed), not waited for.
    await asyncio.sleep(max(0.0, start + spec["warmup"] + spec["seconds"] - loop.time()))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"results": results, "errors": errors}


def client_main(spec: dict) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.perf_counter()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    outcome = asyncio.run(run_clients(spec))
    after = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter() - started
    cpu = (after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime)
    outcome["cpu_share"] = cpu / wall  # of one core
    json.dump(outcome, sys.stdout)


def server_cpu(group: int) -> dict[int, float]:
    """CPU seconds used so far by each process of a server's process group (make, the
    gunicorn master, its workers), by process id."""
    used = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == group:  # pgrp
            used[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf(
                "SC_CLK_TCK"
            )  # utime, stime
    return used


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two readings; a worker replaced meanwhile counts with what
    its successor used (what the old one used after the first reading is lost)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def phase(
    port: int, path: str, *, clients: int, seconds: float, timeout: float, group: int
) -> dict:
    """Runs the clients in their own process; the figures of the measured window."""
    spec = {
        "port": port,
        "path": path,
        "clients": clients,
        "seconds": seconds,
        "warmup": 2.0,
        "timeout": timeout,
        "honour_retry_after": True,
    }
    cpu_before, wall_before = server_cpu(group), time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--client", json.dumps(spec)],
        capture_output=True,
        text=True,
        check=True,
    )
    server_share = cpu_between(cpu_before, server_cpu(group)) / (time.perf_counter() - wall_before)
    outcome = json.loads(done.stdout)
    results = outcome["results"]
    ok = sorted(latency for status, latency in results if status == 200)
    in_time = [latency for latency in ok if not timeout or latency <= timeout]

    def pct(p):
        return ok[min(len(ok) - 1, int(len(ok) * p / 100))] * 1000 if ok else float("nan")

    return {
        "ok_per_s": len(ok) / seconds,
        "goodput": len(in_time) / seconds,
        "busy_per_s": sum(1 for status, _ in results if status == 503) / seconds,
        "gave_up_per_s": sum(1 for status, _ in results if status == -1) / seconds,
        "other": sum(1 for status, _ in results if status not in (200, 503, -1)),
        "p50": pct(50),
        "p95": pct(95),
        "max": ok[-1] * 1000 if ok else float("nan"),
        "client_cpu": outcome["cpu_share"],
        "server_cpu": server_share,
        "errors": outcome["errors"],
    }


# -- the servers -------------------------------------------------------------------------


def prepare(args) -> str:
    from bench import load

    load.setup_django(args.database_url)
    t = load.tournament(args.players, series=4, running=False)
    return f"/t/{t.slug}/"


def start(args, port: int, shed_after_ms: int):
    from bench import load

    os.environ["DJANGO_PAGE_CACHE"] = "0"
    os.environ["DJANGO_SHED_AFTER_MS"] = str(shed_after_ms)
    os.environ["THREADS"] = str(args.threads)
    server_args = argparse.Namespace(
        database_url=args.database_url, workers=args.workers, port=port, cache_url=""
    )
    return load.start_server(server_args)


def settle(port: int, path: str):
    """Until the server answers the page at once again (the previous phase's queue gone)."""
    from bench import load

    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if load.get(port, path, timeout=5)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", help=argparse.SUPPRESS)
    parser.add_argument("--short", action="store_true", help="1 round, 5 s phases")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DB)
    parser.add_argument("--ports", type=int, nargs=2, default=[8650, 8651])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--players", type=int, default=250)
    parser.add_argument("--shed-after-ms", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument(
        "--capacity-clients",
        type=int,
        default=64,
        help="closed loop; enough for both workers: a kept connection stays with one worker",
    )
    parser.add_argument("--capacity-seconds", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=15, help="patient, impatient phases")
    parser.add_argument("--patience", type=float, default=1.0, help="impatient clients, s")
    args = parser.parse_args(argv)
    if args.client:
        client_main(json.loads(args.client))
        return 0
    if args.short:
        args.rounds, args.capacity_seconds, args.seconds = 1, 5, 5
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the servers inherit it
    (ROOT / "bench" / "out").mkdir(exist_ok=True)
    path = prepare(args)
    modes = {"on": args.shed_after_ms, "off": 0}
    servers = {}
    ports = dict(zip(modes, args.ports, strict=True))
    print(
        f"{path}: {args.players} players, page cache off; {args.workers} workers x "
        f"{args.threads} threads; shedding on: DJANGO_SHED_AFTER_MS={args.shed_after_ms}",
        flush=True,
    )
    from bench import load

    figures: dict[str, list[dict]] = {mode: [] for mode in modes}
    try:
        for mode, ms in modes.items():
            servers[mode] = start(args, ports[mode], ms)
            # Each worker loads and renders the page once before the measurement.
            for _ in range(4 * args.workers):
                load.get(ports[mode], path, timeout=30)
        for number in range(args.rounds):
            order = list(modes) if number % 2 == 0 else list(reversed(modes))
            for mode in order:
                port = ports[mode]
                row = {}
                for name, clients, seconds, timeout in (
                    ("capacity", args.capacity_clients, args.capacity_seconds, 0),
                    ("patient", args.clients, args.seconds, 0),
                    ("impatient", args.clients, args.seconds, args.patience),
                ):
                    settle(port, path)
                    row[name] = phase(
                        port,
                        path,
                        clients=clients,
                        seconds=seconds,
                        timeout=timeout,
                        group=servers[mode].pid,
                    )
                figures[mode].append(row)
                print_row(f"round {number + 1}, shedding {mode}", row, flush=True)
    finally:
        for server in servers.values():
            load.stop_server(server)
    print("\nmedians over the rounds:")
    summary = {}
    for mode in modes:
        rows = figures[mode]
        median = {
            name: {
                key: statistics.median(row[name][key] for row in rows)
                for key in rows[0][name]
                if key != "errors"
            }
            for name in rows[0]
        }
        summary[mode] = median
        print_row(f"shedding {mode}", median)
    on, off = summary["on"], summary["off"]
    # The capacity is the server's without shedding (the closed loop of the server with
    # shedding on may itself shed on a loaded machine, which would flatter the ratio).
    capacity = off["capacity"]["ok_per_s"]
    ratio = on["impatient"]["goodput"] / capacity
    ratio_off = off["impatient"]["goodput"] / capacity
    print(
        f"\ncapacity {capacity:.0f}/s (shedding on: {on['capacity']['ok_per_s']:.0f}/s);"
        f" goodput/capacity with {args.patience:g} s clients: shedding on {ratio:.2f},"
        f" off {ratio_off:.2f}; patient clients served/capacity: shedding on"
        f" {on['patient']['ok_per_s'] / capacity:.2f},"
        f" off {off['patient']['ok_per_s'] / capacity:.2f}"
    )
    met = ratio >= 0.90
    print(f"{'PASS' if met else 'MISS'}  goodput >= 0.90 x capacity with shedding on")
    return 0 if met else 1


def print_row(title: str, row: dict, flush: bool = False):
    cap, pat, imp = row["capacity"], row["patient"], row["impatient"]
    print(
        f"  {title}: capacity {cap['ok_per_s']:.0f}/s (p50 {cap['p50']:.0f} ms)"
        f" | patient {pat['ok_per_s']:.0f}/s, p50 {pat['p50']:.0f} ms, p95 {pat['p95']:.0f},"
        f" max {pat['max']:.0f}, 503 {pat['busy_per_s']:.0f}/s"
        f" | impatient goodput {imp['goodput']:.0f}/s, 503 {imp['busy_per_s']:.0f}/s,"
        f" gave up {imp['gave_up_per_s']:.0f}/s"
        f" | CPU (cores) of the clients {cap['client_cpu']:.2f}/{pat['client_cpu']:.2f}/"
        f"{imp['client_cpu']:.2f}, of the server {cap['server_cpu']:.2f}/"
        f"{pat['server_cpu']:.2f}/{imp['server_cpu']:.2f}"
        + (
            f" | errors {pat.get('errors') or ''}{imp.get('errors') or ''}"
            if "errors" in imp
            else ""
        ),
        flush=flush,
    )


if __name__ == "__main__":
    sys.exit(main())
