"""Downloads: public ones next to the pages they print (a season's next to its tables),
the secretaries' ones under /manage/ (one `DownloadView` behind each)."""

from django.urls import path

from tournaments.exporters import views
from tournaments.paths import SEASON, TB, S, T

public = [
    path(T + "results.pdf", views.ResultsPdfView.as_view(), name="export_standings_pdf"),
    path(T + "workbook.xlsx", views.WorkbookView.as_view(), name="export_workbook"),
    path(TB + "sheet.pdf", views.TableSheetPdfView.as_view(), name="export_table_sheet"),
    path(SEASON + "season.xlsx", views.SeasonWorkbookView.as_view(), name="season_workbook"),
    path(SEASON + "results.pdf", views.SeasonResultsPdfView.as_view(), name="season_results_pdf"),
]

manage = [
    path(S + "sheets.pdf", views.BlankSheetsPdfView.as_view(), name="export_blank_sheets"),
    path(
        TB + "sheet.pdf",
        views.TableSheetManagePdfView.as_view(),
        name="export_table_sheet",
    ),
    path(
        S + "venues/<int:venue>/sheets.pdf",
        views.VenueSheetsPdfView.as_view(),
        name="export_venue_sheets",
    ),
    path(S + "tables.pdf", views.AssignmentsPdfView.as_view(), name="export_assignments"),
    path(T + "money/prizes.pdf", views.PrizeListPdfView.as_view(), name="money_prizes_pdf"),
    path(T + "money/money.xlsx", views.MoneyWorkbookView.as_view(), name="money_workbook"),
]
