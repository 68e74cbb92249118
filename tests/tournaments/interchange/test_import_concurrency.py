"""The same document imported several times at once (a double start, two terminals): one
import succeeds, every other ends in a clear one-line refusal, none in a traceback
(issue 27, defect 9: an IntegrityError was printed). Needs PostgreSQL, where the imports
really run side by side."""

import io
import json
import threading

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tests.tournaments.helpers import complete_tournament
from tests.tournaments.interchange.test_import_fuzz import check_refusal
from tests.tournaments.leagues.helpers import play_series
from tournaments.interchange import export_document
from tournaments.leagues.interchange import export_season
from tournaments.leagues.services import match_day_confirm
from tournaments.models import Season, Tournament

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
pytestmark = [
    pytest.mark.skipif(not ON_POSTGRES, reason="concurrent imports need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]
AT_ONCE = 4


def import_at_once(command: str, path, *extra) -> tuple[list[str], list[str]]:
    """(the slugs printed, the refusals) of AT_ONCE imports of `path` started together;
    any other exception fails the test."""
    barrier = threading.Barrier(AT_ONCE)
    slugs, refusals, errors = [], [], []

    def run():
        try:
            barrier.wait()
            out = io.StringIO()
            call_command(command, str(path), *extra, stdout=out, stderr=io.StringIO())
            slugs.append(out.getvalue().strip())
        except CommandError as error:
            refusals.append(str(error))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return slugs, refusals


def test_one_of_several_tournament_imports_at_once_succeeds(
    tournament, roster, secretary, tmp_path
):
    doc = export_document(complete_tournament(tournament, roster, secretary))
    Tournament.objects.filter(pk=tournament.pk).delete()
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(doc), encoding="utf-8")

    slugs, refusals = import_at_once("import_tournament", path)

    assert slugs == [doc["archive"]["tournament"]["slug"]]
    assert len(refusals) == AT_ONCE - 1
    for refusal in refusals:
        check_refusal(refusal)
        assert doc["archive"]["tournament"]["slug"] in refusal
    assert Tournament.objects.filter(slug=slugs[0]).count() == 1


def test_one_of_several_season_imports_at_once_succeeds(match_day, tmp_path):
    play_series(match_day)
    match_day_confirm(tournament=match_day)
    doc = export_season(match_day.season)
    match_day.season.tournaments.all().delete()
    match_day.season.delete()
    path = tmp_path / "season.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    seasons = Season.objects.count()

    slugs, refusals = import_at_once("import_season", path)

    assert len(slugs) == 1 and len(refusals) == AT_ONCE - 1
    for refusal in refusals:
        check_refusal(refusal)
    assert Season.objects.count() == seasons + 1
