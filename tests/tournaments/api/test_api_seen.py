"""Issue 27, tests that see the API: every field of the tournament, standings, team, player
and season answers against its source value, in data where the fields that could be
confused have distinct values; every documented filter of the list endpoints filters;
the ETag moves with the version (a game recorded) and with nothing else, and
If-None-Match gets 304 only while the answer is unchanged.

`played` (api/conftest.py) is the rules §2 worked sheet: seats 1–4 = A, B, C, D with list
points 1332, 1308, 1320, 108; won 12, 12, 10, 6; lost 0, 2, 1, 5; others' lost 8, 6, 7, 3;
game points 492, 628, 660, −32. A and B are team "Altenburg I", C and D "Altenburg II";
B is a lady.
"""

from __future__ import annotations

import datetime

import pytest

from tests.factories import RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import GRAND
from tournaments.draw.services import series_draw
from tournaments.leagues.selectors import season_tables
from tournaments.models import Tournament
from tournaments.registry.services import season_create, tournament_update
from tournaments.sheets.services import game_record
from tournaments.standings.selectors import (
    player_statistics,
    team_standings,
    tournament_standings,
)

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------
# Fields
# --------------------------------------------------------------------------------------

# Settings each with a value no other field of the answer has.
DISTINCT = {
    "bonus_won": 51,
    "bonus_lost": 47,
    "bonus_others_3": 41,
    "bonus_others_4": 29,
    "games_per_series_3": 33,
    "games_per_series_4": 50,
    "team_best_n": 2,
    "kontra_allowed": False,
    "double_entry": True,
}


def test_every_field_of_a_tournament_is_its_source(played, client_for):
    tournament = tournament_update(tournament=played, **DISTINCT)
    tournament = Tournament.objects.select_related("club", "season").get(pk=tournament.pk)
    answer = client_for(None).get(f"/api/v1/tournaments/{tournament.slug}").json()
    numbers = [answer[name] for name in DISTINCT if not isinstance(DISTINCT[name], bool)]
    assert len(set(numbers)) == len(numbers)  # a field filled from another shows
    source = {
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "club": tournament.club.name,
        "season": tournament.season.slug,
        "rules": tournament.rules,
        "list_scoring": tournament.list_scoring,
        "status": tournament.status,
        "published": tournament.published,
        "version": tournament.version,
        "url": tournament.get_absolute_url(),
        **DISTINCT,
        "five_tables": False,
        "games_per_series_5": None,  # only with five tables
        "ramsch": tournament.ramsch,
        "ramsch_tie_both_win": None,  # no ramsch
        "series": [
            {
                "number": s.number,
                "status": s.status,
                "draw_method": s.draw_method,
                "tables": s.tables.count(),
            }
            for s in tournament.series.order_by("number")
        ],
    }
    assert answer == source


def test_every_field_of_the_standings_is_its_source(played, client_for):
    answer = client_for(None).get(f"/api/v1/tournaments/{played.slug}/standings").json()
    rows = tournament_standings(played)
    assert [
        {
            "rank": r.rank,
            "player_id": r.player_id,
            "player": r.player_name,
            "club": r.club,
            "team": r.team,
            "category": r.category,
            "list_points": r.list_points,
            "game_points": r.game_points,
            "won": r.won,
            "lost": r.lost,
            "others_lost": r.others_lost,
            "provisional": r.provisional,
            "series": [
                {
                    "number": s.number,
                    "table": s.table,
                    "list_points": s.list_points,
                    "game_points": s.game_points,
                    "won": s.won,
                    "lost": s.lost,
                    "others_lost": s.others_lost,
                    "closed_short": s.closed_short or None,
                }
                for _n, s in sorted(r.series.items())
            ],
        }
        for r in rows
    ] == answer
    # By hand (the module docstring), in rank order A, C, B, D:
    assert [
        (r["list_points"], r["game_points"], r["won"], r["lost"], r["others_lost"]) for r in answer
    ] == [(1332, 492, 12, 0, 8), (1320, 660, 10, 1, 7), (1308, 628, 12, 2, 6), (108, -32, 6, 5, 3)]
    assert [r["category"] for r in answer] == ["", "", "ladies", ""]
    assert [r["team"] for r in answer] == ["Altenburg I", "Altenburg II", "Altenburg I"] + [
        "Altenburg II"
    ]


def test_every_field_of_the_teams_is_its_source(played, client_for):
    answer = client_for(None).get(f"/api/v1/tournaments/{played.slug}/teams").json()
    assert answer == [
        {
            "rank": t.rank,
            "team": t.team,
            "counted": t.counted,
            "list_points": t.list_points,
            "game_points": t.game_points,
            "won": t.won,
            "lost": t.lost,
            "members": [
                {"player_id": m.player_id, "player": m.player_name, "list_points": m.list_points}
                for m in t.members
            ],
        }
        for t in team_standings(played)
    ]
    # Altenburg I: A + B = 1332 + 1308, won 24, lost 2; Altenburg II: C + D = 1320 + 108,
    # won 16, lost 6.
    assert [(t["team"], t["list_points"], t["won"], t["lost"]) for t in answer] == [
        ("Altenburg I", 2640, 24, 2),
        ("Altenburg II", 1428, 16, 6),
    ]


