"""Template helpers for Skat sheets: how a stored game reads on the sheet (no scoring)."""

from django import template

from tournaments.formats import describe

register = template.Library()


@register.filter
def get_item(mapping, key):
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""


@register.simple_tag
def game_description(game):
    return describe(game)
