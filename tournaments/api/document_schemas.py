"""The documents' JSON Schemas as an open standard: the files and their one view.

The JSON Schema (2020-12) files of `skat-tournament/1`, `skat-season/1` and the publishing
batch `skat-publish/1` live in `static/schemas/` (kept in the repository, written by hand
from `../shared/rules/interchange.md` and the publishing protocol). Each names itself by
its `$id` (`urn:skat-scores:schema:<name>`), and the season document and the batch refer
to the tournament schema by that `$id`, so a validator loads the three together.
`api.validation` validates documents against them; `document_schema_view` serves
them at `/api/schemas/<name>.json` for other software.

Caching: a file changes only with a new release, so the answer carries an ETag (a hash of
the bytes, read once per process) and may be kept for a day.
"""

from __future__ import annotations

import functools
import hashlib

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import etag, require_safe

SCHEMA_DIR = settings.BASE_DIR / "static" / "schemas"
# The schemas' names, as the served address and the file name have them.
NAMES = ("skat-tournament-1", "skat-season-1", "skat-publish-1")
ID_PREFIX = "urn:skat-scores:schema:"
MAX_AGE = 24 * 60 * 60


@functools.cache
def schema_bytes(name: str) -> bytes:
    """The schema file `name` (one of NAMES) as it is stored."""
    if name not in NAMES:
        raise KeyError(name)
    return (SCHEMA_DIR / f"{name}.schema.json").read_bytes()


def _etag(request, name: str) -> str | None:
    if name not in NAMES:
        return None
    return hashlib.sha256(schema_bytes(name)).hexdigest()[:32]


@require_safe
@etag(_etag)
def document_schema_view(request, name: str):
    """A document schema, as a JSON Schema file (404 for any other name)."""
    if name not in NAMES:
        raise Http404
    response = HttpResponse(schema_bytes(name), content_type="application/schema+json")
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response
