"""`schneider_reached`: how a play ended, schneider by its flags or by the card points."""

import pytest

from scoring import schneider_reached


@pytest.mark.parametrize(
    ("rules", "card_points", "flags", "expected"),
    [
        ("ispa", 95, {}, True),  # rules §1.3: the opponents schneider from 90
        ("ispa", 90, {}, True),  # rules §1.3: at 90 ISPA has schneider
        ("ispa", 89, {}, False),
        ("na", 90, {}, False),  # rules §3.3: at exactly 90 the NA game has none
        ("na", 91, {}, True),  # rules §3.3: 91 makes the opponents schneider
        ("ispa", 30, {}, True),  # rules §1.3: the declarer schneider with 30 or fewer
        ("na", 31, {}, False),
        ("ispa", None, {}, False),  # a null game: no card points, no flag
        ("ispa", None, {"schneider": True}, True),  # entered as a flag
        ("na", None, {"schneider": True, "schwarz": True}, True),
        ("ispa", 120, {"schwarz": True}, True),  # rules §1.3: schwarz is schneider too
    ],
)
def test_schneider_by_flag_or_by_card_points(rules, card_points, flags, expected):
    assert schneider_reached(rules, card_points=card_points, **flags) is expected
