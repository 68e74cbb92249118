"""Set-up and keying run in the sites' own processes by test_venue_sites.py
(`manage.py shell -c`): the league's match day at two venues, drawn, with a key per venue
(the cast of tests/tournaments/leagues/fixtures.py), and a venue's rows keyed at a hall."""

import datetime
import json

from tests.factories import ClubFactory, PlayerFactory, UserFactory


def league_site(out: str):
    """On the league site: the drawn match day `liga-1`; writes its document, the venue
    keys and each venue's table numbers to `out`."""
    from tournaments.draw.services import series_draw
    from tournaments.interchange.export import export_document
    from tournaments.leagues.services import (
        league_create,
        league_season_create,
        match_day_create,
        roster_add,
        team_create,
        venue_create,
    )
    from tournaments.models import Table
    from tournaments.publishing.services import key_create

    club, zeitz = ClubFactory(name="Skatfreunde Altenburg"), ClubFactory(name="Skatclub Zeitz")
    league = league_create(
        name="Ostthüringer Liga", directors=[UserFactory(username="director")], clubs=[club, zeitz]
    )
    season = league_season_create(league=league, name="Liga 2026/27", slug="liga-2026-27")
    teams = {}
    for team_club, prefix in ((club, "Altenburg"), (zeitz, "Zeitz")):
        for numeral in ("I", "II"):
            team = team_create(season=season, club=team_club, name=f"{prefix} {numeral}")
            for n in range(4):
                roster_add(
                    team=team, player=PlayerFactory(club=team_club, name=f"{team.name} P{n + 1}")
                )
            teams[team.name] = team
    day = match_day_create(
        season=season,
        name="1. Spieltag",
        date=datetime.date(2026, 9, 19),
        club=club,
        slug="liga-1",
        published=True,
        games_per_series_4=4,
        games_per_series_3=3,
    )
    venues = {}
    for name, members in (
        ("Altenburg", ["Altenburg I", "Zeitz I"]),
        ("Zeitz", ["Altenburg II", "Zeitz II"]),
    ):
        venues[name] = venue_create(
            tournament=day,
            name=name,
            teams=[teams[m] for m in members],
            secretary=UserFactory(username=f"venue-{name.lower()}"),
        )
    series_draw(tournament=day, seed=11)
    result = {
        "document": export_document(day),
        "keys": {name: key_create(name=f"{name} hall", venue=v)[1] for name, v in venues.items()},
        "tables": {
            name: sorted(
                Table.objects.filter(series__tournament=day, venue=v).values_list(
                    "number", flat=True
                )
            )
            for name, v in venues.items()
        },
    }
    with open(out, "w") as file:
        json.dump(result, file)


def rows_for(table_number: int) -> list[dict]:
    """Four rows, a different number of them won at each table."""
    won = {"game": "grand", "matadors": 2, "card_points": 78, "bid": 20}
    lost = {"game": "spades", "matadors": 1, "card_points": 45, "bid": 18}
    rows = []
    for number in range(1, 5):
        dealer = (number - 1) % 4 + 1
        game = lost if number <= table_number % 4 else won
        rows.append({**game, "declarer": dealer % 4 + 1})
    return rows


def hall_keys(numbers: list[int], close: bool = True):
    """At a hall: the rows of the tables `numbers` of `liga-1` keyed, their sheets closed."""
    from tournaments.models import Table
    from tournaments.sheets.services import game_record, table_close

    for number in numbers:
        table = Table.objects.get(series__tournament__slug="liga-1", number=number)
        for row in rows_for(number):
            game_record(table=table, data=row)
        if close:
            table_close(table=Table.objects.get(pk=table.pk))
