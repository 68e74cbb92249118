"""The tie-break order seen from every ranking (issue 12, defect 4): at equal list points
"more games won" comes before "fewer games lost" in the tournament, team and season
rankings (swapping the two keys fails here), and players equal on every key share a rank.

A 3-table (rules §2: +50 won, −50 lost, +40 for each game the others lose):
- Anna wins 48 + 48 + 80 and loses −40: 136 + 150 − 50 = 236, won 3 lost 1;
- Bert wins 48 + 48: 96 + 100 + 40 (Anna's lost game) = 236, won 2 lost 0;
- Carl plays nothing: 0 + 40 = 40.
More won puts Anna first; fewer lost would put Bert first.
"""

import re

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.helpers import GRAND_1, HEARTS_LOST, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.leagues.selectors import season_tables
from tournaments.models import Player, Registration, Season
from tournaments.standings.selectors import team_standings, tournament_standings

pytestmark = pytest.mark.django_db

HEARTS_7 = {"game": "hearts", "matadors": 7, "won": True}  # 8 × 10 = 80
WON_MORE_LOST_MORE = {1: [GRAND_1, GRAND_1, HEARTS_7, HEARTS_LOST], 2: [GRAND_1, GRAND_1]}


@pytest.fixture
def evening(tournament, club):
    for name, team in (("Anna", "Asse"), ("Bert", "Buben"), ("Carl", "")):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
        Player.objects.filter(name=name).update(team=team)
    table = series_draw(tournament=tournament, seed=1).tables.get()
    seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
    rows = {seat_of["Anna"]: WON_MORE_LOST_MORE[1], seat_of["Bert"]: WON_MORE_LOST_MORE[2]}
    enter(table, sheet_rows(rows, 3))
    return tournament


def test_the_tournament_ranks_more_won_before_fewer_lost(evening):
    rows = tournament_standings(evening)
    assert [(r.player_name, r.list_points, r.won, r.lost, r.rank) for r in rows] == [
        ("Anna", 236, 3, 1, 1),
        ("Bert", 236, 2, 0, 2),
        ("Carl", 40, 0, 0, 3),
    ]


def test_the_teams_rank_more_won_before_fewer_lost(evening):
    teams = team_standings(evening)
    assert [(t.team, t.list_points, t.rank) for t in teams] == [
        ("Asse", 236, 1),
        ("Buben", 236, 2),
    ]


def test_the_season_ranks_more_won_before_fewer_lost(evening, club):
    season = Season.objects.create(club=club, name="Liga", slug="liga")
    evening.season = season
    evening.published = True
    evening.save()
    players = season_tables(season).players
    assert [(p.name, p.rank) for p in players] == [("Anna", 1), ("Bert", 2), ("Carl", 3)]


def test_players_equal_on_every_key_share_the_rank_until_the_lot(tournament, club):
    for name in ("Anna", "Bert", "Carl", "Dora"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=1).tables.get()
    seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
    # Anna and Bert win the same game once each; Carl and Dora play nothing.
    enter(table, sheet_rows({seat_of["Anna"]: [GRAND_1], seat_of["Bert"]: [GRAND_1]}, 4))
    ranks = {r.player_name: r.rank for r in tournament_standings(tournament)}
    assert sorted(ranks.values()) == [1, 1, 3, 3]
    assert ranks["Anna"] == ranks["Bert"] == 1
    Registration.objects.filter(player__name="Bert").update(lot=1)
    Registration.objects.filter(player__name="Anna").update(lot=2)
    ranks = {r.player_name: r.rank for r in tournament_standings(tournament)}
    assert (ranks["Bert"], ranks["Anna"], ranks["Carl"], ranks["Dora"]) == (1, 2, 3, 3)


def test_shared_ranks_show_on_the_page_the_pdf_and_the_workbook(tournament, club, client):
    import io

    from django.urls import reverse
    from openpyxl import load_workbook

    from tests.tournaments.exporters.helpers import pdf_pages

    for name in ("Anna", "Bert", "Carl", "Dora"):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    table = series_draw(tournament=tournament, seed=1).tables.get()
    seat_of = {s.player.name: s.number for s in table.seats.select_related("player")}
    enter(table, sheet_rows({seat_of["Anna"]: [GRAND_1], seat_of["Bert"]: [GRAND_1]}, 4))
    tournament.published = True
    tournament.save()
    t = {"tournament": tournament.slug}
    book = load_workbook(io.BytesIO(client.get(reverse("export_workbook", kwargs=t)).content))
    ranks = [row[0] for row in book["Standings"].iter_rows(min_row=2, values_only=True)]
    assert ranks[:4] == [1, 1, 3, 3]
    text = "\n".join(pdf_pages(client.get(reverse("export_standings_pdf", kwargs=t)).content))
    for rank, name in ((1, "Anna"), (1, "Bert"), (3, "Carl"), (3, "Dora")):
        assert f"\n{rank}\n{name}\n" in text, name
    page = client.get(reverse("tournament_detail", kwargs=t)).content.decode()
    for rank, name in ((1, "Anna"), (1, "Bert"), (3, "Carl"), (3, "Dora")):
        assert re.search(rf">\s*{rank}\s*<(?:(?!</tr>).)*{name}", page, re.S), name
