"""The career page ranks the final standings of the tournaments it lists only (a page of
50), with the same places as the whole career (`careers.selectors.player_career`), which
the API gives for every tournament."""

from django.urls import reverse

from tests.tournaments.public.test_career import _tournaments
from tournaments.careers import selectors
from tournaments.careers.selectors import player_career


def test_each_page_shows_the_places_of_the_whole_career(client, club, roster, monkeypatch):
    player, *mates = roster(4)
    _tournaments(club, player, mates, 55)
    whole = {t.tournament.pk: (t.place, t.players) for t in player_career(player).tournaments}
    assert all(place is not None for place, _players in whole.values())
    ranked = []
    final_places = selectors.final_places

    def counted(tournaments):
        ranked.append(len(tournaments))
        return final_places(tournaments)

    monkeypatch.setattr(selectors, "final_places", counted)
    url = reverse("player_detail", kwargs={"pk": player.pk})
    for number, shown in ((1, 50), (2, 5)):
        ranked.clear()
        response = client.get(f"{url}?tournaments={number}")
        rows = list(response.context["tournaments_page"])
        assert len(rows) == shown
        assert ranked == [shown]  # only the page's tournaments are ranked
        assert {t.tournament.pk: (t.place, t.players) for t in rows} == {
            t.tournament.pk: whole[t.tournament.pk] for t in rows
        }
        text = response.content.decode()
        assert f"place {rows[0].place} of {rows[0].players}" in text
        assert "Final results: the place in each finished tournament." in text
