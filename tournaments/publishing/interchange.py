"""The public site's side of publishing (`skat-publish/1`): a hall's batch applied, and
the endpoint `POST /api/v1/publish` that receives it.

A *batch* brings the public copy of one tournament from the hall version `base` to
`version`: a whole `skat-tournament/1` document (imported with replace, `interchange`)
and/or the sheets of some tables (`interchange.sheets.sheets_replace`). `batch_apply`
answers as the protocol says (status, JSON object), in ONE transaction that holds the
tournament's publishing-state row locked (`select_for_update`): two app servers given the
same batch at once apply it once, the second finds the version held and answers
`applied: false`. Every use of a key is logged (the refusals in a transaction of their
own, after the batch's rolled back). The endpoint is a plain Django view, not a
django-ninja route: it imports a document, which sits above the API's floor, and it
reads the body itself to answer an oversized one with 413.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import JsonResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tournaments.interchange import InterchangeError, import_document
from tournaments.interchange.sheets import (
    SheetsMismatch,
    director_actions_replace,
    sheet_tables,
    sheets_replace,
    started_replace,
)
from tournaments.log.services import Kind, action_record
from tournaments.models import PublishingKey, PublishingState, Tournament
from tournaments.publishing.services import key_of

FORMAT = "skat-publish/1"
# The largest batch read (a document of a big tournament with its archive).
MAX_BODY = getattr(settings, "PUBLISH_MAX_BYTES", 64 * 1024 * 1024)
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,80}")
BATCH_FIELDS = {
    "format",
    "tournament",
    "hall",
    "base",
    "version",
    "document",
    "sheets",
    "director_actions",
    "started",
}


@dataclass
class Answer:
    status: int
    body: dict = field(default_factory=dict)


class Refused(Exception):
    def __init__(self, status: int, detail: str | None = None, version: int | None = None):
        super().__init__(detail)
        self.answer = Answer(status, {"detail": detail} if detail else {})
        if version is not None:
            self.answer.body["version"] = version


def _is_count(value) -> bool:
    return type(value) is int and 0 <= value < 1 << 62


def batch_read(body: bytes) -> dict:
    """The batch as an object, or Refused(400)."""
    try:
        batch = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, _("The batch is not JSON in UTF-8.")) from None
    if not isinstance(batch, dict) or batch.get("format") != FORMAT:
        raise Refused(
            400, _("The batch must be an object of format %(format)s.") % {"format": FORMAT}
        )
    unknown = sorted(set(batch) - BATCH_FIELDS)
    if unknown:
        raise Refused(400, _("Unknown field(s) %(fields)s.") % {"fields": ", ".join(unknown)})
    if not isinstance(batch.get("tournament"), str) or not SLUG.fullmatch(batch["tournament"]):
        raise Refused(400, _("tournament must be a tournament's slug."))
    hall = batch.get("hall")
    if not isinstance(hall, str) or not 1 <= len(hall) <= 64 or not hall.isprintable():
        raise Refused(400, _("hall must be the hall's id (a UUID)."))
    if not _is_count(batch.get("base")) or not _is_count(batch.get("version")):
        raise Refused(400, _("base and version must be whole numbers from 0."))
    if batch["version"] < batch["base"]:
        raise Refused(400, _("version must not be below base."))
    if "document" in batch and not isinstance(batch["document"], dict):
        raise Refused(400, _("document must be a JSON object."))
    if "sheets" in batch and not isinstance(batch["sheets"], list):
        raise Refused(400, _("sheets must be a list."))
    if "director_actions" in batch and not isinstance(batch["director_actions"], list):
        raise Refused(400, _("director_actions must be a list."))
    if "document" not in batch and "sheets" not in batch:
        raise Refused(400, _("The batch brings neither a document nor sheets."))
    return batch


def _scope_check(key: PublishingKey, batch: dict, tournament: Tournament | None):
    """Refused(403) unless the key may write what the batch brings."""
    if key.club_id is not None:
        if tournament is not None and tournament.club_id != key.club_id:
            raise Refused(403, _("This key publishes the tournaments of its own club only."))
        return
    if tournament is None or tournament.pk != key.venue.tournament_id:
        raise Refused(403, _("This key publishes its own match day only."))
    if "document" in batch or "director_actions" in batch or "started" in batch:
        raise Refused(
            403,
            _("A venue's key publishes its tables' sheets, never a document or director actions."),
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise Refused(
            403,
            _(
                "The match day is confirmed: its results are final. The league director "
                "can reopen it."
            ),
        )
    for table in sheet_tables(tournament, batch.get("sheets", [])):
        if table.venue_id != key.venue_id:
            raise Refused(
                403,
                _("Table %(table)s of series %(series)s is not kept at this venue.")
                % {"table": table.number, "series": table.series.number},
            )


def _state_locked(slug: str) -> PublishingState:
    """The slug's publishing state under a row lock, created if new (two first batches at
    once: one creates it, the other waits for its lock)."""
    state = PublishingState.objects.select_for_update().filter(slug=slug).first()
    if state is not None:
        return state
    try:
        with transaction.atomic():
            PublishingState.objects.create(slug=slug)
    except IntegrityError:
        pass
    return PublishingState.objects.select_for_update().get(slug=slug)


def handed_over_detail(state: PublishingState) -> str:
    by = state.handed_over_by.get_username() if state.handed_over_by_id else "—"
    return _("handed over on %(at)s by %(by)s; publishing has stopped") % {
        "at": date_format(timezone.localtime(state.handed_over_at), "DATETIME_FORMAT"),
        "by": by,
    }


def _apply(key: PublishingKey, batch: dict) -> Answer:
    slug, hall = batch["tournament"], batch["hall"]
    state = _state_locked(slug)
    if state.handed_over_at is not None:
        raise Refused(403, handed_over_detail(state), version=state.hall_versions.get(hall, 0))
    tournament = Tournament.objects.filter(slug=slug).first()
    _scope_check(key, batch, tournament)
    held = state.hall_versions.get(hall, 0) if tournament is not None else 0
    if batch["version"] <= held and held > 0:
        return Answer(200, {"version": held, "applied": False})
    if batch["base"] != held:
        raise Refused(409, version=held)
    try:
        with transaction.atomic():  # a refused document or sheets: nothing changes
            if "document" in batch:
                tournament = import_document(batch["document"], club=key.club, replace=True)
                if tournament.slug != slug:
                    raise InterchangeError(
                        [_("the document's tournament is '%(slug)s'") % {"slug": tournament.slug}]
                    )
                state.hall_versions = {}
            if tournament is None:
                raise SheetsMismatch("no tournament")
            if batch.get("sheets"):
                sheets_replace(tournament, batch["sheets"])
            if "director_actions" in batch:
                director_actions_replace(tournament, batch["director_actions"])
            if "started" in batch:
                started_replace(tournament, batch["started"])
    except InterchangeError as error:
        raise Refused(400, "\n".join(error.messages), version=held) from None
    except SheetsMismatch:
        # The copy's layout is not the hall's: ask for the document.
        raise Refused(409, version=0) from None
    state.tournament = tournament
    state.key = key
    state.hall = hall
    state.hall_name = key.club.name if key.club_id else key.venue.name
    state.hall_versions = {**state.hall_versions, hall: batch["version"]}
    if key.venue_id is not None and key.venue_id not in state.kept_venues:
        state.kept_venues = sorted([*state.kept_venues, key.venue_id])
    elif key.club_id is not None:
        state.kept_venues = []
    state.version = batch["version"]
    state.applied_at = timezone.now()
    state.save()
    return Answer(200, {"version": batch["version"], "applied": True})


def _log(key: PublishingKey | None, batch: dict | None, answer: Answer):
    batch = batch or {}
    details = {
        "slug": batch.get("tournament") if isinstance(batch.get("tournament"), str) else None,
        "hall": batch.get("hall") if isinstance(batch.get("hall"), str) else None,
        "base": batch.get("base") if _is_count(batch.get("base")) else None,
        "version": answer.body.get("version"),
        "status": answer.status,
        "applied": answer.body.get("applied", False),
        "document": isinstance(batch.get("document"), dict),
        "sheets": len(batch["sheets"]) if isinstance(batch.get("sheets"), list) else 0,
    }
    if key is not None:
        details["key"], details["prefix"] = key.pk, key.prefix
    if "detail" in answer.body:
        details["detail"] = answer.body["detail"][:500]
    action_record(
        tournament=None,
        club=key.club if key is not None else None,
        league=key.league if key is not None else None,
        kind=Kind.PUBLISHED if answer.status == 200 else Kind.PUBLISH_REFUSED,
        details=details,
        by_name=key.name if key is not None else "",
    )


def _held(batch: dict) -> int:
    """The hall version the copy holds for the batch's hall (0: none), as refusals say."""
    state = PublishingState.objects.filter(
        slug=batch["tournament"], tournament__isnull=False
    ).first()
    return state.hall_versions.get(batch["hall"], 0) if state is not None else 0


