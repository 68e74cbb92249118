"""Issue 27, 3: a sheet closed short (before its length, with a reason) is ranked with the
full sheets; every output of the standings marks its players' rows and gives the reason,
all from the one selector field (`SeriesResult.closed_short`, `closed_short_notes`)."""

import io
import json

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.exporters.helpers import pdf_pages
from tests.tournaments.helpers import GRAND, enter
from tournaments.draw.services import series_draw
from tournaments.exporters.results import ResultsPdf
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.sheets.services import table_close, table_reopen
from tournaments.standings.selectors import (
    CLOSED_SHORT_MARK,
    ClosedShortNote,
    closed_short_notes,
    tournament_standings,
)

pytestmark = pytest.mark.django_db

REASON = "the hall closed at midnight"


@pytest.fixture
def short_sheet(club):
    """Seven players: a 4-table closed with its 4 games, a 3-table closed short after 1."""
    tournament = TournamentFactory(
        club=club, slug="kurz", games_per_series_3=3, games_per_series_4=4
    )
    for _n in range(7):
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club))
    series = series_draw(tournament=tournament, seed=1)
    full = series.tables.get(size=4)
    short = series.tables.get(size=3)
    enter(full, [{**GRAND, "declarer": n % 4 + 1} for n in range(1, 5)])  # not the dealer
    table_close(table=full)
    enter(short, [GRAND])
    return tournament, full, short


def marked(rows) -> set[str]:
    return {row.player_name for row in rows if row.closed_short}


def test_the_standings_carry_the_short_sheet_and_its_reason(short_sheet):
    tournament, full, short = short_sheet
    table_close(table=short, short_reason=REASON)
    rows = tournament_standings(tournament)
    players = set(short.seats.values_list("player__name", flat=True))
    assert marked(rows) == players
    assert closed_short_notes(rows) == [ClosedShortNote(1, short.number, 1, REASON)]
    text = closed_short_notes(rows)[0].text
    assert text == (
        f"{CLOSED_SHORT_MARK} Series 1, table {short.number}: closed short after 1 game ({REASON})"
    )


def test_every_output_marks_the_rows_and_gives_the_reason(client, short_sheet):
    tournament, full, short = short_sheet
    slug = tournament.slug
    pages = {
        "standings": reverse("tournament_detail", kwargs={"tournament": slug}),
        "series": reverse("series_detail", kwargs={"tournament": slug, "series": 1}),
        "projector": reverse("tournament_projector", kwargs={"tournament": slug}),
    }
    before = {name: client.get(url).content.decode() for name, url in pages.items()}
    assert all(CLOSED_SHORT_MARK not in page for page in before.values())
    table_close(table=short, short_reason=REASON)  # after the pages were made (and kept)
    for name, url in pages.items():
        page = client.get(url).content.decode()
        assert page.count(CLOSED_SHORT_MARK) == 3 + 1, name  # 3 rows and the legend
        assert REASON in page and "closed short after 1 game" in page, name

    (pdf,) = pdf_pages(ResultsPdf(tournament).render())
    flat = " ".join(pdf.split())
    assert flat.count(CLOSED_SHORT_MARK) == 3 + 1
    assert f"table {short.number}: closed short after 1 game ({REASON})" in flat

    book = load_workbook(io.BytesIO(TournamentWorkbook(tournament).render()))
    for title in ("Standings", "Series 1"):
        ws = book[title]
        header = next(ws.iter_rows(max_row=1, values_only=True))
        column = header.index("Closed short")
        cells = [row[column] for row in ws.iter_rows(min_row=2, max_row=8, values_only=True)]
        assert sorted(cells, key=str) == [None] * 4 + [f"{CLOSED_SHORT_MARK} S1"] * 3
        legend = [row[0] for row in ws.iter_rows(min_row=9, values_only=True) if row[0]]
        assert any(REASON in str(line) for line in legend), title

    api = client.get(f"/api/v1/tournaments/{slug}/standings").json()
    reasons = [s.get("closed_short") for row in api for s in row["series"]]
    assert reasons.count(REASON) == 3 and reasons.count(None) == 4
    standings_json = json.loads(
        client.get(reverse("tournament_standings_json", kwargs={"tournament": slug})).content
    )
    short_rows = [row for row in standings_json if "closed_short" in row]
    assert len(short_rows) == 3
    assert short_rows[0]["closed_short"] == [
        {"series": 1, "table": short.number, "games": 1, "reason": REASON}
    ]


def test_a_reopened_sheet_loses_its_mark(client, short_sheet):
    tournament, full, short = short_sheet
    url = reverse("tournament_detail", kwargs={"tournament": tournament.slug})
    table_close(table=short, short_reason=REASON)
    assert CLOSED_SHORT_MARK in client.get(url).content.decode()
    table_reopen(table=short)
    assert CLOSED_SHORT_MARK not in client.get(url).content.decode()
    assert marked(tournament_standings(tournament)) == set()
