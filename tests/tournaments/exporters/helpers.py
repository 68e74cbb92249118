"""Shared by the export tests: players' names that need more than Latin-1, two team names,
and the text of a PDF's pages (pypdf)."""

import io

import pytest

# Every name needs a glyph beyond Latin-1 or an accent: ä ö ü ß ł é.
NAMES = [
    "Jörg Łukasz",
    "Renée Weiß",
    "Günter Voß",
    "Käthe Möller",
    "Zoë Fuchs",
    "Małgorzata Nowak",
    "François Lefèvre",
    "Rüdiger Strauß",
    "Sören Jäger",
    "Agnieszka Dąbrowska",
    "Heike Lößnitz",
]

TEAMS = ["Kreuz Bube", "Grand Hand"]


def pdf_pages(content: bytes, *, layout: bool = False) -> list[str]:
    """The text of each page (`layout`: a table row stays on one line)."""
    pypdf = pytest.importorskip("pypdf", reason="pypdf (requirements.txt) reads the PDFs back")
    assert content.startswith(b"%PDF-")
    mode = "layout" if layout else "plain"
    return [
        page.extract_text(extraction_mode=mode)
        for page in pypdf.PdfReader(io.BytesIO(content)).pages
    ]
