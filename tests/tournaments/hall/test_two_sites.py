"""Two sites: this test's database as the hall, and a public site as a process of its own
(gunicorn on a free loopback port, its own PostgreSQL database `publishhall_public`,
created and dropped here) with its publishing endpoint, `POST /api/v1/publish`.

Skipped where the public site's side (`tournaments.publishing`, the endpoint and its keys)
is not in the tree, or PostgreSQL does not answer at 127.0.0.1:5432.
"""

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.hall.helpers import fill, grand
from tournaments.interchange.export import export_document
from tournaments.models import Tournament
from tournaments.sheets.services import game_record

ROOT = Path(__file__).resolve().parents[3]
DATABASE = "publishhall_public"
PORTS = range(8780, 8790)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        importlib.util.find_spec("tournaments.publishing") is None,
        reason="the public site's publishing endpoint is not in this tree",
    ),
]


def _postgres(sql: str):
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(sql)


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    pytest.skip("no free port in 8780–8789")


def _manage(env, *args) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture
def public_site(tmp_path):
    """(address, key, env): the public site running, with a key for the hall's club."""
    try:
        _postgres(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        _postgres(f"CREATE DATABASE {DATABASE}")
    except Exception as error:  # noqa: BLE001 (any failure to reach it: skip)
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 does not answer: {error}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY="two-sites-test-only",
        PYTHONDONTWRITEBYTECODE="1",
    )
    server = None
    log = (tmp_path / "public.log").open("w")
    try:
        _manage(env, "migrate", "--verbosity", "0")
        key = _manage(env, "publishing_key", "create", "--club", "Skatfreunde Altenburg")
        key = key.strip().splitlines()[-1]
        port = _free_port()
        server = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("gunicorn")),
                "skatclub.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        address = f"http://127.0.0.1:{port}"
        for _ in range(120):
            try:
                urllib.request.urlopen(address + "/health/", timeout=2).read()
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "public.log").read_text()[-2000:]
                time.sleep(0.5)
        yield address, key, env
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        log.close()
        _postgres(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def tables_of(document: dict) -> dict:
    return {
        (series["number"], table["number"]): table
        for series in document["series"]
        for table in series["tables"]
    }


def public_copy(env, slug) -> dict:
    return json.loads(_manage(env, "export_tournament", slug))


def test_the_public_copy_follows_the_hall(tournament, seated_series, public_site):
    address, key, env = public_site
    first, second = seated_series(8).tables.order_by("number")
    fill(first, 3)
    call_command("publish", tournament.slug, "--to", address, "--key", key, "--once")
    game_record(table=second, data=grand(1))
    fill(first, 2, start=4)
    call_command("publish", tournament.slug, "--to", address, "--once")
    hall = export_document(Tournament.objects.get(pk=tournament.pk))
    copy = public_copy(env, tournament.slug)
    assert tables_of(copy) == tables_of(hall)
    assert copy["players"] == hall["players"]
    # A wrong key: refused with the site's message, nothing changes there.
    game_record(table=second, data=grand(2))
    with pytest.raises(CommandError, match="403"):
        call_command("publish", tournament.slug, "--to", address, "--key", "wrong", "--once")
    assert tables_of(public_copy(env, tournament.slug)) == tables_of(copy)
