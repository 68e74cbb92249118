"""The desk's row and correction forms sent twice or too late (issue 27, defect 10).

- A desk row says which game it fills; the same row sent again is answered with the stored
  game. A row that does not say it is refused: stored as "the next game", a resent copy
  would be stored again.
- A correction carries the game's version as the form showed it; a game changed since is
  not overwritten: the refusal names who changed what, when, and nothing is saved.
"""

import re
import threading

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone, translation

from tests.factories import UserFactory
from tournaments.errors import UserError
from tournaments.models import Game, GameChange
from tournaments.sheets.services import game_correct, game_record, game_seen

pytestmark = pytest.mark.django_db

# rules §1.3: grand with 2, 78 card points → 3 × 24 = 72, won.
GRAND_WITH_2 = {"declarer": "2", "game": "grand", "matadors": "2", "card_points": "78"}
GRAND = {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78}  # (the services')


def url(name: str, table, **extra) -> str:
    from django.urls import reverse

    series = table.series
    kwargs = {"tournament": series.tournament.slug, "series": series.number, "table": table.number}
    with translation.override("en"):
        return reverse(f"manage:{name}", kwargs={**kwargs, **extra})


def seen_of(page: str) -> str:
    """The game's version as the correction form carries it ("" when it does not)."""
    found = re.search(r'name="seen" value="([^"]*)"', page)
    return found.group(1) if found else ""


def test_a_desk_row_without_its_game_number_is_refused_and_never_stored_twice(
    client_for, secretary, table
):
    client = client_for(secretary)
    for _attempt in range(2):  # the same request sent again
        response = client.post(url("sheet", table), GRAND_WITH_2)
        assert response.status_code == 200
        assert "does not say which game it is" in response.content.decode()
    assert not Game.objects.filter(table=table).exists()
    # The form as the page renders it says the game: the resend is answered, stored once.
    client.post(url("sheet", table), {**GRAND_WITH_2, "number": "1"})
    again = client.post(url("sheet", table), {**GRAND_WITH_2, "number": "1"}, follow=True)
    assert "Game 1 is already on the sheet: the row was sent twice" in again.content.decode()
    assert Game.objects.filter(table=table).count() == 1


def test_a_correction_of_a_game_changed_since_it_was_opened_is_refused_and_names_the_change(
    client_for, secretary, club, table
):
    game_record(table=table, data=GRAND, number=1)
    other = UserFactory(username="kassenwart", first_name="Karin", last_name="Kasse")
    club.secretaries.add(other)
    mine, theirs = client_for(secretary), client_for(other)
    correct = url("game_correct", table, game=1)
    opened = seen_of(mine.get(correct).content.decode())

    # The other secretary corrects game 1 meanwhile (78 → 90 card points).
    theirs_seen = seen_of(theirs.get(correct).content.decode())
    saved = theirs.post(correct, {**GRAND_WITH_2, "card_points": "90", "seen": theirs_seen})
    assert saved.status_code == 302
    changed_at = timezone.localtime(GameChange.objects.latest("at").at).strftime("%H:%M")

    # My form, opened before, would set 70: refused, naming the other change; nothing saved.
    changes = GameChange.objects.count()
    refused = mine.post(correct, {**GRAND_WITH_2, "card_points": "70", "seen": opened})
    assert refused.status_code == 200
    text = refused.content.decode()
    assert (
        f"This game was changed by Karin Kasse at {changed_at} since you opened it: "
        "card points 78 → 90. Nothing was saved" in text
    )
    game = Game.objects.get(table=table, number=1)
    assert game.card_points == 90 and GameChange.objects.count() == changes

    # The page now carries the game as it is: saving again (knowingly) replaces it.
    again = mine.post(correct, {**GRAND_WITH_2, "card_points": "70", "seen": seen_of(text)})
    assert again.status_code == 302
    assert Game.objects.get(table=table, number=1).card_points == 70


def test_game_correct_refuses_a_stale_version_and_takes_the_current_one(table):
    game = game_record(table=table, data=GRAND, number=1)
    opened = game_seen(game)
    game_correct(game=game, data={**GRAND, "card_points": 90}, seen=opened)
    with pytest.raises(UserError, match="card points 78 → 90") as refused:
        game_correct(game=game, data={**GRAND, "card_points": 61}, seen=opened)
    assert refused.value.code == "changed_meanwhile"
    current = Game.objects.get(pk=game.pk)
    assert current.card_points == 90
    game_correct(game=current, data={**GRAND, "card_points": 61}, seen=game_seen(current))
    assert Game.objects.get(pk=game.pk).card_points == 61


@pytest.mark.parametrize("seen", ["yesterday", "-3", "1e9"])
def test_a_correction_with_a_garbled_version_changes_nothing(client_for, secretary, table, seen):
    game_record(table=table, data=GRAND, number=1)
    before = Game.objects.get(table=table).updated
    response = client_for(secretary).post(
        url("game_correct", table, game=1), {**GRAND_WITH_2, "card_points": "70", "seen": seen}
    )
    assert response.status_code == 200
    assert "The form is out of date" in response.content.decode()
    assert Game.objects.get(table=table).updated == before


@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="two corrections at once need PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
def test_two_corrections_from_the_same_version_at_once_save_one(seated_series):
    table = seated_series(4).tables.get()
    game = game_record(table=table, data=GRAND, number=1)
    seen = game_seen(game)
    barrier = threading.Barrier(2)
    saved, refused, errors = [], [], []

    def correct(points):
        try:
            barrier.wait()
            game_correct(game=game, data={**GRAND, "card_points": points}, seen=seen)
            saved.append(points)
        except UserError as error:
            refused.append(error.code)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=correct, args=(p,)) for p in (90, 61)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and refused == ["changed_meanwhile"] and len(saved) == 1
    assert Game.objects.get(pk=game.pk).card_points == saved[0]
