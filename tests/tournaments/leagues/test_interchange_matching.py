"""A season document's players are the site's existing people (issue 29): its rosters and
its match days find the players of the teams' clubs (`registry.matching`), so importing a
season onto a site that has its players creates no one."""

import json

import pytest

from tests.factories import PlayerFactory
from tests.tournaments.leagues.helpers import play_series
from tournaments.leagues.interchange import SeasonDocumentError, import_season, season_text
from tournaments.leagues.services import match_day_confirm
from tournaments.models import Player, RosterEntry
from tournaments.registry.matching import PlayerTally

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(match_day):
    """The played season's document; the season itself gone, its players kept."""
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    season = match_day.season
    doc = json.loads(season_text(season))
    season.tournaments.all().delete()
    season.delete()
    return doc


def test_a_season_onto_a_site_with_its_players_creates_no_one(document):
    players = Player.objects.count()
    tally = PlayerTally()
    season = import_season(document, tally=tally)
    assert Player.objects.count() == players
    assert not tally.created and len(tally.matched) == 20  # four teams of five
    day = season.tournaments.get()
    seated = set(day.registrations.values_list("player_id", flat=True))
    rostered = set(
        RosterEntry.objects.filter(team__season=season, substitute=False).values_list(
            "player_id", flat=True
        )
    )
    assert rostered == seated  # the regulars played the match day


def test_the_rosters_find_the_match_days_players_however_the_name_is_written(document, zeitz):
    regular = Player.objects.get(name="Zeitz I P1", club=zeitz)
    team = next(t for t in document["teams"] if t["name"] == "Zeitz I")
    member = next(m for m in team["roster"] if m["name"] == "Zeitz I P1")
    member["name"] = "P1, ZEITZ I"  # "Last, First", in capitals
    players = Player.objects.count()
    season = import_season(document)
    assert Player.objects.count() == players
    assert RosterEntry.objects.filter(team__season=season, team__name="Zeitz I", player=regular)


def test_a_roster_name_two_members_share_is_refused_with_both_named(document, zeitz):
    PlayerFactory(name="Zeitz II Ersatz", club=zeitz)  # a namesake of a substitute
    players = Player.objects.count()
    with pytest.raises(SeasonDocumentError) as refused:
        import_season(document)
    (message,) = refused.value.messages
    assert "Zeitz II Ersatz could be any of Zeitz II Ersatz (Skatclub Zeitz)" in message
    assert message.startswith("teams[")
    assert Player.objects.count() == players
