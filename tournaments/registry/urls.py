"""The registry's secretary pages: clubs' players, seasons, tournaments, registrations."""

from django.urls import path

from tournaments.paths import T
from tournaments.registry import views

manage = [
    path("", views.DashboardView.as_view(), name="dashboard"),
    path("club/<int:club>/players/", views.ClubPlayersView.as_view(), name="club_players"),
    path("club/<int:club>/players/<int:pk>/", views.PlayerEditView.as_view(), name="player_edit"),
    path("club/<int:club>/settings/", views.ClubSettingsView.as_view(), name="club_settings"),
    path("club/<int:club>/seasons/new/", views.SeasonCreateView.as_view(), name="season_new"),
    path(
        "club/<int:club>/tournaments/new/",
        views.TournamentCreateView.as_view(),
        name="tournament_new",
    ),
    path(T, views.TournamentManageView.as_view(), name="tournament"),
    path(T + "settings/", views.TournamentSettingsView.as_view(), name="tournament_settings"),
    path(T + "action/", views.TournamentActionView.as_view(), name="tournament_action"),
    path(T + "lots/", views.LotsView.as_view(), name="tournament_lots"),
    path(T + "delete/", views.TournamentDeleteView.as_view(), name="tournament_delete"),
    path(
        T + "registrations/<int:pk>/withdraw/",
        views.RegistrationWithdrawView.as_view(),
        name="registration_withdraw",
    ),
    path(T + "registrations/add/", views.RegistrationAddView.as_view(), name="registration_add"),
    path(
        T + "registrations/quick-add/",
        views.RegistrationQuickAddView.as_view(),
        name="registration_quick_add",
    ),
    path(
        T + "registrations/import/",
        views.RegistrationImportView.as_view(),
        name="registration_import",
    ),
    path(
        T + "registrations/<int:pk>/remove/",
        views.RegistrationRemoveView.as_view(),
        name="registration_remove",
    ),
]
