"""skatclub/settings.py read from the environment: strict, with clear messages.

Each case starts a fresh interpreter, since settings are read once per process.
"""

import os
import subprocess
import sys

import pytest
from django.conf import settings

READ_SETTINGS = (
    "import django.conf; s = django.conf.settings; print(s.DATABASES['default']['ENGINE'])"
)


def read_settings(**env):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG"}
    }
    environment.update(env, DJANGO_SETTINGS_MODULE="skatclub.settings")
    return subprocess.run(
        [sys.executable, "-c", READ_SETTINGS],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_debug_off_without_a_secret_key_stops():
    # The undocumented SKATCLUB_INSECURE_KEY_OK that let the public key run with DEBUG off
    # is gone: nothing used it.
    done = read_settings(DJANGO_DEBUG="0", SKATCLUB_INSECURE_KEY_OK="1")
    assert done.returncode == 1
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in done.stderr


def test_debug_off_with_a_secret_key_starts(tmp_path):
    done = read_settings(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="a-test-key",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    assert (done.returncode, done.stdout.strip()) == (0, "django.db.backends.sqlite3")


# (DATABASE_URL, the reason in the message)
@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("mysqlx://skat:s3cret@db.example/skat", "the scheme 'mysqlx' is unknown"),
        ("db.sqlite3", "it has no scheme"),
        ("postgres://skat:s3cret@db.example:port/skat", "not a valid url"),
    ],
)
def test_a_bad_database_url_is_named_clearly(url, reason):
    done = read_settings(DJANGO_DEBUG="1", DATABASE_URL=url)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "django.core.exceptions.ImproperlyConfigured: DATABASE_URL is not a database URL"
    )
    assert reason in last
    assert "UnknownSchemeError" not in done.stderr
    assert "s3cret" not in done.stderr  # the password is never shown
