"""The series page's table cards as HTML, built in Python.

A series of a 2,000-player open has 500 tables and 2,000 player links: the template loop
took about 200 ms to render them, on a page every player opens to find their table after
each draw (and again after each game, since its progress changes). Here one pass of
`format_html` builds the same markup in a few milliseconds. The markup matches what
`templates/tournaments/series_detail.html` showed before (a test compares them).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.standings.selectors import TableCard

_SENTINEL = 987654321  # a player id no URL contains otherwise


def table_cards_html(*, tournament_slug: str, series_number: int, cards: list[TableCard]):
    """One `<div class="card">` per table: its link, progress, closed badge and players."""
    player_url = reverse("player_detail", kwargs={"pk": _SENTINEL})
    before, after = player_url.split(str(_SENTINEL))
    closed = format_html(' <span class="badge finished">{}</span>', _("closed"))
    parts = []
    for card in cards:
        url = reverse(
            "table_detail",
            kwargs={"tournament": tournament_slug, "series": series_number, "table": card.number},
        )
        players = format_html_join(
            "",
            '<li><a href="{}{}{}">{}</a></li>',
            ((before, pk, after, name) for pk, name in card.players),
        )
        parts.append(
            format_html(
                '<div class="card"><h3><a href="{}">{}</a> '
                '<span class="muted small">{}/{}</span>{}</h3>'
                '<ol class="players">{}</ol></div>',
                url,
                _("Table %(n)s") % {"n": card.number},
                card.played,
                card.length,
                closed if card.closed else "",
                players,
            )
        )
    return SafeString("\n".join(parts)) if parts else mark_safe("")
