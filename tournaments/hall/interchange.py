"""The hall's batches of protocol `skat-publish/1` and the sender that delivers them.

A *batch* brings the public copy of a tournament from the hall version it holds (`base`,
as last acknowledged) to a newer one (`version`): a whole `skat-tournament/1` document with
its archive when the copy holds nothing (base 0) or the hall's `layout` changed since (or
is not known for the acknowledged version), otherwise the score sheets of the tables
written since, each whole (applied twice, it gives the same).

Why sheets suffice while the layout stays: every write other than to score sheets alone
draws a new layout (`versions.version_bump`), so between two versions of one layout only
sheets changed, and each changed table carries the version of its latest write
(`Table.sheet_version`). The version and layout are read before the content: content read
after them may be newer than the batch's `version` says, never older, and whatever is
newer is sent again by the next batch.

A *venue* publication (a league match day played at several venues, this hall keeping
one of them; `Publication.venue`) never sends a document: the public site's key is the
venue's, which may write the sheets of its venue's tables only. The hall got the match day
by importing the league site's document (`import_tournament`), which leaves every table's
`sheet_version` at 0, so the tables written since are the ones keyed here: at base 0 the
batch holds every table written at this hall (tables never played here are not sent: the
league site has them as drawn), then the tables written since the acknowledged version.
A change beyond the sheets at the hall (a registration, a new draw) is not sent: the league
site's director makes those.

The sender (`publish_step`, `publish_until_current`, `publish_loop`) keeps no state in
memory that matters: every batch is built from the acknowledged version in the database,
so a lost connection, a lost answer or a restart neither loses nor doubles anything.
"""

from __future__ import annotations

import gzip
import json
import random
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.hall.services import (
    hall_id,
    publication_acked,
    publication_failed,
    publication_sent,
    still_running,
)
from tournaments.interchange.archive_export import archive_tables, director_actions_export
from tournaments.interchange.export import export_document, player_ids, table_objects
from tournaments.models import Publication, Table, Tournament

FORMAT = "skat-publish/1"
# Tables' sheets in one batch at most (a sheet of 48 games is about 4 kB).
SHEETS_PER_BATCH = 200
# Seconds to wait for the public site's answer (a document batch of a large tournament
# takes the public site a while to import).
TIMEOUT = 120
USER_AGENT = "skat-hall-publisher/1"
# The continuous sender's longest wait between tries while the site does not answer: a
# site back after an outage of any length has the hall's changes within 5 s (issue 28).
RETRY_CAP = 3.0


@dataclass(frozen=True)
class Batch:
    """A batch to send and what the copy holds once it is applied (`version`, `layout`)."""

    body: dict
    version: int
    layout: str

    @property
    def is_document(self) -> bool:
        return "document" in self.body

    def encoded(self) -> bytes:
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode()


def _sheets(tournament: Tournament, table_ids: list[int]) -> list[dict]:
    """The tables' sheets: each table's object of the document's `series[].tables[]`
    with its whole entry of the document's archive (closed, paper totals, provisional
    games, phones' ids, second copy, the games' and penalties' history), so that the copy
    holds what the hall's export holds for these tables."""
    objects = table_objects(tournament, player_ids(tournament), table_ids=table_ids)
    entries = archive_tables(tournament, table_ids)
    series = dict(tournament.series.values_list("pk", "number"))
    sheets = []
    for pk in table_ids:
        series_id, sheet = objects[pk]
        sheet.update({k: v for k, v in entries[pk].items() if k != "number"})
        sheets.append({"series": series[series_id], "table": sheet["number"], "sheet": sheet})
    return sheets


