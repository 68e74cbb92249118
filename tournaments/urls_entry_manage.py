"""URLs (filled in by the table-entry / money features)."""

urlpatterns: list = []
