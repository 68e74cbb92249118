"""After a merge (and its undo) the shared page cache shows no stale name: the standings
and tables of every tournament whose rows moved are read afresh, the absorbed player's
page is gone."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory
from tournaments.draw.services import series_draw
from tournaments.models import Player
from tournaments.people.services import player_merge, player_merge_undo

pytestmark = pytest.mark.django_db


@pytest.fixture
def merged_pages(tournament):
    kept = PlayerFactory(club=ClubFactory(), name="Hans Müller")
    absorbed = PlayerFactory(club=tournament.club, name="Hänschen Doppelt")
    RegistrationFactory(tournament=tournament, player=absorbed)
    for _ in range(3):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=tournament.club))
    series_draw(tournament=tournament, seed=1)
    pages = [
        reverse("tournament_detail", kwargs={"tournament": tournament.slug}),
        reverse("series_detail", kwargs={"tournament": tournament.slug, "series": 1}),
    ]
    return kept, absorbed, pages


def test_standings_show_the_kept_name_at_once_after_a_merge_and_back_after_its_undo(
    page_cache, merged_pages
):
    kept, absorbed, pages = merged_pages
    client = Client()
    for url in pages:  # cached with B's name
        assert "Hänschen Doppelt" in client.get(url).content.decode()
    player_page = reverse("player_detail", kwargs={"pk": absorbed.pk})
    assert client.get(player_page).status_code == 200
    merge = player_merge(kept=kept, absorbed=absorbed)
    for url in pages:
        html = client.get(url).content.decode()
        assert "Hänschen Doppelt" not in html and "Hans Müller" in html
    assert client.get(player_page).status_code == 404
    player_merge_undo(merge=merge)
    assert Player.objects.filter(pk=absorbed.pk).exists()
    for url in pages:
        assert "Hänschen Doppelt" in client.get(url).content.decode()
    assert client.get(player_page).status_code == 200
