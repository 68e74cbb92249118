"""The API's addresses: `/api/` (the documentation page), `/api/schemas/<name>.json` (the
documents' JSON Schemas, `document_schemas`), `/api/v1/...` (django-ninja, with
its OpenAPI document at `/api/v1/openapi.json` and an interactive page at `/api/v1/docs`),
and `standings.json` next to a tournament's HTML page (`public`, under the site's
language prefixes like every public page)."""

import json

from django.shortcuts import render
from django.urls import path
from django.views.generic import TemplateView
from ninja import NinjaAPI
from ninja.openapi.docs import Swagger

from tournaments.api import ratings
from tournaments.api.document_schemas import document_schema_view
from tournaments.api.views import router, standings_json_view
from tournaments.paths import T


class BundledSwagger(Swagger):
    """Swagger UI from the files bundled with django-ninja (served by the site, no CDN).

    django-ninja renders those only when "ninja" is an installed app; it is not one here
    (`settings.NINJA_DIR`), so this renders the bundled template itself. The API reads
    without signing in: no CSRF token is needed on the page."""

    def render_page(self, request, api, **kwargs):
        self.settings["url"] = self.get_openapi_url(api, kwargs)
        context = {
            "swagger_settings": json.dumps(self.settings, indent=1),
            "api": api,
            "add_csrf": False,
        }
        return render(request, self.template, context)


api = NinjaAPI(
    title="Skat scores",
    version="1",
    description=(
        "Read-only results of the published tournaments: tournaments, series, sheets, "
        "standings, teams, league seasons and players, rating lists and players' ratings, "
        "and a live feed for scoreboards. "
        "Every answer has an ETag and Last-Modified and answers conditional GETs with "
        "304; any site may read it (CORS)."
    ),
    urls_namespace="api-v1",
    docs=BundledSwagger(),
)
api.add_router("/", router)
api.add_router("/", ratings.router)

# Outside the language prefixes: one address per answer.
root = [
    path("api/", TemplateView.as_view(template_name="api/index.html"), name="api_docs"),
    path("api/v1/", api.urls),
    # The documents' JSON Schemas (skat-tournament-1, skat-season-1, skat-publish-1).
    path("api/schemas/<str:name>.json", document_schema_view, name="document_schema"),
]
public = [path(T + "standings.json", standings_json_view, name="tournament_standings_json")]
