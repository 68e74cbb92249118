"""`manage.py export_tournament SLUG [--output FILE] [--no-archive]`: write a
`skat-tournament/1` document, with its archive (money, history, draw) unless told not to."""

import json

from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.interchange import export_document
from tournaments.management.lookups import tournament_by_slug


class Command(BaseCommand):
    help = "Write a tournament as a skat-tournament/1 JSON document (to stdout by default)."
    # A read: the system checks would import every view (PDF and Excel libraries) first,
    # most of the command's time on a laptop; `manage.py check` runs them.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")
        parser.add_argument(
            "--no-archive",
            action="store_true",
            help="only the contract's fields: leave out money, history and draw",
        )

    @no_translations
    def handle(self, *args, slug, output=None, no_archive=False, **options):
        tournament = tournament_by_slug(slug)
        document = export_document(tournament, archive=not no_archive)
        text = json.dumps(document, ensure_ascii=False, indent=2)
        if output:
            try:
                with open(output, "w", encoding="utf-8") as file:
                    file.write(text + "\n")
            except OSError as error:
                raise CommandError(f"cannot write {output}: {error.strerror or error}") from None
        else:
            self.stdout.write(text)
