"""Writing ratings: a closed table rated, ties shared, tables that are not rated, results
arriving out of order and reopened sheets giving the numbers of a full recompute."""

import datetime
import io
import random

import pytest
from django.core.management import call_command

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.demo import random_game
from tournaments.draw.services import series_draw
from tournaments.interchange import import_document
from tournaments.interchange.export import export_document
from tournaments.models import Game, Rating, RatingChange, Seat, Table
from tournaments.ratings.method import START
from tournaments.ratings.services import (
    order_key,
    ratings_after_close,
    ratings_recompute,
    ratings_recompute_for,
)
from tournaments.registry.services import tournament_update
from tournaments.sheets.services import game_record, table_close, table_reopen
from tournaments.sheets.writing import sheet_write

GRAND = {"game": "grand", "matadors": 2, "card_points": 78}


def short_tournament(club, players, *, date, slug):
    """A tournament of one game per series, `players` registered."""
    tournament = TournamentFactory(
        club=club, slug=slug, date=date, games_per_series_3=1, games_per_series_4=1
    )
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    return tournament


def draw_and_fill(tournament, rng, count):
    """`count` series drawn, one random game entered at each table (none closed)."""
    tables = []
    for _ in range(count):
        series = series_draw(tournament=tournament, seed=rng.randrange(1, 2**31))
        for table in series.tables.select_related("series__tournament").order_by("number"):
            row = random_game(rng, rules=tournament.rules, table_size=table.size, number=1)
            game_record(table=table, data=row)
            tables.append(table)
    return tables


def snapshot():
    """Every stored rating figure, exactly."""
    ratings = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "series"))
    changes = sorted(
        RatingChange.objects.values_list(
            "player_id", "table_id", "order", "place", "mu_before", "sigma_before", "mu", "sigma"
        )
    )
    return ratings, changes


@pytest.fixture
def four(club):
    return [PlayerFactory(club=club) for _ in range(4)]


def test_a_closed_table_rates_its_players_by_list_points_ties_shared(club, four):
    tournament = short_tournament(club, four, date=datetime.date(2026, 3, 1), slug="t1")
    series = series_draw(tournament=tournament, seed=5)
    table = series.tables.get()
    game_record(table=table, data={"declarer": 2, **GRAND})
    table_close(table=table)
    seats = {seat.number: seat for seat in Seat.objects.filter(table=table)}
    changes = {c.player_id: c for c in RatingChange.objects.filter(table=table)}
    assert set(changes) == {seat.player_id for seat in seats.values()}
    winner = seats[2].player_id
    assert changes[winner].place == 1
    others = [seats[n].player_id for n in (1, 3, 4)]
    # The declarer's win leaves the three others with equal list points: one shared place.
    assert {seats[n].list_points for n in (1, 3, 4)} == {0}
    assert {changes[p].place for p in others} == {2}
    assert len({(changes[p].mu, changes[p].sigma) for p in others}) == 1
    assert changes[winner].mu > START.mu > changes[others[0]].mu
    assert changes[winner].mu_before == START.mu
    assert changes[winner].order == order_key(tournament.date, tournament.pk, 1, table.number)
    rating = Rating.objects.get(player_id=winner)
    assert (rating.mu, rating.sigma, rating.series) == (
        changes[winner].mu,
        changes[winner].sigma,
        1,
    )


def test_a_table_closed_without_games_is_not_rated(club, four):
    tournament = short_tournament(club, four, date=datetime.date(2026, 3, 1), slug="t1")
    table = series_draw(tournament=tournament, seed=5).tables.get()
    table_close(table=table, short_reason="the hall closed")
    assert Table.objects.get(pk=table.pk).closed
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_table_of_fewer_than_two_seats_is_not_rated(club, four):
    tournament = short_tournament(club, four, date=datetime.date(2026, 3, 1), slug="t1")
    table = series_draw(tournament=tournament, seed=5).tables.get()
    game_record(table=table, data={"declarer": 2, **GRAND})
    Seat.objects.filter(table=table).exclude(number=2).delete()
    assert ratings_after_close(Table.objects.get(pk=table.pk)) == 0
    table_close(table=table)
    assert not RatingChange.objects.exists()


