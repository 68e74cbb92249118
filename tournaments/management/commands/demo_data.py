"""`manage.py demo_data`: the demo club, or a large generated tournament for benchmarks.

manage.py demo_data            # the demo club (once; a second run changes nothing)
manage.py demo_data --reset    # remove the demo data first, then create it again
manage.py demo_data --large --players 2000 --series 4 --seed 1
                               # one generated tournament in the club "Benchmark"

With DJANGO_DEBUG off (a club's server) it refuses unless given --on-production: the demo
creates logins whose password the README prints.
"""

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournaments import demo
from tournaments.errors import UserError
from tournaments.models import Club, Game, RuleSet
from tournaments.registry.services import club_create

BENCHMARK_CLUB = "Benchmark"


class Command(BaseCommand):
    help = (
        "Create the demo club with its tournaments, league season and secretary login, "
        "or with --large a generated tournament in the club 'Benchmark'."
    )

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Remove earlier demo data first.")
        parser.add_argument(
            "--large",
            action="store_true",
            help="Generate one large tournament (club 'Benchmark') instead of the demo club.",
        )
        parser.add_argument("--players", type=int, default=2000, help="With --large.")
        parser.add_argument("--series", type=int, default=4, help="With --large.")
        parser.add_argument("--seed", type=int, default=1, help="With --large.")
        parser.add_argument(
            "--rules", choices=RuleSet.values, default=RuleSet.ISPA, help="With --large."
        )
        parser.add_argument(
            "--on-production",
            action="store_true",
            help="Run even with DJANGO_DEBUG off (the demo's logins have a public password).",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["on_production"]:
            raise CommandError(
                "DJANGO_DEBUG is off: this looks like a club's server, and the demo data "
                "creates logins whose password is public (README). Nothing was written. "
                "Use DJANGO_DEBUG=1 for a development database, or add --on-production "
                "if you really want the demo here."
            )
        if options["large"]:
            self._large(options)
            return
        if options["reset"]:
            demo.demo_delete(stdout=self.stdout)
        result = demo.demo_create(stdout=self.stdout)
        if result["created"]:
            self.stdout.write(self.style.SUCCESS("Demo data created."))

    def _large(self, options):
        if options["players"] < 3 or options["series"] < 1:
            raise CommandError("--players must be at least 3 and --series at least 1.")
        started = time.perf_counter()
        timings: dict[str, float] = {}
        try:
            # One transaction: a failed run leaves no empty "Benchmark" club behind.
            with transaction.atomic():
                club = Club.objects.filter(name=BENCHMARK_CLUB).first()
                if club is None:
                    club = club_create(name=BENCHMARK_CLUB)
                tournament = demo.generate_tournament(
                    club=club,
                    players=options["players"],
                    series=options["series"],
                    seed=options["seed"],
                    rules=str(options["rules"]),
                    timings=timings,
                )
        except UserError as error:
            raise CommandError(str(error)) from None
        elapsed = time.perf_counter() - started
        games = Game.objects.filter(table__series__tournament=tournament).count()
        self.stdout.write(
            f"{tournament.slug}: {options['players']} players, {options['series']} series, "
            f"{games} games in {elapsed:.1f} s ({games / elapsed:.0f} games/s)."
        )
        steps = ", ".join(f"{step} {seconds:.1f} s" for step, seconds in timings.items())
        self.stdout.write(f"Steps: {steps}.")