def batch_build(
    tournament: Tournament,
    *,
    base: int,
    layout: str,
    limit: int = SHEETS_PER_BATCH,
    actions: bool = True,
    venue: bool = False,
) -> Batch | None:
    """The next batch for a copy that holds hall version `base`, which had layout `layout`
    ("" when not known); None when the copy holds the hall's current version.

    Sheets go in `sheet_version` order, `limit` tables a batch at most (more when one write
    stamped more tables than that with one version): the batch's `version` is then the
    version just below the first table left out, so that every table the copy lacks up to
    that version is in it.

    A sheets batch carries the tournament's director actions (`director_actions`, the
    archive's entries, all of them: the copy replaces its own with them) and its status
    and started series (`started`) unless `actions` is false (a venue's key may not send
    them).
    """
    version, current_layout = Tournament.objects.values_list("version", "layout").get(
        pk=tournament.pk
    )
    head = {"format": FORMAT, "tournament": tournament.slug, "hall": hall_id(), "base": base}
    if not venue and (base == 0 or layout != current_layout):
        document = export_document(tournament, archive=True)
        return Batch({**head, "version": version, "document": document}, version, current_layout)
    if base >= version:
        return None
    changed = list(
        Table.objects.filter(series__tournament=tournament, sheet_version__gt=base)
        .order_by("sheet_version", "pk")
        .values_list("pk", "sheet_version")[: limit + 1]
    )
    if len(changed) > limit:
        last = changed[limit - 1][1]
        if changed[limit][1] == last:  # one write's tables stay in one batch
            changed = list(
                Table.objects.filter(series__tournament=tournament, sheet_version__gt=base)
                .filter(sheet_version__lte=last)
                .order_by("sheet_version", "pk")
                .values_list("pk", "sheet_version")
            )
            following = (
                Table.objects.filter(series__tournament=tournament, sheet_version__gt=last)
                .order_by("sheet_version")
                .values_list("sheet_version", flat=True)
                .first()
            )
        else:
            following = changed[limit][1]
            changed = changed[:limit]
        if following is not None:
            version = min(version, following - 1)
    if venue and not changed:
        return None
    sheets = _sheets(tournament, [pk for pk, _sheet_version in changed])
    body = {**head, "version": version, "sheets": sheets}
    if actions and not venue:  # a venue's key may not send them
        # A game entered starts its series and the tournament (no change of layout).
        body["started"] = {
            "status": Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk),
            "series": list(
                tournament.series.filter(started=True)
                .order_by("number")
                .values_list("number", flat=True)
            ),
        }
        # All of them, replaced whole at the copy (a director's evening writes tens of
        # lines, about 250 bytes each; games entered are not among them).
        body["director_actions"] = director_actions_export(tournament, {})
    return Batch(body, version, current_layout)


# The sender ---------------------------------------------------------------------------


class Refused(Exception):
    """The public site refused (or cannot take) the hall's batches: publishing stops."""


