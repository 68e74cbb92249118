"""The tournament document's archive keeps whether a player is listed publicly (issue 29):
given only for a player not listed, so every other archive stays as it was."""

import json

import pytest

from tournaments.interchange import export_document, import_document
from tournaments.models import Club, Player
from tournaments.registry.services import player_update
from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


def test_a_player_not_listed_stays_so_through_export_and_import(seated_series):
    series = seated_series(4)
    table = series.tables.get()
    game_record(table=table, data={"declarer": 2, "game": "grand", "matadors": 1, "won": True})
    hidden = table.seats.get(number=1).player
    player_update(player=hidden, listed=False)
    tournament = series.tournament
    first = export_document(tournament)
    flags = [p.get("listed") for p in first["archive"]["players"]]
    assert flags.count(False) == 1 and flags.count(None) == 3
    tournament.delete()
    Player.objects.all().delete()
    Club.objects.all().delete()

    imported = import_document(json.loads(json.dumps(first)))

    assert list(Player.objects.filter(listed=False).values_list("name", flat=True)) == [
        hidden.name
    ]
    assert export_document(imported) == first


def test_listed_must_be_true_or_false(seated_series):
    from tournaments.interchange.common import InterchangeError

    series = seated_series(4)
    document = export_document(series.tournament)
    document["archive"]["players"][0]["listed"] = "no"
    series.tournament.delete()
    with pytest.raises(InterchangeError, match="listed must be true or false"):
        import_document(document)
