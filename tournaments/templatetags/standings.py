"""Template helpers for league match-day points: 3:0, 2½:½ (see `tournaments.formats`)."""

from django import template

from tournaments.formats import format_match_points, format_points

register = template.Library()


@register.filter
def points(value) -> str:
    return format_points(value)


@register.simple_tag
def match_points(won, lost) -> str:
    return format_match_points(won, lost)
