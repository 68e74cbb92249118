"""Downloads: the results list, the workbook and score sheets (public); blank sheets and the
table assignment list (the tournament's secretaries).

Each view resolves the tournament through its mixin (drafts are 404 to outsiders, the
secretaries' downloads 403 to other users) and returns what an exporter renders.
"""

from django.http import HttpResponse
from django.views import View

from tournaments.exporters.results import ResultsPdf
from tournaments.exporters.sheets import AssignmentsPdf, ScoreSheetsPdf
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.models import Category
from tournaments.views.mixins import ManageMixin, SeriesMixin, TableMixin, TournamentMixin
from tournaments.views.table_entry import entry_url

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def download(content: bytes, *, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class ResultsPdfView(TournamentMixin, View):
    def get(self, request, *args, **kwargs):
        category = request.GET.get("category", "")
        if category not in Category.values:
            category = ""
        document = ResultsPdf(self.tournament, category=category or None)
        suffix = f"-{category}" if category else ""
        return download(
            document.render(),
            content_type=PDF,
            filename=f"{self.tournament.slug}-results{suffix}.pdf",
        )


class WorkbookView(TournamentMixin, View):
    def get(self, request, *args, **kwargs):
        return download(
            TournamentWorkbook(self.tournament, money=self.can_manage).render(),
            content_type=XLSX,
            filename=f"{self.tournament.slug}.xlsx",
        )


class TableSheetPdfView(TableMixin, View):
    """The score sheet of one table as entered so far."""

    def get(self, request, *args, **kwargs):
        table = self.table
        return download(
            ScoreSheetsPdf.filled(table).render(),
            content_type=PDF,
            filename=f"{self.tournament.slug}-series-{self.series.number}-table-{table.number}.pdf",
        )


def _link_url(request):
    """token → the absolute address of a table's phone link (printed as a QR code)."""
    return lambda token: entry_url(request, token)


class BlankSheetsPdfView(SeriesMixin, ManageMixin, View):
    """A blank score sheet for every table of the series, to print before it starts."""

    def get(self, request, *args, **kwargs):
        self.series.tournament = self.tournament
        return download(
            ScoreSheetsPdf.blank(self.series, link_url=_link_url(request)).render(),
            content_type=PDF,
            filename=f"{self.tournament.slug}-series-{self.series.number}-sheets.pdf",
        )


class AssignmentsPdfView(SeriesMixin, ManageMixin, View):
    """Who sits where: by table and by name, for the hall."""

    def get(self, request, *args, **kwargs):
        self.series.tournament = self.tournament
        return download(
            AssignmentsPdf(self.series, link_url=_link_url(request)).render(),
            content_type=PDF,
            filename=f"{self.tournament.slug}-series-{self.series.number}-tables.pdf",
        )
