"""Entry at the tables: the private links on the players' phones (`urlpatterns`, under
/entry/, no account needed) and the director's side (`manage`: links, confirmation,
settling two copies).

Everything under a link concerns its one table: the page, the row it sends, the live
value, the sheet as JSON, and (second keeper under double entry) the confirmation.
"""

from django.urls import path

from tournaments.entry import views
from tournaments.paths import TB, S

urlpatterns = [
    path("<str:token>/", views.EntryPageView.as_view(), name="entry"),
    path("<str:token>/games/", views.EntryGamesView.as_view(), name="entry_games"),
    path("<str:token>/preview/", views.EntryPreviewView.as_view(), name="entry_preview"),
    path("<str:token>/state/", views.EntryStateView.as_view(), name="entry_state"),
    path("<str:token>/undo/", views.EntryUndoView.as_view(), name="entry_undo"),
    path(
        "<str:token>/confirm/",
        views.EntryPhoneConfirmView.as_view(),
        name="entry_phone_confirm",
    ),
]

manage = [
    path(S + "entry/links/", views.EntryLinksView.as_view(), name="entry_links"),
    path(TB + "entry/", views.EntryConfirmView.as_view(), name="entry_confirm"),
    path(TB + "entry/settle/", views.EntrySettleView.as_view(), name="entry_settle"),
    path(TB + "entry/link/", views.EntryLinkView.as_view(), name="entry_link"),
    path(TB + "entry/qr.svg", views.EntryQrView.as_view(), name="entry_qr"),
]
