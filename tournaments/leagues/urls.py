"""URLs of leagues and seasons: `public` (season tables, a match day's table) and `manage`."""

from django.urls import path

from tournaments.leagues import views
from tournaments.paths import SEASON, T

public = [
    path(SEASON + "tables/", views.SeasonTablesView.as_view(), name="league_season"),
    path(T + "match-day/", views.MatchDayView.as_view(), name="match_day"),
]

manage = [
    path("leagues/", views.LeaguesView.as_view(), name="leagues"),
    path(SEASON, views.SeasonManageView.as_view(), name="league_season"),
    path(SEASON + "settings/", views.SeasonSettingsView.as_view(), name="season_settings"),
    path(SEASON + "close/", views.SeasonCloseView.as_view(), name="season_close"),
    path(SEASON + "teams/new/", views.TeamCreateView.as_view(), name="team_new"),
    path(SEASON + "match-days/new/", views.MatchDayCreateView.as_view(), name="match_day_new"),
    path("teams/<int:team>/", views.TeamView.as_view(), name="team"),
    path(
        "teams/<int:team>/roster/<int:pk>/remove/",
        views.RosterRemoveView.as_view(),
        name="roster_remove",
    ),
    path("teams/<int:team>/substitute/", views.SubstituteView.as_view(), name="substitute"),
    path(T + "venues/new/", views.VenueCreateView.as_view(), name="venue_new"),
    path(T + "venues/<int:venue>/", views.VenueView.as_view(), name="venue"),
    path(T + "confirm/", views.MatchDayConfirmView.as_view(), name="match_day_confirm"),
]
