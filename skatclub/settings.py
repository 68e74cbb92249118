"""Settings of the Skat club site: one file, read from the environment.

Variables (see `.env.example`):
- DATABASE_URL: e.g. postgres://postgres@127.0.0.1:5432/skatclub; default a SQLite file
  `db.sqlite3` next to manage.py. A URL dj-database-url cannot read stops the start with
  ImproperlyConfigured naming the problem (never the password).
- DJANGO_SECRET_KEY: required when DJANGO_DEBUG is off; with DEBUG on a fixed, public
  development key is used when it is not set.
- DJANGO_DEBUG: "1"/"true"/"yes" or "0"/"false"/"no" (default off).
- DJANGO_ALLOWED_HOSTS: comma-separated host names (default localhost names).
- CACHE_URL (or REDIS_URL): the cache shared by the server's workers and machines for
  rendered public pages: redis://127.0.0.1:6379/0, memcached://127.0.0.1:11211, locmem://
  (default: each worker process keeps its own; pages are keyed on versions read from the
  database, so even per-process caches are never stale), dummy:// (none).
- DJANGO_PAGE_CACHE: share rendered public pages through that cache (default on).
- DJANGO_SHED_AFTER_MS: a request that has waited longer than this many milliseconds for
  the server (overload) is answered 503 with Retry-After at once, before Django sees it
  (skatclub/middleware.py, around the site in skatclub/wsgi.py); default 500, half the
  second after which a phone's user or a page's script gives up; 0 turns it off.
- DJANGO_SHED_TRUST_REQUEST_START: "1" measures that wait from the reverse proxy's
  X-Request-Start header (nginx: proxy_set_header X-Request-Start "t=${msec}";), only
  when the proxy sets it and nobody can reach the server directly (default off: the wait
  is measured on the connection).
Behind a reverse proxy that terminates HTTPS (README "Running a club's server"):
- DJANGO_SECURE_PROXY_SSL_HEADER: "1" trusts X-Forwarded-Proto: https from the proxy
  (only when the proxy sets it and nobody can reach the server directly).
- DJANGO_SECURE: "1" for HTTPS only: redirect to HTTPS, secure session and CSRF cookies,
  HSTS for DJANGO_HSTS_SECONDS (default 31536000 with DJANGO_SECURE, else 0),
  DJANGO_HSTS_INCLUDE_SUBDOMAINS, DJANGO_HSTS_PRELOAD (default off).
- DJANGO_CSRF_TRUSTED_ORIGINS: e.g. https://skat.example.org (comma-separated).
"""

import importlib.util
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false, yes/no), not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
            "(set DJANGO_DEBUG=1 for a local development server)."
        )
    # Only for development and tests; never used with DEBUG off in production.
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "tournaments",
    # Last: the end of start-up (skatclub/apps.py).
    "skatclub.apps.StartedConfig",
]

# A request that waited too long or whose client has gone is answered before Django and
# its middleware see it (skatclub/wsgi.py, skatclub/middleware.py).
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files with hashed names and compressed copies, before anything else runs.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the others: it answers the API's CORS preflights itself.
    "tournaments.api.cors.ApiCorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "skatclub.urls"

# The JSON API's interactive page uses django-ninja's bundled Swagger UI (its templates and
# static files, from where the package is installed). Found without importing it: ninja is
# not an installed app, so that management commands start without loading it and pydantic
# (`tournaments.api.urls.BundledSwagger` renders the bundled page).
NINJA_DIR = Path(importlib.util.find_spec("ninja").origin).parent

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", NINJA_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "skatclub.wsgi.application"


def database_from_url(url: str) -> dict:
    """The database settings for DATABASE_URL, or ImproperlyConfigured with a clear message."""
    try:
        return dj_database_url.parse(url, conn_max_age=60)
    except ValueError as error:  # dj_database_url.UnknownSchemeError is a ValueError
        # Name the scheme only: the rest of the URL may hold a password.
        scheme = url.partition("://")[0] if "://" in url else ""
        if isinstance(error, dj_database_url.UnknownSchemeError):
            reason = f"the scheme {scheme!r} is unknown" if scheme else "it has no scheme"
        else:
            reason = str(error).rstrip(".")
        raise ImproperlyConfigured(
            f"DATABASE_URL is not a database URL the site can use: {reason}. Use e.g. "
            "postgres://USER:PASSWORD@HOST:5432/NAME or sqlite:////absolute/path/db.sqlite3."
        ) from None


DATABASES = {
    "default": database_from_url(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent readers during a busy evening; writes are short transactions.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA journal_mode=WAL;"
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static", NINJA_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Production: `collectstatic` (make serve) writes hashed, compressed copies that
    # whitenoise serves with far-future caching; development serves the sources.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}


def cache_from_url(url: str) -> dict:
    """The default cache for CACHE_URL, or ImproperlyConfigured naming the problem."""
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme in ("redis", "rediss"):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if scheme in ("memcached", "pymemcache"):
        location = url.partition("://")[2].rstrip("/")
        return {
            "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
            "LOCATION": location,
        }
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise ImproperlyConfigured(
        "CACHE_URL must be redis://HOST:6379/0, memcached://HOST:11211, locmem:// or dummy://"
        f" (the scheme {scheme!r} is unknown)."
    )


CACHES = {
    "default": cache_from_url(
        os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or "locmem://"
    )
}
PAGE_CACHE = env_bool("DJANGO_PAGE_CACHE", True)

# Overload (skatclub/middleware.py): milliseconds a request may have waited before it is
# answered 503 at once (0: never), and whether the proxy's X-Request-Start says it.
SHED_AFTER_MS = env_int("DJANGO_SHED_AFTER_MS", 500)
if SHED_AFTER_MS < 0:
    raise ImproperlyConfigured(
        f"DJANGO_SHED_AFTER_MS must be 0 (off) or more milliseconds, not {SHED_AFTER_MS}"
    )
SHED_TRUST_REQUEST_START = env_bool("DJANGO_SHED_TRUST_REQUEST_START", False)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_HTTPONLY = False
    X_FRAME_OPTIONS = "DENY"

# The JSON API's lists (tournaments.api): ?limit= and ?offset=, at most 500 a page.
NINJA_PAGINATION_PER_PAGE = 50
NINJA_PAGINATION_MAX_LIMIT = 500
# HTTPS behind a reverse proxy (README): from the environment, so that
# `manage.py check --deploy` is clean with the documented production variables.
if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE = env_bool("DJANGO_SECURE", False)
SECURE_SSL_REDIRECT = SECURE
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
