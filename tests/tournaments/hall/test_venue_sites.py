"""A league match day at two venues with real sites: the league site (gunicorn on
PostgreSQL, its own database `venues_league`, created and dropped here) and two venue halls
(`manage.py` processes on SQLite files of their own). Each hall imports the league's match
day, keys its venue's tables, and `publish --venue --once` sends only those; the league
site's season table then equals the one the same rows keyed there directly give, and a
hall keying another venue's table is refused, changing nothing.

Skipped where PostgreSQL does not answer at 127.0.0.1:5432 or no loopback port is free.
"""

import json
import shutil

import pytest

from tests.tournaments.hall.sites import (
    Processes,
    free_ports,
    gunicorn,
    manage,
    postgres,
    site_env,
)

DATABASE = "venues_league"
PORTS = range(8820, 8830)
SETUP = "from tests.tournaments.hall import venue_sites as v; "
SEASON_TABLE = (
    "import json; from tournaments.leagues.selectors import season_tables; "
    "from tournaments.leagues.services import match_day_confirm; "
    "from tournaments.models import Season, Tournament; "
    "match_day_confirm(tournament=Tournament.objects.get(slug='liga-1')); "
    "print(json.dumps([[r.team, r.match_points_won, r.match_points_lost, r.list_points] "
    "for r in season_tables(Season.objects.get(slug='liga-2026-27')).teams], default=str))"
)


def _tables(env) -> dict:
    document = json.loads(manage(env, "export_tournament", "liga-1").stdout)
    return {t["number"]: t for series in document["series"] for t in series["tables"]}


def _season_table_keyed_directly(env) -> list:
    """The season table with the rows keyed on the league site itself (then rolled back)."""
    code = (
        "from django.db import transaction\n"
        "from tournaments.models import Table\n"
        "from tests.tournaments.hall import venue_sites as v\n"
        "class Undo(Exception): pass\n"
        "try:\n"
        "    with transaction.atomic():\n"
        "        v.hall_keys(sorted(Table.objects.filter(series__tournament__slug='liga-1')"
        ".values_list('number', flat=True)))\n"
        f"        {SEASON_TABLE.replace('; ', chr(10) + '        ')}\n"
        "        raise Undo\n"
        "except Undo:\n"
        "    pass\n"
    )
    return json.loads(manage(env, "shell", "-c", code).stdout.strip().splitlines()[-1])


@pytest.fixture
def league_site(tmp_path):
    """(address, env, setup): the league site running, with the drawn match day."""
    try:
        postgres(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        postgres(f"CREATE DATABASE {DATABASE}")
    except Exception as error:  # noqa: BLE001 (any failure to reach it: skip)
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 does not answer: {error}")
    env = site_env(f"postgres://postgres@127.0.0.1:5432/{DATABASE}")
    processes = Processes(tmp_path)
    try:
        manage(env, "migrate", "--verbosity", "0")
        out = tmp_path / "league.json"
        manage(env, "shell", "-c", SETUP + f"v.league_site({str(out)!r})")
        (port,) = free_ports(PORTS)
        yield gunicorn(processes, "league", port, env, 2), env, json.loads(out.read_text())
    finally:
        processes.stop_all()
        postgres(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def test_two_venue_halls_publish_their_own_tables(league_site, tmp_path):
    address, league, setup = league_site
    assert setup["tables"] == {"Altenburg": [1, 2], "Zeitz": [3, 4]}
    expected = _season_table_keyed_directly(league)
    assert len({(won, lost) for _team, won, lost, _list in expected}) > 1
    before = _tables(league)
    document = tmp_path / "match-day.json"
    document.write_text(json.dumps(setup["document"]))

    halls = {name: site_env(f"sqlite:///{tmp_path / name}.sqlite3") for name in setup["tables"]}
    first, *others = halls
    manage(halls[first], "migrate", "--verbosity", "0")
    for name in others:
        shutil.copyfile(tmp_path / f"{first}.sqlite3", tmp_path / f"{name}.sqlite3")
    for name, env in halls.items():
        manage(env, "import_tournament", str(document), "--club", f"Skat {name}")
        manage(env, "shell", "-c", SETUP + f"v.hall_keys({setup['tables'][name]})")
        done = manage(
            env, "publish", "liga-1", "--to", address, "--key", setup["keys"][name],
            "--venue", name, "--once",
        )  # fmt: skip
        assert "holds version" in done.stdout

    after = _tables(league)
    for name, env in halls.items():
        at_hall = _tables(env)
        for number in setup["tables"][name]:
            assert after[number]["games"] == at_hall[number]["games"] != []
            assert after[number] != before[number]

    # The Altenburg hall keys a Zeitz table: refused, the league site's table unchanged.
    manage(halls["Altenburg"], "shell", "-c", SETUP + "v.hall_keys([3], close=False)")
    refused = manage(
        halls["Altenburg"], "publish", "liga-1", "--to", address, "--once", check=False
    )
    assert refused.returncode != 0
    assert "not kept at this venue" in refused.stderr + refused.stdout
    assert _tables(league)[3] == after[3]

    # The director confirms after the evening; the season table is the directly keyed one.
    table = json.loads(manage(league, "shell", "-c", SEASON_TABLE).stdout.strip().splitlines()[-1])
    assert table == expected
