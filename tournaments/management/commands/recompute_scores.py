"""Rebuild every stored game value from the rules engine (after a rules fix), the seats'
sheet totals from the games, and the ratings that follow from them, in one transaction."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournaments.errors import UserError
from tournaments.games import scores_recompute
from tournaments.models import Tournament
from tournaments.ratings.services import date_key, ratings_recompute, ratings_replay
from tournaments.sheets.totals import seat_totals_rebuild


class Command(BaseCommand):
    help = "Recompute the stored value, score and list points of every game (or one tournament's)."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="only this tournament")

    def handle(self, *args, slug=None, **options):
        tournament = None
        if slug:
            tournament = Tournament.objects.filter(slug=slug).first()
            if tournament is None:
                raise CommandError(f"no tournament with slug '{slug}'")
        try:
            with transaction.atomic():
                count = scores_recompute(tournament=tournament)
                seats = seat_totals_rebuild(tournament=tournament)
                # List points may have changed: so may every rating from there on.
                if tournament is None:
                    ratings_recompute()
                else:
                    ratings_replay(since=date_key(tournament.date))
        except UserError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{count} games recomputed, {seats} seats' totals rebuilt")
