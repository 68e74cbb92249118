"""Public pages: published tournaments, standings, sheets, players, seasons."""

from django.urls import path

from tournaments.views import exports, public

T = "t/<slug:tournament>/"
S = T + "series/<int:series>/"

urlpatterns = [
    path("", public.HomeView.as_view(), name="home"),
    path(T, public.TournamentDetailView.as_view(), name="tournament_detail"),
    path(T + "teams/", public.TeamStandingsView.as_view(), name="team_standings"),
    path(T + "projector/", public.ProjectorView.as_view(), name="tournament_projector"),
    path(S, public.SeriesDetailView.as_view(), name="series_detail"),
    path(S + "table/<int:table>/", public.TableDetailView.as_view(), name="table_detail"),
    path(T + "results.pdf", exports.ResultsPdfView.as_view(), name="export_standings_pdf"),
    path(T + "workbook.xlsx", exports.WorkbookView.as_view(), name="export_workbook"),
    path(
        S + "table/<int:table>/sheet.pdf",
        exports.TableSheetPdfView.as_view(),
        name="export_table_sheet",
    ),
    path("players/<int:pk>/", public.PlayerDetailView.as_view(), name="player_detail"),
    path("seasons/<slug:season>/", public.SeasonDetailView.as_view(), name="season_detail"),
]
