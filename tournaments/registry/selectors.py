"""Reads of the registry screens: how each row of an imported player list is registered
(`import_decisions`: a known player linked, a new one created, or the row refused, as
`registry.matching` finds the players) and which rows are registered already (the preview
counts only the players the import adds); a club's members (`club_members`); who has a
federation number already (`federation_number_taken`: a number is one person's,
site-wide, and every form and service that gives one refuses it naming the holder)."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.collation import alphabetical
from tournaments.errors import UserError
from tournaments.formats import isolated
from tournaments.models import Club, Membership, Player, Registration, Tournament
from tournaments.permissions import can_run_site, managed_clubs
from tournaments.registry.matching import Wanted, player_label, players_matching


@dataclass(frozen=True)
class RowDecision:
    """What importing one row of a player list does (`import_decisions`).

    `player` is the known player the row links (`registry.matching`: by federation number
    anywhere on the site, else the one member of the row's club of that name), `joins`
    when they become a member of `club` with it; else `club` is where a new player is
    created (a club the importer runs), or, with `new_club`, the club created for it (site
    administrators only). `candidates`: two or more players the row may be, of which the
    user chooses one (`choices` of `import_decisions`); `refused` says why the row cannot
    be imported (nothing is written for it); `warning` what the preview points out.
    """

    line: int
    club: Club | None = None
    player: Player | None = None
    new_club: bool = False
    refused: str = ""
    guest: bool = False  # a known player of a club the importer does not run: linked
    joins: bool = False
    candidates: tuple[Player, ...] = ()
    warning: str = ""

    @property
    def label(self) -> str:
        return player_label(self.player) if self.player is not None else ""

    @property
    def choices(self) -> list[tuple[int, str]]:
        return [(player.pk, player_label(player)) for player in self.candidates]

    def outcome(self) -> list:
        """What the preview showed of the row (a user's choice left out), as JSON."""
        found = None if self.player is None or self.candidates else self.player.pk
        return [
            self.line,
            found,
            sorted(p.pk for p in self.candidates),
            self.joins and not self.candidates,
            self.new_club,
            bool(self.refused),
        ]


def _name_key(name) -> str:
    return " ".join(str(name or "").split()).casefold()


def import_decisions(
    *,
    tournament: Tournament,
    rows: Sequence[Mapping],
    user=None,
    choices: Mapping[int, int] | None = None,
) -> list[RowDecision]:
    """How each row of an imported player list is registered: the preview shows it and
    `registry.services.players_import` writes it, so both always agree.

    A row's club is the tournament's when empty or equal to it. Players are found as
    `registry.matching.players_matching` finds them. Players are created only in the
    tournament's club and the clubs the importer runs (`permissions.managed_clubs`), and
    only there does a known player join the club; in any other club a known player is
    linked when found, and otherwise the row is refused. A club not on the site is created
    only by a site administrator; for anyone else the row is refused. `choices` (line:
    player id) settles rows of several candidates. Reads a fixed number of queries
    whatever the list's length.
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
    decisions: list[RowDecision | None] = []
    wanted: list[tuple[int, Wanted]] = []  # (index of its decision, the row's entry)
    for row in rows:
        line = row.get("line") or 0
        club_name = " ".join(str(row.get("club") or "").split())
        name = " ".join(str(row.get("name") or "").split())
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
            if not admin:
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
            club = Club(name=club_name)  # created by the import: nobody's club yet
        else:
            club = clubs[key][0]
        number = str(row.get("federation_number") or "").strip()
        wanted.append((len(decisions), Wanted(name=name, club=club, federation_number=number)))
        decisions.append(None)
    matches = players_matching([entry for _index, entry in wanted])
    lines = [rows[index].get("line") or 0 for index, _entry in wanted]
    for (index, entry), match in zip(wanted, matches, strict=True):
        line, club, name = rows[index].get("line") or 0, entry.club, entry.name
        new_club = club.pk is None
        runs = new_club or club.pk in creatable
        decision = RowDecision(line, club=None if new_club else club, new_club=new_club)
        if match.same_as is not None:
            decision = RowDecision(
                line,
                club=decision.club,
                refused=_("%(player)s is line %(line)s already")
                % {"player": player_label(match.player), "line": lines[match.same_as]},
            )
        elif match.ambiguous:
            chosen = [p for p in match.candidates if p.pk == (choices or {}).get(line)]
            decision = RowDecision(
                line,
                club=decision.club,
                new_club=new_club,
                player=chosen[0] if chosen else None,
                candidates=match.candidates,
                guest=not runs,
                joins=bool(chosen) and runs and match.by_number,
            )
        elif match.player is not None:
            warning = ""
            if match.name_differs:
                warning = _(
                    "federation number %(number)s is %(player)s on the site: linked, not renamed"
                ) % {"number": entry.federation_number, "player": player_label(match.player)}
            decision = RowDecision(
                line,
                club=decision.club,
                new_club=new_club,
                player=match.player,
                guest=not runs,
                joins=match.joins and runs,
                warning=warning,
            )
        elif not runs:
            decision = RowDecision(
                line,
                club=club,
                refused=_(
                    "%(club)s has no player %(name)s, and players are created only in "
                    "the clubs you run"
                )
                % {"club": club.name, "name": name},
            )
        decisions[index] = decision
    return decisions


def check_importable(decisions: Sequence[RowDecision], previewed: Sequence | None = None):
    """Refuse a list with a refused row, a row of several candidates nobody chose among,
    or (given the preview's `RowDecision.outcome`s) rows that would now go otherwise than
    the preview showed (a player added, renamed or numbered on the site since)."""
    for decision in decisions:
        reason = decision.refused
        if decision.candidates and decision.player is None:
            reason = _("%(name)s could be any of %(players)s; choose one in the preview") % {
                "name": decision.candidates[0].name,
                "players": "; ".join(label for _pk, label in decision.choices),
            }
        if reason:
            raise UserError(
                _("Nothing was imported: line %(line)s: %(reason)s")
                % {"line": decision.line, "reason": reason}
            )
    if previewed is not None and [d.outcome() for d in decisions] != [
        list(outcome) for outcome in previewed
    ]:
        raise UserError(
            _(
                "The site's players have changed since the preview: nothing was imported. "
                "Upload the list again to see what it does now."
            )
        )


def registered_already(tournament: Tournament, decisions: Iterable[RowDecision]) -> set[int]:
    """The lines of `decisions` whose player is registered in `tournament` already."""
    registered = set(
        Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    return {d.line for d in decisions if d.player is not None and d.player.pk in registered}


def federation_number_taken(number: str, *, exclude: int | None = None) -> str:
    """Why `number` cannot be given to a player: the message naming the player (name,
    club) who has it already, site-wide (a federation number is one person's); "" when it
    is free or empty. `exclude`: the player being edited."""
    number = (number or "").strip()
    if not number:
        return ""
    holders = Player.objects.filter(federation_number=number).select_related("club")
    if exclude is not None:
        holders = holders.exclude(pk=exclude)
    holder = holders.first()
    return federation_number_message(holder) if holder is not None else ""


def federation_number_message(holder: Player) -> str:
    """The refusal of a federation number `holder` has already."""
    return _("Federation number %(n)s is already %(name)s's (%(club)s).") % {
        "n": isolated(holder.federation_number),
        "name": isolated(holder.name),
        "club": isolated(holder.club.name) if holder.club is not None else _("no club"),
    }


@dataclass(frozen=True)
class Member:
    """One line of a club's player list: the player and whether the club is their home."""

    player: Player
    home: bool
    membership: Membership | None


def club_members(club: Club) -> list[Member]:
    """The club's home players and the members from other clubs, A–Z."""
    memberships = {
        m.player_id: m for m in Membership.objects.filter(club=club).select_related("player__club")
    }
    players = {m.player_id: m.player for m in memberships.values()}
    for player in Player.objects.filter(club=club).select_related("club"):
        players.setdefault(player.pk, player)
    members = [
        Member(player, player.club_id == club.pk, memberships.get(player.pk))
        for player in players.values()
    ]
    return alphabetical(members, key=lambda member: member.player.name)
