"""What the tests with real sites share (a public site on PostgreSQL, halls on SQLite):
the PostgreSQL server's own database, free loopback ports, a site's environment, its
`manage.py` commands, and gunicorn processes ended however a test ends."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def postgres(sql: str):
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(sql)


def free_ports(ports: range, n: int = 1) -> list[int]:
    free = []
    for port in ports:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                free.append(port)
        if len(free) == n:
            return free
    pytest.skip(f"fewer than {n} free ports in {ports.start}–{ports.stop - 1}")


def site_env(database_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY="real-sites-test-only",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def manage(env, *args, check=True) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check:
        assert done.returncode == 0, done.stderr[-2000:]
    return done


def migrate(*envs):
    """Both databases migrated at once (the test's longest wait otherwise)."""
    running = [
        subprocess.Popen(
            [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for env in envs
    ]
    for process in running:
        _out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err[-2000:]


class Processes:
    """The test's processes, each ended (its whole session) however the test ends."""

    def __init__(self, logs: Path):
        self.logs = logs
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list[str], env: dict) -> subprocess.Popen:
        log = (self.logs / f"{name}.log").open("a")
        self.running[name] = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        return self.running[name]

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text()[-3000:]

    def stop(self, name: str):
        process = self.running.pop(name, None)
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop_all(self):
        for name in list(self.running):
            self.stop(name)


def gunicorn(processes: Processes, name: str, port: int, env: dict, workers: int):
    import requests

    processes.start(
        name,
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "skatclub.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
        ],
        env,
    )
    address = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if requests.get(address + "/health/", timeout=2).ok:
                return address
        except requests.RequestException:
            pass
        assert processes.running[name].poll() is None, processes.log(name)
        time.sleep(0.1)
    raise AssertionError(f"{name} did not answer: {processes.log(name)}")
