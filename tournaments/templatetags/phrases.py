"""`{{ row|shown:"reason" }}`: a row's text field as the reader sees it, a generated
sentence in the active language, typed text as typed (`tournaments.phrases`)."""

from django import template

from tournaments import phrases

register = template.Library()


@register.filter
def shown(obj, field: str) -> str:
    return phrases.shown(obj, field)
