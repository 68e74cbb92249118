"""League match-day points as people write them: 3:0, 2½:½ (rules §4).

Teams that tie on a match day share the points of their places, so the points can be
halves (and, added up over a season, any number of halves). `format_points` writes the
exact Fraction the selectors give with a fraction sign, the same in every language; it
never rounds through a float.
"""

from fractions import Fraction

from django import template

register = template.Library()

MINUS = "−"
VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def format_points(value) -> str:
    """3 → "3"; 5/2 → "2½"; 1/2 → "½"; a fraction without its own sign → "1 3/8"."""
    if value is None or value == "":
        return ""
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    if not rest:
        return f"{sign}{whole}"
    head = str(whole) if whole else ""
    tail = VULGAR.get(rest) or f"{' ' if head else ''}{rest.numerator}/{rest.denominator}"
    return f"{sign}{head}{tail}"


def format_match_points(won, lost) -> str:
    """Match points won and lost: "2½:½"."""
    return f"{format_points(won)}:{format_points(lost)}"


@register.filter
def points(value) -> str:
    return format_points(value)


@register.simple_tag
def match_points(won, lost) -> str:
    return format_match_points(won, lost)
