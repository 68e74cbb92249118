"""`manage.py import_tournament FILE [--club NAME] [--replace]`: load a document.

Prints the new tournament's slug. A tournament of the same slug is refused (exit status 1,
nothing written) unless `--replace`, which replaces it in one transaction. Any problem (a
file that cannot be read, is not JSON, or a document with errors) ends the command with
every message, one per line, exit status 1, and nothing written (`tournaments.interchange`).
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.interchange import InterchangeError, import_document


def read_document(path: str):
    """The decoded JSON of a file ("-" for standard input), or CommandError."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(
            f"{path} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise CommandError(f"{path} is nested too deeply to be a tournament") from None


class Command(BaseCommand):
    help = "Import a tournament from a skat-tournament/1 JSON document and print its slug."

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
        document = read_document(file)
        if not isinstance(document, dict):
            raise CommandError(f"{file} does not hold a JSON object")
        try:
            tournament = import_document(document, club=club, replace=replace)
        except InterchangeError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(tournament.slug)
