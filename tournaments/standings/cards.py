"""The series page's table cards as HTML, built in Python.

A series of a 2,000-player open has 500 tables and 2,000 player links: the template loop
took about 200 ms to render them, on a page every player opens to find their table after
each draw (and again after each game, since its progress changes). Here one pass of string
formatting builds the same markup in a few milliseconds: the addresses are reversed once
and filled in per table and player, the texts escaped as the template escaped them
(`django.utils.html.escape` is `html.escape`). The markup matches what
`templates/tournaments/series_detail.html` showed before (tests/tournaments/public/
test_tables.py checks its parts).
"""

from __future__ import annotations

from html import escape

from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments.formats import bdi, public_name
from tournaments.permissions import player_linked
from tournaments.standings.selectors import TableCard

_SENTINEL = 987654321  # a number no address contains otherwise


def _address(name: str, **kwargs) -> str:
    """The address `name` with `{}` where the sentinel (the last number) was."""
    before, after = reverse(name, kwargs=kwargs).rsplit(str(_SENTINEL), 1)
    return before.replace("{", "{{").replace("}", "}}") + "{}" + after.replace("}", "}}")


def table_cards_html(
    *, tournament_slug: str, series_number: int, cards: list[TableCard], initials: bool = False
):
    """One `<div class="card">` per table: its link, progress, closed badge and players
    (by their public names, `formats.public_name`; `initials`:
    `permissions.names_by_initials` of the tournament's club)."""
    make = card_maker(
        tournament_slug=tournament_slug, series_number=series_number, initials=initials
    )
    return mark_safe("\n".join(make(card) for card in cards))  # noqa: S308 - escaped


def card_maker(*, tournament_slug: str, series_number: int, initials: bool = False):
    """A function of a `TableCard` giving its `<div class="card">` (in the language and
    under the script prefix of the moment it was made): a player not listed publicly by
    their public name and without a link to their page."""
    table_url = _address(
        "table_detail", tournament=tournament_slug, series=series_number, table=_SENTINEL
    )
    player_url = _address("player_detail", pk=_SENTINEL)
    closed = f' <span class="badge finished">{escape(_("closed"))}</span>'
    title = _("Table %(n)s")

    def make(card: TableCard) -> str:
        players = "".join(
            f'<li><a href="{escape(player_url.format(pk))}">{bdi(name)}</a></li>'
            if player_linked(listed)
            else f"<li>{bdi(public_name(name, listed=listed, initials=initials))}</li>"
            for pk, name, listed in card.players
        )
        return (
            f'<div class="card"><h3><a href="{escape(table_url.format(card.number))}">'
            f"{escape(title % {'n': card.number})}</a> "
            f'<span class="muted small">{card.played}/{card.length}</span>'
            f"{closed if card.closed else ''}</h3>"
            f'<ol class="players">{players}</ol></div>'
        )

    return make
