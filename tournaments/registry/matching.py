"""Who an imported player is: the one rule every import follows (the player list of
`registry.selectors.import_decisions`, the tournament document of `interchange.writer`,
the season document's rosters of `leagues.interchange`).

One person is one player on the site, a member of any number of clubs (`Membership`). An
imported entry (`Wanted`: a name, the club the import says the player plays for, and a
federation number when it gives one) is, in this order:

1. the player of that federation number, wherever on the site (the number is the
   federation's, one person's); a name that differs strongly from the site's is a warning
   (`Match.name_differs`), never a renaming;
2. else the one member of the named club of the same name, compared as the A–Z lists
   compare names (`collation.fold`: case and accents) with "Last, First" read as "First
   Last" (`person_key`); a member with another federation number is someone else;
3. else nobody: a new player.

Two or more candidates are never guessed between (`Match.candidates`): the caller lets
the user choose or refuses. A match with a player who is not yet a member of the named
club says so (`Match.joins`): the import adds that membership. Two entries of one import
that find the same player are flagged (`Match.same_as`).

`players_matching` reads a fixed number of queries whatever the import's length (each a
batch of at most `IN_BATCH` values): the players of the numbers, the members of the named
clubs (by home club and by membership), the players without a club (only when an entry
has none).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.collation import fold
from tournaments.formats import isolated
from tournaments.models import Club, Membership, Player

# Values per `IN (...)` list (SQLite allows 999 parameters in older versions).
IN_BATCH = 900


@dataclass(frozen=True)
class Wanted:
    """One imported entry. `club`: the club the import says the player plays for; None
    for a player of no club (a document may say so); an unsaved Club for a club the import
    creates (nobody is its member yet)."""

    name: str
    club: Club | None
    federation_number: str = ""


@dataclass(frozen=True)
class Match:
    """Who a `Wanted` is: `player`, or a new player when None and no `candidates`."""

    player: Player | None = None
    candidates: tuple[Player, ...] = ()  # two or more: the import does not guess
    by_number: bool = False
    joins: bool = False  # `player` is not a member of the entry's club yet
    name_differs: bool = False  # found by number under a name that differs strongly
    same_as: int | None = None  # the index of an earlier entry that found `player`

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


@dataclass
class PlayerTally:
    """What an import did with its players: the existing ones it matched, the ones it
    created, and its warnings (a name that differs from the matched player's)."""

    matched: set[int] = field(default_factory=set)
    created: set[int] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)

    def add(self, matches: Iterable[Match], created: Iterable[Player] = ()):
        self.created |= {player.pk for player in created}
        self.matched |= {m.player.pk for m in matches if m.player is not None} - self.created

    def summary(self) -> str:
        return f"players: {len(self.matched)} matched, {len(self.created)} created"


def person_key(name: str) -> str:
    """A name as imports compare it: folded (case, accents, ß), "Last, First" as "First
    Last": "Schmidt, Änna" and "anna schmidt" are the same."""
    name = str(name or "")
    if name.count(",") == 1:
        last, first = name.split(",")
        name = f"{first} {last}"
    return fold(name)


def names_differ(imported: str, stored: str) -> bool:
    """Whether two names of one federation number differ strongly: neither holds all the
    other's words ("Anna Schmidt" and "Anna Maria Schmidt" agree; "Anna Schmidt" and
    "Bernd Krause" do not)."""
    one, other = set(person_key(imported).split()), set(person_key(stored).split())
    return not (one <= other or other <= one)


def player_label(player: Player) -> str:
    """How a matched player is named in a preview or a message: name (home club, no.)."""
    details = [isolated(player.club.name) if player.club_id else ""]
    if player.federation_number:
        details.append(player.federation_number)
    details = [d for d in details if d]
    label = isolated(player.name)
    return f"{label} ({', '.join(details)})" if details else label


def _batches(items: Sequence, size: int = IN_BATCH):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def players_matching(wanted: Sequence[Wanted]) -> list[Match]:
    """Who each entry is (see the module's docstring), in the entries' order."""
    numbers = sorted({w.federation_number.strip() for w in wanted} - {""})
    by_number: dict[str, list[Player]] = defaultdict(list)
    for batch in _batches(numbers):
        query = Player.objects.filter(federation_number__in=batch).select_related("club")
        for player in query.order_by("pk"):
            by_number[player.federation_number.strip()].append(player)

    club_ids = sorted({w.club.pk for w in wanted if w.club is not None and w.club.pk})
    members: dict[tuple[int, int], Player] = {}  # (club, player): the club's members
    for batch in _batches(club_ids):
        # The home club is one of a player's clubs even where its membership row is
        # missing (a player written before memberships, or by a bulk insert).
        for player in Player.objects.filter(club_id__in=batch).select_related("club"):
            members[(player.club_id, player.pk)] = player
        query = Membership.objects.filter(club_id__in=batch).select_related("player__club")
        for membership in query:
            members[(membership.club_id, membership.player_id)] = membership.player
    by_name: dict[tuple[int | None, str], list[Player]] = defaultdict(list)
    for (club_id, _pk), player in sorted(members.items()):
        by_name[(club_id, person_key(player.name))].append(player)
    if any(w.club is None for w in wanted):
        for player in Player.objects.filter(club__isnull=True).order_by("pk"):
            by_name[(None, person_key(player.name))].append(player)

    found = sorted({p.pk for players in by_number.values() for p in players})
    member_of = {(p.pk, p.club_id) for players in by_number.values() for p in players}
    for batch in _batches(found):
        member_of |= set(
            Membership.objects.filter(player_id__in=batch).values_list("player_id", "club_id")
        )

    matches: list[Match] = []
    taken: dict[int, int] = {}  # player pk: the index of the entry that found them
    for index, entry in enumerate(wanted):
        number = entry.federation_number.strip()
        club = entry.club
        if number and by_number.get(number):
            candidates = by_number[number]
            if len(candidates) > 1:  # one number in two clubs (kept once per club before)
                matches.append(Match(candidates=tuple(candidates), by_number=True))
                continue
            player = candidates[0]
            match = Match(
                player=player,
                by_number=True,
                joins=club is not None and (player.pk, club.pk) not in member_of,
                name_differs=names_differ(entry.name, player.name),
            )
        else:
            key = (club.pk if club is not None else None, person_key(entry.name))
            candidates = [
                player
                for player in (by_name.get(key, []) if club is None or club.pk else [])
                # A member of another federation number is another person.
                if not (number and player.federation_number)
            ]
            if len(candidates) > 1:
                matches.append(Match(candidates=tuple(candidates)))
                continue
            match = Match(player=candidates[0] if candidates else None)
        if match.player is not None:
            if match.player.pk in taken:
                match = Match(
                    player=match.player,
                    by_number=match.by_number,
                    same_as=taken[match.player.pk],
                )
            else:
                taken[match.player.pk] = index
        matches.append(match)
    return matches
