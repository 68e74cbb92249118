"""An evening at the hall with the link cut 10 times (issue 28): the public copy ends
byte-identical to the hall's export, with nothing doubled.

One process, one database: the hall is the tournament `herbstpreisskat`; the public site's
copy is the same tournament published under another slug through the real endpoint
(`POST /api/v1/publish`, Django's test client). The sender's transport renames the slug on
the way and cuts the link at chosen moments: before the batch reaches the site (nothing
applied) or after the site applied it (the answer lost). Batches hold one table's sheets at
most, so a cut often falls between two batches of one round of sending ("mid-batch").
Phones' entries are left out: their ids are unique site-wide, so the copy beside the hall
in one database could not hold them (the two-sites test covers a second site).
"""

import functools
import gzip
import io
import json
import random

import pytest
from django.core.management import call_command

from tests.tournaments.hall.helpers import grand
from tournaments.hall import interchange as hall_interchange
from tournaments.hall.interchange import Unreachable, publish_until_current
from tournaments.hall.services import publication_set
from tournaments.interchange.export import export_document
from tournaments.models import ActionLog, Game, GameChange, Penalty, PenaltyChange, Tournament
from tournaments.publishing.services import key_create
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_record,
    table_close,
)

pytestmark = pytest.mark.django_db

COPY = "copy-of-the-hall"
URL = "http://127.0.0.1:8810/api/v1/publish"
CUTS = 10


class CutLink:
    """The sender's transport: posts through the test client under the copy's slug; cuts
    the link at the send calls numbered in `cuts` ("before" or "after" the site)."""

    def __init__(self, client, slug, cuts: dict[int, str]):
        self.client, self.slug, self.cuts = client, slug, cuts
        self.calls = 0
        self.cut = []

    def __call__(self, url, key, data, *, timeout=None):
        self.calls += 1
        fate = self.cuts.pop(self.calls, None)
        if fate == "before":
            self.cut.append(fate)
            raise Unreachable("cut before the site")
        batch = json.loads(data)
        assert batch["tournament"] == self.slug
        batch["tournament"] = COPY
        if "document" in batch:
            batch["document"]["archive"]["tournament"]["slug"] = COPY
        response = self.client.post(  # gzipped, as `hall.interchange.post` sends it
            "/api/v1/publish",
            gzip.compress(json.dumps(batch).encode()),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {key}",
            HTTP_CONTENT_ENCODING="gzip",
        )
        if fate == "after":
            self.cut.append(fate)
            raise Unreachable("cut after the site applied it")
        return response.status_code, response.json()


def exported(slug: str) -> bytes:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    return out.getvalue().encode()


def counts(tournament) -> dict:
    return {
        "games": Game.objects.filter(table__series__tournament=tournament).count(),
        "game changes": GameChange.objects.filter(table__series__tournament=tournament).count(),
        "penalties": Penalty.objects.filter(table__series__tournament=tournament).count(),
        "penalty changes": PenaltyChange.objects.filter(
            table__series__tournament=tournament
        ).count(),
        "actions": ActionLog.objects.filter(tournament=tournament).count(),
    }


def test_an_evening_with_the_link_cut_ten_times(
    tournament, seated_series, secretary, client, monkeypatch
):
    rng = random.Random(28)
    tables = list(seated_series(12).tables.order_by("number"))
    _row, raw_key = key_create(name="Hall laptop", club=tournament.club, user=secretary)
    publication = publication_set(tournament=tournament, url=URL, key=raw_key, user=secretary)
    # One table's sheets a batch: a round of sending is several batches.
    monkeypatch.setattr(
        hall_interchange,
        "batch_build",
        functools.partial(hall_interchange.batch_build, limit=1),
    )
    link = CutLink(client, tournament.slug, {})

    def publish():
        publish_until_current(publication, attempts=50, send=link, sleep=lambda _s: None)

    publish()  # the first document
    calls = 60  # the send calls of the evening below are well above 60 (asserted)
    link.cuts = {
        call: rng.choice(["before", "after"])
        for call in rng.sample(range(link.calls + 1, link.calls + calls), CUTS)
    }
    played = {table.pk: 0 for table in tables}
    closed = set()
    for step in range(60):
        open_tables = [t for t in tables if t.pk not in closed]
        table = rng.choice(open_tables)
        move = rng.random()
        if move < 0.6 or played[table.pk] < 2:
            played[table.pk] += 1
            game_record(table=table, data=grand(played[table.pk]), user=secretary)
        elif move < 0.75:
            game = Game.objects.filter(table=table).order_by("?").first()
            game_correct(
                game=game,
                data={**grand(game.number), "card_points": 61 + rng.randrange(29)},
                user=secretary,
                reason="misread",
            )
        elif move < 0.82:
            penalty_record(table=table, seat=rng.randint(1, 4), points=-50, user=secretary)
        elif move < 0.87:
            game = Game.objects.filter(table=table).order_by("-number").first()
            game_delete(game=game, user=secretary, reason="entered twice")
            played[table.pk] -= 1
        elif move < 0.92 and len(open_tables) > 1:
            table_close(table=table, user=secretary, short_reason="the hall closes")
            closed.add(table.pk)
        if step % 3 == 2:
            publish()
    # The last words of the evening travel with sheets batches only (no layout change):
    # a penalty (a director action too) and a correction.
    last = open_tables[0]
    penalty_record(table=last, seat=2, points=-25, reason="late", user=secretary)
    game = Game.objects.filter(table=last).order_by("number").first()
    game_correct(game=game, data={**grand(game.number), "card_points": 90}, user=secretary)
    while link.cuts:  # every cut has happened before the evening ends
        played[last.pk] += 1
        game_record(table=last, data=grand(played[last.pk]))
        publish()
    publish()

    assert len(link.cut) == CUTS and set(link.cut) == {"before", "after"}
    hall = Tournament.objects.get(pk=tournament.pk)
    copy = Tournament.objects.get(slug=COPY)
    hall_document = json.dumps(export_document(hall), sort_keys=True)
    copy_document = json.dumps(export_document(copy), sort_keys=True)
    assert copy_document.replace(COPY, tournament.slug) == hall_document
    assert exported(COPY).replace(COPY.encode(), tournament.slug.encode()) == exported(
        tournament.slug
    )
    assert counts(copy) == counts(hall)
    assert counts(hall)["penalties"] > 0 and counts(hall)["game changes"] > counts(hall)["games"]
    pairs = list(
        Game.objects.filter(table__series__tournament=copy).values_list("table_id", "number")
    )
    assert len(pairs) == len(set(pairs))
