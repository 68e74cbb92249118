"""The private links on paper (exporters/sheets.py, assignments.py): QR codes on the blank
score sheets and the director's copy of the table list, never on the hall's list, both
links under double entry, none without links."""

import io

import pytest

from tests.tournaments.entry.helpers import en
from tournaments.exporters.assignments import AssignmentsPdf
from tournaments.exporters.sheets import ScoreSheetsPdf

pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")

pytestmark = pytest.mark.django_db


def pdf_links(content: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(content))
    uris = []
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action and action.get("/URI"):
                uris.append(str(action["/URI"]))
    return uris


def test_the_blank_sheets_and_the_directors_table_list_carry_the_qr_codes(
    client_for, secretary, linked_series
):
    series = linked_series
    director = client_for(secretary)
    kwargs = {"tournament": series.tournament.slug, "series": series.number}
    expected = {
        f"http://testserver/entry/{token}/"
        for token in series.tables.values_list("entry_token", flat=True)
    }
    sheets = director.get(en("manage:export_blank_sheets", **kwargs))
    assert set(pdf_links(sheets.content)) == expected
    tables = director.get(en("manage:export_assignments", **kwargs) + "?copy=director")
    standings = f"http://testserver{series.tournament.get_absolute_url()}"
    assert set(pdf_links(tables.content)) == expected | {standings}
    assert "-tables-director.pdf" in tables["Content-Disposition"]
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(tables.content)).pages)
    assert "director's copy" in text


def test_the_halls_table_list_prints_no_private_entry_link(client_for, secretary, linked_series):
    """Issue 27, 2: the list posted in the hall lets nobody key games for another table;
    it shows the public standings' code alone."""
    series = linked_series
    kwargs = {"tournament": series.tournament.slug, "series": series.number}
    tables = client_for(secretary).get(en("manage:export_assignments", **kwargs))
    standings = f"http://testserver{series.tournament.get_absolute_url()}"
    assert pdf_links(tables.content) == [standings]
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(tables.content)).pages)
    assert "Links for the phones" not in text
    for token in series.tables.values_list("entry_token", flat=True):
        assert token not in text
        assert token.encode() not in tables.content


def test_the_results_list_and_the_table_list_link_the_public_standings(
    client, client_for, secretary, linked_series
):
    series = linked_series
    slug = series.tournament.slug
    standings = f"http://testserver{series.tournament.get_absolute_url()}"
    results = client.get(en("export_standings_pdf", tournament=slug))
    assert pdf_links(results.content) == [standings]
    assert "The standings, live on your phone" in "".join(
        page.extract_text() for page in pypdf.PdfReader(io.BytesIO(results.content)).pages
    )
    for copy in ("", "?copy=director"):
        tables = client_for(secretary).get(
            en("manage:export_assignments", tournament=slug, series=series.number) + copy
        )
        assert pdf_links(tables.content).count(standings) == 1
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(tables.content)).pages)
    assert "Links for the phones" in text


def test_double_entry_prints_both_links(tournament, double):
    double.series.tournament = tournament
    pdf = ScoreSheetsPdf.blank(double.series, link_url=lambda token: f"https://x.test/{token}/")
    assert set(pdf_links(pdf.render())) == {
        f"https://x.test/{double.entry_token}/",
        f"https://x.test/{double.entry_token_2}/",
    }
    listing = AssignmentsPdf(
        double.series, link_url=lambda token: f"https://x.test/{token}/", director=True
    )
    assert len(pdf_links(listing.render())) == 2
    hall = AssignmentsPdf(double.series, link_url=lambda token: f"https://x.test/{token}/")
    assert pdf_links(hall.render()) == []


def test_without_links_the_pdfs_are_as_before(linked_series):
    series = linked_series
    assert pdf_links(ScoreSheetsPdf.blank(series).render()) == []
    assert pdf_links(AssignmentsPdf(series).render()) == []
