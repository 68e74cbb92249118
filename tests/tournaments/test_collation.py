"""A–Z lists sort the German way (issue 27, defect 7): Öztürk before Zimmermann, umlauts
filed under their plain letter, ß as ss, case ignored; the same on SQLite and PostgreSQL
(the order is made in Python, `tournaments.collation`)."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory
from tournaments.formats import surname_key
from tournaments.leagues.forms import TeamForm
from tournaments.models import Club
from tournaments.registry.forms import RegistrationAddForm

NAMES = ["Zimmermann", "Öztürk", "Ostermann", "Ärger", "Bauer", "Weiß", "Weise", "ulrich"]
GERMAN = ["Ärger", "Bauer", "Ostermann", "Öztürk", "ulrich", "Weise", "Weiß", "Zimmermann"]


@pytest.mark.parametrize(
    "before, after",
    [
        ("Öztürk", "Zimmermann"),  # the example: an umlaut is not after z
        ("Ärger", "Arzt"),  # DIN 5007-1: ä is filed as a
        ("Müller", "Mumm"),
        ("Strasse", "Straße"),  # ß as ss; the plain spelling first
        ("anna", "Bert"),  # case ignored
        ("Łukasz", "Maier"),  # ł under l
        ("Émile", "Fritz"),
    ],
)
def test_german_order(before, after):
    from tournaments.collation import alpha_key

    assert alpha_key(before) < alpha_key(after)


def test_alphabetical_orders_a_list_the_german_way():
    from tournaments.collation import alphabetical

    assert alphabetical(NAMES) == GERMAN
    assert sorted(NAMES) != GERMAN  # Python's own order puts Ärger and Öztürk last


def test_surnames_sort_the_german_way_too():
    names = ["Hans Zimmermann", "Ayşe Öztürk", "Paul Ostermann"]
    assert sorted(names, key=surname_key) == ["Paul Ostermann", "Ayşe Öztürk", "Hans Zimmermann"]


@pytest.mark.django_db
def test_club_players_page_lists_players_a_to_z_in_german(client_for, secretary, club):
    for name in NAMES:
        PlayerFactory(club=club, name=name)
    with translation.override("de"):
        url = reverse("manage:club_players", kwargs={"club": club.pk})
    html = client_for(secretary).get(url).content.decode()
    positions = [html.index(f">{name}<") for name in GERMAN]
    assert positions == sorted(positions)


@pytest.mark.django_db
def test_the_desk_and_the_registration_form_list_players_a_to_z(
    client_for, secretary, club, tournament
):
    for name in NAMES:
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    for name in ("Zora", "Özge", "Olaf"):
        PlayerFactory(club=club, name=name)
    with translation.override("de"):
        url = reverse("manage:tournament", kwargs={"tournament": tournament.slug})
    response = client_for(secretary).get(url)
    assert [r.player.name for r in response.context["registrations"]] == GERMAN
    form = RegistrationAddForm(tournament=tournament)
    assert [label for _value, label in form.fields["players"].choices] == [
        "Olaf",
        "Özge",
        "Zora",
    ]


@pytest.mark.django_db
def test_club_choices_are_listed_a_to_z():
    for name in ("Zwickauer SC", "Östringer Skatfreunde", "Oberurseler Asse"):
        ClubFactory(name=name)
    form = TeamForm(clubs=Club.objects.all())
    labels = [label for value, label in form.fields["club"].choices if value]
    assert labels == ["Oberurseler Asse", "Östringer Skatfreunde", "Zwickauer SC"]
