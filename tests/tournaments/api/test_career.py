"""The API's career fields and head to head (issue 29): the page's figures, from the same
selectors, on the hand-built history of tests/tournaments/careers/history.py."""

import pytest
from django.urls import reverse

from tests.tournaments.careers.history import build_history


@pytest.fixture
def history(club):
    return build_history(club)


def test_the_player_answer_has_the_pages_career(client, history):
    answer = client.get(f"/api/v1/players/{history.p.pk}").json()
    career = client.get(reverse("player_detail", kwargs={"pk": history.p.pk})).context["career"]
    assert answer["clubs"] == career.clubs == ["Skatfreunde Altenburg", "Skatclub Zeitz"]
    assert answer["average_48"] == career.average == 1020.0
    assert [
        (t["tournament"], t["place"], t["players"], t["series"], t["list_points"], t["club"])
        for t in answer["tournament_results"]
    ] == [
        (
            t.tournament.slug,
            t.place,
            t.players,
            len(t.series),
            t.list_points,
            t.tournament.club.name,
        )
        for t in career.tournaments
    ]
    assert [(t["name"], t["place"]) for t in answer["tournament_results"]] == [
        ("Mai", None),
        ("Frühjahr", 2),
    ]
    assert (
        [(h["place_at_table"], h["players_at_table"], h["scaled_48"]) for h in answer["history"]]
        == [(s.place, s.at_table, s.scaled) for s in career.series]
        == [(2, 4, 900.0), (1, 3, 1200.0), (1, 3, 960.0)]
    )
    assert answer["years"] == [
        {"year": y.year, "series": y.series, "average_48": y.average} for y in career.years
    ]
    assert [(f["scaled_48"], f["moving_average"]) for f in answer["form"]] == [
        (900.0, 900.0),
        (1200.0, 1050.0),
        (960.0, 1020.0),
    ]
    assert [(m["name"], m["tables"]) for m in answer["table_mates"]] == [
        (m.name, m.tables) for m in career.mates
    ]
    assert answer["seasons"] == []


def test_head_to_head_answer_is_the_pages(client, history):
    answer = client.get(f"/api/v1/players/{history.p.pk}/vs/{history.q.pk}").json()
    url = reverse("head_to_head", kwargs={"pk": history.p.pk, "other": history.q.pk})
    h2h = client.get(url).context["h2h"]
    figures = (answer["together"], answer["above"], answer["tied"], answer["below"])
    assert figures == (h2h.together, h2h.above, h2h.tied, h2h.below) == (3, 1, 1, 1)
    assert [
        (m["tournament"], m["series"], m["list_points"], m["other_list_points"], m["outcome"])
        for m in answer["meetings"]
    ] == [
        (history.may.slug, 1, 720, 600, "above"),
        (history.spring.slug, 2, 900, 900, "tied"),
        (history.spring.slug, 1, 900, 1000, "below"),
    ]
    assert (answer["player"], answer["other"]) == ("Paula Pohl", "Quirin Quast")


def test_head_to_head_answer_counts_the_draft_for_its_secretary(client_for, secretary, history):
    answer = client_for(secretary).get(f"/api/v1/players/{history.p.pk}/vs/{history.q.pk}")
    assert (answer.json()["together"], answer.json()["above"]) == (4, 2)


def test_head_to_head_answers_304_and_404(client, history):
    url = f"/api/v1/players/{history.p.pk}/vs/{history.q.pk}"
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(f"/api/v1/players/{history.p.pk}/vs/{history.p.pk}").status_code == 404
    assert client.get(f"/api/v1/players/{history.p.pk}/vs/999999").status_code == 404
    assert client.get(f"/api/v1/players/{history.p.pk}/vs/x").status_code == 422
