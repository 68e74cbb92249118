"""`manage.py validate FILE [--schema tournament|season|publish]`: a document against its
JSON Schema (`api.validation`).

Prints each problem as `LOCATION: message`, the location a JSON pointer into the document
(`/series/0/tables/2/games/13/card_points`), and ends with exit status 1; a valid
document prints `valid skat-tournament/1` (or the season's, the batch's format) and
exits 0. The schema follows from the document's `format` unless `--schema` names it. A
file that cannot be read or is not JSON is one line and exit status 1. Nothing is
written: the schema checks the shape; `import_tournament` also checks each game's value.
"""

import json
import sys

from django.core import checks
from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.api.validation import (
    KINDS,
    UnknownFormat,
    document_problems,
    format_name,
    schema_of,
)
from tournaments.management.commands.import_tournament import file_problem

MESSAGE_MAX = 300  # characters of a validator's message (it may quote a whole object)


def _shortened(message: str) -> str:
    message = " ".join(message.split())
    return message if len(message) <= MESSAGE_MAX else message[: MESSAGE_MAX - 1] + "…"


class Command(BaseCommand):
    help = "Validate a skat-tournament/1, skat-season/1 or skat-publish/1 document."
    requires_system_checks = [checks.Tags.models]

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON document ('-' for standard input)")
        parser.add_argument(
            "--schema",
            choices=sorted(KINDS),
            help="the schema to validate against (default: from the document's format)",
        )

    @no_translations
    def handle(self, *args, file, schema=None, **options):
        try:
            if file == "-":
                doc = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    doc = json.load(handle)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            raise file_problem(file, error) from None
        try:
            name = schema_of(doc, schema)
        except UnknownFormat as error:
            raise CommandError(f"/format: {error}") from None
        problems = document_problems(doc, schema)
        if problems:
            for problem in problems:
                self.stdout.write(f"{problem.location or '/'}: {_shortened(problem.message)}")
            raise CommandError(
                f"{len(problems)} problem(s): not a valid {format_name(name)} document",
                returncode=1,
            )
        self.stdout.write(f"valid {format_name(name)}")