def batch_apply(raw_key: str | None, body: bytes) -> Answer:
    """A batch as received (the bearer key, the body) applied or refused; logged."""
    key = key_of(raw_key)
    batch = None
    try:
        if key is None or key.revoked_at is not None:
            raise Refused(403, _("No valid publishing key (unknown or revoked)."))
        batch = batch_read(body)
        with transaction.atomic():
            answer = _apply(key, batch)
            PublishingKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
            _log(key, batch, answer)
        return answer
    except Refused as refused:
        if batch is not None and "version" not in refused.answer.body:
            refused.answer.body["version"] = _held(batch)
        with transaction.atomic():
            if key is not None:
                PublishingKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
            _log(key, batch, refused.answer)
        return refused.answer
    except InterchangeError as error:  # a sheet entry that is not one (scope check)
        answer = Answer(400, {"detail": "\n".join(error.messages)})
        with transaction.atomic():
            _log(key, batch, answer)
        return answer


def _bearer(request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _sep, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


@csrf_exempt
@require_POST
def publish_endpoint(request):
    """`POST /api/v1/publish`: a hall's batch (see the module's docstring)."""
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        length = 0
    if length > MAX_BODY:
        return JsonResponse({"detail": _("The batch is too large.")}, status=413)
    body = request.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        return JsonResponse({"detail": _("The batch is too large.")}, status=413)
    encoding = request.headers.get("Content-Encoding", "identity").strip().lower()
    if encoding == "gzip":  # the hall's sender gzips its batches
        inflate = zlib.decompressobj(wbits=31)
        try:
            body = inflate.decompress(body, MAX_BODY + 1)
        except zlib.error:
            return JsonResponse({"detail": _("The batch is not valid gzip.")}, status=400)
        if len(body) > MAX_BODY or inflate.unconsumed_tail:
            return JsonResponse({"detail": _("The batch is too large.")}, status=413)
    elif encoding != "identity":
        return JsonResponse({"detail": _("The batch must be sent as is or gzipped.")}, status=415)
    answer = batch_apply(_bearer(request), body)
    response = JsonResponse(answer.body, status=answer.status)
    response["Cache-Control"] = "no-store"
    return response