def test_every_field_of_a_player_is_its_source(played, client_for):
    """B of the worked sheet, who also declares a won grand (72 + 50 = 122) in a second
    series and is registered for two more tournaments: each figure of the answer differs
    from the others, so a field filled from another shows."""
    seat = played.series.get().tables.get().seats.select_related("player__club").get(number=2)
    player = seat.player
    second = series_draw(tournament=played, seed=2).tables.get()
    declarer = second.seats.get(player=player).number
    game_record(table=second, data=GRAND | {"declarer": declarer})
    for slug in ("spring", "summer"):
        RegistrationFactory(tournament=TournamentFactory(slug=slug), player=player)
    answer = client_for(None).get(f"/api/v1/players/{player.pk}").json()
    stats = player_statistics(player)
    # The career's optional fields are their source's in tests/tournaments/api/test_career.py.
    career = ("clubs", "average_48", "tournament_results", "seasons", "years", "form_window")
    for name in (*career, "form", "table_mates"):
        assert name in answer
        del answer[name]
    for line in answer["history"]:
        for name in ("place_at_table", "players_at_table", "scaled_48"):
            del line[name]
    assert answer == {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name,
        "team": player.team,
        "category": player.category,
        "url": player.get_absolute_url(),
        "tournaments": stats.tournaments,
        "series_played": stats.series_played,
        "games_played": stats.games_played,
        "games_declared": stats.games_declared,
        "won": stats.won,
        "lost": stats.lost,
        "list_points": stats.list_points,
        "average_list_points": stats.average_list_points,
        "history": [
            {
                "tournament": h.tournament.slug,
                "date": h.tournament.date.isoformat(),
                "series": h.line.series_number,
                "table": h.line.table_number,
                "seat": h.line.seat,
                "games": h.line.games,
                "list_points": h.line.list_points,
                "game_points": h.line.game_points,
                "won": h.line.won,
                "lost": h.line.lost,
            }
            for h in stats.history
        ],
        "by_type": [
            {"game": game, "declared": declared, "won": won, "lost": lost}
            for game, _label, declared, won, lost in stats.by_type
        ],
    }
    # B by hand: 14 + 1 games declared, 12 + 1 won, 2 lost; 1308 + 122 = 1430 list points
    # over 2 series (715 a series) in 3 tournaments; game points 628 in series 1.
    figures = ("tournaments", "series_played", "games_declared", "won", "lost")
    figures += ("list_points", "average_list_points")
    assert [answer[name] for name in figures] == [3, 2, 15, 13, 2, 1430, 715]
    assert [(h["series"], h["list_points"]) for h in answer["history"]] == [(1, 1308), (2, 122)]
    assert answer["history"][0]["game_points"] == 628
    assert answer["category"] == "ladies" and answer["team"] == "Altenburg I"


def test_every_field_of_a_season_is_its_source(played, client_for):
    season = played.season
    answer = client_for(None).get(f"/api/v1/seasons/{season.slug}").json()
    tables = season_tables(season)
    assert answer["players"] == [
        {
            "rank": p.rank,
            "player_id": p.player_id,
            "player": p.name,
            "club": p.club,
            "team": p.team,
            "category": p.category,
            "list_points": p.list_points,
            "won": p.won,
            "lost": p.lost,
            "series_played": p.series_played,
            "series_counted": p.series_counted,
            "match_days": p.days,
        }
        for p in tables.players
    ]
    assert answer["teams"] == [
        {
            "rank": t.rank,
            "team": t.team,
            "club": t.club,
            "match_points_won": float(t.match_points_won),
            "match_points_lost": float(t.match_points_lost),
            "list_points": t.list_points,
            "match_days": [
                {
                    "tournament": slug,
                    "rank": d.rank,
                    "list_points": d.list_points,
                    "match_points_won": float(d.match_points_won),
                    "match_points_lost": float(d.match_points_lost),
                }
                for slug, d in t.days.items()
            ],
        }
        for t in tables.teams
    ]
    # One day of two teams (teams_best_n unset: the tournament's 2, both members count):
    # Altenburg I 2640 beats Altenburg II 1428, 1:0.
    assert [
        (t["team"], t["match_points_won"], t["match_points_lost"], t["list_points"])
        for t in answer["teams"]
    ] == [("Altenburg I", 1, 0, 2640), ("Altenburg II", 0, 1, 1428)]
    assert [(p["won"], p["lost"]) for p in answer["players"]] == [
        (12, 0),
        (10, 1),
        (12, 2),
        (6, 5),
    ]


# --------------------------------------------------------------------------------------
# Filters
# --------------------------------------------------------------------------------------


