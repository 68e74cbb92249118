"""The name a public output shows (`formats.public_name`, issue 29): a player not listed
publicly by initials where the output shows them, else by name."""

from types import SimpleNamespace

import pytest

from tournaments.formats import name_initials, public_name, public_player_name
from tournaments.models import Club
from tournaments.permissions import RATINGS, STANDINGS, names_by_initials


@pytest.mark.parametrize(
    ("name", "initials"),
    [
        ("Hans Müller", "H. M."),  # the example
        ("Müller, Hans", "H. M."),  # surname first, as a federation list writes it
        ("  Hans   Müller ", "H. M."),  # spaces as typed
        ("Hans", "H."),  # a single name
        ("Hans-Peter Müller", "H.-P. M."),  # a double given name keeps its hyphen
        ("Anna Schmidt-Weber", "A. S.-W."),  # and a double surname
        ("Ludwig van Beethoven", "L. v. B."),  # a particle keeps its small letter
        ("von Bismarck, Otto", "O. v. B."),  # surname first with its particle
        ("Karl Theodor zu Guttenberg", "K. T. z. G."),
        ("hans müller", "H. M."),  # typed small: initials are capitals
        ("Łukasz Żółć", "Ł. Ż."),  # letters beyond Latin-1
        ("Ölaf 'Olli' Ärger", "Ö. O. Ä."),  # quotes are no initial
        ("Hans – Müller", "H. M."),  # a word without a letter is left out
        ("Jörg Łukasz Jr.", "J. Ł. J."),
        ("", ""),
    ],
)
def test_name_initials(name, initials):
    assert name_initials(name) == initials


@pytest.mark.parametrize(
    ("listed", "initials", "shown"),
    [
        (True, True, "Hans Müller"),  # a listed player: always the name
        (True, False, "Hans Müller"),
        (False, True, "H. M."),  # not listed, where the output shows initials
        (False, False, "Hans Müller"),  # not listed, where the club did not choose them
    ],
)
def test_public_name(listed, initials, shown):
    assert public_name("Hans Müller", listed=listed, initials=initials) == shown
    player = SimpleNamespace(name="Hans Müller", listed=listed)
    assert public_player_name(player, initials=initials) == shown


@pytest.mark.parametrize(
    ("chosen", "output", "initials"),
    [
        (False, STANDINGS, False),
        (True, STANDINGS, True),
        (False, RATINGS, True),  # rating lists: initials always (the issue)
        (True, RATINGS, True),
    ],
)
def test_names_by_initials(chosen, output, initials):
    assert names_by_initials(Club(initials_in_standings=chosen), output=output) is initials


def test_a_league_season_has_no_club_to_choose():
    assert names_by_initials(None) is False
    assert names_by_initials(None, output=RATINGS) is True


def test_an_unknown_output_is_refused():
    with pytest.raises(ValueError):
        names_by_initials(None, output="posters")
