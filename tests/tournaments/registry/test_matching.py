"""Who an imported player is (`registry.matching.players_matching`): the federation number
anywhere on the site, else the same name among the named club's members, else nobody; two
candidates are never guessed between."""

import pytest

from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Club, Membership, Player
from tournaments.registry.matching import (
    PlayerTally,
    Wanted,
    names_differ,
    person_key,
    players_matching,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def leipzig(db):
    return ClubFactory(name="Skatclub Leipzig")


def match_one(name, club, number=""):
    return players_matching([Wanted(name=name, club=club, federation_number=number)])[0]


def test_a_federation_number_finds_the_player_in_any_club(club, leipzig):
    anna = PlayerFactory(name="Anna Schmidt", club=leipzig, federation_number="DSKV-7")
    match = match_one("Anna Schmidt", club, "DSKV-7")
    assert match.player == anna
    assert match.by_number and match.joins  # she does not play for the named club yet
    assert not match.name_differs


def test_a_member_found_by_number_does_not_join_again(club, leipzig):
    anna = PlayerFactory(name="Anna Schmidt", club=leipzig, federation_number="DSKV-7")
    Membership.objects.create(player=anna, club=club)
    assert match_one("Anna Schmidt", club, "DSKV-7").joins is False


def test_a_number_under_another_name_is_a_warning_not_a_renaming(club):
    anna = PlayerFactory(name="Anna Schmidt", club=club, federation_number="DSKV-7")
    match = match_one("Bernd Krause", club, "DSKV-7")
    assert match.player == anna and match.name_differs
    anna.refresh_from_db()
    assert anna.name == "Anna Schmidt"


@pytest.mark.parametrize(
    ("imported", "stored", "differ"),
    [
        ("Schmidt, Anna", "Anna Schmidt", False),  # the federation's list order
        ("Anna Maria Schmidt", "Anna Schmidt", False),  # a middle name more
        ("ANNA SCHMIDT", "Änna Schmidt", False),  # case and accents
        ("Anna Schmitz", "Anna Schmidt", True),
        ("Bernd Krause", "Anna Schmidt", True),
    ],
)
def test_how_strongly_names_differ(imported, stored, differ):
    assert names_differ(imported, stored) is differ


@pytest.mark.parametrize(
    "written",
    ["Jörg Łukasz", "jörg łukasz", "Łukasz, Jörg", "JORG LUKASZ", "  Jörg   Łukasz "],
)
def test_the_same_name_among_the_clubs_members_finds_the_player(club, written):
    jorg = PlayerFactory(name="Jörg Łukasz", club=club)
    assert person_key(written) == person_key("Jörg Łukasz")
    assert match_one(written, club).player == jorg


def test_a_member_of_the_club_who_plays_at_home_elsewhere_is_found(club, leipzig):
    carla = PlayerFactory(name="Carla Weiß", club=leipzig)
    Membership.objects.create(player=carla, club=club)
    match = match_one("Carla Weiss", club)
    assert match.player == carla and not match.joins


def test_a_namesake_in_another_club_is_someone_else(club, leipzig):
    PlayerFactory(name="Dieter Groß", club=leipzig)
    match = match_one("Dieter Groß", club)
    assert match.player is None and not match.candidates


def test_a_member_of_another_federation_number_is_someone_else(club):
    PlayerFactory(name="Dieter Groß", club=club, federation_number="DSKV-1")
    assert match_one("Dieter Groß", club, "DSKV-2").player is None
    # Without a number the name finds him.
    assert match_one("Dieter Groß", club).player is not None


def test_two_members_of_one_name_are_candidates_not_a_guess(club):
    first = PlayerFactory(name="Hans Müller", club=club)
    second = PlayerFactory(name="Hans Muller", club=club)
    match = match_one("Hans Müller", club)
    assert match.ambiguous and match.player is None
    assert set(match.candidates) == {first, second}


def test_a_player_of_no_club_is_found_among_the_players_of_no_club(club):
    solo = PlayerFactory(name="Otto Solo", club=None)
    PlayerFactory(name="Otto Solo", club=club)
    assert match_one("Otto Solo", None).player == solo


def test_a_club_the_import_creates_finds_by_number_only(club):
    anna = PlayerFactory(name="Anna Schmidt", club=club, federation_number="7")
    new_club = Club(name="Skatfreunde Neu")
    assert match_one("Anna Schmidt", new_club).player is None
    match = match_one("Anna Schmidt", new_club, "7")
    assert match.player == anna and match.joins


def test_two_entries_that_find_one_player_are_flagged(club):
    anna = PlayerFactory(name="Anna Schmidt", club=club, federation_number="7")
    first, second = players_matching(
        [Wanted("Anna Schmidt", club, "7"), Wanted("Schmidt, Anna", club)]
    )
    assert first.player == anna and first.same_as is None
    assert second.player == anna and second.same_as == 0


def test_the_tally_counts_players_matched_and_created(club):
    anna = PlayerFactory(name="Anna Schmidt", club=club)
    matches = players_matching([Wanted("Anna Schmidt", club), Wanted("Neu", club)])
    new = PlayerFactory(name="Neu", club=club)
    tally = PlayerTally()
    tally.add(matches, [new])
    assert (tally.matched, tally.created) == ({anna.pk}, {new.pk})
    assert tally.summary() == "players: 1 matched, 1 created"


def test_two_thousand_entries_take_a_handful_of_queries(
    club, leipzig, django_assert_max_num_queries
):
    Player.objects.bulk_create(
        [Player(name=f"Spieler {n}", club=club, federation_number=f"N{n}") for n in range(1000)]
        + [Player(name=f"Gast {n}", club=leipzig) for n in range(1000)]
    )
    wanted = [Wanted(f"Spieler {n}", leipzig, f"N{n}") for n in range(1000)] + [
        Wanted(f"Gast {n}", leipzig) for n in range(1000)
    ]
    # Numbers: two batches; the named club's players and memberships: two; the
    # memberships of the players found by number: two batches.
    with django_assert_max_num_queries(6):
        matches = players_matching(wanted)
    assert all(m.player is not None for m in matches)
    assert sum(m.joins for m in matches) == 1000  # the numbered ones play for `club`
