"""Settings of the Skat club site: one file, read from the environment.

Variables (see `.env.example`):
- DATABASE_URL: e.g. postgres://postgres@127.0.0.1:5432/skatclub; default a SQLite file
  `db.sqlite3` next to manage.py. A URL dj-database-url cannot read stops the start with
  ImproperlyConfigured naming the problem (never the password).
- DJANGO_SECRET_KEY: required when DJANGO_DEBUG is off; with DEBUG on a fixed, public
  development key is used when it is not set. With DEBUG off the placeholder of
  `.env.example` (any key starting "change-me") stops the start with ImproperlyConfigured.
- DJANGO_DEBUG: "1"/"true"/"yes" or "0"/"false"/"no" (default off).
- DJANGO_ALLOWED_HOSTS: comma-separated host names (default localhost names).
- CACHE_URL (or REDIS_URL): the cache shared by the server's workers and machines for
  rendered public pages: redis://127.0.0.1:6379/0, memcached://127.0.0.1:11211, locmem://
  (default: each worker process keeps its own; pages are keyed on versions read from the
  database, so even per-process caches are never stale), dummy:// (none). Any error of
  Redis is a cache miss and a logged warning, never a failed page (skatclub/cache.py).
- DJANGO_PAGE_CACHE: share rendered public pages through that cache (default on).
- DJANGO_LOG_LEVEL: DEBUG, INFO (default), WARNING, ERROR or CRITICAL: the least level
  written to standard error; request errors (with their traceback) are always written.
- SENTRY_DSN: report errors to Sentry (or a compatible service) at this DSN; unset: off.
  SENTRY_ENVIRONMENT (default "production") and SENTRY_TRACES_SAMPLE_RATE (0 to 1, the
  share of requests traced for performance; default 0) go with it.
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
- DJANGO_TRUST_X_FORWARDED_FOR: "1" takes a client's address from the last entry of
  X-Forwarded-For, the one the proxy wrote (default: as DJANGO_SECURE_PROXY_SSL_HEADER);
  off, the address is the connection's own, so that a client reaching the server directly
  cannot choose the address its failed sign-ins count against.
Sign-in throttling (django-axes; the site's login and the admin's alike):
- DJANGO_LOGIN_FAILURE_LIMIT: failed sign-ins for one user name, or from one address,
  after which sign-in is refused, the right password included (default 10).
- DJANGO_LOGIN_COOLOFF_MINUTES: how long failures count, and how long a lock-out lasts
  after the last refused attempt (default 15).
People (tournaments.accounts, README "First start"):
- DJANGO_INVITE_DAYS: days an invitation link stays valid (default 7).
- DJANGO_PASSWORD_LINK_HOURS: hours a link to set a new password stays valid (default 72).
- DJANGO_EMAIL_HOST: the SMTP server that mails invitation and password links (default
  none: nothing is mailed, the links are shown to copy and the sign-in page offers no
  "forgot password"); DJANGO_EMAIL_PORT (default 587), DJANGO_EMAIL_HOST_USER,
  DJANGO_EMAIL_HOST_PASSWORD, DJANGO_EMAIL_USE_TLS (STARTTLS, default on),
  DJANGO_EMAIL_USE_SSL (default off), DJANGO_DEFAULT_FROM_EMAIL (the sender, default
  webmaster@localhost).
"""

import importlib.util
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
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
# The placeholder of .env.example is public: a server that copied it as it is would sign
# its sessions and password-reset links with a key everyone knows.
EXAMPLE_SECRET_KEY = "change-me-to-a-long-random-string-of-at-least-fifty-characters-0123456789"
if not DEBUG and (SECRET_KEY.startswith("change-me") or SECRET_KEY == EXAMPLE_SECRET_KEY):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is still the placeholder of .env.example; make a key of the "
        "site's own with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    # Failed sign-ins and lock-outs (AXES_* below).
    "axes",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY below); its checks.
    "csp",
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
    # After whitenoise: pages get the policy, static files do not need it.
    "csp.middleware.CSPMiddleware",
    # Before the others: it answers the API's CORS preflights itself.
    "tournaments.api.cors.ApiCorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a locked-out sign-in into the site's own 429 page.
    "axes.middleware.AxesMiddleware",
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
            # `bdi` and `isolate` for user text on every page, without a {% load %} each.
            "builtins": ["tournaments.templatetags.text"],
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

# Axes' backend first: it refuses a locked-out sign-in before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

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


# Seconds: Redis on the same machine or network answers in well under a millisecond.
CACHE_SOCKET_TIMEOUT = 0.25


