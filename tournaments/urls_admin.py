"""Secretaries and directors (sign-in required; a club's secretaries only)."""

from django.urls import include, path

from tournaments.views import exports, manage, sheet

app_name = "manage"

T = "t/<slug:tournament>/"
S = T + "series/<int:series>/"
TB = S + "table/<int:table>/"

urlpatterns = [
    path("", manage.DashboardView.as_view(), name="dashboard"),
    path("club/<int:club>/players/", manage.ClubPlayersView.as_view(), name="club_players"),
    path("club/<int:club>/players/<int:pk>/", manage.PlayerEditView.as_view(), name="player_edit"),
    path("club/<int:club>/seasons/new/", manage.SeasonCreateView.as_view(), name="season_new"),
    path(
        "club/<int:club>/tournaments/new/",
        manage.TournamentCreateView.as_view(),
        name="tournament_new",
    ),
    path(T, manage.TournamentManageView.as_view(), name="tournament"),
    path(T + "settings/", manage.TournamentSettingsView.as_view(), name="tournament_settings"),
    path(T + "action/", manage.TournamentActionView.as_view(), name="tournament_action"),
    path(T + "lots/", manage.LotsView.as_view(), name="tournament_lots"),
    path(T + "registrations/add/", manage.RegistrationAddView.as_view(), name="registration_add"),
    path(
        T + "registrations/quick-add/",
        manage.RegistrationQuickAddView.as_view(),
        name="registration_quick_add",
    ),
    path(
        T + "registrations/import/",
        manage.RegistrationImportView.as_view(),
        name="registration_import",
    ),
    path(
        T + "registrations/<int:pk>/remove/",
        manage.RegistrationRemoveView.as_view(),
        name="registration_remove",
    ),
    path(T + "draw/", manage.SeriesDrawView.as_view(), name="series_draw"),
    path(S, manage.SeriesManageView.as_view(), name="series"),
    path(S + "sheets.pdf", exports.BlankSheetsPdfView.as_view(), name="export_blank_sheets"),
    path(S + "tables.pdf", exports.AssignmentsPdfView.as_view(), name="export_assignments"),
    path(S + "action/", manage.SeriesActionView.as_view(), name="series_action"),
    path(TB, sheet.SheetView.as_view(), name="sheet"),
    path(TB + "preview/", sheet.SheetPreviewView.as_view(), name="sheet_preview"),
    path(TB + "close/", sheet.SheetCloseView.as_view(), name="sheet_close"),
    path(TB + "reopen/", sheet.SheetReopenView.as_view(), name="sheet_reopen"),
    path(TB + "penalty/", sheet.PenaltyView.as_view(), name="sheet_penalty"),
    path(
        TB + "penalty/<int:pk>/delete/",
        sheet.PenaltyDeleteView.as_view(),
        name="sheet_penalty_delete",
    ),
    path(TB + "game/<int:game>/", sheet.GameCorrectView.as_view(), name="game_correct"),
    path(TB + "game/<int:game>/delete/", sheet.GameDeleteView.as_view(), name="game_delete"),
    path("", include("tournaments.urls_entry_manage")),
    path("", include("tournaments.urls_money")),
]
