"""Downloads: the results list, the workbook and a table's score sheet (public); blank
sheets (a series', one table's, a venue's tables'), the table assignment list, the prize
list and the workbook with the money sheet (the tournament's secretaries; one table's and
a venue's sheets also the venue's secretary); a season's workbook and results list (public, its
published match days; all of them for those who manage it).

One view serves them all (`DownloadView`): each download only says which exporter makes
its file, and its mixins resolve the tournament (drafts are 404 to outsiders, the
secretaries' downloads 403 to other users).
"""

from django.http import Http404, HttpResponse
from django.views import View

from tournaments import permissions
from tournaments.exporters.assignments import AssignmentsPdf
from tournaments.exporters.prizes import PrizeListPdf
from tournaments.exporters.results import ResultsPdf
from tournaments.exporters.season import SeasonResultsPdf, SeasonWorkbook
from tournaments.exporters.sheets import ScoreSheetsPdf
from tournaments.exporters.workbook import TournamentWorkbook
from tournaments.mixins import (
    ManageMixin,
    SeriesMixin,
    TableMixin,
    TournamentMixin,
    VenueMixin,
)
from tournaments.models import Table
from tournaments.shared_views import SeasonMixin, category_of, entry_url


class DownloadView(View):
    """GET: the file `exporter()` makes, as an attachment."""

    def exporter(self):
        raise NotImplementedError

    def get(self, request, *args, **kwargs):
        filename, content_type, content = self.exporter().export()
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


def _link_url(request):
    """token → the absolute address of a table's phone link (printed as a QR code)."""
    return lambda token: entry_url(request, token)


def _initials(view) -> bool:
    """A public download of a tournament: players not listed publicly by initials where
    the club chose them (`permissions.names_by_initials`), but for those who manage it
    (the director's copy keeps every name)."""
    return not view.can_manage and permissions.tournament_names_by_initials(view.tournament)


def _standings_url(request, tournament) -> str:
    """The absolute address of the public standings (a QR code on the printed lists)."""
    return request.build_absolute_uri(tournament.get_absolute_url())


class ResultsPdfView(TournamentMixin, DownloadView):
    """The results list; `?category=` a category's own."""

    def exporter(self):
        return ResultsPdf(
            self.tournament,
            category=category_of(self.request) or None,
            standings_url=_standings_url(self.request, self.tournament),
            initials=_initials(self),
        )


class WorkbookView(TournamentMixin, DownloadView):
    """Standings, series, teams and every game; with the money sheet for the secretaries."""

    def exporter(self):
        return TournamentWorkbook(self.tournament, money=self.can_manage, initials=_initials(self))


class TableSheetPdfView(TableMixin, DownloadView):
    """The score sheet of one table as entered so far."""

    def exporter(self):
        return ScoreSheetsPdf.filled(self.table, initials=_initials(self))


class BlankSheetsPdfView(SeriesMixin, ManageMixin, DownloadView):
    """A blank score sheet for every table of the series, to print before it starts."""

    def exporter(self):
        self.series.tournament = self.tournament
        return ScoreSheetsPdf.blank(self.series, link_url=_link_url(self.request))


class TableSheetManagePdfView(TableMixin, ManageMixin, DownloadView):
    """One table's score sheet for whoever keeps the table (at a venue, its secretary too,
    a draft match day's as well): blank, with its phone links' QR codes, until a game is
    entered; then as entered."""

    def exporter(self):
        table = self.table
        if table.games.exists():
            return ScoreSheetsPdf.filled(table)
        return ScoreSheetsPdf.blank(
            self.series,
            link_url=_link_url(self.request),
            tables=Table.objects.filter(pk=table.pk),
            filename=(
                f"{self.tournament.slug}-series-{self.series.number}-table-{table.number}-"
                "blank.pdf"
            ),
        )


class VenueSheetsPdfView(SeriesMixin, VenueMixin, DownloadView):
    """The blank score sheets of a venue's tables of a series, and no other venue's: what
    the venue's secretary prints before the series starts."""

    def exporter(self):
        self.series.tournament = self.tournament
        return ScoreSheetsPdf.blank(
            self.series,
            link_url=_link_url(self.request),
            tables=Table.objects.filter(venue=self.venue),
            filename=(
                f"{self.tournament.slug}-series-{self.series.number}-venue-{self.venue.pk}-"
                "sheets.pdf"
            ),
        )


class AssignmentsPdfView(SeriesMixin, ManageMixin, DownloadView):
    """Who sits where: by table and by name, for the hall (the public standings' code
    only); `?copy=director`: the director's copy, with every table's private entry link."""

    def exporter(self):
        self.series.tournament = self.tournament
        return AssignmentsPdf(
            self.series,
            link_url=_link_url(self.request),
            standings_url=_standings_url(self.request, self.tournament),
            director=self.request.GET.get("copy") == "director",
        )


class PrizeListPdfView(TournamentMixin, ManageMixin, DownloadView):
    """The prize list of the money desk."""

    def exporter(self):
        return PrizeListPdf(self.tournament)


class MoneyWorkbookView(TournamentMixin, ManageMixin, DownloadView):
    """The tournament workbook with the Money sheet (the public one leaves money out)."""

    def exporter(self):
        return TournamentWorkbook(
            self.tournament, money=True, filename=f"{self.tournament.slug}-money.xlsx"
        )


class SeasonDownloadMixin(SeasonMixin):
    """A season's download: its published match days (all for those who manage it)."""

    def get(self, request, *args, **kwargs):
        if not permissions.can_view_season(request.user, self.season):
            raise Http404
        return super().get(request, *args, **kwargs)

    @property
    def viewer(self):
        return self.request.user if self.request.user.is_authenticated else None

    @property
    def initials(self) -> bool:
        """Players not listed publicly by initials in the public's copy of a club's season
        that chose them (`permissions.names_by_initials`); those who run it keep names."""
        if permissions.can_manage_season(self.request.user, self.season):
            return False
        return permissions.names_by_initials(self.season.club)


class SeasonWorkbookView(SeasonDownloadMixin, DownloadView):
    def exporter(self):
        return SeasonWorkbook(self.season, viewer=self.viewer, initials=self.initials)


class SeasonResultsPdfView(SeasonDownloadMixin, DownloadView):
    def exporter(self):
        return SeasonResultsPdf(self.season, viewer=self.viewer, initials=self.initials)
