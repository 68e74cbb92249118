"""User text on a page, isolated from the text around it (`formats.bdi`, `formats.isolated`):
`{{ player.name|bdi }}` in HTML, `{{ tournament.name|isolate }}` where no element can be
(a <title>, an <option>). A builtin of the template engine (settings `TEMPLATES`).

`{{ seat.player|public_name:initials }}`: a player's name as a public page shows it
(`formats.public_name`; `initials` from the view, `permissions.names_by_initials`; a page
without it shows names)."""

from django import template

from tournaments.formats import bdi as bdi_html
from tournaments.formats import isolated
from tournaments.formats import public_name as shown_name

register = template.Library()


@register.filter(is_safe=False)
def bdi(value):
    return bdi_html(value)


@register.filter(is_safe=False)
def isolate(value):
    return isolated(value)


@register.filter(is_safe=False)
def public_name(record, initials=False):
    """The public name of a `Player`, or of a row with `player_name` and `player_listed`."""
    if hasattr(record, "player_name"):
        name, listed = record.player_name, getattr(record, "player_listed", True)
    else:
        name, listed = record.name, record.listed
    return shown_name(name, listed=listed, initials=bool(initials))
