"""`manage.py publish SLUG --to URL [--key KEY] [--venue NAME] [--once] [--interval S]`:
keep the public copy of a tournament on a public site up to date (protocol `skat-publish/1`,
`tournaments.hall`).

Without `--once` it runs until stopped (Ctrl-C, a signal, or "Stop" on the tournament's
publishing page), sending a batch whenever the hall's version moves. `--once` sends until
the copy holds the hall's current version and exits 0; otherwise it exits 1 with one line
(a refusal, a wrong key, an unreachable site). The key is kept with the publication: given
once (here or on the page), later runs to the same site may leave it out. `--venue NAME`:
this hall keeps one venue of a league match day, with that venue's key: only the sheets
keyed here are sent, never a document (kept with the publication, like the key).
"""

import signal
import threading

from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.errors import UserError
from tournaments.hall.interchange import (
    Refused,
    Unreachable,
    publish_loop,
    publish_until_current,
)
from tournaments.hall.services import (
    publication_set,
    publishing_url,
    sender_claim,
    sender_release,
)
from tournaments.management.lookups import tournament_by_slug
from tournaments.models import Publication


class Command(BaseCommand):
    help = "Publish a tournament to a public site and keep its copy up to date."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--to", required=True, dest="url", help="the public site (https://…)")
        parser.add_argument(
            "--key", help="the publishing key the public site gave (kept for later runs)"
        )
        parser.add_argument(
            "--venue",
            help="the venue of a league match day this hall keeps (with the venue's key)",
        )
        parser.add_argument(
            "--once",
            action="store_true",
            help="send until the copy is current, then exit (0: current; 1: not)",
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=2.0,
            help="seconds between looks for new changes (default 2)",
        )

    @no_translations
    def handle(self, *args, slug, url, key=None, venue=None, once=False, interval=2.0, **options):
        tournament = tournament_by_slug(slug)
        try:
            url = publishing_url(url)
            if key is not None:
                publication = publication_set(tournament=tournament, url=url, key=key, venue=venue)
            else:
                publication = Publication.objects.filter(tournament=tournament, url=url).first()
                if publication is None:
                    raise CommandError(f"no key kept for {url}: give --key") from None
                if venue is not None:
                    publication = publication_set(
                        tournament=tournament, url=url, key=publication.key, venue=venue
                    )
        except UserError as error:
            raise CommandError(error.message) from None
        publication = Publication.objects.select_related("tournament").get(pk=publication.pk)
        if not sender_claim(publication):
            raise CommandError(f"already publishing to {url} (process {publication.pid})")
        # A signal (the page's Stop, systemd, kill) ends the loop like Ctrl-C.
        previous = None
        if not once and threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            if once:
                version = publish_until_current(publication)
                self.stdout.write(f"{slug}: the copy at {url} holds version {version}")
            else:
                publish_loop(publication, interval=max(0.2, interval))
        except (Refused, Unreachable) as error:
            raise CommandError(str(error)) from None
        except KeyboardInterrupt:
            pass
        finally:
            sender_release(publication)
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
