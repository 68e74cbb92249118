"""The desk's score-sheet pages of a table: enter, preview, correct, delete, penalties,
close and reopen."""

from django.urls import path

from tournaments.paths import TB
from tournaments.sheets import views

manage = [
    path(TB, views.SheetView.as_view(), name="sheet"),
    path(TB + "preview/", views.SheetPreviewView.as_view(), name="sheet_preview"),
    path(TB + "close/", views.SheetCloseView.as_view(), name="sheet_close"),
    path(TB + "reopen/", views.SheetReopenView.as_view(), name="sheet_reopen"),
    path(TB + "penalty/", views.PenaltyView.as_view(), name="sheet_penalty"),
    path(
        TB + "penalty/<int:pk>/delete/",
        views.PenaltyDeleteView.as_view(),
        name="sheet_penalty_delete",
    ),
    path(TB + "game/<int:game>/", views.GameCorrectView.as_view(), name="game_correct"),
    path(TB + "game/<int:game>/delete/", views.GameDeleteView.as_view(), name="game_delete"),
]
