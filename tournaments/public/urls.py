"""Public pages: published tournaments, standings, sheets, players, seasons, the projector,
the rating lists (the site's, a club's, a league's) and how ratings are computed."""

from django.urls import path

from tournaments.paths import TB, S, T
from tournaments.public import views

public = [
    path("", views.HomeView.as_view(), name="home"),
    path(T, views.TournamentDetailView.as_view(), name="tournament_detail"),
    path(T + "teams/", views.TeamStandingsView.as_view(), name="team_standings"),
    path(T + "projector/", views.ProjectorView.as_view(), name="tournament_projector"),
    path(T + "version/", views.TournamentVersionView.as_view(), name="tournament_version"),
    path(S, views.SeriesDetailView.as_view(), name="series_detail"),
    path(TB, views.TableDetailView.as_view(), name="table_detail"),
    path("players/<int:pk>/", views.PlayerDetailView.as_view(), name="player_detail"),
    path("seasons/<slug:season>/", views.SeasonDetailView.as_view(), name="season_detail"),
    path("ratings/", views.RatingListView.as_view(), name="rating_list"),
    path("ratings/method/", views.RatingMethodView.as_view(), name="rating_method"),
    path("ratings/clubs/<int:club>/", views.RatingListView.as_view(), name="club_ratings"),
    path("ratings/leagues/<slug:league>/", views.RatingListView.as_view(), name="league_ratings"),
]
