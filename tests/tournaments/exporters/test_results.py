"""The results list (exporters/results.py) read back through a text extract (pypdf): every
player in order, a category, provisional rows and the heading.

The figures in the files must be those of the selectors that the HTML pages show.
"""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.tournaments.exporters.helpers import NAMES, pdf_pages
from tests.tournaments.helpers import WORKED_EXAMPLE, enter, sheet_rows
from tournaments.draw.services import series_draw
from tournaments.exporters.results import ResultsPdf
from tournaments.models import Series
from tournaments.standings.selectors import tournament_standings

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db


def test_results_list_has_every_player_in_order_and_page_numbers(tournament, club):
    names = [f"{n} Spieler {i:02d}" for i, n in enumerate(NAMES * 8)]
    for name in names:
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    series = series_draw(tournament=tournament, seed=3)
    table = series.tables.order_by("number").first()
    enter(table, sheet_rows(WORKED_EXAMPLE, table.size)[:10])
    pages = pdf_pages(ResultsPdf(tournament).render())
    assert len(pages) == 2
    assert "Page 1 of 2" in pages[0] and "Page 2 of 2" in pages[1]
    assert all("Player" in page and "Points" in page for page in pages)  # repeated header
    text = "\n".join(pages)
    standings = tournament_standings(tournament)
    positions = [text.index(row.player_name) for row in standings]
    assert positions == sorted(positions) and len(standings) == len(names)
    lines = "\n".join(pdf_pages(ResultsPdf(tournament).render(), layout=True)).splitlines()
    for row in standings[:12]:
        (line,) = [x for x in lines if row.player_name in x]
        cells = line.split()
        assert cells[0] == str(row.rank) and cells[-1] == str(row.list_points)
        assert cells[-3:-1] == [str(row.won), str(row.lost)]


def test_results_list_of_a_category(worked_table, tournament):
    seat = worked_table.seats.select_related("player").get(number=4)
    seat.player.category = "ladies"
    seat.player.save()
    (text,) = pdf_pages(ResultsPdf(tournament, category="ladies").render())
    assert "Results – Ladies" in text and seat.player.name in text
    others = [s.player.name for s in worked_table.seats.exclude(number=4)]
    assert not any(name in text for name in others)


def test_results_list_marks_provisional_rows(tournament, double_entry_table):
    text = "\n".join(pdf_pages(ResultsPdf(tournament).render(), layout=True))
    lines = text.splitlines()
    for row in tournament_standings(tournament):
        (line,) = [x for x in lines if row.player_name in x]
        assert line.split()[-1] == f"{row.list_points}*"
    assert "* provisional: includes games entered at the table, not yet confirmed" in text


def test_results_heading_counts_closed_series(tournament, worked_table):
    def heading():
        return pdf_pages(ResultsPdf(tournament).render())[0].splitlines()

    assert "Results (series 1 in play)" in heading()
    Series.objects.filter(pk=worked_table.series_id).update(status=Series.Status.CLOSED)
    assert "Results after 1 series" in heading()
    series_draw(tournament=tournament, seed=2)
    assert "Results after 1 series (series 2 in play)" in heading()
