"""The rating lists (`ratings.selectors.rating_list`): order, shared ranks, who is listed
in the site's, a club's and a league's list, the category filter; the draw's order."""

import pytest

from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.ratings.helpers import rated
from tournaments.models import Category, League, Membership, Season
from tournaments.ratings.method import SHOWN_FROM, shown
from tournaments.ratings.selectors import rating_list, rating_order

pytestmark = pytest.mark.django_db


def names(rows):
    return [row.player.name for row in rows]


def test_best_first_with_the_shown_figures():
    low = rated(PlayerFactory(name="Low"), 1420)
    high = rated(PlayerFactory(name="High"), 1610)
    rated(PlayerFactory(name="Mid"), 1500)
    rows = rating_list()
    assert names(rows) == ["High", "Mid", "Low"]
    assert [row.rank for row in rows] == [1, 2, 3]
    assert (rows[0].rating, rows[0].uncertainty) == shown(high.mu, high.sigma)
    assert (rows[2].rating, rows[2].uncertainty) == shown(low.mu, low.sigma)


def test_equal_shown_ratings_share_a_rank_and_the_next_rank_skips():
    rated(PlayerFactory(name="Anna"), 1550)
    rated(PlayerFactory(name="Bernd"), 1550)
    rated(PlayerFactory(name="Carla"), 1490)
    rows = rating_list()
    assert [(row.player.name, row.rank) for row in rows] == [
        ("Anna", 1),
        ("Bernd", 1),
        ("Carla", 3),
    ]


def test_below_the_shown_series_a_player_is_not_listed():
    rated(PlayerFactory(name="Newcomer"), 1700, series=SHOWN_FROM - 1)
    rated(PlayerFactory(name="Regular"), 1500, series=SHOWN_FROM)
    assert names(rating_list()) == ["Regular"]


def test_category_filter_keeps_that_category_only():
    rated(PlayerFactory(name="Lady", category=Category.LADIES), 1520)
    rated(PlayerFactory(name="Senior", category=Category.SENIORS), 1580)
    assert names(rating_list(category=Category.LADIES)) == ["Lady"]
    assert rating_list(category=Category.LADIES)[0].rank == 1


def test_a_clubs_list_holds_its_members_from_any_home_club():
    club, other = ClubFactory(), ClubFactory()
    home = rated(PlayerFactory(name="Home", club=club), 1500).player
    guest = rated(PlayerFactory(name="Guest", club=other), 1600).player
    rated(PlayerFactory(name="Stranger", club=other), 1700)
    Membership.objects.create(player=guest, club=club)
    assert names(rating_list(club=club)) == ["Guest", "Home"]
    assert home.club == club


def test_a_leagues_list_holds_the_players_seated_at_its_match_days(tournament, seated_series):
    league = League.objects.create(name="Ostliga", slug="ostliga")
    tournament.season = Season.objects.create(name="Ostliga 2026", slug="ol-26", league=league)
    tournament.save()
    seated = [seat.player for seat in seated_series(4).seats.all()]
    for number, player in enumerate(seated):
        rated(player, 1500 + 10 * number)
    rated(PlayerFactory(name="Elsewhere"), 1900)
    assert {row.player for row in rating_list(league=league)} == set(seated)
    assert "Elsewhere" in names(rating_list())


def test_the_draw_takes_the_rated_best_first_then_the_unrated_by_name():
    strong = rated(PlayerFactory(name="Strong"), 1700).player
    weak = rated(PlayerFactory(name="Weak"), 1400).player
    early = rated(PlayerFactory(name="Zed"), 1900, series=SHOWN_FROM - 1).player
    unrated = [PlayerFactory(name="Ölmann"), PlayerFactory(name="Berta")]
    order = rating_order([p.pk for p in (weak, *unrated, early, strong)])
    # Unrated: no rating, or one not shown yet; A–Z with Ö filed under O.
    assert order == [strong.pk, weak.pk, unrated[1].pk, unrated[0].pk, early.pk]
