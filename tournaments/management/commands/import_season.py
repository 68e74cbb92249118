"""`manage.py import_season FILE`: load a `skat-season/1` document; prints the new slug.

Any problem ends the command with every message, one per line, exit status 1, and nothing
written (`tournaments.leagues.interchange`).
"""

from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.leagues.interchange import SeasonDocumentError, import_season
from tournaments.management.commands.import_tournament import read_document


class Command(BaseCommand):
    help = "Import a season from a skat-season/1 JSON document and print its slug."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON document ('-' for standard input)")

    @no_translations
    def handle(self, *args, file, **options):
        try:
            season = import_season(read_document(file))
        except SeasonDocumentError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(season.slug)
