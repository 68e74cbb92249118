"""Whole-site backup and restore with each database engine's own tools.

- SQLite: the backup API of `sqlite3` copies the live database page by page into a new
  SQLite file, a consistent snapshot even while the site writes (WAL); restore copies such
  a file back over the site's database the same way.
- PostgreSQL: `pg_dump --format=custom` (one snapshot transaction: consistent while the
  site runs) and `pg_restore --single-transaction` (all or nothing).

A backup holds everything: users and their roles, clubs, players, seasons, tournaments,
money and history. Restore goes only into an *empty* database (no tables, or tables
without a single row of site data: only what `migrate` itself writes) unless forced, and
brings the restored schema up to date with `migrate` afterwards.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
# Rows `migrate` writes itself: a database with only these is empty.
MIGRATE_ROWS = {"contenttypes.ContentType", "auth.Permission", "sessions.Session"}


def engine() -> str:
    vendor = connection.vendor
    if vendor not in ("sqlite", "postgresql"):
        raise CommandError(f"backup and restore support SQLite and PostgreSQL, not {vendor}")
    return vendor


def kind_of(path: Path) -> str:
    """'sqlite' or 'postgresql' from a backup file's first bytes, else CommandError."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise CommandError(f"{path} is not a backup of this site (neither SQLite nor pg_dump)")


def site_rows() -> dict[str, int]:
    """Rows of site data per model (those `migrate` writes itself left out); {} without
    tables."""
    tables = set(connection.introspection.table_names())
    counts = {}
    for model in apps.get_models():
        label = model._meta.label
        if label in MIGRATE_ROWS or model._meta.db_table not in tables:
            continue
        count = model._default_manager.count()
        if count:
            counts[label] = count
    return counts


def check_empty(*, force: bool):
    counts = site_rows()
    if counts and not force:
        held = ", ".join(f"{count} {label}" for label, count in sorted(counts.items()))
        raise CommandError(
            "The database is not empty (it holds "
            f"{held}). Restore replaces everything in it: restore into an empty database, "
            "or give --force to replace this one."
        )


# --------------------------------------------------------------------------------------
# SQLite
# --------------------------------------------------------------------------------------


def _sqlite_copy(source: sqlite3.Connection, target: sqlite3.Connection):
    # In one step: one read transaction, so one consistent state of the database, while
    # the site's writers go on (WAL: a reader never blocks them).
    source.backup(target)


def sqlite_backup(path: Path):
    connection.ensure_connection()
    partial = path.with_name(path.name + ".partial")
    target = sqlite3.connect(partial)
    try:
        _sqlite_copy(connection.connection, target)
    finally:
        target.close()
    os.replace(partial, path)  # never a half-written backup under the real name


def sqlite_restore(path: Path):
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = {row[0] for row in source.execute("SELECT name FROM sqlite_master")}
        if "django_migrations" not in names:
            raise CommandError(f"{path} is an SQLite file, but not a backup of this site")
        check = source.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise CommandError(f"{path} is damaged: {check}")
        connection.ensure_connection()
        _sqlite_copy(source, connection.connection)
    except sqlite3.DatabaseError as error:
        raise CommandError(f"cannot restore {path}: {error}") from None
    finally:
        source.close()
    connection.close()


# --------------------------------------------------------------------------------------
# PostgreSQL
# --------------------------------------------------------------------------------------


def _pg_tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        raise CommandError(
            f"{name} is not installed (Debian: apt-get install postgresql-client); it makes "
            "and restores PostgreSQL backups"
        )
    return tool


def _pg_arguments() -> tuple[list[str], dict[str, str]]:
    settings = connection.settings_dict
    arguments = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            arguments += [flag, str(settings[key])]
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    return [*arguments, "--dbname", settings["NAME"]], env


def _run(command: list[str], env: dict[str, str], what: str):
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        detail = result.stderr.strip() or f"exit status {result.returncode}"
        raise CommandError(f"{what} failed: {detail}")


def postgresql_backup(path: Path):
    arguments, env = _pg_arguments()
    partial = path.with_name(path.name + ".partial")
    command = [_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(partial)]
    _run([*command, *arguments], env, "pg_dump")
    os.replace(partial, path)


def postgresql_restore(path: Path):
    arguments, env = _pg_arguments()
    connection.close()  # no session of ours holds a lock on what is dropped
    _run(
        [
            _pg_tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            *arguments,
            str(path),
        ],
        env,
        "pg_restore",
    )


# --------------------------------------------------------------------------------------
# The commands' work
# --------------------------------------------------------------------------------------


def backup(path: Path) -> str:
    """Write the whole database to `path`; returns the engine's name."""
    vendor = engine()
    if path.is_dir():
        raise CommandError(f"{path} is a folder: name the backup file")
    if not path.parent.is_dir():
        raise CommandError(f"the folder {path.parent} does not exist")
    (sqlite_backup if vendor == "sqlite" else postgresql_backup)(path)
    return vendor


def restore(path: Path, *, force: bool = False) -> dict[str, int]:
    """Load a backup into this database (empty unless `force`); returns its row counts."""
    vendor = engine()
    kind = kind_of(path)
    if kind != vendor:
        raise CommandError(
            f"{path} is a {kind} backup and this site runs on {vendor}: restore it into a "
            f"{kind} database (tournaments move between the two with export_tournament and "
            "import_tournament)"
        )
    check_empty(force=force)
    # Restore from a copy: the file may sit on a slow or shared disk that changes meanwhile.
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "backup"
        shutil.copyfile(path, copy)
        (sqlite_restore if vendor == "sqlite" else postgresql_restore)(copy)
    call_command("migrate", verbosity=0, interactive=False)
    return site_rows()
