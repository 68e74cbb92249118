"""POST /api/v1/publish: a hall's batches applied once, refusals that change nothing, and
the copy equal to the hall's tournament (protocol `skat-publish/1`)."""

import json

import pytest

from tests.tournaments.helpers import GRAND, enter
from tests.tournaments.publishing.conftest import batch, document_of, sheets_of
from tournaments.interchange import export_document, standings_json
from tournaments.models import ActionLog, Game, PublishingState, Tournament
from tournaments.publishing.services import key_create, key_revoke

SLUG = "copy"


def same(hall, copy):
    """The two exports equal, but for the slug the copy has beside the hall."""
    a, b = export_document(hall), export_document(copy)
    a["archive"]["tournament"]["slug"] = b["archive"]["tournament"]["slug"]
    return a == b


def snapshot():
    return (
        list(Tournament.objects.order_by("pk").values_list("slug", "version", "layout")),
        Game.objects.count(),
        list(PublishingState.objects.values_list("slug", "version", "hall_versions")),
    )


@pytest.mark.django_db
def test_a_document_then_sheets_batches_reproduce_the_halls_export(hall, club_key, post):
    _row, key = club_key
    answer = post(key, batch(SLUG, base=0, version=5, document=document_of(hall, SLUG)))
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"version": 5, "applied": True}
    copy = Tournament.objects.get(slug=SLUG)
    assert same(hall, copy)

    table = hall.series.get().tables.get()
    enter(table, [{**GRAND, "declarer": 4}])
    assert not same(hall, copy)
    answer = post(key, batch(SLUG, base=5, version=6, sheets=sheets_of(hall)))
    assert answer.json() == {"version": 6, "applied": True}
    copy = Tournament.objects.get(slug=SLUG)
    assert same(hall, copy)
    assert copy.series.get().tables.get().games.count() == 3
    # The copy's version moved (caches follow it), as a sheet write moves it.
    assert Game.objects.filter(table__series__tournament=copy, number=3).get().version == (
        copy.version
    )


@pytest.mark.django_db
def test_a_batch_sent_twice_is_applied_once(hall, club_key, post):
    _row, key = club_key
    first = batch(SLUG, base=0, version=3, document=document_of(hall, SLUG))
    assert post(key, first).json() == {"version": 3, "applied": True}
    pk = Tournament.objects.get(slug=SLUG).pk
    before = snapshot()
    assert post(key, first).json() == {"version": 3, "applied": False}
    assert snapshot() == before
    assert Tournament.objects.get(slug=SLUG).pk == pk  # not imported again


@pytest.mark.django_db
def test_a_batch_from_another_base_is_answered_409_with_the_version_held(hall, club_key, post):
    _row, key = club_key
    post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    before = snapshot()
    answer = post(key, batch(SLUG, base=2, version=4, sheets=sheets_of(hall)))
    assert answer.status_code == 409
    assert answer.json()["version"] == 3
    assert snapshot() == before


@pytest.mark.django_db
def test_sheets_before_any_document_ask_for_the_document(hall, club_key, post):
    _row, key = club_key
    answer = post(key, batch(SLUG, base=0, version=3, sheets=sheets_of(hall)))
    assert (answer.status_code, answer.json()["version"]) == (409, 0)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        json.dumps({"format": "skat-publish/2"}).encode(),
        json.dumps(batch(SLUG, base=0, version=1)).encode(),  # neither document nor sheets
        json.dumps(batch(SLUG, base=2, version=1, sheets=[])).encode(),
    ],
)
def test_what_is_not_a_batch_is_answered_400_and_changes_nothing(hall, club_key, post, body):
    before = snapshot()
    answer = post(club_key[1], body)
    assert answer.status_code == 400 and answer.json()["detail"]
    assert snapshot() == before


@pytest.mark.django_db
def test_a_document_with_errors_is_answered_400_with_the_interchange_messages(
    hall, club_key, post
):
    doc = document_of(hall, SLUG)
    doc["series"][0]["tables"][0]["games"][0]["game"] = "chess"
    before = snapshot()
    answer = post(club_key[1], batch(SLUG, base=0, version=3, document=doc))
    assert answer.status_code == 400
    assert "series 1, table 1, game 1" in answer.json()["detail"]
    assert snapshot() == before


@pytest.mark.django_db
def test_a_sheet_with_a_bad_game_is_refused_and_the_copy_keeps_its_games(hall, club_key, post):
    _row, key = club_key
    post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    sheets = sheets_of(hall)
    sheets[0]["sheet"]["games"][1]["matadors"] = 99
    before = snapshot()
    answer = post(key, batch(SLUG, base=3, version=4, sheets=sheets))
    assert answer.status_code == 400 and "game 2" in answer.json()["detail"]
    assert answer.json()["version"] == 3
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("header", [None, "Bearer skp_wrong", "Basic abc"])
def test_no_or_an_unknown_key_is_answered_403(hall, post, header, club_key):
    before = snapshot()
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    answer = post(None, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)), **extra)
    assert answer.status_code == 403 and answer.json()["detail"]
    assert snapshot() == before


@pytest.mark.django_db
def test_a_revoked_key_is_answered_403(hall, club_key, post):
    row, key = club_key
    key_revoke(key=row)
    answer = post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    assert answer.status_code == 403
    assert not Tournament.objects.filter(slug=SLUG).exists()


@pytest.mark.django_db
def test_a_club_key_may_not_write_another_clubs_tournament(hall, post):
    from tests.factories import ClubFactory

    _row, key = key_create(name="Leipzig", club=ClubFactory(name="Skatclub Leipzig"))
    before = snapshot()
    # The hall's own slug: a tournament of the `club` fixture's club.
    answer = post(key, batch(hall.slug, base=0, version=3, document=document_of(hall, hall.slug)))
    assert answer.status_code == 403
    assert snapshot() == before


