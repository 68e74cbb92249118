"""Importing a player list is done once and stays in the importer's own clubs (issue 27,
defects 10 and 11).

- Confirming the preview twice (a double click: both requests read the session before
  either wrote it) registers every player once; the second is answered, not applied. On
  PostgreSQL two confirmations really run at once.
- A `club` column naming a club the importer does not run never creates a player there:
  a known player of that club is linked as a guest, any other row refused with its line.
  Only the site administrator's import creates clubs.
"""

import re
import threading

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.errors import UserError
from tournaments.models import Club, Player, Registration
from tournaments.registry.player_import import MAX_ROWS
from tournaments.registry.services import players_import

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
TEN = "Name\n" + "".join(f"Spieler {n}\n" for n in range(1, 11))


def import_url(tournament):
    return reverse("manage:registration_import", kwargs={"tournament": tournament.slug})


def preview(client, tournament, text: str) -> str:
    """Upload `text` as a CSV file; the preview page's HTML."""
    upload = SimpleUploadedFile("liste.csv", text.encode("utf-8"), content_type="text/csv")
    response = client.post(import_url(tournament), {"file": upload})
    assert response.status_code == 200
    return response.content.decode()


def once_of(page: str) -> str:
    """The confirmation's once key ("" on a page without one)."""
    found = re.search(r'name="once" value="([0-9a-f-]+)"', page)
    return found.group(1) if found else ""


# Defect 10: the same confirmation twice.


@pytest.mark.django_db
def test_a_double_clicked_confirmation_registers_each_player_once(
    client_for, secretary, tournament
):
    client = client_for(secretary)
    once = once_of(preview(client, tournament, TEN))
    # A double click: the second request read the session (with the previewed rows)
    # before the first one had taken them out of it.
    session = Session.objects.get()
    read_by_both = session.session_data
    first = client.post(import_url(tournament), {"confirm": "1", "once": once}, follow=True)
    assert "10 new players" in first.content.decode()
    Session.objects.filter(pk=session.pk).update(session_data=read_by_both)
    second = client.post(import_url(tournament), {"confirm": "1", "once": once}, follow=True)
    assert second.status_code == 200
    assert "confirmed twice and counts once" in second.content.decode()
    assert Player.objects.filter(name__startswith="Spieler").count() == 10
    assert Registration.objects.filter(tournament=tournament).count() == 10


@pytest.mark.django_db
def test_a_confirmation_sent_again_after_it_was_done_is_answered_not_expired(
    client_for, secretary, tournament
):
    client = client_for(secretary)
    once = once_of(preview(client, tournament, TEN))
    client.post(import_url(tournament), {"confirm": "1", "once": once})
    again = client.post(import_url(tournament), {"confirm": "1", "once": once}, follow=True)
    assert "counts once" in again.content.decode()
    assert "expired" not in again.content.decode()
    assert Player.objects.filter(name__startswith="Spieler").count() == 10


@pytest.mark.skipif(not ON_POSTGRES, reason="two confirmations at once need PostgreSQL")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_once_key", [True, False], ids=["once key", "no once key"])
def test_two_confirmations_at_once_register_each_player_once(club, with_once_key):
    from tests.factories import TournamentFactory

    user = UserFactory()
    club.secretaries.add(user)
    tournament = TournamentFactory(club=club, slug="import-at-once")
    first = Client()
    first.force_login(user)
    once = once_of(preview(first, tournament, TEN))
    second = Client()
    second.cookies = first.cookies  # the same browser: one session, both with the rows
    post = {"confirm": "1", **({"once": once} if with_once_key else {})}
    barrier = threading.Barrier(2)
    statuses, errors = [], []

    def confirm(client):
        try:
            barrier.wait()
            statuses.append(client.post(import_url(tournament), post).status_code)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(c,)) for c in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and statuses == [302, 302]
    assert Player.objects.filter(name__startswith="Spieler").count() == 10
    assert Registration.objects.filter(tournament=tournament).count() == 10


# Defect 11: the `club` column.


@pytest.mark.django_db
def test_a_secretary_cannot_create_a_player_in_another_club(
    client_for, secretary, tournament, other_club_secretary
):
    leipzig = Club.objects.get(name="Skatclub Leipzig")
    page = preview(client_for(secretary), tournament, "Name;Verein\nEve Fremd;Skatclub Leipzig\n")
    assert "line 2:" in page and "Skatclub Leipzig has no player Eve Fremd" in page
    assert 'name="confirm"' not in page  # nothing left to register
    with pytest.raises(UserError, match="line 2: Skatclub Leipzig has no player Eve Fremd"):
        players_import(
            tournament=tournament,
            rows=[{"line": 2, "name": "Eve Fremd", "club": "Skatclub Leipzig"}],
            user=secretary,
        )
    assert not Player.objects.filter(club=leipzig).exists()
    assert not Registration.objects.exists()