def test_every_filter_of_the_tournament_list_filters(club, client_for):
    one = season_create(club=club, name="Liga A", slug="liga-a")
    two = season_create(club=club, name="Liga B", slug="liga-b")
    made = {
        "a1": TournamentFactory(club=club, season=one, slug="a1"),
        "a2": TournamentFactory(club=club, season=one, slug="a2"),
        "b1": TournamentFactory(club=club, season=two, slug="b1"),
        "free": TournamentFactory(club=club, slug="free"),
    }
    elsewhere = TournamentFactory(slug="elsewhere")
    assert elsewhere.club_id != club.pk
    client = client_for(None)

    def slugs(**query):
        answer = client.get("/api/v1/tournaments", query)
        assert answer.status_code == 200, query
        return sorted(t["slug"] for t in answer.json()["items"])

    assert slugs() == sorted([*made, "elsewhere"])
    assert slugs(season="liga-a") == ["a1", "a2"]
    assert slugs(season="liga-b") == ["b1"]
    assert slugs(season="nothing") == []
    assert slugs(club=club.name) == sorted(made)
    assert slugs(club=elsewhere.club.name) == ["elsewhere"]
    assert slugs(club=club.name, season="liga-b") == ["b1"]
    assert slugs(club=elsewhere.club.name, season="liga-a") == []


def test_the_category_filter_of_the_standings_filters(played, client_for):
    client = client_for(None)
    slug = played.slug
    every = client.get(f"/api/v1/tournaments/{slug}/standings").json()
    assert len(every) == 4
    ladies = client.get(f"/api/v1/tournaments/{slug}/standings", {"category": "ladies"}).json()
    assert [(r["category"], r["list_points"]) for r in ladies] == [("ladies", 1308)]
    assert [r["rank"] for r in ladies] == [1]  # ranked within the category
    series = client.get(
        f"/api/v1/tournaments/{slug}/series/1/standings", {"category": "ladies"}
    ).json()
    assert [(r["category"], r["list_points"]) for r in series] == [("ladies", 1308)]
    assert len(client.get(f"/api/v1/tournaments/{slug}/series/1/standings").json()) == 4
    seniors = client.get(f"/api/v1/tournaments/{slug}/standings", {"category": "seniors"})
    assert seniors.status_code == 200 and seniors.json() == []


def test_the_category_filter_of_a_season_filters_its_players(played, client_for):
    client = client_for(None)
    url = f"/api/v1/seasons/{played.season.slug}"
    assert len(client.get(url).json()["players"]) == 4
    ladies = client.get(url, {"category": "ladies"}).json()
    assert [(p["category"], p["list_points"], p["rank"]) for p in ladies["players"]] == [
        ("ladies", 1308, 1)
    ]
    # The teams are the season's, whatever the category.
    assert len(ladies["teams"]) == 2


def test_the_live_feed_filters_by_version(played, client_for):
    client = client_for(None)
    url = f"/api/v1/tournaments/{played.slug}/games"
    every = client.get(url).json()
    assert len(every["games"]) == played.series.get().tables.get().games.count()
    assert client.get(url, {"since": every["version"]}).json()["games"] == []
    limited = client.get(url, {"limit": 5}).json()
    assert len(limited["games"]) >= 5 and limited["more"]


# --------------------------------------------------------------------------------------
# ETag
# --------------------------------------------------------------------------------------

ANSWERS = (
    "/api/v1/tournaments/{slug}",
    "/api/v1/tournaments/{slug}/standings",
    "/api/v1/tournaments/{slug}/teams",
    "/api/v1/tournaments/{slug}/games",
    "/api/v1/tournaments/{slug}/series/1",
    "/api/v1/tournaments/{slug}/series/1/standings",
    "/api/v1/tournaments/{slug}/series/1/tables/1",
    "/t/{slug}/standings.json",
    "/api/v1/seasons/{season}",
    "/api/v1/tournaments",
)


def test_the_etag_moves_with_a_game_recorded_and_with_nothing_else(played, client, club):
    # Room for one more game at the worked sheet's table, written before the first reads.
    played = tournament_update(tournament=played, games_per_series_4=50)
    table = played.series.get().tables.get()
    urls = [u.format(slug=played.slug, season=played.season.slug) for u in ANSWERS]
    first = {url: client.get(url) for url in urls}
    for url, answer in first.items():
        assert answer.status_code == 200 and answer["ETag"], url

    # Nothing written: the same ETag and body, and 304 to If-None-Match.
    for url, answer in first.items():
        again = client.get(url)
        assert (again["ETag"], again.content) == (answer["ETag"], answer.content), url
        assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304, url

    # A write elsewhere (another club's tournament) changes none of them.
    TournamentFactory(slug="elsewhere", date=datetime.date(2020, 1, 1), published=False)
    for url, answer in first.items():
        assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304, url

    # A game recorded: a new version, a new ETag, a new body; the old ETag gets 200.
    version = played.version
    game_record(table=table, data=GRAND | {"declarer": 2})
    played.refresh_from_db()
    assert played.version > version
    for url, answer in first.items():
        changed = client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"])
        assert changed.status_code == 200, url
        assert changed["ETag"] != answer["ETag"], url
        assert changed.content != answer.content, url
        # and 304 again while that answer stands
        assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304, url