def cache_from_url(url: str) -> dict:
    """The default cache for CACHE_URL, or ImproperlyConfigured naming the problem."""
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme in ("redis", "rediss"):
        # An error of Redis is a cache miss and a logged warning (skatclub/cache.py); a
        # server that does not answer costs a request these few tenths of a second at most.
        return {
            "BACKEND": "skatclub.cache.ForgivingRedisCache",
            "LOCATION": url,
            "OPTIONS": {
                "socket_connect_timeout": CACHE_SOCKET_TIMEOUT,
                "socket_timeout": CACHE_SOCKET_TIMEOUT,
            },
        }
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
# A probe on the server itself asks over plain HTTP (skatclub/health.py).
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Logging: everything to standard error, where gunicorn's and systemd's journal collect it
# (README "When something goes wrong"). Request errors (django.request: a 500 of a page or
# of the JSON API, whose unhandled errors django-ninja passes on to Django with DEBUG off)
# with their traceback; 4xx answers are in gunicorn's access log, not here. The site's own
# loggers (skatclub.*, tournaments.*) and the libraries' from DJANGO_LOG_LEVEL up: INFO by
# default, which is quiet (a line when the shared cache fails or recovers, a worker's
# start) yet leaves room for what the site reports at INFO.
LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "INFO").strip().upper() or "INFO"
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}"
    )
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own handlers (the console with DEBUG, mail to ADMINS) are replaced.
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        "django.request": {"level": "ERROR"},
        # axes: its warning for each failed sign-in, not its start-up banner in every command.
        "axes.apps": {"level": "WARNING"},
        # The development server's request lines (make run), as Django writes them.
        "django.server": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}

# Error reports to Sentry (or a compatible service) when SENTRY_DSN is set; without it
# sentry-sdk is not even imported. No personal data (addresses, users, cookies) is sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    raw_rate = os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "").strip() or "0"
    try:
        SENTRY_TRACES_SAMPLE_RATE = float(raw_rate)
    except ValueError:
        SENTRY_TRACES_SAMPLE_RATE = -1.0
    if not 0 <= SENTRY_TRACES_SAMPLE_RATE <= 1:
        raise ImproperlyConfigured(
            f"SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1, not {raw_rate!r}"
        )
    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration()],
        send_default_pii=False,
        environment=os.environ.get("SENTRY_ENVIRONMENT") or "production",
        # None, not 0: no tracing at all unless asked for.
        traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE or None,
    )

# People (tournaments.accounts): invitation links and the links to set a new password.
INVITE_DAYS = env_int("DJANGO_INVITE_DAYS", 7)
PASSWORD_RESET_TIMEOUT = env_int("DJANGO_PASSWORD_LINK_HOURS", 72) * 3600
# E-mail only when a server is named: without one nothing is sent (never the console).
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "").strip()
EMAIL_ENABLED = bool(EMAIL_HOST)
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_ENABLED
    else "django.core.mail.backends.dummy.EmailBackend"
)
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", not EMAIL_USE_SSL)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "webmaster@localhost")
EMAIL_TIMEOUT = 20

# Content-Security-Policy (django-csp) on every page, the admin's and the API's interactive
# page included: scripts and styles only from the site's own files (static/; no inline
# <script>, no style="" attribute, no on...="" handler), images from the site or data: URLs,
# no plugins, no framing by other sites, forms only to the site itself. Not configurable:
# nothing the site serves needs more.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# The client's address for sign-in throttling (skatclub.signin.client_address).
TRUST_X_FORWARDED_FOR = env_bool(
    "DJANGO_TRUST_X_FORWARDED_FOR", env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", False)
)

# Sign-in throttling (django-axes): failures count per user name and per address apart, so
# that neither guessing one account's password from many addresses nor many accounts'
# passwords from one address gets past the limit. A refused attempt counts too and starts
# the cool-off again; a successful sign-in clears the failures of its user name and address.
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 10)
LOGIN_COOLOFF_MINUTES = env_int("DJANGO_LOGIN_COOLOFF_MINUTES", 15)
if AXES_FAILURE_LIMIT < 1 or LOGIN_COOLOFF_MINUTES < 1:
    raise ImproperlyConfigured(
        "DJANGO_LOGIN_FAILURE_LIMIT and DJANGO_LOGIN_COOLOFF_MINUTES must be at least 1."
    )
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
# No table of every successful sign-in with its address: only failures are kept, and only
# while they count (a club keeps no addresses it does not need).
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "skatclub.signin.client_address"
AXES_LOCKOUT_CALLABLE = "skatclub.signin.locked_out"
