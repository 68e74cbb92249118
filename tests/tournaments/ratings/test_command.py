"""`manage.py ratings`: the list as JSON and as text, filters, unknown names, --recompute."""

import datetime
import io
import json
import random

import pytest
from django.core.management import CommandError, call_command

from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.ratings.test_services import draw_and_fill, short_tournament
from tournaments.models import Rating
from tournaments.ratings.method import SHOWN_FROM, shown
from tournaments.sheets.services import table_close


def run(*args) -> str:
    out = io.StringIO()
    call_command("ratings", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def rated(club):
    """Three rated players of `club` (one a newcomer, not shown) and one of another club."""
    other = ClubFactory(name="Skatclub Gera")
    players = {
        "Anna": PlayerFactory(club=club, name="Anna", category="ladies"),
        "Bernd": PlayerFactory(club=club, name="Bernd"),
        "Carl": PlayerFactory(club=club, name="Carl"),
        "Dora": PlayerFactory(club=other, name="Dora"),
    }
    figures = {"Anna": (27.5, 2.0, 12), "Bernd": (24.0, 3.5, 10), "Carl": (30.0, 5.0, 3)}
    figures["Dora"] = (29.0, 1.5, 40)
    for name, (mu, sigma, series) in figures.items():
        Rating.objects.create(player=players[name], mu=mu, sigma=sigma, series=series)
    return figures


def test_json_lists_the_shown_ratings_best_first(rated, club):
    rows = json.loads(run("--format", "json"))
    shown_names = [name for name, (_m, _s, series) in rated.items() if series >= SHOWN_FROM]
    best_first = sorted(shown_names, key=lambda name: -rated[name][0])
    assert [row["player"] for row in rows] == best_first
    dora = rows[0]
    rating, uncertainty = shown(*rated["Dora"][:2])
    assert dora == {
        "rank": 1,
        "player": "Dora",
        "club": "Skatclub Gera",
        "rating": rating,
        "uncertainty": uncertainty,
        "series": 40,
    }


def test_a_club_and_a_category_narrow_the_list(rated, club):
    assert [r["player"] for r in json.loads(run("--club", club.name, "--format", "json"))] == [
        "Anna",
        "Bernd",
    ]
    ladies = json.loads(run("--category", "ladies", "--format", "json"))
    assert [r["player"] for r in ladies] == ["Anna"]


def test_text_prints_aligned_columns(rated):
    lines = run().splitlines()
    assert lines[0].split() == ["#", "Player", "Club", "Rating", "±", "Series"]
    assert [line.split()[1] for line in lines[1:]] == ["Dora", "Anna", "Bernd"]
    assert lines[1].split()[-3] == str(shown(*rated["Dora"][:2])[0])
    # Numbers align right: every line ends under the header's last column.
    assert len({len(line) for line in lines}) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--club", "Nowhere"), "no club named 'Nowhere'"),
        (("--league", "no-such-league"), "no league with slug 'no-such-league'"),
    ],
)
def test_an_unknown_club_or_league_is_one_clear_error(db, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_recompute_reports_tables_and_players(club):

    players = [PlayerFactory(club=club) for _ in range(7)]
    tournament = short_tournament(club, players, date=datetime.date(2026, 3, 1), slug="t1")
    for table in draw_and_fill(tournament, random.Random(1), 2):
        table_close(table=table)
    stored = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "series"))
    Rating.objects.all().delete()
    assert run("--recompute").startswith("4 tables rated, 7 players, in ")
    assert sorted(Rating.objects.values_list("player_id", "mu", "sigma", "series")) == stored
