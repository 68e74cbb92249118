"""`{% once_key %}`: the hidden once key (idempotency key) of a form that creates something.

Each rendering gets a fresh UUID; the service stores it with its log line, so the same form
sent twice is done once (`tournaments.log.services`).
"""

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def once_key():
    return format_html('<input type="hidden" name="once" value="{}">', uuid.uuid4())
