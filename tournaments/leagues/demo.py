"""The demo league: "Ostthüringer Skatliga" of four clubs and eight teams, one season of
three match days (`tournaments.demo.demo_create` makes it with the demo club).

- Clubs: the demo club (Skatfreunde Altenburg) and Skatclub Zeitz, SV Gera Skat,
  Skatfreunde Schmölln; two teams each, four regulars and a substitute per team.
- Users (password `skat-demo`): `director` runs the league; the demo `secretary` keeps
  the venue Altenburg, `venue-gera` the venue Gera.
- 1st match day: one venue, one series, confirmed; 2nd: two venues (Altenburg and Gera,
  four teams each), one series, sheets closed but not yet confirmed (provisional);
  3rd: planned.

Seeded like the rest of the demo: the caller's `random.Random` chooses names and games.
Sheets are filled by the caller's `fill` (`demo.fill_table`), so this module needs nothing
of `demo` and `demo` can call it.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction

from tournaments.demo_names import FIRST_NAMES, LAST_NAMES
from tournaments.draw.services import series_close, series_draw
from tournaments.leagues.services import (
    league_create,
    league_season_create,
    match_day_confirm,
    match_day_create,
    roster_add,
    team_create,
    venue_create,
)
from tournaments.models import Club, League, Player, Table, Tournament
from tournaments.registry.services import club_create, player_create
from tournaments.sheets.services import table_close

DEMO_LEAGUE = "Ostthüringer Skatliga"
DEMO_LEAGUE_SEASON_SLUG = "ostthueringer-skatliga-2026-27"
DIRECTOR = "director"
VENUE_SECRETARY = "venue-gera"
PASSWORD = "skat-demo"
OTHER_CLUBS = (
    ("Skatclub Zeitz", "Zeitz"),
    ("SV Gera Skat", "Gera"),
    ("Skatfreunde Schmölln", "Schmölln"),
)
SERIES_PER_DAY = 1  # a league day plays three; one keeps `make run` fast


def _user(username: str, password_hash: str):
    users = get_user_model().objects
    user = users.filter(username=username).first() or users.create_user(username=username)
    user.password = password_hash
    user.save(update_fields=["password"])
    return user


def _names(rng: random.Random, count: int) -> list[str]:
    pool = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    taken = set(Player.objects.values_list("name", flat=True))
    return rng.sample([name for name in pool if name not in taken], count)


def _play(day: Tournament, rng: random.Random, fill: Callable) -> None:
    for _number in range(SERIES_PER_DAY):
        series = series_draw(tournament=day, seed=rng.randrange(1, 2**31), keep_apart="team")
        for table in Table.objects.filter(series=series).select_related("series__tournament"):
            fill(table, rng)
            table_close(table=table)
        series_close(series=series)


def league_demo_create(*, home: Club, secretary, rng: random.Random, fill: Callable) -> dict:
    """The demo league, its season and three match days; returns what was made."""
    with transaction.atomic():
        # One hash for both users: hashing is slow on purpose, and `make run` should not be.
        password_hash = make_password(PASSWORD)
        director = _user(DIRECTOR, password_hash)
        gera_secretary = _user(VENUE_SECRETARY, password_hash)
        clubs = [home] + [club_create(name=name, city=city) for name, city in OTHER_CLUBS]
        league = league_create(name=DEMO_LEAGUE, directors=[director], clubs=clubs)
        season = league_season_create(
            league=league,
            name="Ostthüringer Skatliga 2026/27",
            slug=DEMO_LEAGUE_SEASON_SLUG,
        )
        names = iter(_names(rng, len(clubs) * 2 * 5))
        teams = []
        for club in clubs:
            for numeral in ("I", "II"):
                team = team_create(season=season, club=club, name=f"{club.city} {numeral}")
                for index in range(5):
                    player = player_create(name=next(names), club=club)
                    roster_add(team=team, player=player, substitute=index == 4)
                teams.append(team)
        days = []
        for number, date in enumerate(
            (datetime.date(2026, 9, 26), datetime.date(2026, 11, 14), datetime.date(2027, 1, 23)),
            start=1,
        ):
            day = match_day_create(
                season=season,
                name=f"Ostthüringer Skatliga, {number}. Spieltag",
                date=date,
                club=clubs[number - 1],
                published=True,
            )
            if number == 2:
                venue_create(
                    tournament=day, name="Altenburg", teams=teams[::2], secretary=secretary
                )
                venue_create(
                    tournament=day, name="Gera", teams=teams[1::2], secretary=gera_secretary
                )
            else:
                venue_create(
                    tournament=day, name=clubs[number - 1].city, teams=teams, secretary=secretary
                )
            if number < 3:
                _play(day, rng, fill)
            if number == 1:
                match_day_confirm(tournament=day, user=director)
            days.append(day)
    return {"league": league, "season": season, "teams": teams, "match_days": days}


def league_demo_delete() -> bool:
    """Remove the demo league with its season, teams, match days, other clubs and users."""
    with transaction.atomic():
        league = League.objects.filter(name=DEMO_LEAGUE).first()
        if league is None:
            return False
        for season in league.seasons.all():
            # Tournaments first: their registrations and seats protect the players.
            season.tournaments.all().delete()
            season.delete()
        other_clubs = Club.objects.filter(name__in=[name for name, _city in OTHER_CLUBS])
        league.delete()
        Player.objects.filter(club__in=other_clubs).delete()
        other_clubs.delete()
        get_user_model().objects.filter(username__in=[DIRECTOR, VENUE_SECRETARY]).delete()
    return True
