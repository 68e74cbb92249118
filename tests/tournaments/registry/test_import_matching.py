"""A player list matches the existing person (issue 29): the preview says per row who the
row is ("matched: NAME (club, no.)", "new player", a warning, or a choice among
candidates), and the confirmation applies exactly that, or nothing."""

import html

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.registry.test_import_once_and_clubs import import_url, once_of, preview
from tournaments.errors import UserError
from tournaments.models import Membership, Player, Registration
from tournaments.registry.selectors import import_decisions
from tournaments.registry.services import players_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def leipzig(db):
    return ClubFactory(name="Skatclub Leipzig")


def registered(tournament) -> set[int]:
    return set(Registration.objects.filter(tournament=tournament).values_list("player", flat=True))


def test_the_preview_says_who_each_row_is(client_for, secretary, tournament, leipzig):
    PlayerFactory(name="Anna Schmidt", club=leipzig, federation_number="DSKV-7")
    PlayerFactory(name="Jörg Łukasz", club=tournament.club)
    PlayerFactory(name="Carla Weiß", club=tournament.club, federation_number="DSKV-9")
    text = (
        "Name;Mitgliedsnummer\n"
        "Anna Schmidt;DSKV-7\n"
        "Łukasz, Jörg;\n"
        "Otto Neu;\n"
        "Bernd Krause;DSKV-9\n"
    )
    page = html.unescape(preview(client_for(secretary), tournament, text))
    assert "matched: Anna Schmidt (Skatclub Leipzig, DSKV-7)" in page
    assert "joins Skatfreunde Altenburg" in page  # she plays for Leipzig so far
    assert "matched: Jörg Łukasz (Skatfreunde Altenburg)" in page
    assert page.count("new player") == 1
    assert (
        "federation number DSKV-9 is Carla Weiß (Skatfreunde Altenburg, DSKV-9) on the site: "
        "linked, not renamed" in page
    )


def test_the_confirmation_links_the_matched_players_and_adds_the_membership(
    client_for, secretary, tournament, leipzig
):
    anna = PlayerFactory(name="Anna Schmidt", club=leipzig, federation_number="DSKV-7")
    client = client_for(secretary)
    page = preview(client, tournament, "Name;Passnummer\nSchmidt, Anna;DSKV-7\nOtto Neu;\n")
    client.post(import_url(tournament), {"confirm": "1", "once": once_of(page)})
    otto = Player.objects.get(name="Otto Neu")
    assert registered(tournament) == {anna.pk, otto.pk}
    assert Player.objects.filter(name__icontains="Schmidt").count() == 1
    assert set(anna.clubs.all()) == {leipzig, tournament.club}
    anna.refresh_from_db()
    assert (anna.name, anna.club) == ("Anna Schmidt", leipzig)  # not renamed, home kept


def test_importing_the_same_list_again_creates_no_one(secretary, tournament):
    rows = [
        {"line": 2, "name": "Otto Neu", "federation_number": "7"},
        {"line": 3, "name": "Ute Alt"},
    ]
    players_import(tournament=tournament, rows=rows, user=secretary)
    count = Player.objects.count()
    again = [
        {"line": 2, "name": "otto neu", "federation_number": "7"},
        {"line": 3, "name": "Alt, Ute"},
    ]
    result = players_import(tournament=tournament, rows=again, user=secretary)
    assert Player.objects.count() == count
    assert (result.created, result.reused) == (0, 2)


def test_two_candidates_are_offered_and_the_users_choice_is_registered(
    client_for, secretary, tournament
):
    first = PlayerFactory(name="Hans Müller", club=tournament.club)
    second = PlayerFactory(name="Hans Muller", club=tournament.club)
    client = client_for(secretary)
    page = preview(client, tournament, "Name\nHans Müller\n")
    assert 'name="choose-2"' in page
    assert f'<option value="{second.pk}">' in page and f'<option value="{first.pk}">' in page
    response = client.post(
        import_url(tournament), {"confirm": "1", "once": once_of(page), "choose-2": second.pk}
    )
    assert response.status_code == 302
    assert registered(tournament) == {second.pk}
    assert Player.objects.filter(name__startswith="Hans").count() == 2


