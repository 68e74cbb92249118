"""Template helpers for entry at the tables: the phone links of a series' tables."""

from django import template

from tournaments.entry.selectors import provisional_counts
from tournaments.models import Series, Table, Venue
from tournaments.shared_views import entry_url

register = template.Library()


@register.simple_tag(takes_context=True)
def entry_links(context, series: Series, venue: Venue | None = None) -> dict[int, dict]:
    """table id → {"url", "url_2" (double entry), "provisional"}: two queries per series.

    Given a `venue`, its tables' only: a venue's page never holds another venue's links."""
    request = context["request"]
    double = series.tournament.double_entry
    tables = Table.objects.filter(series=series)
    if venue is not None:
        tables = tables.filter(venue=venue)
    provisional = provisional_counts(tables)
    return {
        pk: {
            "url": entry_url(request, token) if token else "",
            "url_2": entry_url(request, token_2) if double and token_2 else "",
            "provisional": provisional.get(pk, 0),
        }
        for pk, token, token_2 in tables.values_list("pk", "entry_token", "entry_token_2")
    }
