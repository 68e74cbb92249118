"""Amounts of money as the active language writes them: "1,50 €" in German, "€1.50" in English.

`format_money` is shared by the templates (the `money` filter), the prize list PDF and the
messages; it formats the exact Decimal it is given (two places, thousands grouped) and never
rounds through a float.
"""

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import get_language

register = template.Library()

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CAD": "CA$", "AUD": "A$", "PLN": "zł"}
MINUS = "−"
NBSP = "\u00a0"


def format_money(amount, currency: str = "EUR", *, sign: bool = False) -> str:
    """`amount` in `currency`; `sign` puts a plus before positive amounts."""
    if amount is None or amount == "":
        return ""
    value = Decimal(amount).quantize(Decimal("0.01"))
    number = number_format(abs(value), decimal_pos=2, force_grouping=True)
    symbol = SYMBOLS.get(currency, currency)
    if (get_language() or "en").startswith("de"):
        text = f"{number}{NBSP}{symbol}"
    else:
        text = f"{symbol}{number}" if len(symbol) < 3 else f"{symbol}{NBSP}{number}"
    if value < 0:
        return MINUS + text
    if sign and value > 0:
        return "+" + text
    return text


@register.filter
def money(amount, currency="EUR"):
    return format_money(amount, currency)


@register.filter
def signed_money(amount, currency="EUR"):
    return format_money(amount, currency, sign=True)


@register.filter
def percent(share) -> str:
    """A share of the pot: 50 → "50 %" (de) / "50%" (en); 12.5 → "12,5 %" / "12.5%"."""
    if share is None:
        return ""
    value = Decimal(share).normalize()
    places = max(0, -value.as_tuple().exponent)
    number = number_format(value, decimal_pos=places)
    return f"{number}{NBSP}%" if (get_language() or "en").startswith("de") else f"{number}%"
