"""`manage.py restore FILE [--force]`: load a backup made by `manage.py backup`.

Only into an empty database (a new one, or one with nothing but what `migrate` writes);
`--force` replaces a database that holds data. The schema is brought up to date with
`migrate` afterwards (`tournaments.management.backup`).
"""

from pathlib import Path

from django.core.management.base import BaseCommand, no_translations

from tournaments.management.backup import restore


class Command(BaseCommand):
    help = "Restore the whole database from a file written by `manage.py backup`."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace a database that already holds data (everything in it is lost)",
        )

    @no_translations
    def handle(self, *args, file, force=False, **options):
        counts = restore(Path(file).expanduser(), force=force)
        summary = ", ".join(
            f"{counts.get(label, 0)} {name}"
            for label, name in (
                ("auth.User", "users"),
                ("tournaments.Club", "clubs"),
                ("tournaments.Player", "players"),
                ("tournaments.Tournament", "tournaments"),
                ("tournaments.Game", "games"),
            )
        )
        self.stdout.write(f"restored {file}: {summary}")
