"""Writes of the hall's publishing state (`hall.models`): the publishing address and key,
the copy's acknowledged version as the public site answers it, errors, and starting and
stopping the sender.

How the site runs the sender: the manage page starts `manage.py publish SLUG --to URL` as
a process of its own (a new session, detached from the request and from the serving
process) and keeps its pid in the publication's row. A thread in the serving process would
die with every reload of `make run`'s development server and run once per gunicorn worker;
a process outlives both, and `publish` refuses to run twice for one publication. Stopping
clears `running` (the sender reads it before each batch and ends) and signals the pid.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.hall.selectors import process_alive
from tournaments.log.services import Kind, action_record, check_once
from tournaments.models import HallSite, Publication, Tournament

# The sender processes this process started, kept so that they are reaped when they end
# (`selectors.process_alive` waits for them) rather than dropped while they run.
_senders: dict[int, subprocess.Popen] = {}

# The publishing endpoint's path, added to a site's address given without it.
ENDPOINT = "/api/v1/publish"


def hall_id() -> str:
    """This site's hall id (made once, then kept: a backup and restore keeps it too)."""
    site = HallSite.objects.filter(pk=1).first()
    if site is None:
        with transaction.atomic():
            site, _created = HallSite.objects.get_or_create(pk=1)
    return str(site.hall)


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def publishing_url(raw: str) -> str:
    """The publishing endpoint's address from what was typed (a site's address or the
    endpoint's own): https, or plain http to this machine only (the key and the results
    travel in the request)."""
    url = (raw or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(
            _("Give the public site's address, such as https://skat.example.org."), field="url"
        )
    if parts.scheme == "http" and not _loopback(parts.hostname):
        raise UserError(
            _(
                "Plain http is refused for %(host)s: the key would travel readable. Use "
                "https (http only to this machine: localhost, 127.0.0.1, ::1)."
            )
            % {"host": parts.hostname},
            field="url",
        )
    path = parts.path.rstrip("/")
    if not path.endswith(ENDPOINT):
        path += ENDPOINT
    return parts._replace(path=path, query="", fragment="").geturl()


def publication_set(
    *,
    tournament: Tournament,
    url: str,
    key: str,
    user=None,
    once: str | None = None,
    venue: str | None = None,
) -> Publication:
    """Publish `tournament` to the site at `url` with `key` (a new key replaces the one
    kept). The copy's acknowledged version stays: a new key to the same site resumes.
    `venue`: the name of the match day's venue this hall keeps (its key is that venue's:
    sheets only, see `hall.interchange`); None keeps what was set, "" publishes the whole
    tournament."""
    url = publishing_url(url)
    key = (key or "").strip()
    if not key or any(c.isspace() or not c.isprintable() for c in key) or len(key) > 200:
        raise UserError(_("Paste the publishing key the public site gave you."), field="key")
    if venue is not None:
        venue = venue.strip()
        if len(venue) > 100 or not venue.isprintable():
            raise UserError(_("Give the venue's name as the league site shows it."), field="venue")
    with transaction.atomic():
        check_once(once)
        publication, created = Publication.objects.select_for_update().get_or_create(
            tournament=tournament, url=url, defaults={"key": key, "venue": venue or ""}
        )
        if not created and venue is not None and venue != publication.venue:
            # Another venue's publication starts over: its copy's version is another's.
            publication.venue = venue
            publication.acked_version, publication.acked_layout = 0, ""
            publication.sent_version, publication.sent_layout = None, ""
            publication.save(
                update_fields=[
                    "venue",
                    "acked_version",
                    "acked_layout",
                    "sent_version",
                    "sent_layout",
                ]
            )
        if not created:
            if publication.key == key:
                return publication  # the same key again (the command run each time)
            publication.key = key
            publication.stopped = False
            publication.last_error = ""
            publication.save(update_fields=["key", "stopped", "last_error"])
        action_record(
            tournament=tournament,
            kind=Kind.PUBLISHING_STARTED,
            user=user,
            details={
                "url": url,
                "key": "new" if created else "replaced",
                "venue": publication.venue,
            },
            key=once,
        )
    return publication


def publication_sent(publication: Publication, *, version: int, layout: str) -> None:
    """A batch up to `version` (hall layout `layout`) is about to be sent."""
    publication.sent_version, publication.sent_layout = version, layout
    publication.last_attempt = timezone.now()
    Publication.objects.filter(pk=publication.pk).update(
        sent_version=version, sent_layout=layout, last_attempt=publication.last_attempt
    )


def publication_acked(publication: Publication, *, version: int, layout: str) -> None:
    """The public site answered that the copy holds hall version `version` ("" layout:
    not known here; the next batch is then a whole document)."""
    fields = {
        "acked_version": version,
        "acked_layout": layout,
        "sent_version": None,
        "sent_layout": "",
        "last_success": timezone.now(),
        "last_error": "",
        "failures": 0,
    }
    for name, value in fields.items():
        setattr(publication, name, value)
    Publication.objects.filter(pk=publication.pk).update(**fields)


def publication_failed(publication: Publication, *, message: str, stop: bool = False) -> None:
    """A batch did not arrive (`stop`: refused, publishing stops until started again)."""
    publication.last_error = message[:500]
    publication.failures += 1
    publication.stopped = publication.stopped or stop
    fields = {"last_error": publication.last_error, "failures": F("failures") + 1}
    if stop:
        fields.update(stopped=True, running=False)
        publication.running = False
    Publication.objects.filter(pk=publication.pk).update(**fields)


def sender_claim(publication: Publication) -> bool:
    """The calling process becomes the publication's sender, unless another live one is."""
    with transaction.atomic():
        row = Publication.objects.select_for_update().get(pk=publication.pk)
        if row.pid and row.pid != os.getpid() and process_alive(row.pid):
            return False
        Publication.objects.filter(pk=publication.pk).update(
            pid=os.getpid(), running=True, stopped=False
        )
    publication.pid, publication.running, publication.stopped = os.getpid(), True, False
    return True


def sender_release(publication: Publication) -> None:
    """The calling process stops sending (its pid leaves the row)."""
    Publication.objects.filter(pk=publication.pk, pid=os.getpid()).update(pid=None, running=False)


def still_running(publication: Publication) -> bool:
    """Whether publishing was not stopped meanwhile (from the page)."""
    return Publication.objects.filter(pk=publication.pk, running=True).exists()


def publishing_start(*, publication: Publication, user=None, once: str | None = None) -> int:
    """Start the sender process for `publication` (see the module's docstring); its pid."""
    with transaction.atomic():
        check_once(once)
        row = Publication.objects.select_for_update().get(pk=publication.pk)
        if process_alive(row.pid):
            raise UserError(_("Publishing is running already."))
        log = Path(tempfile.gettempdir()) / f"skat-publish-{publication.pk}.log"
        with open(log, "ab") as errors:
            process = subprocess.Popen(
                [
                    sys.executable,
                    str(Path(settings.BASE_DIR) / "manage.py"),
                    "publish",
                    row.tournament.slug,
                    "--to",
                    row.url,
                ],
                cwd=settings.BASE_DIR,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
            )
        _senders[process.pid] = process
        Publication.objects.filter(pk=row.pk).update(
            pid=process.pid, running=True, stopped=False, last_error=""
        )
        action_record(
            tournament=row.tournament,
            kind=Kind.PUBLISHING_STARTED,
            user=user,
            details={"url": row.url},
            key=once,
        )
    return process.pid


def publishing_stop(*, publication: Publication, user=None, once: str | None = None) -> None:
    """Stop publishing: the sender ends before its next batch (and is signalled now)."""
    with transaction.atomic():
        check_once(once)
        row = Publication.objects.select_for_update().get(pk=publication.pk)
        Publication.objects.filter(pk=row.pk).update(running=False, pid=None)
        action_record(
            tournament=row.tournament,
            kind=Kind.PUBLISHING_STOPPED,
            user=user,
            details={"url": row.url},
            key=once,
        )
    if process_alive(row.pid):
        with contextlib.suppress(OSError):
            os.kill(row.pid, signal.SIGTERM)
    process = _senders.pop(row.pid, None) if row.pid else None
    if process is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
