"""`manage.py import_tournament FILE [--club NAME] [--replace]`: load a document.

Prints the new tournament's slug, and on standard error how many of its players were
found on the site and how many created (`registry.matching`), with any warning. A
tournament of the same slug is refused (exit status 1, nothing written) unless
`--replace`, which replaces it in one transaction. Any problem (a file that cannot be
read, is not JSON, or a document with errors) ends the command with every message, one
per line, exit status 1, and nothing written (`tournaments.interchange`).

The file is read as a stream (`interchange.stream`): the games are checked and written a
chunk at a time, so the memory an import needs does not grow with the file.
"""

import json

from django.core import checks
from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.interchange import InterchangeError
from tournaments.interchange.stream import NotAnObject, import_file
from tournaments.registry.matching import PlayerTally


def file_problem(path: str, error: Exception) -> Exception:
    """The command's message for a file that holds no document (else `error` itself)."""
    if isinstance(error, OSError):
        return CommandError(f"cannot read {path}: {error.strerror or error}")
    if isinstance(error, UnicodeDecodeError):
        return CommandError(f"{path} is not UTF-8 text")
    if isinstance(error, json.JSONDecodeError):
        return CommandError(
            f"{path} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        )
    if isinstance(error, RecursionError):
        return CommandError(f"{path} is nested too deeply to be a tournament")
    return error


class Command(BaseCommand):
    help = "Import a tournament from a skat-tournament/1 JSON document and print its slug."
    # The models' checks only: the others would import every view (PDF and Excel libraries)
    # first, a tenth of a large import's time; `manage.py check` runs them (as for
    # export_tournament).
    requires_system_checks = [checks.Tags.models]

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON document ('-' for standard input)")
        parser.add_argument(
            "--club",
            help="the club that runs the tournament (created if missing); default: the "
            "most frequent club of the document's players",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace a tournament of the same slug (in one transaction); without it such "
            "a document is refused",
        )

    # The engine's English messages are the specific ones (tournaments.errors).
    @no_translations
    def handle(self, *args, file, club=None, replace=False, **options):
        tally = PlayerTally()
        try:
            tournament = import_file(file, club=club, replace=replace, tally=tally)
        except InterchangeError as error:
            raise CommandError("\n".join(error.messages)) from None
        except NotAnObject:
            raise CommandError(f"{file} does not hold a JSON object") from None
        except (OSError, ValueError, RecursionError) as error:
            raise file_problem(file, error) from None
        # Standard output holds the slug alone (scripts read it); the players on stderr.
        for warning in tally.warnings:
            self.stderr.write(warning)
        self.stderr.write(tally.summary())
        self.stdout.write(tournament.slug)
