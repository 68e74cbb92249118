"""Reads of the registry screens: which rows of an imported player list are registered
already (the preview counts only the players the import adds)."""

from collections.abc import Iterable

from tournaments.models import Registration, Tournament
from tournaments.registry.player_import import ImportRow


def rows_registered_already(tournament: Tournament, rows: Iterable[ImportRow]) -> set[int]:
    """The lines of `rows` whose player is registered in `tournament` already.

    A row is the same player as `registry.services.players_import` decides: the club (the
    tournament's when empty) and the federation number agree, or else the club and the name.
    """
    home = tournament.club.name.casefold()
    by_number, by_name = set(), set()
    registered = Registration.objects.filter(tournament=tournament).values_list(
        "player__club__name", "player__name", "player__federation_number"
    )
    for club, name, number in registered:
        club = (club or "").casefold()
        if number:
            by_number.add((club, number.strip()))
        by_name.add((club, " ".join(name.split()).casefold()))
    lines = set()
    for row in rows:
        club = (row.club.strip() or home).casefold()
        name = " ".join(row.name.split()).casefold()
        number = row.federation_number.strip()
        if (number and (club, number) in by_number) or (club, name) in by_name:
            lines.add(row.line)
    return lines
