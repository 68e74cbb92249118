"""Template helpers of the standings pages: league match-day points, 3:0, 2½:½ (see
`tournaments.formats`), and the QR code of an address (the projector's link to the public
standings)."""

from django import template
from django.utils.safestring import mark_safe

from tournaments.formats import format_match_points, format_points
from tournaments.qr import qr_svg

register = template.Library()


@register.filter
def points(value) -> str:
    return format_points(value)


@register.simple_tag
def match_points(won, lost) -> str:
    return format_match_points(won, lost)


@register.simple_tag
def qr_code(url: str, title: str = "", scale: int = 5):
    """An inline SVG QR code of `url`: dark modules on white, with a quiet zone, so that a
    phone reads it on the projector's dark page too."""
    # segno's SVG (`tournaments.qr.qr_svg`); it escapes the title.
    return mark_safe(qr_svg(str(url), scale=scale, title=str(title)))
