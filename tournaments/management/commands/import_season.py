"""`manage.py import_season FILE`: load a `skat-season/1` document; prints the new slug
(and on standard error how many players were matched and how many created).

Any problem ends the command with every message, one per line, exit status 1, and nothing
written (`tournaments.leagues.interchange`). The file is read as a stream, as
`import_tournament` reads one: memory does not grow with the document.
"""

from django.core import checks
from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.interchange.stream import NotAnObject
from tournaments.leagues.interchange import SeasonDocumentError, import_season_file
from tournaments.management.commands.import_tournament import file_problem
from tournaments.registry.matching import PlayerTally


class Command(BaseCommand):
    help = "Import a season from a skat-season/1 JSON document and print its slug."
    # The models' checks only, as `import_tournament` (the others import every view first).
    requires_system_checks = [checks.Tags.models]

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON document ('-' for standard input)")

    @no_translations
    def handle(self, *args, file, **options):
        tally = PlayerTally()
        try:
            season = import_season_file(file, tally=tally)
        except SeasonDocumentError as error:
            raise CommandError("\n".join(error.messages)) from None
        except NotAnObject:
            raise CommandError(f"{file} does not hold a JSON object") from None
        except (OSError, ValueError, RecursionError) as error:
            raise file_problem(file, error) from None
        for warning in tally.warnings:  # standard output holds the slug alone
            self.stderr.write(warning)
        self.stderr.write(tally.summary())
        self.stdout.write(season.slug)
