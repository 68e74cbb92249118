"""Whole-site backup and restore (`manage.py backup` / `restore`) on the suite's engine:
SQLite here, PostgreSQL in the suite's PostgreSQL run. A backup restored into a fresh
database gives every tournament's export byte for byte and the same rows in every table;
a database that holds data is refused unless forced."""

import datetime
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tests.tournaments.helpers import complete_tournament
from tournaments.models import Tournament
from tournaments.registry.services import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)  # the tools read committed data

ROOT = Path(settings.BASE_DIR)
COUNTS = (
    "import json; from django.apps import apps; "
    "print(json.dumps({m._meta.label: m._default_manager.count() for m in apps.get_models()}))"
)


def manage(database_url: str, *arguments: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_DEBUG": "1"}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *arguments],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def exported(slug: str) -> str:
    out = StringIO()
    call_command("export_tournament", slug, stdout=out)
    return out.getvalue()


def restored_counts(database_url: str) -> dict[str, int]:
    # The shell's own notes go before the JSON line: the last line is ours.
    answer = manage(database_url, "shell", "-v0", "-c", COUNTS)
    return json.loads(answer.stdout.strip().splitlines()[-1])


def row_counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.fixture
def fresh_database(tmp_path):
    """The URL of a new, empty database on the suite's engine (dropped afterwards)."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    params = connection.settings_dict
    name = f"{params['NAME']}_restore"  # test_<the suite's database>_restore: our own
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    port = f":{params['PORT']}" if params.get("PORT") else ""
    yield f"postgres://{params['USER']}{password}@{params['HOST']}{port}/{name}"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def site(tournament, roster, secretary, club):
    """Two tournaments: one with everything the archive keeps, one plain draft."""
    complete_tournament(tournament, roster, secretary)
    tournament_create(club=club, name="Weihnachtsskat", date=datetime.date(2026, 12, 19))
    return list(Tournament.objects.order_by("slug").values_list("slug", flat=True))


def test_backup_then_restore_into_a_fresh_database_gives_the_same_site(
    site, fresh_database, tmp_path
):
    backup = tmp_path / "site.backup"
    out = StringIO()
    call_command("backup", str(backup), stdout=out)
    assert f"{connection.vendor} backup written to" in out.getvalue()
    assert not (tmp_path / "site.backup.partial").exists()

    restored = manage(fresh_database, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert "2 tournaments" in restored.stdout

    for slug in site:
        again = manage(fresh_database, "export_tournament", slug)
        assert again.returncode == 0, again.stderr
        assert again.stdout == exported(slug), slug
    assert restored_counts(fresh_database) == row_counts()
    # The users and their roles came along: the secretary still runs the club.
    roles = manage(
        fresh_database,
        "shell",
        "-v0",
        "-c",
        "from tournaments.models import Club; "
        "print(list(Club.objects.values_list('name', 'secretaries__username')))",
    )
    assert "('Skatfreunde Altenburg', 'secretary')" in roles.stdout


def test_restore_refuses_a_database_that_holds_data_unless_forced(site, fresh_database, tmp_path):
    backup = tmp_path / "site.backup"
    call_command("backup", str(backup))
    before = row_counts()
    with pytest.raises(CommandError, match="not empty.*--force"):
        call_command("restore", str(backup))
    assert row_counts() == before

    assert manage(fresh_database, "restore", str(backup)).returncode == 0
    again = manage(fresh_database, "restore", str(backup))
    assert again.returncode == 1 and "--force" in again.stderr
    forced = manage(fresh_database, "restore", str(backup), "--force")
    assert forced.returncode == 0, forced.stderr
    assert restored_counts(fresh_database) == row_counts()


def test_a_database_with_only_what_migrate_writes_counts_as_empty(site, fresh_database, tmp_path):
    backup = tmp_path / "site.backup"
    call_command("backup", str(backup))
    assert manage(fresh_database, "migrate", "-v0").returncode == 0
    restored = manage(fresh_database, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    slug = site[0]
    assert manage(fresh_database, "export_tournament", slug).stdout == exported(slug)


def test_restore_refuses_a_file_that_is_no_backup(db, tmp_path):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database", encoding="utf-8")
    with pytest.raises(CommandError, match="not a backup of this site"):
        call_command("restore", str(bogus))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("restore", str(tmp_path / "missing.backup"))
    with pytest.raises(CommandError, match="does not exist"):
        call_command("backup", str(tmp_path / "no-such-folder" / "x.backup"))