class Unreachable(Exception):
    """No answer from the public site (connection refused or dropped, a timeout, a
    server error): the batch is sent again later."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A POST redirected would arrive as a GET without its batch: the answer is shown.
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(
    _NoRedirect(), urllib.request.HTTPSHandler(context=ssl.create_default_context())
)


def post(url: str, key: str, data: bytes, *, timeout: float = TIMEOUT) -> tuple[int, dict]:
    """POST one batch, gzipped (a sheet's history repeats itself: 23 kB → 1 kB);
    (status, answer). Raises `Unreachable` when no answer came."""
    request = urllib.request.Request(
        url,
        data=gzip.compress(data),
        method="POST",
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        },
    )
    try:
        with _opener.open(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise Unreachable(
            _("No connection to %(url)s: %(reason)s") % {"url": url, "reason": reason}
        ) from error
    try:
        answer = json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, ValueError):
        answer = {}
    return status, answer if isinstance(answer, dict) else {}


def _version(answer: dict) -> int | None:
    value = answer.get("version")
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _layout_at(publication: Publication, version: int, tournament: Tournament) -> str:
    """The hall's layout at `version`, when this side can tell ("" otherwise)."""
    if publication.sent_version == version and publication.sent_layout:
        return publication.sent_layout
    current = Tournament.objects.values_list("version", "layout").get(pk=tournament.pk)
    # Layouts are drawn afresh, never return: the acknowledged one still current means it
    # held at every version since.
    if (
        publication.acked_layout == current[1]
        and publication.acked_version <= version <= current[0]
    ):
        return current[1]
    return ""


def publish_step(publication: Publication, *, send: Callable[..., tuple[int, dict]] = post) -> str:
    """Send the next batch; "current" (nothing to send), "sent" (the copy moved) or
    "resend" (the copy holds another version: the next batch starts from it). Raises
    `Unreachable` (try again later) or `Refused` (stop), with the error stored."""
    tournament = publication.tournament
    batch = batch_build(
        tournament,
        base=publication.acked_version,
        layout=publication.acked_layout,
        venue=bool(publication.venue),
    )
    if batch is None:
        return "current"
    # The last batch may have arrived with its answer lost: its layout is kept until the
    # copy answers, and this one's only replaces it if that one's is not needed.
    if publication.sent_version is None or publication.sent_version <= publication.acked_version:
        publication_sent(publication, version=batch.version, layout=batch.layout)
    try:
        status, answer = send(publication.url, publication.key, batch.encoded())
    except Unreachable as error:
        publication_failed(publication, message=str(error))
        raise
    version = _version(answer)
    hall_version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    if status in (200, 409) and version is not None and version > hall_version:
        _refuse(
            publication,
            _(
                "The public copy holds version %(copy)s, newer than this hall's %(hall)s: "
                "was this database restored from a backup? Publishing has stopped."
            )
            % {"copy": version, "hall": hall_version},
        )
    if status == 200 and version is not None:
        layout = (
            batch.layout
            if version == batch.version
            else _layout_at(publication, version, tournament)
        )
        publication_acked(publication, version=version, layout=layout)
        return "sent"
    if status == 409 and version == 0 and publication.venue and batch.body["base"] == 0:
        # A venue sends no document: sheets the copy cannot place at base 0 would be
        # refused the same way again.
        _refuse(
            publication,
            _(
                "The league site's match day does not match this hall's (series or tables "
                "differ): import the match day from the league site again."
            ),
        )
    if status == 409 and version is not None:
        layout = "" if version == 0 else _layout_at(publication, version, tournament)
        publication_acked(publication, version=version, layout=layout)
        return "resend"
    if status >= 500 or status == 429:
        message = _("The public site answered %(status)s; trying again.") % {"status": status}
        publication_failed(publication, message=message)
        raise Unreachable(message)
    detail = answer.get("detail")
    if not isinstance(detail, str) or not detail:
        detail = _("the site answered %(status)s") % {"status": status}
    _refuse(
        publication,
        _("The public site refused the batch (%(status)s): %(detail)s")
        % {
            "status": status,
            "detail": detail,
        },
    )
    raise AssertionError("unreachable")  # _refuse raises


def _refuse(publication: Publication, message: str):
    publication_failed(publication, message=message, stop=True)
    raise Refused(message)


def backoff(failures: int, *, base: float = 1.0, cap: float = 60.0) -> float:
    """Seconds to wait after `failures` connection errors in a row (doubling, jittered)."""
    return min(cap, base * 2 ** max(0, failures - 1)) * random.uniform(0.8, 1.2)


def publish_until_current(
    publication: Publication,
    *,
    attempts: int = 4,
    base: float = 1.0,
    send: Callable[..., tuple[int, dict]] = post,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """Send until the copy holds the hall's current version; returns that version.
    Raises `Refused`, or `Unreachable` after `attempts` connection errors in a row."""
    failures = 0
    while True:
        try:
            if publish_step(publication, send=send) == "current":
                return publication.acked_version
            failures = 0
        except Unreachable:
            failures += 1
            if failures >= attempts:
                raise
            (sleep or time.sleep)(backoff(failures, base=base))


def publish_loop(
    publication: Publication,
    *,
    interval: float = 2.0,
    send: Callable[..., tuple[int, dict]] = post,
    sleep: Callable[[float], None] | None = None,
) -> None:
    """Keep the copy current until publishing is stopped (`running` cleared) or refused
    (`Refused` raised). Connection errors wait longer each time, up to `RETRY_CAP`."""
    sleep = sleep or time.sleep
    failures = 0
    while still_running(publication):
        try:
            if publish_step(publication, send=send) == "current":
                sleep(interval)
            failures = 0
        except Unreachable:
            failures += 1
            sleep(backoff(failures, cap=RETRY_CAP))
