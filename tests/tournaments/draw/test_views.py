"""The secretary's draw pages: drawing a series, the series page, redrawing and swapping seats."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.helpers import confirmation_posting, form_posting
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
        asked = client.post(
            reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1}),
            data,
        )
        assert Series.objects.get().draw_seed == 3  # it asks first (issue 27, defect 6)
        response = client.post(*confirmation_posting(asked.content.decode()), follow=True)
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


class TestPreviewCountsWhomTheDrawSeats:
    """Issue 27, defect 4: "10 players: 2 tables of 5", then the draw seated 9. The desk's
    preview and the draw take their players from one selector (`drawn_registrations`)."""

    def test_a_withdrawn_player_is_counted_neither_in_the_preview_nor_in_the_draw(
        self, client_for, secretary, tournament
    ):
        registrations = [
            RegistrationFactory(tournament=tournament, player=PlayerFactory(club=tournament.club))
            for _ in range(10)
        ]
        registrations[0].withdrawn = True
        registrations[0].save(update_fields=["withdrawn"])
        client = client_for(secretary)
        page = client.get(reverse("manage:tournament", args=[tournament.slug])).content.decode()
        # 9 players (rules §4): (−9 mod 4) = 3 three-tables and no four-table.
        assert "9 players: 3 tables of 3." in page
        assert "10 players:" not in page
        client.post(
            reverse("manage:series_draw", kwargs={"tournament": tournament.slug}),
            {"method": "random", "keep_apart": "team", "seed": "4"},
        )
        series = Series.objects.get(tournament=tournament)
        assert sorted(series.tables.values_list("size", flat=True)) == [3, 3, 3]
        assert registrations[0].player_id not in set(
            Seat.objects.filter(series=series).values_list("player_id", flat=True)
        )

    def test_a_match_day_preview_splits_each_venue_as_the_draw_does(
        self, client_for, league_director, match_day
    ):
        """Two venues of 8 players each; three of Altenburg's withdraw: 5 there and 8 at
        Zeitz. 13 players would make 1 table of 4 and 3 of 3, but the draw seats each
        venue at its own tables and 5 cannot be split (rules §4): the preview says so."""
        altenburg = match_day.venues.get(name="Altenburg")
        players = [e.player_id for e in altenburg.teams.get(name="Altenburg I").roster.all()]
        withdrawn = match_day.registrations.filter(player_id__in=players[:3])
        assert withdrawn.count() == 3
        withdrawn.update(withdrawn=True)
        client = client_for(league_director)
        page = client.get(reverse("manage:tournament", args=[match_day.slug])).content.decode()
        assert "13 players cannot be split" in page
        response = client.post(
            reverse("manage:series_draw", kwargs={"tournament": match_day.slug}),
            {"method": "random", "keep_apart": "team"},
            follow=True,
        )
        assert "5 players cannot be split" in response.content.decode()
        assert not match_day.series.exists()
        match_day.registrations.filter(player_id=players[0]).update(withdrawn=False)
        page = client.get(reverse("manage:tournament", args=[match_day.slug])).content.decode()
        # 6 at Altenburg (two tables of 3) and 8 at Zeitz (two of 4).
        assert "14 players: 2 tables of 4 and 2 tables of 3." in page
        series = series_draw(tournament=match_day, seed=2)
        assert sorted(series.tables.values_list("size", flat=True)) == [3, 3, 4, 4]


class TestIrreversibleSeriesActionsAsk:
    """Issue 27, defect 6: removing a series or drawing it again cannot be undone; the
    first POST changes nothing and answers with a page that asks (no JavaScript needed)."""

    def action_url(self, tournament):
        return reverse("manage:series_action", kwargs={"tournament": tournament.slug, "series": 1})

    def test_removing_a_series_asks_first(self, client_for, secretary, tournament, series):
        client = client_for(secretary)
        asked = client.post(self.action_url(tournament), {"action": "delete"})
        page = asked.content.decode()
        assert asked.status_code == 200
        assert "Nothing has been changed yet" in page and "Remove series 1" in page
        assert Series.objects.filter(pk=series.pk).exists()
        response = client.post(*confirmation_posting(page), follow=True)
        assert "The series was removed." in response.content.decode()
        assert not Series.objects.filter(pk=series.pk).exists()

    def test_drawing_again_asks_first(self, client_for, secretary, tournament, series):
        client = client_for(secretary)
        seats = list(Seat.objects.filter(series=series).values_list("pk", "player_id"))
        asked = client.post(
            self.action_url(tournament), {"action": "redraw", "keep_apart": "none", "seed": "9"}
        )
        assert "Draw series 1 again?" in asked.content.decode()
        assert list(Seat.objects.filter(series=series).values_list("pk", "player_id")) == seats
        url, data = confirmation_posting(asked.content.decode())
        assert (data["seed"], data["keep_apart"]) == (["9"], ["none"])
        client.post(url, data)
        assert Series.objects.get(pk=series.pk).draw_seed == 9
