"""Reads of the hall's publishing state: each publication of a tournament with what its
page says ("published 12 s ago", "no connection: 7 changes waiting").

*Changes waiting*: the hall versions the copy does not hold yet (the tournament's version
less the acknowledged one): every write since counts once.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass

from django.utils import timezone

from tournaments.models import Publication, Tournament


def process_alive(pid: int | None) -> bool:
    """Whether the process `pid` still runs (one this process started and that ended is
    reaped here, not counted)."""
    if not pid:
        return False
    try:
        done, _status = os.waitpid(pid, os.WNOHANG)
        if done:
            return False
    except ChildProcessError:
        pass  # not a child of this process: ask the system
    except OSError:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class PublishingStatus:
    publication: Publication
    # "published": current; "sending": changes on their way; "no_connection": the last
    # attempt failed, tried again; "refused": stopped on the site's refusal; "idle": no
    # sender runs.
    state: str
    waiting: int
    seconds_ago: int | None  # since the last batch the site took
    error: str

    @property
    def running(self) -> bool:
        return self.state in ("published", "sending", "no_connection")


def publishing_status(
    publication: Publication, *, version: int, now: datetime.datetime | None = None
) -> PublishingStatus:
    """What the page says of `publication` while the hall is at `version`."""
    now = now or timezone.now()
    waiting = max(0, version - publication.acked_version)
    seconds = (
        None
        if publication.last_success is None
        else max(0, int((now - publication.last_success).total_seconds()))
    )
    if publication.stopped:
        state = "refused"
    elif not (publication.running and process_alive(publication.pid)):
        state = "idle"
    elif publication.last_error:
        state = "no_connection"
    elif waiting:
        state = "sending"
    else:
        state = "published"
    return PublishingStatus(publication, state, waiting, seconds, publication.last_error)


def publications_of(tournament: Tournament) -> list[PublishingStatus]:
    version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    now = timezone.now()
    return [
        publishing_status(publication, version=version, now=now)
        for publication in Publication.objects.filter(tournament=tournament).order_by("pk")
    ]
