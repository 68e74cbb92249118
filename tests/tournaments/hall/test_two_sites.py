"""Two sites: this test's database as the hall, and a public site as a process of its own
(gunicorn on a free loopback port, its own PostgreSQL database `publishhall_public`,
created and dropped here) with its publishing endpoint, `POST /api/v1/publish`.

Skipped where PostgreSQL does not answer at 127.0.0.1:5432.
"""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.hall.helpers import fill, grand
from tests.tournaments.hall.sites import (
    Processes,
    free_ports,
    gunicorn,
    manage,
    postgres,
    site_env,
)
from tournaments.interchange.export import export_document
from tournaments.models import Tournament
from tournaments.sheets.services import game_record

DATABASE = "publishhall_public"
PORTS = range(8780, 8790)

pytestmark = pytest.mark.django_db


@pytest.fixture
def public_site(tmp_path):
    """(address, key, env): the public site running, with a key for the hall's club."""
    try:
        postgres(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        postgres(f"CREATE DATABASE {DATABASE}")
    except Exception as error:  # noqa: BLE001 (any failure to reach it: skip)
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 does not answer: {error}")
    env = site_env(f"postgres://postgres@127.0.0.1:5432/{DATABASE}")
    processes = Processes(tmp_path)
    try:
        manage(env, "migrate", "--verbosity", "0")
        key = manage(env, "publishing_key", "create", "--club", "Skatfreunde Altenburg").stdout
        key = key.strip().splitlines()[-1]
        (port,) = free_ports(PORTS)
        yield gunicorn(processes, "public", port, env, 2), key, env
    finally:
        processes.stop_all()
        postgres(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def tables_of(document: dict) -> dict:
    return {
        (series["number"], table["number"]): table
        for series in document["series"]
        for table in series["tables"]
    }


def public_copy(env, slug) -> dict:
    return json.loads(manage(env, "export_tournament", slug).stdout)


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
