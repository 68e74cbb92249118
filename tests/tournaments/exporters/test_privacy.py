"""The public's downloads follow the public pages for a player not listed publicly (issue
29): by initials where the club chose them; the director's copies (the same addresses
signed in as the club's secretary, and the manage downloads) keep every name."""

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.registry.clubs import club_settings_update
from tournaments.registry.services import player_update, season_create, tournament_update

pytestmark = pytest.mark.django_db

NAME, INITIALS, SURNAME = "Hans Müller", "H. M.", "Müller"


@pytest.fixture
def hidden(table, club):
    """Seat 1 of the worked example, not listed, in a club season; the club shows such
    players by initials."""
    enter(table, sheet_rows(WORKED_EXAMPLE, 4))
    player = table.seats.get(number=1).player
    player_update(player=player, name=NAME, team="Altenburg I", listed=False)
    season = season_create(club=club, name="Jahreswertung 2026")
    tournament_update(tournament=table.series.tournament, season=season)
    club_settings_update(club=club, initials_in_standings=True)
    return season


def downloads(tournament, season) -> dict[str, str]:
    slug = tournament.slug
    return {
        "results.pdf": reverse("export_standings_pdf", kwargs={"tournament": slug}),
        "workbook.xlsx": reverse("export_workbook", kwargs={"tournament": slug}),
        "sheet.pdf": reverse(
            "export_table_sheet", kwargs={"tournament": slug, "series": 1, "table": 1}
        ),
        "season.xlsx": reverse("season_workbook", kwargs={"season": season.slug}),
        "season.pdf": reverse("season_results_pdf", kwargs={"season": season.slug}),
    }


def text_of(name: str, content: bytes) -> str:
    if name.endswith(".pdf"):
        return "\n".join(pdf_pages(content))
    workbook = load_workbook(io.BytesIO(content), read_only=True)
    return "\n".join(
        str(value)
        for sheet in workbook.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if value is not None
    )


@pytest.mark.parametrize(
    "download", ["results.pdf", "workbook.xlsx", "sheet.pdf", "season.xlsx", "season.pdf"]
)
def test_the_publics_download_shows_initials(download, as_user, hidden, table):
    url = downloads(table.series.tournament, hidden)[download]
    response = as_user("anonymous").get(url)
    assert response.status_code == 200
    text = text_of(download, response.content)
    assert INITIALS in text
    assert SURNAME not in text


@pytest.mark.parametrize(
    "download", ["results.pdf", "workbook.xlsx", "sheet.pdf", "season.xlsx", "season.pdf"]
)
def test_the_secretarys_download_keeps_the_name(download, as_user, hidden, table):
    url = downloads(table.series.tournament, hidden)[download]
    text = text_of(download, as_user("secretary").get(url).content)
    assert NAME in text and INITIALS not in text


def test_without_the_clubs_choice_the_public_download_shows_the_name(as_user, hidden, table, club):
    club_settings_update(club=club, initials_in_standings=False)
    url = downloads(table.series.tournament, hidden)["results.pdf"]
    text = text_of("results.pdf", as_user("anonymous").get(url).content)
    assert NAME in text and INITIALS not in text


def test_the_money_workbook_keeps_the_name(as_user, hidden, table):
    url = reverse("manage:money_workbook", kwargs={"tournament": table.series.tournament.slug})
    text = text_of("money.xlsx", as_user("secretary").get(url).content)
    assert NAME in text and INITIALS not in text
