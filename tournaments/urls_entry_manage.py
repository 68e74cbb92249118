"""The director's side of entry at the tables: links, confirmation, settling two copies.

Included by `urls_admin` inside the `manage` namespace, with its path prefixes.
"""

from django.urls import path

from tournaments.views import table_entry

T = "t/<slug:tournament>/"
S = T + "series/<int:series>/"
TB = S + "table/<int:table>/"

urlpatterns = [
    path(S + "entry/links/", table_entry.EntryLinksView.as_view(), name="entry_links"),
    path(TB + "entry/", table_entry.EntryConfirmView.as_view(), name="entry_confirm"),
    path(TB + "entry/settle/", table_entry.EntrySettleView.as_view(), name="entry_settle"),
    path(TB + "entry/link/", table_entry.EntryLinkView.as_view(), name="entry_link"),
    path(TB + "entry/qr.svg", table_entry.EntryQrView.as_view(), name="entry_qr"),
]
