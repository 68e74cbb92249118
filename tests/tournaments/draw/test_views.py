"""The secretary's draw pages: drawing a series, the series page, redrawing and swapping seats."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import form_posting
from tournaments.draw.services import series_draw
from tournaments.models import Seat, Series

pytestmark = pytest.mark.django_db


class TestSecretaryFlow:
    def test_five_players_get_a_clear_message(self, client_for, secretary, tournament, club):
        for _ in range(5):
            RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
        client = client_for(secretary)
        response = client.post(
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team"},
            follow=True,
        )
        assert "5 players cannot be split" in response.content.decode()
        assert not Series.objects.exists()

    def test_swap_two_seats(self, client_for, secretary, tournament, series):
        a, b = series.tables.get().seats.order_by("number")[:2]
        client_for(secretary).post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "swap", "seat": [a.pk, b.pk]},
        )
        a.refresh_from_db()
        assert a.player_id == b.player_id


class TestSeriesPage:
    def series_url(self, tournament, number=1):
        return reverse("manage:series", kwargs={"tournament": tournament.slug, "series": number})

    def test_each_table_shows_the_length_of_its_own_size(self, client_for, secretary, club):
        """Issue 27, 3: a table of five showed "0/36", the 3-table length (rules §3.6, §4)."""
        tournament = TournamentFactory(
            club=club, slug="tournee-5", rules="na", five_tables=True, games_per_series_5=50
        )
        for p in PlayerFactory.create_batch(9, club=club):
            RegistrationFactory(tournament=tournament, player=p)
        series = series_draw(tournament=tournament, seed=7)  # a 4- and a 5-table
        assert sorted(series.tables.values_list("size", flat=True)) == [4, 5]
        page = client_for(secretary).get(self.series_url(tournament)).content.decode()
        assert "0/48" in page and "0/50" in page
        assert "0/36" not in page

    def test_draw_again_posts_what_the_page_offers(self, client_for, secretary, tournament):
        for p in PlayerFactory.create_batch(8, club=tournament.club):
            RegistrationFactory(tournament=tournament, player=p)
        series_draw(tournament=tournament, seed=3, keep_apart="club")
        client = client_for(secretary)
        page = client.get(self.series_url(tournament)).content.decode()
        data = form_posting(page, ("action", "redraw"))
        assert data["keep_apart"] == "club"  # the form starts from the series' own setting
        data["seed"] = "5"
        response = client.post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            data,
            follow=True,
        )
        assert "The series was drawn again." in response.content.decode()
        series = Series.objects.get()
        assert (series.draw_seed, series.keep_apart) == (5, "club")

    @pytest.mark.parametrize(
        "seats", [["abc", "1"], ["1", str(10**30)], ["1"], ["-1", "0"], ["1", "2", "3"]]
    )
    def test_swap_with_bad_seat_ids_gives_a_message(
        self, seats, client_for, secretary, tournament, series
    ):
        before = list(Seat.objects.order_by("pk").values_list("pk", "player_id"))
        response = client_for(secretary).post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            {"action": "swap", "seat": seats},
            follow=True,
        )
        assert response.status_code == 200
        assert "Choose exactly two seats to swap." in response.content.decode()
        assert list(Seat.objects.order_by("pk").values_list("pk", "player_id")) == before

    def test_players_who_met_before_are_flagged(self, client_for, secretary, tournament):
        for p in PlayerFactory.create_batch(4, club=tournament.club):
            RegistrationFactory(tournament=tournament, player=p)
        series_draw(tournament=tournament, seed=1)
        client = client_for(secretary)
        assert "met before" not in client.get(self.series_url(tournament)).content.decode()
        series_draw(tournament=tournament, seed=2)
        page = client.get(self.series_url(tournament, 2)).content.decode()
        assert page.count("met before") == 6  # four players at one table again: six pairs

    def test_the_warning_checks_what_the_draw_kept_apart(self, client_for, secretary, tournament):
        other = ClubFactory(name="Skatclub Gera")
        for p in [*PlayerFactory.create_batch(2, club=other), *PlayerFactory.create_batch(2)]:
            RegistrationFactory(tournament=tournament, player=p)
        series_draw(tournament=tournament, seed=1, keep_apart="club")
        page = client_for(secretary).get(self.series_url(tournament)).content.decode()
        assert "same club" in page
