"""`manage.py import_tournament FILE [--club NAME]`: load a `skat-tournament/1` document.

Prints the new tournament's slug. A file is read as a stream, one series at a time
(`interchange.import_file`); standard input is read whole. Any problem (a file that cannot
be read, is not JSON, or a document with errors) ends the command with every message, one
per line, exit status 1, and nothing written (`tournaments.interchange`).
"""

import json
import sys

import ijson
from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.interchange import InterchangeError, import_document, import_file
from tournaments.interchange_stream import NotAnObject


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

    # The engine's English messages are the specific ones (tournaments.errors).
    @no_translations
    def handle(self, *args, file, club=None, **options):
        try:
            if file == "-":
                tournament = self.from_memory(file, club)
            else:
                # A file is read as a stream, one series at a time (memory stays flat).
                try:
                    tournament = import_file(file, club=club)
                except (ijson.JSONError, NotAnObject, UnicodeDecodeError, OSError, StopIteration):
                    # Not a readable JSON object: the whole reading says exactly why.
                    tournament = self.from_memory(file, club)
        except InterchangeError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(tournament.slug)

    def from_memory(self, file: str, club):
        document = read_document(file)
        if not isinstance(document, dict):
            raise CommandError(f"{file} does not hold a JSON object")
        return import_document(document, club=club)
