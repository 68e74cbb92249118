"""tournaments/errors.py: the rules engine's errors reach the user in the active language."""

import pytest

from tournaments.sheets.services import game_record

pytestmark = pytest.mark.django_db


def test_engine_errors_are_translated(table_de):
    from django.utils import translation

    from tournaments.errors import UserError

    with translation.override("de"), pytest.raises(UserError) as error:
        game_record(
            table=table_de, data={"declarer": 2, "game": "clubs", "matadors": 12, "won": True}
        )
    assert str(error.value) == "Die Spitzen müssen bei diesem Spiel zwischen 1 und 11 liegen."
    assert error.value.field == "matadors"


@pytest.fixture
def table_de(series):
    return series.tables.get()
