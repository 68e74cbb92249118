"""A tournament document's players are the site's existing people (issue 29): by the
archive's federation number anywhere on the site, else by name among the named club's
members; a player who could be two is refused with both named, and nothing is written."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.interchange.documents import contract_example, row_counts
from tournaments.interchange import InterchangeError, import_document
from tournaments.models import Club, Membership, Player
from tournaments.registry.matching import PlayerTally

pytestmark = pytest.mark.django_db


def registered(tournament) -> set[int]:
    return set(tournament.registrations.values_list("player_id", flat=True))


def renamed(doc, name: str, date: str = "2026-11-28"):
    """The same players at another tournament (another slug)."""
    doc = copy.deepcopy(doc)
    doc["tournament"]["name"], doc["tournament"]["date"] = name, date
    return doc


def with_numbers(doc, numbers: dict[str, str]):
    """`doc` with an archive giving these players (id: number) their federation number."""
    doc = copy.deepcopy(doc)
    doc["archive"] = {
        "players": [{"id": pid, "federation_number": n} for pid, n in numbers.items()]
    }
    return doc


def test_a_document_of_players_the_site_has_creates_no_one():
    first = import_document(contract_example())
    players = Player.objects.count()
    tally = PlayerTally()
    second = import_document(renamed(contract_example(), "Winterpreisskat"), tally=tally)
    assert Player.objects.count() == players
    assert registered(second) == registered(first)
    assert (len(tally.matched), len(tally.created)) == (4, 0)


def test_replacing_a_tournament_creates_no_one():
    import_document(contract_example())
    players = Player.objects.count()
    tally = PlayerTally()
    import_document(contract_example(), replace=True, tally=tally)
    assert Player.objects.count() == players and not tally.created


def test_names_are_compared_folded_and_last_name_first(club):
    anna = PlayerFactory(name="Anna Schmidt", club=club)
    doc = contract_example()
    doc["players"][0]["name"] = "Schmidt, Anna"
    doc["players"][2]["name"] = "CARLA WEISS"
    carla = PlayerFactory(name="Carla Weiß", club=club)
    tournament = import_document(doc)
    assert {anna.pk, carla.pk} <= registered(tournament)
    assert Player.objects.filter(club=club).count() == 2


def test_a_federation_number_finds_the_player_of_another_club_who_joins(club):
    leipzig = ClubFactory(name="Skatclub Leipzig")
    anna = PlayerFactory(name="Anna Schmidt", club=leipzig, federation_number="DSKV-0001")
    tally = PlayerTally()
    tournament = import_document(
        with_numbers(contract_example(), {"p1": "DSKV-0001"}), tally=tally
    )
    assert anna.pk in registered(tournament)
    assert Membership.objects.filter(player=anna, club=club).exists()
    anna.refresh_from_db()
    assert anna.club == leipzig  # the home club stays
    assert anna.pk in tally.matched and not tally.warnings


def test_a_number_under_another_name_links_with_a_warning(club):
    anna = PlayerFactory(name="Anna Krause", club=club, federation_number="DSKV-0001")
    tally = PlayerTally()
    tournament = import_document(
        with_numbers(contract_example(), {"p1": "DSKV-0001"}), tally=tally
    )
    assert anna.pk in registered(tournament)
    anna.refresh_from_db()
    assert anna.name == "Anna Krause"
    assert tally.warnings == [
        "players: 'p1' (Anna Schmidt) has federation number DSKV-0001, which is Anna Krause "
        "(Skatfreunde Altenburg, DSKV-0001) on the site: linked, not renamed"
    ]


def test_a_player_who_could_be_two_is_refused_with_both_named(club):
    PlayerFactory(name="Carla Weiß", club=club, federation_number="A-1")
    PlayerFactory(name="Carla Weiss", club=club)
    before = row_counts()
    with pytest.raises(InterchangeError) as refused:
        import_document(contract_example())
    (message,) = refused.value.messages
    assert message.startswith("players: 'p3' (Carla Weiß) could be any of Carla Weiß")
    assert (
        "Carla Weiß (Skatfreunde Altenburg, A-1); Carla Weiss (Skatfreunde Altenburg)" in message
    )
    assert row_counts() == before
    # Its federation number in the archive settles it.
    tournament = import_document(with_numbers(contract_example(), {"p3": "A-1"}))
    assert Player.objects.get(federation_number="A-1").pk in registered(tournament)


def test_two_document_players_who_are_one_person_are_refused(club):
    PlayerFactory(name="Anna Schmidt", club=club, federation_number="7")
    doc = with_numbers(contract_example(), {"p3": "7"})
    before = row_counts()
    with pytest.raises(InterchangeError, match="'p1' and 'p3' are both Anna Schmidt"):
        import_document(doc)
    assert row_counts() == before


def test_the_command_reports_players_matched_and_created(tmp_path, club):
    PlayerFactory(name="Anna Schmidt", club=club)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(contract_example()), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), stdout=out, stderr=err)
    assert out.getvalue().strip() == "herbstpreisskat-2026-2026-11-21"
    assert err.getvalue().strip() == "players: 1 matched, 3 created"
    assert Club.objects.filter(name="Skatfreunde Altenburg").count() == 1


def with_players(n: int, name: str):
    """The contract's example at another tournament, with `n` more players of its club
    (registered, not seated), the even ones numbered in the archive."""
    doc = renamed(contract_example(), name)
    doc["players"] += [
        {"id": f"x{k}", "name": f"Spieler {k}", "club": "Skatfreunde Altenburg", "team": None}
        for k in range(n)
    ]
    doc["archive"] = {
        "players": [{"id": f"x{k}", "federation_number": f"N{k}"} for k in range(0, n, 2)]
    }
    return doc


def test_two_thousand_players_take_no_query_each(club, django_assert_max_num_queries):
    Player.objects.bulk_create(
        [
            Player(name=f"Spieler {k}", club=club, federation_number=f"N{k}")
            for k in range(0, 2000, 2)
        ]
        + [Player(name=f"Spieler {k}", club=club) for k in range(1, 2000, 2)]
    )
    with CaptureQueriesContext(connection) as few:
        import_document(with_players(20, "Klein"))
    tally = PlayerTally()
    # The reads and writes of 2,000 players more: a few batches of 900 numbers and of
    # SQLite's inserts of 999 parameters, not one query a player.
    with django_assert_max_num_queries(len(few) + 40):
        tournament = import_document(with_players(2000, "Gross"), tally=tally)
    assert tournament.registrations.count() == 2004
    assert (len(tally.matched), len(tally.created)) == (2004, 0)
