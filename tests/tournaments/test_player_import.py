"""Importing a player list: CSV and Excel, the preview, bad rows, all-or-nothing."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Club, Player, Registration
from tournaments.player_import import ImportFileError, read_player_list

CSV = (
    "Name;Verein;Mannschaft;Kategorie;Mitgliedsnummer\n"
    "Anna Schmidt;;Altenburg I;Damen;1001\n"
    "Jörg Łukasz;Skatclub Leipzig;;;\n"
    ";;;;\n"
    ";Skatclub Leipzig;;;\n"
    "Renée Weiß;;;Rentner;\n"
    "Anna Schmidt;;;;\n"
)


def test_csv_with_german_headers_and_bad_rows():
    report = read_player_list("liste.csv", CSV.encode("utf-8"))
    assert [(r.line, r.name, r.club, r.category) for r in report.rows] == [
        (2, "Anna Schmidt", "", "ladies"),
        (3, "Jörg Łukasz", "Skatclub Leipzig", ""),
    ]
    assert [line for line, _ in report.errors] == [5, 6, 7]
    reasons = dict(report.errors)
    assert "name is missing" in reasons[5]
    assert "Rentner" in reasons[6]
    assert "twice" in reasons[7]


def test_excel_with_first_and_last_name_columns():
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["First name", "Last name", "Team", "Federation number"])
    sheet.append(["Zoë", "Kowalski", "Grand Hand", 4711])
    buffer = io.BytesIO()
    workbook.save(buffer)
    report = read_player_list("players.xlsx", buffer.getvalue())
    assert [(r.name, r.team, r.federation_number) for r in report.rows] == [
        ("Zoë Kowalski", "Grand Hand", "4711")
    ]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("list.pdf", b"%PDF", "csv or an .xlsx"),
        ("list.xlsx", b"not a zip", "Excel"),
        ("list.csv", b"", "empty"),
        ("list.csv", b"Vorname;Ort\nA;B\n", "column"),
    ],
)
def test_unusable_files_are_refused_with_a_reason(name, data, message):
    with pytest.raises(ImportFileError, match=message):
        read_player_list(name, data)


@pytest.mark.django_db
def test_import_reuses_known_players_and_creates_guest_clubs(tournament, club):
    known = PlayerFactory(club=club, name="Anna Schmidt")
    report = read_player_list("liste.csv", CSV.encode("utf-8"))
    result = services.players_import(
        tournament=tournament, rows=[r.as_dict() for r in report.rows]
    )
    assert (result.created, result.reused, result.registered) == (1, 1, 2)
    assert Registration.objects.filter(tournament=tournament, player=known).exists()
    assert Player.objects.get(name="Jörg Łukasz").club.name == "Skatclub Leipzig"


@pytest.mark.django_db
def test_preview_then_confirm_through_the_page(client_for, secretary, tournament):
    client = client_for(secretary)
    url = reverse("manage:registration_import", kwargs={"tournament": tournament.slug})
    upload = SimpleUploadedFile("liste.csv", CSV.encode("utf-8"), content_type="text/csv")
    preview = client.post(url, {"file": upload})
    text = preview.content.decode()
    assert preview.status_code == 200
    assert "Jörg Łukasz" in text and "line 6" in text
    assert not Registration.objects.exists()  # nothing written before the confirmation
    response = client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=tournament).count() == 2


@pytest.mark.django_db
def test_confirm_without_preview_changes_nothing(client_for, secretary, tournament):
    url = reverse("manage:registration_import", kwargs={"tournament": tournament.slug})
    response = client_for(secretary).post(url, {"confirm": "1"}, follow=True)
    assert "expired" in response.content.decode()
    assert not Registration.objects.exists() and Club.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "status"), [("player", 403), ("other_club_secretary", 403)])
def test_only_the_clubs_secretary_imports(request, client_for, who, status, tournament):
    url = reverse("manage:registration_import", kwargs={"tournament": tournament.slug})
    upload = SimpleUploadedFile("liste.csv", CSV.encode("utf-8"))
    client = client_for(request.getfixturevalue(who))
    assert client.post(url, {"file": upload}).status_code == status
    assert not Player.objects.filter(name="Jörg Łukasz").exists()
