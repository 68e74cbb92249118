"""The demo-data generator: valid, realistic rows; the demo club; generated tournaments."""

import io
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import ClubFactory
from tournaments import demo
from tournaments.games import game_build, game_mapping_of
from tournaments.leagues.selectors import season_tables
from tournaments.models import (
    Club,
    Game,
    GameChange,
    GameType,
    Penalty,
    Player,
    Registration,
    Season,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournaments.standings.selectors import tournament_standings

ROWS = 2000
ISPA_KINDS = {"diamonds", "hearts", "spades", "clubs", "grand", "null", "passed"}
NA_KINDS = {
    "tournee",
    "passt_mir_nicht",
    "solo",
    "grand_guckser",
    "grand_ouvert",
    "null",
    "null_ouvert",
    "ramsch",
}


def unsaved_table(*, rules: str, size: int) -> Table:
    """A table in memory: `games.game_build` needs no database."""
    tournament = Tournament(rules=rules, kontra_allowed=rules == "ispa")
    return Table(series=Series(tournament=tournament, number=1), number=1, size=size)


def generated_rows(*, rules: str, size: int, seed: int = 7):
    rng = random.Random(seed)
    length = 48 if size == 4 else 36
    for i in range(ROWS):
        number = i % length + 1
        yield (
            number,
            demo.random_game(
                rng, rules=rules, table_size=size, number=number, kontra=rules == "ispa"
            ),
        )


# --------------------------------------------------------------------------------------
# random_game
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("rules", ["ispa", "na"])
def test_every_generated_row_is_accepted_by_the_services(rules, size):
    table = unsaved_table(rules=rules, size=size)
    for number, row in generated_rows(rules=rules, size=size):
        game = game_build(table=table, number=number, data=row)  # raises if invalid
        assert game.number == number


@pytest.mark.parametrize("rules", ["ispa", "na"])
def test_the_dealer_never_declares_at_a_four_table(rules):
    # rules §4: at a 4-table the dealer sits out the deal.
    for number, row in generated_rows(rules=rules, size=4):
        assert row.get("declarer") != (number - 1) % 4 + 1


def test_ispa_rows_have_every_kind_of_game_in_club_evening_shares():
    rows = [row for _, row in generated_rows(rules="ispa", size=4, seed=11)]
    kinds = Counter(row["game"] for row in rows)
    assert set(kinds) == ISPA_KINDS
    suits = sum(kinds[s] for s in ("diamonds", "hearts", "spades", "clubs"))
    assert 0.45 < suits / ROWS < 0.65
    assert 0.22 < kinds["grand"] / ROWS < 0.38
    assert 0.05 < kinds["null"] / ROWS < 0.16
    assert kinds["passed"] < 0.06 * ROWS
    assert kinds["clubs"] == max(kinds[s] for s in ("diamonds", "hearts", "spades", "clubs"))
    assert any(row.get("hand") for row in rows)
    assert any(row.get("without") for row in rows)
    assert any(row["game"] == "null" and row.get("ouvert") for row in rows)
    assert all("declarer" not in row for row in rows if row["game"] == "passed")


def test_ispa_rows_are_mostly_won_with_some_schneider_and_overbids():
    table = unsaved_table(rules="ispa", size=3)
    games = [
        game_build(table=table, number=n, data=row)
        for n, row in generated_rows(rules="ispa", size=3, seed=3)
    ]
    declared = [g for g in games if g.game != GameType.PASSED]
    won = sum(g.is_won for g in declared) / len(declared)
    assert 0.65 < won < 0.85
    assert any(g.overbid for g in declared)
    assert any(g.card_points is not None and g.card_points >= 90 for g in declared)
    assert all(g.bid is None or g.bid >= 18 for g in declared)


def test_na_rows_have_every_kind_of_game_and_bids_from_ten():
    rows = [row for _, row in generated_rows(rules="na", size=3)]
    assert {row["game"] for row in rows} == NA_KINDS
    ramsch = [row for row in rows if row["game"] == "ramsch"]
    assert {row["ramsch"] for row in ramsch} <= {"fewest_points", "no_trick", "all_tricks"}
    assert all(row["declarer"] in (1, 2, 3) for row in ramsch)
    assert all(row["bid"] >= 10 for row in rows if "bid" in row)
    assert any(row.get("trump") == "grand" for row in rows if row["game"] == "tournee")


def test_the_same_seed_gives_the_same_rows():
    first = [row for _, row in generated_rows(rules="ispa", size=4, seed=5)]
    again = [row for _, row in generated_rows(rules="ispa", size=4, seed=5)]
    assert first == again


# --------------------------------------------------------------------------------------
# generate_tournament and fill_table
# --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_generated_tournament_seats_everyone_once_per_series_with_complete_sheets():
    club = ClubFactory(name="Benchmark")
    tournament = demo.generate_tournament(club=club, players=23, series=2, seed=3)

    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.registrations.count() == 23
    players = set(tournament.registrations.values_list("player_id", flat=True))
    for series in tournament.series.all():
        assert series.status == Series.Status.CLOSED
        seated = list(Seat.objects.filter(series=series).values_list("player_id", flat=True))
        assert sorted(seated) == sorted(players)
        sizes = Counter(series.tables.values_list("size", flat=True))
        assert sizes == {4: 5, 3: 1}  # rules §4: 23 players, one 3-table
        for table in series.tables.all():
            assert table.closed
            numbers = list(table.games.values_list("number", flat=True))
            assert numbers == list(range(1, tournament.games_per_series(table.size) + 1))
    standings = tournament_standings(tournament)
    assert len(standings) == 23
    assert sum(row.won + row.lost for row in standings) > 0
    names = list(Player.objects.filter(club=club).values_list("name", flat=True))
    assert len(set(names)) == 23
    teams = Counter(Player.objects.filter(club=club).exclude(team="").values_list("team"))
    assert teams and set(teams.values()) == {4}


@pytest.mark.django_db
def test_generated_tournament_is_reproducible_from_its_seed():
    def sheet(seed, club_name):
        tournament = demo.generate_tournament(
            club=ClubFactory(name=club_name), players=8, series=1, seed=seed
        )
        games = Game.objects.filter(table__series__tournament=tournament).order_by(
            "table__number", "number"
        )
        return [game_mapping_of(g) for g in games]

    assert sheet(4, "One") == sheet(4, "Two")


@pytest.mark.django_db
def test_an_incomplete_generated_tournament_leaves_its_last_series_in_play():
    tournament = demo.generate_tournament(
        club=ClubFactory(), players=12, series=2, seed=9, complete=False, rules="na"
    )
    first, last = tournament.series.order_by("number")
    assert tournament.status == Tournament.Status.RUNNING
    assert first.status == Series.Status.CLOSED
    assert last.status == Series.Status.OPEN
    assert not last.tables.filter(closed=True).exists()


@pytest.mark.django_db
def test_fill_table_with_a_user_records_the_history(tournament, secretary, seated_series):
    series = seated_series(4)
    table = series.tables.get()
    demo.fill_table(table, random.Random(1), count=5)
    demo.fill_table(table, random.Random(2), count=3, user=secretary)

    assert list(table.games.values_list("number", flat=True)) == list(range(1, 9))
    assert GameChange.objects.filter(table=table).count() == 3
    assert set(GameChange.objects.values_list("user__username", flat=True)) == {"secretary"}
    series.refresh_from_db()
    tournament.refresh_from_db()
    assert series.started
    assert tournament.status == Tournament.Status.RUNNING


@pytest.mark.django_db
def test_fill_table_stops_at_the_end_of_the_sheet(tournament, seated_series):
    table = seated_series(3).tables.get()
    demo.fill_table(table, random.Random(1), count=30)
    demo.fill_table(table, random.Random(1), count=30)
    assert table.games.count() == 36
    assert demo.fill_table(table, random.Random(1)) == []


# --------------------------------------------------------------------------------------
# The demo club
# --------------------------------------------------------------------------------------


def model_counts():
    models = (Club, Player, Tournament, Season, Series, Table, Seat, Game, Registration, Penalty)
    return {model.__name__: model.objects.count() for model in models} | {
        "User": get_user_model().objects.count()
    }


@pytest.mark.django_db
def test_demo_creates_the_advertised_club_and_tournaments(client):
    out = io.StringIO()
    result = demo.demo_create(stdout=out)

    assert result["created"]
    assert "Sign in as secretary / skat-demo" in out.getvalue()
    club = Club.objects.get(name="Skatfreunde Altenburg")
    assert club.secretaries.filter(username="secretary").exists()
    assert club.players.count() >= 30
    names = set(club.players.values_list("name", flat=True))
    assert {"Jörg Łukasz", "Anna Schmidt", "Renée Weiß"} <= names
    assert {"Altenburg I", "Altenburg II", "Grand Hand", "Kreuz Bube"} <= set(
        club.players.values_list("team", flat=True)
    )
    assert set(club.players.values_list("category", flat=True)) >= {
        "ladies",
        "youth",
        "seniors",
    }

    finished = result["finished"]
    assert finished.status == Tournament.Status.FINISHED and finished.published
    assert finished.series.count() == 2
    for series in finished.series.all():
        assert series.status == Series.Status.CLOSED
        for table in series.tables.all():
            assert table.closed
            assert table.games.count() == finished.games_per_series(table.size)
    assert {3, 4} == set(
        Table.objects.filter(series__tournament=finished).values_list("size", flat=True)
    )

    running = result["running"]
    assert running.status == Tournament.Status.RUNNING and running.published
    (series,) = running.series.all()
    assert series.status == Series.Status.OPEN
    counts = [t.games.count() for t in series.tables.all()]
    assert 0 in counts and any(0 < c < 36 for c in counts)
    assert GameChange.objects.filter(table__series=series, user__username="secretary").exists()

    season = result["season"]
    match_days = list(season.tournaments.order_by("date"))
    assert len(match_days) == 3
    assert [d.status for d in match_days] == ["finished", "finished", "planned"]
    tables = season_tables(season)
    players, teams = tables.players, tables.teams
    assert len(teams) == 4 and teams[0].match_points_won > 0
    assert len(players) == 16

    tournee = result["tournee"]
    assert tournee.rules == "na" and not tournee.list_scoring
    assert tournee.status == Tournament.Status.FINISHED
    na_games = Game.objects.filter(table__series__tournament=tournee)
    assert na_games.filter(game=GameType.RAMSCH).exists()
    assert Penalty.objects.filter(table__series__tournament=tournee).count() >= 1

    # Through the sign-in page: the site's authentication needs the request (sign-in
    # throttling), which Client.login does not pass.
    signed_in = client.post(reverse("login"), {"username": "secretary", "password": "skat-demo"})
    assert signed_in.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.django_db
def test_running_the_demo_twice_creates_nothing_new():
    demo.demo_create()
    before = model_counts()
    out = io.StringIO()
    result = demo.demo_create(stdout=out)
    assert not result["created"]
    assert "already present" in out.getvalue()
    assert model_counts() == before


@pytest.fixture
def development(settings):
    """The command as `make run` runs it: DJANGO_DEBUG=1 (pytest-django turns DEBUG off)."""
    settings.DEBUG = True


@pytest.mark.django_db
def test_demo_data_command_resets_and_recreates_the_demo(development):
    out = io.StringIO()
    call_command("demo_data", stdout=out)
    first = model_counts()
    first_games = sorted(
        game_mapping_of(g).items().__repr__()
        for g in Game.objects.filter(table__series__tournament__slug__startswith="herbst")
    )
    call_command("demo_data", "--reset", stdout=out)
    assert model_counts() == first
    again = sorted(
        game_mapping_of(g).items().__repr__()
        for g in Game.objects.filter(table__series__tournament__slug__startswith="herbst")
    )
    assert again == first_games  # the same seed gives the same demo
    assert "Sign in as secretary / skat-demo" in out.getvalue()


@pytest.mark.django_db
def test_demo_data_command_generates_a_large_tournament_for_benchmarks(development):
    out = io.StringIO()
    call_command("demo_data", "--large", "--players", "10", "--series", "1", stdout=out)
    tournament = Tournament.objects.get(club__name="Benchmark")
    assert tournament.slug in out.getvalue()
    assert Game.objects.filter(table__series__tournament=tournament).count() == 48 + 2 * 36
    assert not Club.objects.filter(name="Skatfreunde Altenburg").exists()


@pytest.mark.django_db
def test_a_failed_large_run_leaves_no_benchmark_club(development):
    # Five players cannot be seated (rules §4): the run fails and writes nothing.
    with pytest.raises(CommandError, match="5 players cannot be split"):
        call_command("demo_data", "--large", "--players", "5", stdout=io.StringIO())
    assert not Club.objects.filter(name="Benchmark").exists()


@pytest.mark.django_db
def test_demo_data_refuses_with_debug_off_and_writes_nothing(settings):
    settings.DEBUG = False
    before = model_counts()
    with pytest.raises(CommandError, match="--on-production") as refused:
        call_command("demo_data", stdout=io.StringIO())
    assert "DJANGO_DEBUG is off" in str(refused.value)
    with pytest.raises(CommandError, match="--on-production"):
        call_command("demo_data", "--large", "--players", "10", stdout=io.StringIO())
    assert model_counts() == before


@pytest.mark.django_db
def test_demo_data_runs_with_debug_off_when_told_explicitly(settings):
    settings.DEBUG = False
    call_command("demo_data", "--on-production", stdout=io.StringIO())
    assert Club.objects.filter(name="Skatfreunde Altenburg").exists()


def test_demo_data_exits_non_zero_with_debug_off(tmp_path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY"}
    }
    database = tmp_path / "db.sqlite3"
    environment.update(
        DJANGO_DEBUG="0", DJANGO_SECRET_KEY="a-test-key", DATABASE_URL=f"sqlite:///{database}"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "demo_data"],
        cwd=django_settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "--on-production" in done.stderr
    assert not database.exists()  # refused before the database was opened
