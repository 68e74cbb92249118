"""Exports that return bytes: Excel workbooks (openpyxl) and PDFs (reportlab).

They lay out what the selectors give and compute nothing, so that the HTML pages, the
workbook and the PDFs always show the same figures (STYLE.md habit 11).

- `workbook.TournamentWorkbook`: standings, each series, teams and every game (.xlsx);
- `results.ResultsPdf`: the results list (tournament standings);
- `sheets.ScoreSheetsPdf`: blank score sheets of a series or the filled sheet of a table;
- `assignments.AssignmentsPdf`: the table assignment list of a series for the hall;
- `prizes.PrizeListPdf`: the prize list of the money desk.

The PDFs share their page (`base_pdf.PdfDocument`) and their fonts, colours and styles
(`pdf_styles`). Each exporter's `export()` returns an `Export` (file name, content type,
bytes), so one download view (`exporters.views.DownloadView`) serves them all.
"""

from typing import NamedTuple

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class Export(NamedTuple):
    filename: str
    content_type: str
    content: bytes
