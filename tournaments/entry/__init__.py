"""Entry at the tables on the players' phones: each table's private links, provisional
games, the second copy under double entry, confirming and settling.

services (writes) · selectors (reads) · forms · views (the phone's pages and the
director's) · urls (`urlpatterns` under /entry/, and the `manage` pages)
"""