@pytest.mark.django_db
def test_a_body_over_the_limit_is_answered_413(club_key, post, monkeypatch):
    from tournaments.publishing import interchange

    monkeypatch.setattr(interchange, "MAX_BODY", 100)
    answer = post(club_key[1], b"{" + b" " * 200 + b"}")
    assert answer.status_code == 413
    assert not PublishingState.objects.exists()


@pytest.mark.django_db
def test_every_use_of_a_key_is_logged(hall, club_key, post):
    row, key = club_key
    document = batch(SLUG, base=0, version=3, document=document_of(hall, SLUG))
    post(key, document)
    post(key, document)
    post(key, batch(SLUG, base=1, version=4, sheets=[]))
    post("skp_unknown", document)
    lines = list(
        ActionLog.objects.filter(kind__in=["published", "publish_refused"]).order_by("id")
    )
    assert [(line.kind, line.details["status"]) for line in lines] == [
        ("published", 200),
        ("published", 200),
        ("publish_refused", 409),
        ("publish_refused", 403),
    ]
    assert [line.details["applied"] for line in lines[:2]] == [True, False]
    assert lines[0].details["key"] == row.pk and lines[0].club_id == row.club_id
    row.refresh_from_db()
    assert row.last_used_at is not None


@pytest.mark.django_db
def test_a_handed_over_copy_refuses_batches(hall, club_key, post, secretary):
    from tournaments.publishing.services import publishing_hand_over

    _row, key = club_key
    post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    publishing_hand_over(state=PublishingState.objects.get(slug=SLUG), user=secretary)
    answer = post(key, batch(SLUG, base=3, version=4, sheets=sheets_of(hall)))
    assert answer.status_code == 403
    assert "handed over" in answer.json()["detail"] and "secretary" in answer.json()["detail"]


@pytest.mark.django_db
def test_corrections_deletions_and_penalties_arrive_with_their_history(
    hall, club_key, post, secretary
):
    from tournaments.sheets.services import game_correct, game_delete, penalty_record

    _row, key = club_key
    post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    table = hall.series.get().tables.get()
    first, second = table.games.order_by("number")
    game_correct(game=first, data={**GRAND, "matadors": 3}, user=secretary, reason="typo")
    game_delete(game=second, user=secretary, reason="never played")
    penalty_record(table=table, seat=2, points=-10, reason="misdeal", user=secretary)
    answer = post(key, batch(SLUG, base=3, version=9, sheets=sheets_of(hall)))
    assert answer.json() == {"version": 9, "applied": True}
    a = export_document(hall)
    b = export_document(Tournament.objects.get(slug=SLUG))
    # The sheets and their history are the hall's; the director's log (a penalty is a
    # director action) travels with documents only.
    assert a["series"] == b["series"]
    assert a["archive"]["series"] == b["archive"]["series"]
    # The seats' stored totals were refreshed: the standings read them.
    assert standings_json(hall) == standings_json(Tournament.objects.get(slug=SLUG))
    assert b["archive"]["series"][0]["tables"][0]["game_changes"]
    assert b["series"][0]["tables"][0]["penalties"]


@pytest.mark.django_db
def test_a_batch_over_djangos_form_limit_but_under_the_publishing_limit_is_read(
    hall, club_key, post, settings
):
    body = json.dumps(batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    padded = (body[:-1] + " " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + "}").encode()
    answer = post(club_key[1], padded)
    assert answer.json() == {"version": 3, "applied": True}


@pytest.mark.django_db
def test_a_sheet_without_history_keeps_the_history_the_copy_holds(hall, club_key, post):
    """A hall may send a sheet with the state the pages show only (closed, paper totals,
    provisional games): the copy's history of the table stays, linked to the new rows."""
    _row, key = club_key
    post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    copy = Tournament.objects.get(slug=SLUG)
    before = export_document(copy)["archive"]["series"][0]["tables"][0]["game_changes"]
    assert before and all(change["current"] for change in before)

    enter(hall.series.get().tables.get(), [{**GRAND, "declarer": 4}])
    sheets = sheets_of(hall)
    keep = {"number", "seats", "games", "penalties", "closed", "paper_totals", "provisional"}
    sheets[0]["sheet"] = {k: v for k, v in sheets[0]["sheet"].items() if k in keep}
    assert post(key, batch(SLUG, base=3, version=4, sheets=sheets)).json()["applied"]
    after = export_document(copy)
    assert after["series"] == export_document(hall)["series"]
    assert after["archive"]["series"][0]["tables"][0]["game_changes"] == before


@pytest.mark.django_db
def test_a_sheet_without_history_keeps_the_penalties_history_linked(
    hall, club_key, post, secretary
):
    from tournaments.sheets.services import penalty_record

    _row, key = club_key
    table = hall.series.get().tables.get()
    penalty_record(table=table, seat=2, points=-10, reason="misdeal", user=secretary)
    post(key, batch(SLUG, base=0, version=3, document=document_of(hall, SLUG)))
    copy = Tournament.objects.get(slug=SLUG)
    before = export_document(copy)["archive"]["series"][0]["tables"][0]["penalty_changes"]
    assert [change["penalty"] for change in before] == [0]

    enter(table, [{**GRAND, "declarer": 4}])
    sheets = sheets_of(hall)
    keep = {"number", "seats", "games", "penalties", "closed", "paper_totals", "provisional"}
    sheets[0]["sheet"] = {k: v for k, v in sheets[0]["sheet"].items() if k in keep}
    assert post(key, batch(SLUG, base=3, version=4, sheets=sheets)).json()["applied"]
    after = export_document(copy)["archive"]["series"][0]["tables"][0]["penalty_changes"]
    assert after == before
