"""The draw's director pages: draw the next series, see and change a drawn series."""

from django.urls import path

from tournaments.draw import views
from tournaments.paths import S, T

manage = [
    path(T + "draw/", views.SeriesDrawView.as_view(), name="series_draw"),
    path(S, views.SeriesManageView.as_view(), name="series"),
    path(S + "action/", views.SeriesActionView.as_view(), name="series_action"),
]
