"""Merging two records of one person keeps a choice not to be listed publicly (issue 29):
the kept record becomes unlisted when the absorbed one was, its tournaments' versions
move, and undoing the merge gives both records their own choice back."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import Player, Tournament
from tournaments.people.services import player_merge, player_merge_undo

pytestmark = pytest.mark.django_db


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


@pytest.mark.parametrize(("kept_listed", "absorbed_listed"), [(True, False), (True, True)])
def test_a_merge_keeps_the_choice_not_to_be_listed(club, kept_listed, absorbed_listed):
    kept = PlayerFactory(club=club, name="Hans Müller", listed=kept_listed)
    absorbed = PlayerFactory(club=club, name="Müller, Hans", listed=absorbed_listed)
    own = TournamentFactory(club=club)
    RegistrationFactory(tournament=own, player=kept)
    RegistrationFactory(tournament=TournamentFactory(club=club), player=absorbed)
    before = version(own)

    merge = player_merge(kept=kept, absorbed=absorbed)

    unlisted = not absorbed_listed
    assert Player.objects.get(pk=kept.pk).listed is not unlisted
    # The kept record's own tournaments show the change only when there is one.
    assert version(own) == before + (1 if unlisted else 0)

    restored = player_merge_undo(merge=merge)
    assert Player.objects.get(pk=kept.pk).listed is kept_listed
    assert Player.objects.get(pk=restored.pk).listed is absorbed_listed
