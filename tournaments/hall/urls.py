"""The hall's publishing page of a tournament (secretaries)."""

from django.urls import path

from tournaments.hall import views
from tournaments.paths import T

manage = [
    path(T + "public-copy/", views.PublishingView.as_view(), name="hall_publishing"),
]