def test_a_row_of_two_candidates_nobody_chose_is_refused(secretary, tournament):
    first = PlayerFactory(name="Hans Müller", club=tournament.club)
    PlayerFactory(name="Hans Müller", club=tournament.club)
    rows = [{"line": 2, "name": "Hans Müller"}, {"line": 3, "name": "Otto Neu"}]
    with pytest.raises(UserError, match="line 2: Hans Müller could be any of"):
        players_import(tournament=tournament, rows=rows, user=secretary)
    assert registered(tournament) == set()
    assert not Player.objects.filter(name="Otto Neu").exists()
    # A choice that is not one of the candidates settles nothing.
    with pytest.raises(UserError, match="line 2"):
        players_import(tournament=tournament, rows=rows, user=secretary, choices={2: 10**6})
    players_import(tournament=tournament, rows=rows, user=secretary, choices={2: first.pk})
    assert first.pk in registered(tournament)


def test_a_site_that_changed_since_the_preview_imports_nothing(client_for, secretary, tournament):
    client = client_for(secretary)
    page = preview(client, tournament, "Name\nOtto Neu\n")
    assert "new player" in page
    otto = PlayerFactory(name="Otto Neu", club=tournament.club)  # added meanwhile
    response = client.post(
        import_url(tournament), {"confirm": "1", "once": once_of(page)}, follow=True
    )
    assert "have changed since the preview" in response.content.decode()
    assert registered(tournament) == set()
    assert Player.objects.filter(name="Otto Neu").get() == otto


def test_two_rows_that_are_one_player_are_refused(secretary, tournament):
    PlayerFactory(name="Anna Schmidt", club=tournament.club, federation_number="7")
    rows = [
        {"line": 2, "name": "A. Schmidt", "federation_number": "7"},
        {"line": 3, "name": "Anna Schmidt"},
    ]
    decided = import_decisions(tournament=tournament, rows=rows, user=secretary)
    assert "is line 2 already" in decided[1].refused
    with pytest.raises(UserError, match="line 3: .*is line 2 already"):
        players_import(tournament=tournament, rows=rows, user=secretary)


def test_a_guest_found_by_number_is_linked_without_joining_a_club_nobody_runs(
    secretary, tournament, leipzig
):
    gera = ClubFactory(name="Skatclub Gera")
    anna = PlayerFactory(name="Anna Schmidt", club=gera, federation_number="7")
    rows = [
        {"line": 2, "name": "Anna Schmidt", "club": "Skatclub Leipzig", "federation_number": "7"}
    ]
    (decision,) = import_decisions(tournament=tournament, rows=rows, user=secretary)
    assert decision.player == anna and decision.guest and not decision.joins
    players_import(tournament=tournament, rows=rows, user=secretary)
    assert registered(tournament) == {anna.pk}
    assert not Membership.objects.filter(player=anna, club=leipzig).exists()


def test_an_import_of_two_thousand_rows_takes_a_bounded_number_of_queries(
    secretary, tournament, leipzig, django_assert_max_num_queries
):
    Player.objects.bulk_create(
        [Player(name=f"Gast {n}", club=leipzig, federation_number=f"L{n}") for n in range(1000)]
    )
    rows = [
        {"line": n + 2, "name": f"Gast {n}", "federation_number": f"L{n}"} for n in range(1000)
    ] + [{"line": n + 1002, "name": f"Neu {n}"} for n in range(1000)]
    # The reads are a handful whatever the length; the bulk INSERTs go in batches (on
    # SQLite of 999 parameters: 7 of the players, 9 of the registrations). A query per
    # row would be thousands.
    with django_assert_max_num_queries(50) as captured:
        result = players_import(tournament=tournament, rows=rows, user=secretary)
    reads = [q for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    assert len(reads) <= 16
    assert (result.created, result.reused, result.registered) == (1000, 1000, 2000)
    assert Membership.objects.filter(club=tournament.club).count() == 2000


def test_a_player_found_by_number_joins_the_club_the_list_creates(tournament):
    admin = UserFactory(is_superuser=True)
    anna = PlayerFactory(name="Anna Schmidt", club=tournament.club, federation_number="7")
    rows = [
        {"line": 2, "name": "Anna Schmidt", "club": "Skatfreunde Neu", "federation_number": "7"},
        {"line": 3, "name": "Anna Schmidt", "club": "Skatfreunde Neu 2"},  # a namesake: new
    ]
    first, second = import_decisions(tournament=tournament, rows=rows, user=admin)
    assert (first.player, first.new_club, first.joins) == (anna, True, True)
    assert (second.player, second.new_club) == (None, True)
    result = players_import(tournament=tournament, rows=rows, user=admin)
    assert (result.created, result.reused) == (1, 1)
    assert set(anna.clubs.values_list("name", flat=True)) == {
        "Skatfreunde Altenburg",
        "Skatfreunde Neu",
    }
