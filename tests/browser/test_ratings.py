"""The rating pages on a phone (390 px wide): the site's list, a club's, the method page and
a player's rating block fit the screen without scrolling sideways."""

import datetime

import pytest

from tests.browser.conftest import en
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.ratings.helpers import mu_of, rated
from tournaments.draw.services import series_draw
from tournaments.models import RatingChange, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390


def test_the_rating_pages_fit_a_phone(live_server, browser):
    club = ClubFactory(name="Skatfreunde Altenburg-Nord 1923 e. V.")
    tournament = TournamentFactory(club=club)
    players = [
        PlayerFactory(name=f"Maximiliane Mustermann-Schulze {n}", club=club) for n in range(12)
    ]
    for number, player in enumerate(players):
        rated(player, 1480 + 11 * number, sigma=1.7)
        RegistrationFactory(tournament=tournament, player=player)
    player = players[0]
    # Four series: four steps of the player's history (one per table).
    for step in range(4):
        series = series_draw(tournament=tournament, seed=step + 1)
        RatingChange.objects.create(
            player=player,
            table=Seat.objects.get(series=series, player=player).table,
            played_on=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * step),
            order=f"{step:04d}",
            place=1 + step % 4,
            mu_before=mu_of(1500 + 15 * step),
            sigma_before=3.0,
            mu=mu_of(1515 + 15 * step),
            sigma=3.0 - step / 4,
        )
    context = browser.new_context(locale="en-US", viewport={"width": PHONE, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    for path in (
        en("rating_list"),
        en("club_ratings", club=club.pk),
        en("rating_method"),
        en("player_detail", pk=player.pk),
    ):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE, path
    page.goto(live_server.url + en("player_detail", pk=player.pk))
    assert page.locator("svg.rating-chart circle").count() == 4
    context.close()
