"""User text on a page, isolated from the text around it (`formats.bdi`, `formats.isolated`):
`{{ player.name|bdi }}` in HTML, `{{ tournament.name|isolate }}` where no element can be
(a <title>, an <option>). A builtin of the template engine (settings `TEMPLATES`)."""

from django import template

from tournaments.formats import bdi as bdi_html
from tournaments.formats import isolated

register = template.Library()


@register.filter(is_safe=False)
def bdi(value):
    return bdi_html(value)


@register.filter(is_safe=False)
def isolate(value):
    return isolated(value)
