"""Generated seasons for the season tables' tests: a league season of several match days of
every kind, and a club's season (its annual ranking) of club evenings.

League match days (`league_days`), by their index, so that any number of days has them all:
- 0: confirmed; a substitute plays for a regular;
- 1: played, not confirmed (provisional: shown, not counted);
- 2: every game passed in, confirmed: all teams tie at 0 and share the match points;
- 3: confirmed but not published (only those who manage the season see it);
- 4: drawn, no game entered (not played);
- 5 and on: confirmed, other seeds.
Series are of four games at a 4-table (short sheets); two series a day, one on day 4.
"""

from __future__ import annotations

import datetime
import random

from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.helpers import enter
from tournaments.demo import fill_table
from tournaments.draw.services import series_draw
from tournaments.leagues.services import (
    match_day_confirm,
    match_day_create,
    match_day_substitute,
    season_update,
    venue_create,
)
from tournaments.models import Player, RosterEntry, Tournament
from tournaments.registry.services import registration_add, season_create
from tournaments.sheets.services import table_close

CATEGORIES = ("", "", "ladies", "seniors")


def _play(day, *, seed: int, passed: bool = False, fill: bool = True) -> None:
    rng = random.Random(seed)
    series = series_draw(tournament=day, seed=seed)
    for table in series.tables.order_by("number"):
        if passed:
            enter(table, [{"game": "passed"}] * day.games_per_series(table.size))
        elif fill:
            fill_table(table, rng)
        if fill:
            table_close(table=table)


def categorise(players) -> None:
    """Every fourth player a lady, every fourth a senior (by name order)."""
    for index, player in enumerate(sorted(players, key=lambda p: p.name)):
        Player.objects.filter(pk=player.pk).update(category=CATEGORIES[index % 4])


def league_days(
    season, teams, director, *, count: int, club, zeitz, start: int = 0
) -> list[Tournament]:
    """`count` match days of `season` (the `teams` fixture's four teams), kinds as above;
    `start`: the index of the first (more days for a season that has some)."""
    season = season_update(season=season, teams_best_n=3, min_series=3, best_series=4)
    categorise(Player.objects.filter(roster_entries__season=season))
    days = []
    for index in range(start, start + count):
        day = match_day_create(
            season=season,
            name=f"{index + 1}. Spieltag",
            date=datetime.date(2026, 9, 19) + datetime.timedelta(weeks=index),
            club=club if index % 2 == 0 else zeitz,
            slug=f"liga-{index + 1}",
            published=index != 3,
            games_per_series_4=4,
            games_per_series_3=3,
        )
        venue_create(
            tournament=day, name="Altenburg", teams=[teams["Altenburg I"], teams["Zeitz I"]]
        )
        venue_create(
            tournament=day, name="Zeitz", teams=[teams["Altenburg II"], teams["Zeitz II"]]
        )
        if index == 0:
            regular = RosterEntry.objects.get(
                team=teams["Altenburg I"], player__name__endswith="P1"
            )
            substitute = RosterEntry.objects.get(team=teams["Altenburg I"], substitute=True)
            match_day_substitute(tournament=day, out=regular.player, replacement=substitute.player)
        if index == 4:
            _play(day, seed=100 + index, fill=False)
        else:
            for number in (1, 2):
                _play(day, seed=10 * index + number, passed=index == 2)
        if index not in (1, 4):
            match_day_confirm(tournament=day, user=director)
        days.append(day)
    return days


def club_season(club, *, evenings: int = 4):
    """A club's annual ranking: `evenings` club evenings of one or two series of 12
    players (teams by the free text on the player); some players come once or twice only,
    so the minimum of series leaves them unranked; the best 3 series count."""
    season = season_create(club=club, name="Jahreswertung 2026", slug="jahreswertung-2026")
    season = season_update(season=season, teams_best_n=2, min_series=3, best_series=3)
    regulars = [
        PlayerFactory(club=club, name=f"Mitglied {n:02d}", team=("Asse", "Buben", "Damen")[n % 3])
        for n in range(12)
    ]
    occasional = [PlayerFactory(club=club, name=f"Gast {n}") for n in range(4)]
    categorise(regulars + occasional)
    days = []
    for index in range(evenings):
        day = TournamentFactory(
            club=club,
            season=season,
            name=f"Clubabend {index + 1}",
            slug=f"clubabend-{index + 1}",
            date=datetime.date(2026, 1, 8) + datetime.timedelta(weeks=index),
            games_per_series_4=4,
            games_per_series_3=3,
        )
        # The first evening two guests come, the second the other two; the regulars but
        # one come every evening.
        guests = occasional[:2] if index == 0 else occasional[2:] if index == 1 else []
        registration_add(tournament=day, players=[*regulars[: 11 + index % 2], *guests])
        for number in range(1, 3 if index % 2 == 0 else 2):
            _play(day, seed=1000 + 10 * index + number)
        days.append(day)
    return season, days
