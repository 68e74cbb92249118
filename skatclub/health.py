"""`GET /health/`: whether the site can serve, for a monitor or a service manager's probe.

200 `{"status": "ok", ...}` when the database answers and every migration is applied; 503
`{"status": "down", "reason": ...}` otherwise. The shared cache only holds copies of what
the database can give again (skatclub/cache.py), so a cache that fails makes the answer
`"cache": "degraded"`, still 200. The body names what failed, never a host or a password;
the full error goes to the log.

Outside the language prefixes and the HTTPS redirect (settings.SECURE_REDIRECT_EXEMPT), so
`curl -H 'Host: skat.example.org' http://127.0.0.1:8000/health/` on the server itself
works. Cheap: one `SELECT 1`, a cache write and read, and the migration check only until it
has passed once in the process (new migrations come only with new code, and new code comes
with a new process). No session, no CSRF, no ETag, never cached.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

logger = logging.getLogger("skatclub.health")

# Set once every migration was found applied in this process (see the module's docstring).
_migrations_applied = False


def unapplied_migrations() -> list[tuple[str, str]]:
    """(app, name) of each migration of the code not applied to the database, in order.

    MigrationExecutor is what `manage.py migrate --check` and runserver's warning use; it
    is not in Django's documentation, so tests/test_health.py holds it to a migration left
    unapplied and fails if it changes."""
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [(migration.app_label, migration.name) for migration, backwards in plan]


def _database() -> str | None:
    """None when the database answers with every migration applied, else the reason."""
    global _migrations_applied
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        logger.error("Health check: the database does not answer: %r", error)
        return "database unreachable"
    if _migrations_applied:
        return None
    try:
        missing = unapplied_migrations()
    except Exception as error:
        logger.error("Health check: the migrations could not be read: %r", error)
        return "migrations could not be checked"
    if missing:
        apps: dict[str, int] = {}
        for app, _name in missing:
            apps[app] = apps.get(app, 0) + 1
        listed = ", ".join(f"{app} ({count})" for app, count in apps.items())
        return f"{len(missing)} unapplied migration{'s' if len(missing) > 1 else ''}: {listed}"
    _migrations_applied = True
    return None


def _cache() -> str:
    """The cache's status: "degraded" when it fails (pages are then computed afresh)."""
    check = getattr(cache, "check", None)  # skatclub.cache.ForgivingRedisCache asks Redis
    try:
        if check is not None:
            check()
        else:
            cache.set("health:probe", 1, 10)
            cache.get("health:probe")
    except Exception as error:
        logger.warning("Health check: the shared cache fails: %r", error)
        return "degraded"
    return "ok"


@csrf_exempt
@require_safe
def health(request):
    reason = _database()
    if reason is None:
        database = "ok"
    elif reason.startswith("database"):
        database = "unreachable"
    else:
        database = "not migrated"
    body = {"status": "down" if reason else "ok", "database": database, "cache": _cache()}
    if reason:
        body["reason"] = reason
    response = JsonResponse(body, status=503 if reason else 200)
    add_never_cache_headers(response)
    return response
