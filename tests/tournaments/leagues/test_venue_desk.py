"""A venue secretary's tools: the dashboard leads to their venues; a venue's page holds its
own tables with the players seated there, each table's phone links with their QR codes and
its sheet PDF, and the venue's sheets as one PDF; another venue's private links stay out of
reach (the page, the QR codes, the PDFs, the link buttons)."""

import io

import pytest
from django.urls import reverse

from tests.tournaments.exporters.helpers import pdf_pages
from tournaments.draw.services import series_draw
from tournaments.models import Table

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(match_day):
    """Series 1 drawn: tables 1 and 2 at "Altenburg", 3 and 4 at "Zeitz", each with its
    phone link."""
    series_draw(tournament=match_day, seed=11)
    return match_day


def venue_of(day, name):
    return day.venues.get(name=name)


def venue_url(day, name):
    venue = venue_of(day, name)
    return reverse("manage:venue", kwargs={"tournament": day.slug, "venue": venue.pk})


def tables_at(day, name):
    return list(
        Table.objects.filter(series__tournament=day, venue__name=name)
        .prefetch_related("seats__player")
        .order_by("number")
    )


def table_kwargs(table):
    return {
        "tournament": table.series.tournament.slug,
        "series": table.series.number,
        "table": table.number,
    }


def entry_address(token):
    return f"http://testserver{reverse('entry', kwargs={'token': token})}"


def pdf_links(content: bytes) -> set[str]:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return {
        str(annotation.get_object()["/A"]["/URI"])
        for page in reader.pages
        for annotation in page.get("/Annots") or []
        if annotation.get_object().get("/A")
    }


def test_the_dashboard_lists_a_venue_secretarys_venues_and_match_days(
    client_for, venue_secretary, match_day
):
    text = client_for(venue_secretary).get(reverse("manage:dashboard")).content.decode()
    assert "not a secretary of any club" not in text
    assert "Your venues" in text
    assert match_day.name in text and "Altenburg" in text
    assert venue_url(match_day, "Altenburg") in text
    assert venue_url(match_day, "Zeitz") not in text


def test_the_dashboard_still_tells_a_user_without_a_role_whom_to_ask(client_for, player):
    text = client_for(player).get(reverse("manage:dashboard")).content.decode()
    assert "not a secretary of any club" in text and "Your venues" not in text


def test_the_venue_page_holds_its_tables_players_links_qr_codes_and_pdfs(
    client_for, venue_secretary, drawn
):
    response = client_for(venue_secretary).get(venue_url(drawn, "Altenburg"))
    assert response.status_code == 200
    text = response.content.decode()
    own, other = tables_at(drawn, "Altenburg"), tables_at(drawn, "Zeitz")
    assert [t.number for t in own] == [1, 2] and [t.number for t in other] == [3, 4]
    for table in own:
        kwargs = table_kwargs(table)
        for seat in table.seats.all():
            assert seat.player.name in text
        assert entry_address(table.entry_token) in text
        assert reverse("manage:entry_qr", kwargs=kwargs) in text
        assert reverse("manage:export_table_sheet", kwargs=kwargs) in text
        assert reverse("manage:sheet", kwargs=kwargs) in text
    assert (
        reverse(
            "manage:export_venue_sheets",
            kwargs={
                "tournament": drawn.slug,
                "series": 1,
                "venue": venue_of(drawn, "Altenburg").pk,
            },
        )
        in text
    )
    for table in other:
        kwargs = table_kwargs(table)
        assert table.entry_token not in text
        assert reverse("manage:entry_qr", kwargs=kwargs) not in text
        for seat in table.seats.all():
            assert seat.player.name not in text


def test_a_venue_secretary_gets_their_own_tables_qr_codes_and_sheets(
    client_for, venue_secretary, drawn
):
    client = client_for(venue_secretary)
    for table in tables_at(drawn, "Altenburg"):
        kwargs = table_kwargs(table)
        qr = client.get(reverse("manage:entry_qr", kwargs=kwargs))
        assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
        sheet = client.get(reverse("manage:export_table_sheet", kwargs=kwargs))
        assert sheet.status_code == 200
        assert pdf_links(sheet.content) == {entry_address(table.entry_token)}
        (page,) = pdf_pages(sheet.content)
        assert all(seat.player.name in page for seat in table.seats.all())


def test_the_venues_sheets_pdf_holds_its_own_tables_only(client_for, venue_secretary, drawn):
    url = reverse(
        "manage:export_venue_sheets",
        kwargs={"tournament": drawn.slug, "series": 1, "venue": venue_of(drawn, "Altenburg").pk},
    )
    response = client_for(venue_secretary).get(url)
    assert response.status_code == 200
    own, other = tables_at(drawn, "Altenburg"), tables_at(drawn, "Zeitz")
    assert pdf_links(response.content) == {entry_address(t.entry_token) for t in own}
    pages = pdf_pages(response.content)
    assert len(pages) == len(own)
    text = "\n".join(pages)
    assert all(seat.player.name in text for t in own for seat in t.seats.all())
    assert not any(seat.player.name in text for t in other for seat in t.seats.all())


