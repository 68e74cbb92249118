"""`manage.py ratings [--club NAME] [--league SLUG] [--category C] [--format text|json]`:
the rating list; `manage.py ratings --recompute`: every rating again from all results.

The list is `ratings.selectors.rating_list` (players with a shown rating, best first):
`json` a list of objects with rank, player, club, rating, uncertainty and series; `text`
the same as aligned columns. `--recompute` is `ratings.services.ratings_recompute` in one
transaction, and prints how many tables and players it rated and how long it took.
"""

import json
import time

from django.core.management.base import BaseCommand, no_translations
from django.db import transaction

from tournaments.choices import Category
from tournaments.management.lookups import club_by_name, league_by_slug
from tournaments.ratings.selectors import rating_list
from tournaments.ratings.services import ratings_recompute

HEADER = ("#", "Player", "Club", "Rating", "±", "Series")
TEXT_COLUMNS = {1, 2}  # player and club read left to right; numbers align right


def ratings_rows(rows) -> list[dict]:
    """The list's rows as the JSON prints them."""
    return [
        {
            "rank": row.rank,
            "player": row.player.name,
            "club": row.player.club.name if row.player.club else None,
            "rating": row.rating,
            "uncertainty": row.uncertainty,
            "series": row.series,
        }
        for row in rows
    ]


def ratings_text(rows: list[dict]) -> str:
    """An aligned plain-text table of the JSON's rows."""
    table = [
        HEADER,
        *(
            (
                str(r["rank"]),
                r["player"],
                r["club"] or "",
                str(r["rating"]),
                str(r["uncertainty"]),
                str(r["series"]),
            )
            for r in rows
        ),
    ]
    line_format = "  ".join(
        f"{{:{'<' if i in TEXT_COLUMNS else '>'}{max(map(len, column))}}}"
        for i, column in enumerate(zip(*table, strict=True))
    )
    return "\n".join(line_format.format(*line).rstrip() for line in table)


class Command(BaseCommand):
    help = "Print the rating list (a club's, a league's, a category's), or recompute it."
    requires_system_checks = []  # a read (see the standings command)

    def add_arguments(self, parser):
        parser.add_argument("--club", help="a club's name: its members")
        parser.add_argument("--league", help="a league's short name: the players of its seasons")
        parser.add_argument(
            "--category", choices=[c for c in Category.values if c], help="one category"
        )
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument(
            "--recompute", action="store_true", help="every rating again from all results"
        )

    @no_translations
    def handle(self, *args, club=None, league=None, category=None, recompute=False, **options):
        if recompute:
            start = time.perf_counter()
            with transaction.atomic():
                tables, players = ratings_recompute()
            seconds = time.perf_counter() - start
            self.stdout.write(f"{tables} tables rated, {players} players, in {seconds:.2f} s")
            return
        rows = ratings_rows(
            rating_list(
                club=club_by_name(club) if club is not None else None,
                league=league_by_slug(league) if league is not None else None,
                category=category or "",
            )
        )
        if options["format"] == "json":
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(ratings_text(rows))
