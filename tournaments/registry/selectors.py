"""Reads of the registry screens: how each row of an imported player list is registered
(`import_decisions`: a known player linked, a new one created, or the row refused) and
which rows are registered already (the preview counts only the players the import adds)."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Club, Player, Registration, Tournament
from tournaments.permissions import can_run_site, managed_clubs
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


@dataclass(frozen=True)
class RowDecision:
    """What importing one row of a player list does (`import_decisions`).

    `player` is the known player the row links (its club's, found by federation number or
    unambiguously by name); else `club` is where a new player is created (a club the
    importer runs), or, with `new_club`, the club created for it (site administrators
    only); `refused` says why the row cannot be imported (nothing is written for it).
    """

    line: int
    club: Club | None = None
    player: Player | None = None
    new_club: bool = False
    refused: str = ""
    guest: bool = False  # a known player of a club the importer does not run: linked


def _name_key(name) -> str:
    return " ".join(str(name or "").split()).casefold()


def import_decisions(
    *, tournament: Tournament, rows: Sequence[Mapping], user=None
) -> list[RowDecision]:
    """How each row of an imported player list is registered: the preview shows it and
    `registry.services.players_import` writes it, so both always agree.

    A row's club is the tournament's when empty or equal to it. Players are created only
    in the tournament's club and the clubs the importer runs (`permissions.managed_clubs`);
    in any other club a known player is linked when found unambiguously (federation
    number, else the one player of that name), and otherwise the row is refused. A club
    not on the site is created only by a site administrator; for anyone else the row is
    refused. Reads a fixed number of queries whatever the list's length.
    """
    home = tournament.club
    named = {_name_key(row.get("club")) for row in rows} - {"", _name_key(home.name)}
    clubs: dict[str, list[Club]] = {}
    if named:
        # All clubs' names (a site has a few hundred at most), compared as Python folds
        # them: the database's case-insensitive match is ASCII-only on SQLite.
        for club in Club.objects.only("id", "name"):
            if _name_key(club.name) in named:
                clubs.setdefault(_name_key(club.name), []).append(club)
    creatable = {home.pk}
    if user is not None:
        creatable |= set(managed_clubs(user).values_list("pk", flat=True))
    admin = can_run_site(user)
    club_ids = {home.pk} | {found[0].pk for found in clubs.values() if len(found) == 1}
    by_number: dict[tuple[int, str], Player] = {}
    by_name: dict[tuple[int, str], list[Player]] = {}
    for player in Player.objects.filter(club_id__in=club_ids).only(
        "id", "name", "club_id", "federation_number"
    ):
        if player.federation_number:
            by_number[(player.club_id, player.federation_number.strip())] = player
        by_name.setdefault((player.club_id, _name_key(player.name)), []).append(player)
    decisions = []
    for row in rows:
        line = row.get("line") or 0
        club_name = " ".join(str(row.get("club") or "").split())
        name = " ".join(str(row.get("name") or "").split())
        number = str(row.get("federation_number") or "").strip()
        key = _name_key(club_name)
        if not key or key == _name_key(home.name):
            club = home
        elif len(clubs.get(key, ())) > 1:
            decisions.append(
                RowDecision(
                    line,
                    refused=_(
                        "several clubs are called “%(club)s”; write the club as the site spells it"
                    )
                    % {"club": club_name},
                )
            )
            continue
        elif key not in clubs:
            if admin:
                decisions.append(RowDecision(line, new_club=True))
            else:
                decisions.append(
                    RowDecision(
                        line,
                        refused=_(
                            "club “%(club)s” is not on the site; only the site administrator "
                            "adds clubs (leave the club empty to register %(name)s for %(home)s)"
                        )
                        % {"club": club_name, "name": name, "home": home.name},
                    )
                )
            continue
        else:
            club = clubs[key][0]
        player = by_number.get((club.pk, number)) if number else None
        if player is None:
            same_name = by_name.get((club.pk, _name_key(name)), [])
            if len(same_name) > 1:
                decisions.append(
                    RowDecision(
                        line,
                        club=club,
                        refused=_(
                            "%(club)s has several players called %(name)s; add the federation "
                            "number"
                        )
                        % {"club": club.name, "name": name},
                    )
                )
                continue
            player = same_name[0] if same_name else None
        if player is None and club.pk not in creatable:
            decisions.append(
                RowDecision(
                    line,
                    club=club,
                    refused=_(
                        "%(club)s has no player %(name)s, and players are created only in "
                        "the clubs you run"
                    )
                    % {"club": club.name, "name": name},
                )
            )
            continue
        decisions.append(
            RowDecision(line, club=club, player=player, guest=club.pk not in creatable)
        )
    return decisions