@pytest.mark.django_db
def test_a_known_player_of_another_club_is_linked_as_a_guest(
    client_for, secretary, tournament, other_club_secretary
):
    leipzig = Club.objects.get(name="Skatclub Leipzig")
    guest = PlayerFactory(club=leipzig, name="Jörg Łukasz", federation_number="77")
    client = client_for(secretary)
    page = preview(client, tournament, "Name;Verein\njörg  łukasz;skatclub leipzig\n")
    assert "guest: known player" in page
    response = client.post(import_url(tournament), {"confirm": "1", "once": once_of(page)})
    assert response.status_code == 302
    assert list(Player.objects.filter(club=leipzig)) == [guest]
    assert Registration.objects.filter(tournament=tournament, player=guest).exists()


@pytest.mark.django_db
def test_a_name_two_players_of_another_club_share_is_refused(
    secretary, tournament, other_club_secretary
):
    leipzig = Club.objects.get(name="Skatclub Leipzig")
    PlayerFactory.create_batch(2, club=leipzig, name="Hans Müller")
    rows = [{"line": 4, "name": "Hans Müller", "club": "Skatclub Leipzig"}]
    with pytest.raises(UserError, match="line 4: Hans Müller could be any of"):
        players_import(tournament=tournament, rows=rows, user=secretary)
    number = PlayerFactory(club=leipzig, name="Hans Müller", federation_number="9")
    rows[0]["federation_number"] = "9"
    players_import(tournament=tournament, rows=rows, user=secretary)
    assert list(tournament.registrations.values_list("player", flat=True)) == [number.pk]


@pytest.mark.django_db
def test_only_the_site_administrator_creates_clubs_from_a_list(client_for, secretary, tournament):
    text = "Name;Verein\nOtto Neu;Skatfreunde Nirgendwo\n"
    page = preview(client_for(secretary), tournament, text)
    assert "club “Skatfreunde Nirgendwo” is not on the site" in page
    rows = [{"line": 2, "name": "Otto Neu", "club": "Skatfreunde Nirgendwo"}]
    with pytest.raises(UserError, match="line 2: club “Skatfreunde Nirgendwo”"):
        players_import(tournament=tournament, rows=rows, user=secretary)
    assert not Club.objects.filter(name="Skatfreunde Nirgendwo").exists()
    assert not Player.objects.filter(name="Otto Neu").exists()

    admin = UserFactory(is_superuser=True)
    client = client_for(admin)
    page = preview(client, tournament, text)
    assert "new club" in page
    client.post(import_url(tournament), {"confirm": "1", "once": once_of(page)})
    assert Player.objects.get(name="Otto Neu").club.name == "Skatfreunde Nirgendwo"


@pytest.mark.django_db
def test_a_secretary_of_two_clubs_creates_players_in_both(client_for, secretary, tournament):
    second = ClubFactory(name="SC Zweitverein")
    second.secretaries.add(secretary)
    client = client_for(secretary)
    page = preview(client, tournament, "Name;Verein\nAnna Eins;\nBert Zwei;SC Zweitverein\n")
    client.post(import_url(tournament), {"confirm": "1", "once": once_of(page)})
    assert Player.objects.get(name="Anna Eins").club == tournament.club
    assert Player.objects.get(name="Bert Zwei").club == second


@pytest.mark.django_db
def test_a_list_of_the_most_rows_still_imports(client_for, secretary, tournament):
    text = "Name;Verein\n" + "".join(f"Gast {n};Skatclub Leipzig\n" for n in range(MAX_ROWS))
    leipzig = ClubFactory(name="Skatclub Leipzig")
    Player.objects.bulk_create([Player(name=f"Gast {n}", club=leipzig) for n in range(MAX_ROWS)])
    client = client_for(secretary)
    page = preview(client, tournament, text)
    assert f"{MAX_ROWS} players will be registered." in page
    client.post(import_url(tournament), {"confirm": "1", "once": once_of(page)})
    assert tournament.registrations.count() == MAX_ROWS
    assert Player.objects.count() == MAX_ROWS
    too_many = client.post(
        import_url(tournament),
        {"file": SimpleUploadedFile("l.csv", (text + "Gast x;\n").encode())},
    )
    assert f"more than {MAX_ROWS} rows" in too_many.content.decode()
