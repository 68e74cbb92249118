"""The action log's secretary page."""

from django.urls import path

from tournaments.log import views
from tournaments.paths import T

manage = [
    path(T + "log/", views.TournamentLogView.as_view(), name="tournament_log"),
]
