"""Fixtures of the interchange tests."""

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    # The engine's English messages are the specific ones (tournaments.errors); the
    # commands run without translations, so the direct calls here do the same.
    with translation.override("en"):
        yield
