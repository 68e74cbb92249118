"""Importing a player list: CSV and Excel, the preview, bad rows, all-or-nothing."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Club, Player, Registration
from tournaments.registry.player_import import ImportFileError, read_player_list
from tournaments.registry.services import players_import, registration_add

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
    """(Guest clubs are created by the site administrator's import only.)"""
    known = PlayerFactory(club=club, name="Anna Schmidt")
    report = read_player_list("liste.csv", CSV.encode("utf-8"))
    result = players_import(
        tournament=tournament,
        rows=[r.as_dict() for r in report.rows],
        user=UserFactory(is_superuser=True),
    )
    assert (result.created, result.reused, result.registered) == (1, 1, 2)
    assert Registration.objects.filter(tournament=tournament, player=known).exists()
    assert Player.objects.get(name="Jörg Łukasz").club.name == "Skatclub Leipzig"


@pytest.mark.django_db
def test_preview_then_confirm_through_the_page(client_for, secretary, tournament):
    # A guest of another club is linked, not created (issue 27, defect 11).
    PlayerFactory(club=ClubFactory(name="Skatclub Leipzig"), name="Jörg Łukasz")
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


def test_a_row_without_club_and_a_row_with_the_home_club_are_the_same_player():
    data = b"Name;Verein\nAnna Neu;\nAnna Neu;Skatfreunde Altenburg\n"
    report = read_player_list("liste.csv", data, home_club="Skatfreunde Altenburg")
    assert [r.line for r in report.rows] == [2]
    assert report.errors == [(3, "Anna Neu is listed twice (line 2)")]


def test_two_names_with_one_federation_number_are_the_same_player():
    data = b"Name;Verein;Mitgliedsnummer\nAnna Neu;;77\nAnne Neu;;77\nOtto;Gast;77\n"
    report = read_player_list("liste.csv", data, home_club="Skatfreunde Altenburg")
    assert [r.line for r in report.rows] == [2, 4]  # another club may use the same number
    assert report.errors == [(3, "federation number 77 is listed twice (line 2)")]


def test_a_club_not_on_the_site_is_marked_new():
    data = b"Name;Verein\nA;\nB;skatclub leipzig\nC;Neuer Verein\n"
    report = read_player_list(
        "liste.csv", data, home_club="Skatfreunde Altenburg", known_clubs=["Skatclub Leipzig"]
    )
    assert [r.new_club for r in report.rows] == [False, False, True]


@pytest.mark.parametrize("text", ["Anna\x01Neu", "Anna\x7fNeu"])
def test_a_name_with_a_control_character_is_a_bad_row(text):
    data = f"Name;Mannschaft\n{text};\nOtto;Team\x02 1\nEmma;\n".encode()
    report = read_player_list("liste.csv", data)
    assert [r.name for r in report.rows] == ["Emma"]
    assert [line for line, _ in report.errors] == [2, 3]
    assert "control character" in report.errors[0][1]


def test_a_csv_cell_over_the_readers_limit_is_refused():
    data = ("Name\n" + "A" * 200_000 + "\n").encode()
    with pytest.raises(ImportFileError, match="cell is too long"):
        read_player_list("liste.csv", data)


def test_an_unclosed_quote_over_the_limit_is_refused():
    data = ('Name;Verein\n"Anna' + "x" * 140_000 + "\n").encode()
    with pytest.raises(ImportFileError, match="cannot be read as CSV"):
        read_player_list("liste.csv", data)


def xlsx_bytes(rows) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_an_excel_file_with_damaged_sheet_xml_is_refused():
    import zipfile

    good = xlsx_bytes([["Name"], *[[f"Player {n}"] for n in range(50)]])
    damaged = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as source, zipfile.ZipFile(damaged, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                content = content[: len(content) // 2]  # cut off in the middle of a row
            target.writestr(item, content)
    with pytest.raises(ImportFileError, match="Excel"):
        read_player_list("liste.xlsx", damaged.getvalue())


@pytest.mark.django_db
def test_confirming_a_list_with_one_player_twice_registers_once(
    client_for, secretary, tournament, club
):
    PlayerFactory(club=club, name="Bob Alt", federation_number="5")
    # Line 3 names the known player by name, line 2 by his number: the preview cannot
    # know they are the same, the import must not fail.
    data = (
        b"Name;Verein;Mitgliedsnummer\nRobert Alt;;5\nBob Alt;;\n"
        b"Anna Neu;;\nAnna Neu;Skatfreunde Altenburg;\n"
    )
    client = client_for(secretary)
    url = reverse("manage:registration_import", kwargs={"tournament": tournament.slug})
    preview = client.post(url, {"file": SimpleUploadedFile("liste.csv", data)})
    assert "Anna Neu is listed twice (line 4)" in preview.content.decode()
    response = client.post(url, {"confirm": "1"}, follow=True)
    assert response.status_code == 200
    assert "2 registered" in response.content.decode()
    assert Registration.objects.filter(tournament=tournament).count() == 2


def test_registration_add_skips_repeats(tournament, club, db):
    anna = PlayerFactory(club=club)
    assert registration_add(tournament=tournament, players=[anna, anna]) == 1
    assert registration_add(tournament=tournament, players=[anna]) == 0


@pytest.mark.django_db
def test_the_preview_shows_new_clubs(client_for, secretary, tournament):
    """Only the site administrator's import creates a club; a secretary's preview refuses
    the row (issue 27, defect 11)."""
    data = b"Name;Verein\nA;\nB;Ganz Neuer Verein\n"
    url = reverse("manage:registration_import", kwargs={"tournament": tournament.slug})
    admin = UserFactory(is_superuser=True)
    page = client_for(admin).post(url, {"file": SimpleUploadedFile("l.csv", data)})
    assert page.content.decode().count("new club") == 1
    page = client_for(secretary).post(url, {"file": SimpleUploadedFile("l.csv", data)})
    assert "new club" not in page.content.decode()
    assert "line 3: club “Ganz Neuer Verein” is not on the site" in page.content.decode()


@pytest.mark.django_db
def test_an_anonymous_upload_is_sent_to_sign_in(client, tournament):
    url = reverse("manage:registration_import", kwargs={"tournament": tournament.slug})
    upload = SimpleUploadedFile("liste.csv", CSV.encode("utf-8"))
    response = client.post(url, {"file": upload})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert not Player.objects.filter(name="Jörg Łukasz").exists()
