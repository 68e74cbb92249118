"""`GET /health/` (skatclub/health.py): 200 when the site can serve, 503 with the reason.

Each case breaks one thing through a public interface: the database unreachable (a fresh
interpreter whose DATABASE_URL names a folder that does not exist), a migration not
applied (its row removed from the migration table inside the test's transaction), the
shared cache at a closed port.
"""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client

from skatclub import health
from skatclub.settings import cache_from_url

CLOSED_PORT = 8626


@pytest.fixture(autouse=True)
def migrations_not_yet_checked(monkeypatch):
    """Each test checks the migrations afresh (a process remembers that they passed)."""
    monkeypatch.setattr(health, "_migrations_applied", False)


@pytest.mark.django_db
def test_a_site_that_can_serve_answers_ok():
    response = Client().get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-store" in response["Cache-Control"]
    assert not response.has_header("ETag")
    assert not response.cookies  # no session, no CSRF cookie


@pytest.mark.django_db
def test_a_missing_migration_answers_503_naming_it():
    latest = MigrationRecorder(connection).migration_qs.filter(app="tournaments").latest("id")
    latest.delete()
    response = Client().get("/health/")
    assert response.status_code == 503
    assert response.json() == {
        "status": "down",
        "database": "not migrated",
        "cache": "ok",
        "reason": "1 unapplied migration: tournaments (1)",
    }


@pytest.mark.django_db
def test_the_migrations_are_checked_until_they_have_passed_once():
    assert Client().get("/health/").status_code == 200
    MigrationRecorder(connection).migration_qs.filter(app="tournaments").latest("id").delete()
    # New migrations come with new code, hence a new process: this one does not look again.
    assert Client().get("/health/").status_code == 200


@pytest.mark.django_db
def test_a_failing_cache_is_degraded_not_down(settings):
    settings.CACHES = {"default": cache_from_url(f"redis://127.0.0.1:{CLOSED_PORT}/0")}
    response = Client().get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "degraded"}


@pytest.mark.django_db
def test_a_probe_over_plain_http_is_not_redirected(settings):
    settings.SECURE_SSL_REDIRECT = True
    assert Client().get("/health/").status_code == 200
    assert Client().get("/").status_code == 301  # the rest of the site is HTTPS only


@pytest.mark.django_db
def test_only_get_and_head_are_answered():
    assert Client().head("/health/").status_code == 200
    assert Client().post("/health/").status_code == 405


PROBE = """
import django
django.setup()
from django.test import Client
response = Client().get("/health/")
print(response.status_code, response.content.decode())
"""


def test_an_unreachable_database_answers_503(tmp_path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CACHE_URL", "REDIS_URL"}
    }
    environment.update(
        DJANGO_DEBUG="1",
        DJANGO_SETTINGS_MODULE="skatclub.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'no-such-folder' / 'db.sqlite3'}",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    status, _, body = done.stdout.strip().partition(" ")
    assert status == "503", done.stderr
    assert json.loads(body) == {
        "status": "down",
        "database": "unreachable",
        "cache": "ok",
        "reason": "database unreachable",
    }
    assert "Health check: the database does not answer" in done.stderr  # the details: logged