def test_closing_in_any_order_and_reopening_gives_the_numbers_of_a_recompute(club):
    rng = random.Random(29)
    players = [PlayerFactory(club=club) for _ in range(11)]
    early = short_tournament(club, players, date=datetime.date(2026, 1, 10), slug="early")
    late = short_tournament(club, players[2:], date=datetime.date(2026, 2, 7), slug="late")
    tables = draw_and_fill(late, rng, 3) + draw_and_fill(early, rng, 3)
    rng.shuffle(tables)
    for table in tables:
        table_close(table=table)
    # The late tournament's tables were closed among the early one's: replays happened.
    incremental = snapshot()
    assert len(incremental[1]) == 3 * 11 + 3 * 9
    reopened = tables[len(tables) // 2]
    table_reopen(table=reopened)
    assert not RatingChange.objects.filter(table=reopened).exists()
    without = snapshot()
    assert ratings_recompute() == (len(tables) - 1, len(players))
    assert snapshot() == without
    table_close(table=reopened, paper_totals=_paper(reopened))
    assert snapshot() == incremental
    ratings_recompute()
    assert snapshot() == incremental


def _paper(table):
    """The sheet's own totals, as the paper list would give them (a sheet closed before
    is closed again only with them)."""
    return {seat.number: seat.list_points for seat in Seat.objects.filter(table=table)}


def test_reopening_a_table_takes_its_steps_back_and_replays_the_later_ones(club, four):
    rng = random.Random(3)
    tournament = short_tournament(club, four, date=datetime.date(2026, 3, 1), slug="t1")
    first, second = draw_and_fill(tournament, rng, 2)
    table_close(table=first)
    after_first = snapshot()
    table_close(table=second)
    table_reopen(table=first)
    # Only the second table remains, rated from the start.
    changes = RatingChange.objects.filter(table=second)
    assert {c.mu_before for c in changes} == {START.mu}
    assert not RatingChange.objects.filter(table=first).exists()
    assert set(Rating.objects.values_list("series", flat=True)) == {1}
    table_reopen(table=second)
    assert snapshot() == ([], [])
    table_close(table=first, paper_totals=_paper(first))
    assert snapshot() == after_first


def test_a_tournament_moved_to_an_earlier_date_is_replayed_in_its_new_place(club):
    rng = random.Random(7)
    players = [PlayerFactory(club=club) for _ in range(7)]
    one = short_tournament(club, players, date=datetime.date(2026, 1, 10), slug="one")
    two = short_tournament(club, players, date=datetime.date(2026, 2, 7), slug="two")
    for table in draw_and_fill(one, rng, 2) + draw_and_fill(two, rng, 2):
        table_close(table=table)
    tournament_update(tournament=two, date=datetime.date(2026, 1, 3))
    moved = snapshot()
    assert {c[2][:10] for c in moved[1]} == {"2026-01-03", "2026-01-10"}
    ratings_recompute()
    assert snapshot() == moved


def test_the_update_after_a_close_takes_a_bounded_number_of_queries(
    club, django_assert_max_num_queries
):
    rng = random.Random(11)
    players = [PlayerFactory(club=club) for _ in range(8)]
    tournament = short_tournament(club, players, date=datetime.date(2026, 3, 1), slug="t1")
    tables = draw_and_fill(tournament, rng, 2)
    for table in tables[:2]:
        table_close(table=table)
    for table in tables[2:]:
        Table.objects.filter(pk=table.pk).update(closed=True)
        with django_assert_max_num_queries(6):
            assert (
                ratings_after_close(
                    Table.objects.select_related("series__tournament").get(pk=table.pk)
                )
                == 4
            )


def test_an_imported_old_tournament_takes_its_place_in_the_order(club):
    rng = random.Random(13)
    players = [PlayerFactory(club=club) for _ in range(7)]
    old = short_tournament(club, players, date=datetime.date(2025, 5, 1), slug="old")
    new = short_tournament(club, players, date=datetime.date(2026, 2, 7), slug="new")
    for table in draw_and_fill(old, rng, 2) + draw_and_fill(new, rng, 2):
        table_close(table=table)
    document = export_document(old)
    before = snapshot()
    # Replaced by itself: its tables are rated again before the later tournament's.
    import_document(document, replace=True)
    assert len(snapshot()[1]) == len(before[1])
    replaced = snapshot()
    ratings_recompute()
    assert snapshot() == replaced
    assert [c[1:] for c in replaced[1] if c[2] > "2026"] != []


def test_recompute_scores_replays_the_ratings(club):
    rng = random.Random(17)
    players = [PlayerFactory(club=club) for _ in range(4)]
    tournament = short_tournament(club, players, date=datetime.date(2026, 3, 1), slug="t1")
    (table,) = draw_and_fill(tournament, rng, 1)
    table_close(table=table)
    expected = snapshot()
    RatingChange.objects.all().delete()
    call_command("recompute_scores", "t1", stdout=io.StringIO())
    assert snapshot() == expected


def test_a_merged_players_ratings_replay_from_their_first_result(club):
    rng = random.Random(23)
    players = [PlayerFactory(club=club) for _ in range(8)]
    kept, twin = players[0], PlayerFactory(club=club)
    one = short_tournament(club, players, date=datetime.date(2026, 1, 10), slug="one")
    two = short_tournament(club, [twin, *players[1:]], date=datetime.date(2026, 2, 7), slug="two")
    for table in draw_and_fill(one, rng, 2) + draw_and_fill(two, rng, 2):
        table_close(table=table)
    # The merge (another service) moves the twin's seats to the player kept.
    Seat.objects.filter(player=twin).update(player=kept)
    RatingChange.objects.filter(player=twin).delete()
    Rating.objects.filter(player=twin).delete()
    assert ratings_recompute_for(kept) == 8
    merged = snapshot()
    assert Rating.objects.get(player=kept).series == 4
    ratings_recompute()
    assert snapshot() == merged


def test_a_closed_sheets_new_order_is_replayed_when_its_totals_are_written(club, four):
    tournament = short_tournament(club, four, date=datetime.date(2026, 3, 1), slug="t1")
    first, second = (series_draw(tournament=tournament, seed=seed).tables.get() for seed in (5, 6))
    for table in (first, second):
        game_record(table=table, data={"declarer": 2, **GRAND})
        table_close(table=table)
    before = snapshot()
    # As a dispute settled after the close would: the game moves to seat 3 (the stored
    # values stay), and the sheet's totals are written again.
    Game.objects.filter(table=first).update(declarer=3)
    with sheet_write(first):
        pass
    seat_3 = Seat.objects.get(table=first, number=3).player_id
    assert RatingChange.objects.get(table=first, player_id=seat_3).place == 1
    replayed = snapshot()
    assert replayed != before
    ratings_recompute()
    assert snapshot() == replayed
    # Written again without a change of order: nothing to replay.
    with sheet_write(first):
        pass
    assert snapshot() == replayed
