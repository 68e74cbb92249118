"""The migration to a site-wide federation number: players of different clubs sharing a
number are merged into the oldest record (everything moved, logged, undoable), or the
migration stops naming the records when that is unsafe."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("tournaments", "0013_people_and_ratings")


def _people_migration() -> tuple[str, str]:
    """This branch's migration, whatever number it gets at merge."""
    graph = MigrationExecutor(connection).loader.graph
    return next(
        node for node in graph.nodes if node[0] == "tournaments" and node[1].endswith("_people")
    )


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.fixture
def before():
    apps = _migrate(BEFORE)
    yield apps
    # Back to the latest schema for the next tests (a refused group would refuse again).
    apps.get_model("tournaments", "Player").objects.update(federation_number="")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _shared_number_setup(apps):
    Club = apps.get_model("tournaments", "Club")
    Player = apps.get_model("tournaments", "Player")
    Membership = apps.get_model("tournaments", "Membership")
    Tournament = apps.get_model("tournaments", "Tournament")
    Registration = apps.get_model("tournaments", "Registration")
    altenburg = Club.objects.create(name="Altenburg")
    leipzig = Club.objects.create(name="Leipzig")
    old = Player.objects.create(name="Hans Müller", club=altenburg, federation_number="7")
    new = Player.objects.create(name="Müller, Hans", club=leipzig, federation_number="7")
    alone = Player.objects.create(name="Anna", club=leipzig, federation_number="8")
    for player in (old, new, alone):
        Membership.objects.create(player=player, club=player.club)
    tournament = Tournament.objects.create(
        club=leipzig, name="Preisskat", slug="preisskat", date="2026-11-21"
    )
    return old, new, alone, tournament, Registration


def test_players_sharing_a_number_across_clubs_are_merged_into_the_oldest(before):
    old, new, alone, tournament, Registration = _shared_number_setup(before)
    Registration.objects.create(tournament=tournament, player=new)
    apps = _migrate(_people_migration())
    Player = apps.get_model("tournaments", "Player")
    assert set(Player.objects.values_list("pk", flat=True)) == {old.pk, alone.pk}
    assert apps.get_model("tournaments", "Registration").objects.get().player_id == old.pk
    clubs = apps.get_model("tournaments", "Membership").objects.filter(player_id=old.pk)
    assert {m.club.name for m in clubs} == {"Altenburg", "Leipzig"}
    merge = apps.get_model("tournaments", "PlayerMerge").objects.get()
    assert (merge.kept_id, merge.absorbed_id) == (old.pk, new.pk)
    log = apps.get_model("tournaments", "ActionLog").objects.get(kind="players_merged")
    assert log.details["absorbed"] == "Müller, Hans"


def test_an_unsafe_merge_stops_the_migration_naming_the_records(before):
    old, new, _alone, tournament, Registration = _shared_number_setup(before)
    Registration.objects.create(tournament=tournament, player=new)
    Registration.objects.create(tournament=tournament, player=old)
    with pytest.raises(RuntimeError) as stopped:
        _migrate(_people_migration())
    assert f"#{old.pk} Hans Müller (Altenburg)" in str(stopped.value)
    assert f"#{new.pk} Müller, Hans (Leipzig)" in str(stopped.value)
    Player = before.get_model("tournaments", "Player")
    assert Player.objects.filter(federation_number="7").count() == 2  # nothing changed