def test_a_venue_secretary_gets_no_other_venues_private_links(client_for, venue_secretary, drawn):
    client = client_for(venue_secretary)
    zeitz = venue_of(drawn, "Zeitz")
    series = {"tournament": drawn.slug, "series": 1}
    refused = [
        venue_url(drawn, "Zeitz"),
        reverse("manage:export_venue_sheets", kwargs={**series, "venue": zeitz.pk}),
        # The whole series' sheets and table list carry every venue's codes.
        reverse("manage:export_blank_sheets", kwargs=series),
        reverse("manage:export_assignments", kwargs=series),
        reverse("manage:series", kwargs=series),
    ]
    for table in tables_at(drawn, "Zeitz"):
        kwargs = table_kwargs(table)
        refused += [
            reverse("manage:entry_qr", kwargs=kwargs),
            reverse("manage:export_table_sheet", kwargs=kwargs),
            reverse("manage:entry_confirm", kwargs=kwargs),
        ]
    for url in refused:
        response = client.get(url)
        assert response.status_code == 403, url
        for table in tables_at(drawn, "Zeitz"):
            assert table.entry_token.encode() not in response.content, url
    before = {t.pk: t.entry_token for t in tables_at(drawn, "Zeitz")}
    table = tables_at(drawn, "Zeitz")[0]
    response = client.post(
        reverse("manage:entry_link", kwargs=table_kwargs(table)), {"action": "reissue"}
    )
    assert response.status_code == 403
    assert {t.pk: t.entry_token for t in tables_at(drawn, "Zeitz")} == before


def test_a_venue_secretary_reissues_a_link_from_the_venue_page(client_for, venue_secretary, drawn):
    table = tables_at(drawn, "Altenburg")[0]
    page = venue_url(drawn, "Altenburg")
    old = table.entry_token
    url = reverse("manage:entry_link", kwargs=table_kwargs(table))
    response = client_for(venue_secretary).post(f"{url}?next={page}", {"action": "reissue"})
    assert response.status_code == 302 and response["Location"] == page
    table.refresh_from_db()
    assert table.entry_token and table.entry_token != old
    text = client_for(venue_secretary).get(page).content.decode()
    assert entry_address(table.entry_token) in text and old not in text


def test_the_league_director_sees_every_venues_page(client_for, league_director, drawn):
    for name in ("Altenburg", "Zeitz"):
        text = client_for(league_director).get(venue_url(drawn, name)).content.decode()
        for table in tables_at(drawn, name):
            assert entry_address(table.entry_token) in text


def test_a_venue_secretarys_sheet_links_no_desk_they_may_not_open(
    client_for, venue_secretary, drawn
):
    table = tables_at(drawn, "Altenburg")[0]
    text = (
        client_for(venue_secretary)
        .get(reverse("manage:sheet", kwargs=table_kwargs(table)))
        .content.decode()
    )
    desk = reverse("manage:tournament", kwargs={"tournament": drawn.slug})
    series = reverse("manage:series", kwargs={"tournament": drawn.slug, "series": 1})
    assert f'href="{desk}"' not in text and f'href="{series}"' not in text
    assert venue_url(drawn, "Altenburg") in text


def test_the_series_desk_keeps_its_table_cards(client_for, league_director, drawn):
    text = (
        client_for(league_director)
        .get(reverse("manage:series", kwargs={"tournament": drawn.slug, "series": 1}))
        .content.decode()
    )
    for name in ("Altenburg", "Zeitz"):
        for table in tables_at(drawn, name):
            kwargs = table_kwargs(table)
            assert entry_address(table.entry_token) in text
            assert reverse("manage:export_table_sheet", kwargs=kwargs) in text
    assert 'name="seat"' in text  # the swap's checkboxes, before the series starts


def test_a_played_tables_sheet_pdf_is_the_sheet_as_entered(client_for, venue_secretary, match_day):
    from tests.tournaments.leagues.helpers import play_series
    from tournaments.sheets.selectors import table_sheet

    match_day.published = False  # a draft match day: the public sheet is not theirs to see
    match_day.save()
    play_series(match_day, close=False)
    table = tables_at(match_day, "Altenburg")[0]
    response = client_for(venue_secretary).get(
        reverse("manage:export_table_sheet", kwargs=table_kwargs(table))
    )
    assert response.status_code == 200
    assert pdf_links(response.content) == set()  # no link on a sheet already played
    (page,) = pdf_pages(response.content, layout=True)
    for line in table_sheet(table).summary:
        assert f"{line.list_points:,}".replace(",", ".") in page or str(line.list_points) in page
