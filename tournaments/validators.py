"""Validators shared by the models of every module (`models`, `leagues.models`)."""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


def has_control_characters(text: str) -> bool:
    """NUL, tab, line breaks and the like: PostgreSQL refuses NUL, and no name holds them."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def validate_no_control_characters(value: str):
    if has_control_characters(value):
        raise ValidationError(
            _("Remove the control character (such as NUL or a line break)."),
            code="control_character",
        )
