"""The private table links for entry on the players' phones (no account needed).

Everything under a link concerns its one table: the page, the row it sends, the live
value, the sheet as JSON, and (second keeper under double entry) the confirmation.
"""

from django.urls import path

from tournaments.views import table_entry

urlpatterns = [
    path("<str:token>/", table_entry.EntryPageView.as_view(), name="entry"),
    path("<str:token>/games/", table_entry.EntryGamesView.as_view(), name="entry_games"),
    path("<str:token>/preview/", table_entry.EntryPreviewView.as_view(), name="entry_preview"),
    path("<str:token>/state/", table_entry.EntryStateView.as_view(), name="entry_state"),
    path(
        "<str:token>/confirm/",
        table_entry.EntryPhoneConfirmView.as_view(),
        name="entry_phone_confirm",
    ),
]
