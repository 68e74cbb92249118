"""Template filters for amounts of money and shares of the pot (see `tournaments.formats`)."""

from django import template

from tournaments.formats import format_money, percent

register = template.Library()
register.filter("percent", percent)


@register.filter
def money(amount, currency="EUR"):
    return format_money(amount, currency)


@register.filter
def signed_money(amount, currency="EUR"):
    return format_money(amount, currency, sign=True)
