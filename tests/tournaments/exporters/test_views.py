"""The downloads (exporters/views.py): public files of a published tournament, the blank
sheets and the table list for the club's secretaries, and 404 for what does not exist."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PDF = "application/pdf"

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def public_downloads(slug):
    return [
        (reverse("export_standings_pdf", kwargs={"tournament": slug}), PDF, f"{slug}-results.pdf"),
        (reverse("export_workbook", kwargs={"tournament": slug}), XLSX, f"{slug}.xlsx"),
        (
            reverse("export_table_sheet", kwargs={"tournament": slug, "series": 1, "table": 1}),
            PDF,
            f"{slug}-series-1-table-1.pdf",
        ),
    ]


def manage_downloads(slug):
    kwargs = {"tournament": slug, "series": 1}
    return [
        (
            reverse("manage:export_blank_sheets", kwargs=kwargs),
            PDF,
            f"{slug}-series-1-sheets.pdf",
        ),
        (reverse("manage:export_assignments", kwargs=kwargs), PDF, f"{slug}-series-1-tables.pdf"),
    ]


def test_public_downloads(client, tournament, worked_table):
    for url, content_type, filename in public_downloads(tournament.slug):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == content_type
        assert response["Content-Disposition"] == f'attachment; filename="{filename}"'


def test_results_pdf_view_takes_the_category(client, tournament, worked_table):
    url = reverse("export_standings_pdf", kwargs={"tournament": tournament.slug})
    response = client.get(url, {"category": "ladies"})
    assert response["Content-Disposition"].endswith('-results-ladies.pdf"')
    assert client.get(url, {"category": "bogus"}).status_code == 200


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 404), ("player", 404), ("other_club_secretary", 404), ("secretary", 200)],
)
def test_downloads_of_an_unpublished_tournament(who, status, request, client_for, tournament):
    tournament.published = False
    tournament.save()
    request.getfixturevalue("worked_table")
    client = client_for(request.getfixturevalue(who))
    for url, _type, _name in public_downloads(tournament.slug):
        assert client.get(url).status_code == status, url


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("player", 403), ("other_club_secretary", 403), ("secretary", 200)],
)
def test_blank_sheets_and_assignments_are_for_the_secretaries(
    who, status, request, client_for, tournament, worked_table
):
    client = client_for(request.getfixturevalue(who))
    for url, content_type, filename in manage_downloads(tournament.slug):
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(reverse("login"))
        if status == 200:
            assert response["Content-Type"] == content_type
            assert filename in response["Content-Disposition"]


def test_downloads_of_an_unknown_series_or_table_are_404(client, tournament, worked_table):
    slug = tournament.slug
    url = reverse("export_table_sheet", kwargs={"tournament": slug, "series": 1, "table": 9})
    assert client.get(url).status_code == 404
    url = reverse("export_table_sheet", kwargs={"tournament": slug, "series": 2, "table": 1})
    assert client.get(url).status_code == 404
