"""Template helpers of the standings pages: league match-day points, 3:0, 2½:½ (see
`tournaments.formats`), and the QR code of an address (the projector's link to the public
standings)."""

from functools import lru_cache

import segno
from django import template
from django.utils.safestring import mark_safe

from tournaments.formats import format_match_points, format_points

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
    return mark_safe(_qr_svg(str(url), str(title), scale))  # segno's SVG; it escapes the title


@lru_cache(maxsize=256)
def _qr_svg(url: str, title: str, scale: int) -> str:
    """Made once per address (choosing the data mask is most of a projector page's render)."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=scale, border=2, dark="#000", light="#fff", title=title or None)
