"""`manage.py backup FILE`: the whole site's database in one file, while the site runs.

SQLite: an SQLite file made with SQLite's backup API; PostgreSQL: a `pg_dump` custom-format
archive (`tournaments.management.backup`). `manage.py restore FILE` loads it again.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, no_translations

from tournaments.management.backup import backup


class Command(BaseCommand):
    help = "Back up the whole database (users, clubs, players, tournaments, money, history)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file to write (replaced if it exists)")

    @no_translations
    def handle(self, *args, file, **options):
        path = Path(file).expanduser()
        vendor = backup(path)
        size = path.stat().st_size
        self.stdout.write(f"{vendor} backup written to {path} ({size:,} bytes)")
