"""skatclub/settings.py read from the environment: strict, with clear messages.

Each case starts a fresh interpreter, since settings are read once per process.
"""

import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings

READ_SETTINGS = (
    "import django.conf; s = django.conf.settings; print(s.DATABASES['default']['ENGINE'])"
)


def fresh_python(code: str, *, without: set[str], **env):
    """`python -c code` in a fresh interpreter from the project's folder, with this
    process's environment less the variables `without`, plus `env`."""
    environment = {key: value for key, value in os.environ.items() if key not in without}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def read_settings(**env):
    return fresh_python(
        READ_SETTINGS,
        without={"DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG"},
        **env,
        DJANGO_SETTINGS_MODULE="skatclub.settings",
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


def production_environment() -> dict:
    """The variables of .env.example, as a club's server sets them."""
    lines = (settings.BASE_DIR / ".env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_check_deploy_is_clean_with_the_documented_production_variables(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "CACHE_URL", "REDIS_URL"))
    }
    env.update(
        production_environment(),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        # The example's placeholder is refused (below): a key of the server's own.
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


# The key of .env.example, and any other placeholder starting "change-me".
@pytest.mark.parametrize("key", ["from .env.example", "change-me", "change-me-please-0123456789"])
def test_debug_off_with_the_placeholder_key_stops_with_how_to_make_one(tmp_path, key):
    if key == "from .env.example":
        key = production_environment()["DJANGO_SECRET_KEY"]
    done = read_settings(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=key,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured: DJANGO_SECRET_KEY")
    assert "placeholder of .env.example" in last
    assert "secrets.token_urlsafe(50)" in last


def test_check_deploy_fails_with_the_placeholder_key(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "CACHE_URL", "REDIS_URL"))
    }
    env.update(production_environment(), DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "placeholder of .env.example" in done.stderr


def test_debug_on_keeps_working_with_the_placeholder_key(tmp_path):
    # A developer who copied .env.example and turned DEBUG on is not stopped.
    done = read_settings(
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY=production_environment()["DJANGO_SECRET_KEY"],
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    assert (done.returncode, done.stdout.strip()) == (0, "django.db.backends.sqlite3")


READ_CACHE = "import django.conf; print(django.conf.settings.CACHES['default']['BACKEND'])"


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("redis://127.0.0.1:6379/0", "skatclub.cache.ForgivingRedisCache"),
        ("memcached://127.0.0.1:11211", "django.core.cache.backends.memcached.PyMemcacheCache"),
        ("locmem://", "django.core.cache.backends.locmem.LocMemCache"),
        ("", "django.core.cache.backends.locmem.LocMemCache"),
    ],
)
def test_the_cache_comes_from_cache_url(url, backend):
    env = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "REDIS_URL"}}
    env.update(CACHE_URL=url, DJANGO_DEBUG="1", DJANGO_SETTINGS_MODULE="skatclub.settings")
    done = subprocess.run(
        [sys.executable, "-c", READ_CACHE],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip() == backend, done.stderr


def test_an_unknown_cache_url_stops_with_a_clear_message():
    done = read_settings(DJANGO_DEBUG="1", CACHE_URL="mongo://somewhere")
    assert done.returncode == 1
    assert "CACHE_URL must be redis://HOST:6379/0" in done.stderr


def test_management_commands_start_without_the_api_libraries(tmp_path):
    """`manage.py standings` and the other read commands skip the URL checks, so they need
    neither django-ninja nor pydantic: those two took a third of the start-up (issue 10:
    a command starts in < 0.5 s; bench/load.py times it)."""
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment.update(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "manage.py", "standings", "--help"],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "usage: manage.py standings" in done.stdout and "tournaments.leagues.models" in imported
    assert "ninja" not in imported and "pydantic" not in imported
