"""URL root: public pages, the secretaries' pages under /manage/, the JSON API under /api/,
the health check /health/, i18n and the admin."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from skatclub.health import health
from tournaments.accounts.views import SiteLoginView
from tournaments.api import urls as api
from tournaments.publishing.interchange import publish_endpoint

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    # For monitors and the service manager (skatclub/health.py), without a language prefix.
    path("health/", health, name="health"),
    # A hall site publishing a tournament here (tournaments.publishing), bearer key.
    path("api/v1/publish", publish_endpoint, name="publish"),
    # The read-only JSON API (tournaments.api), without a language prefix.
    *api.root,
]

urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("login/", SiteLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("manage/", include("tournaments.urls_admin")),
    # The private table links for entry on the players' phones (no account needed).
    path("entry/", include("tournaments.entry.urls")),
    path("", include("tournaments.urls_public")),
    prefix_default_language=False,
)
