"""`manage.py export_season SLUG [--output FILE]`: write a `skat-season/1` document."""

from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.leagues.interchange import season_text
from tournaments.management.lookups import season_by_slug


class Command(BaseCommand):
    help = "Write a season (teams, rosters, match days with their tournaments) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the season's short name")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    @no_translations
    def handle(self, *args, slug, output=None, **options):
        text = season_text(season_by_slug(slug))
        if output:
            try:
                with open(output, "w", encoding="utf-8") as file:
                    file.write(text)
            except OSError as error:
                raise CommandError(f"cannot write {output}: {error.strerror or error}") from None
        else:
            self.stdout.write(text, ending="")
