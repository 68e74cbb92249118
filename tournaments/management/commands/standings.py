"""`manage.py standings SLUG [--format text|json]`: a tournament's standings;
`manage.py standings --season SLUG --format json`: a season's team and player tables.

`json` is the list of interchange.md "Standings JSON", on one line, the bytes that
`/t/<slug>/standings.json` serves (`caching.standings.standings_json_text`); `text` is
the same figures as an aligned table for a terminal. Both come from
`standings.selectors.tournament_standings`. A season's JSON is
`leagues.selectors.tables_json` of the season page's tables (the published match days; a
closed season's archive).
"""

import json

from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.caching.standings import standings_json_text
from tournaments.management.lookups import season_by_slug, tournament_by_slug
from tournaments.standings.selectors import standings_json, tournament_standings


def standings_text(rows: list[dict], *, list_scoring: bool) -> str:
    """An aligned plain-text table of the standings rows (as `standings_json` gives them)."""
    series = sorted({s["number"] for row in rows for s in row["series"]})
    points = "List pts" if list_scoring else "Points"
    header = ["#", "Player", "Club", *(f"S{n}" for n in series), "Game pts", "Won", "Lost"]
    header.append(points)
    lines = []
    for row in rows:
        per_series = {s["number"]: s["list_points"] for s in row["series"]}
        lines.append(
            [
                str(row["rank"]),
                row["player"],
                row["club"] or "",
                *(str(per_series[n]) if n in per_series else "–" for n in series),
                str(row["game_points"]),
                str(row["won"]),
                str(row["lost"]),
                str(row["list_points"]),
            ]
        )
    table = [header, *lines]
    text_columns = {1, 2}  # player and club read left to right; numbers align right
    # One format for every line (a column at a time: a command's start-up counts).
    line_format = "  ".join(
        f"{{:{'<' if i in text_columns else '>'}{max(map(len, column))}}}"
        for i, column in enumerate(zip(*table, strict=True))
    )
    return "\n".join(line_format.format(*line).rstrip() for line in table)


class Command(BaseCommand):
    help = "Print a tournament's standings as an aligned table or as JSON."
    # A read: the system checks would import every view (PDF and Excel libraries) first,
    # most of the command's time on a laptop; `manage.py check` runs them.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the tournament's short name")
        parser.add_argument("--season", help="a season's short name: its team and player tables")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    @no_translations
    def handle(self, *args, slug=None, season=None, **options):
        if season is not None:
            if options["format"] != "json":
                raise CommandError("a season's tables are printed with --format json")
            # Imported here: the tournament's standings, the usual question, do not need it.
            from tournaments.leagues.selectors import season_tables, tables_json

            tables = tables_json(season_tables(season_by_slug(season)))
            self.stdout.write(json.dumps(tables, ensure_ascii=False, indent=2))
            return
        if slug is None:
            raise CommandError("name a tournament, or a season with --season")
        tournament = tournament_by_slug(slug)
        if options["format"] == "json":
            # The bytes of /t/<slug>/standings.json (one function writes both).
            standings = tournament_standings(tournament)
            self.stdout.write(standings_json_text(standings), ending="")
        else:
            rows = standings_json(tournament)
            self.stdout.write(standings_text(rows, list_scoring=tournament.uses_list_points))
