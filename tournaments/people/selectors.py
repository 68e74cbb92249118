"""Reads of one person across clubs: finding a player of another club, likely
duplicates, and what merging two records moves and what blocks it.

Terms: a club's *members* are its home players (`Player.club`) and the players of other
clubs who are members too (`Membership`; `registry.selectors.club_members`). Two records
are *likely duplicates* when their federation numbers agree (letters and digits alone,
case ignored) or their names do (`registry.matching.person_key`, the one rule imports
compare names by: case and accents ignored as the site's A–Z order folds them, "Last,
First" read as "First Last"). `merge_preview` is the one computation of what a merge
moves and what blocks it: the preview page shows it and `people.services.player_merge`
refuses what it blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.collation import alpha_key, alphabetical, fold
from tournaments.formats import isolated
from tournaments.models import (
    Club,
    Game,
    Membership,
    Payment,
    Player,
    PlayerMerge,
    Rating,
    RatingChange,
    Registration,
    RosterEntry,
    Seat,
    Tournament,
)
from tournaments.registry.matching import person_key

SEARCH_LIMIT = 20


def number_key(number: str) -> str:
    """A federation number as duplicates are compared: "DSKV-0012" and "dskv 0012" agree."""
    return "".join(c for c in fold(number or "") if c.isalnum())


def player_search(club: Club, query: str) -> list[Player]:
    """Players of other clubs whom `club` could add as members: the name contains `query`
    (`name_key`) or the federation number is `query`; at most `SEARCH_LIMIT`, A–Z."""
    wanted, number = person_key(query), number_key(query)
    if not wanted:
        return []
    members = Membership.objects.filter(club=club).values("player_id")
    found = [
        player
        for player in Player.objects.exclude(pk__in=members)
        .exclude(club=club)
        .select_related("club")
        .only("id", "name", "federation_number", "club__name")
        if wanted in person_key(player.name)
        or (number and number_key(player.federation_number) == number)
    ]
    return alphabetical(found, key=lambda player: player.name)[:SEARCH_LIMIT]


@dataclass
class Duplicate:
    """Two records that are likely one person; `first` the older (the one to keep)."""

    first: Player
    second: Player
    reasons: list[str] = field(default_factory=list)


def duplicates(club: Club) -> list[Duplicate]:
    """Likely duplicates among the players `club` sees: pairs of records of which at least
    one is a member of the club, the other any player of the site. Read in one pass over
    the site's players (a few thousand at most), grouped in Python so that names compare
    as the site folds them on SQLite and PostgreSQL alike."""
    members = set(Membership.objects.filter(club=club).values_list("player_id", flat=True))
    members |= set(Player.objects.filter(club=club).values_list("pk", flat=True))
    groups: dict[tuple[str, str], list[Player]] = {}
    for player in Player.objects.select_related("club").order_by("pk"):
        number = number_key(player.federation_number)
        if number:
            groups.setdefault(("number", number), []).append(player)
        groups.setdefault(("name", person_key(player.name)), []).append(player)
    pairs: dict[tuple[int, int], Duplicate] = {}
    reasons = {"number": _("same federation number"), "name": _("same name")}
    for (kind, _key), group in groups.items():
        if len(group) < 2 or not any(player.pk in members for player in group):
            continue
        for first, second in combinations(group, 2):
            if first.pk in members or second.pk in members:
                pair = pairs.setdefault((first.pk, second.pk), Duplicate(first, second))
                pair.reasons.append(reasons[kind])
    return sorted(
        pairs.values(),
        key=lambda pair: (alpha_key(pair.first.name), pair.first.pk, pair.second.pk),
    )


@dataclass(frozen=True)
class Move:
    """One kind of row a merge moves from B to A, each row as a line to read."""

    label: str
    items: list[str]


@dataclass
class MergePreview:
    kept: Player
    absorbed: Player
    moves: list[Move]
    blockers: list[str]
    ratings: int  # rating rows of B the merge deletes


def _tournament_label(tournament: Tournament) -> str:
    return f"{isolated(tournament.name)} ({tournament.date:%Y-%m-%d})"


def merge_preview(kept: Player, absorbed: Player) -> MergePreview:
    """Everything a merge (keep `kept`, absorb `absorbed`) moves, and what blocks it."""
    blockers: list[str] = []
    if kept.pk == absorbed.pk:
        blockers.append(_("A player cannot be merged with themselves."))
    registrations = list(
        Registration.objects.filter(player=absorbed)
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id")
    )
    seats = list(
        Seat.objects.filter(player=absorbed)
        .select_related("series__tournament", "table")
        .order_by("series__tournament__date", "series__tournament_id", "series__number")
    )
    rosters = list(
        RosterEntry.objects.filter(player=absorbed)
        .select_related("season", "team")
        .order_by("season__name", "pk")
    )
    payments = list(
        Payment.objects.filter(registration__player=absorbed)
        .select_related("registration__tournament")
        .order_by("registration__tournament__date", "at", "pk")
    )
    memberships = list(Membership.objects.filter(player=absorbed).select_related("club"))
    kept_clubs = set(Membership.objects.filter(player=kept).values_list("club_id", flat=True))

    both_registered = Tournament.objects.filter(registrations__player=kept).filter(
        registrations__player=absorbed
    )
    for tournament in both_registered.order_by("date", "pk"):
        blockers.append(
            _("Both are registered in %(tournament)s.")
            % {"tournament": _tournament_label(tournament)}
        )
    kept_series = dict(Seat.objects.filter(player=kept).values_list("series_id", "series__number"))
    for seat in seats:
        if seat.series_id in kept_series:
            blockers.append(
                _("Both are seated in series %(series)s of %(tournament)s.")
                % {
                    "series": seat.series.number,
                    "tournament": _tournament_label(seat.series.tournament),
                }
            )
    kept_seasons = set(RosterEntry.objects.filter(player=kept).values_list("season_id", flat=True))
    for entry in rosters:
        if entry.season_id in kept_seasons:
            blockers.append(
                _("Both are on a roster of the season %(season)s.")
                % {"season": isolated(entry.season.name)}
            )
    if kept.user_id and absorbed.user_id:
        blockers.append(_("Both have a user account; a player has one at most."))
    if (
        kept.federation_number
        and absorbed.federation_number
        and kept.federation_number != absorbed.federation_number
    ):
        blockers.append(
            _("Their federation numbers differ (%(a)s and %(b)s).")
            % {"a": isolated(kept.federation_number), "b": isolated(absorbed.federation_number)}
        )
    if kept.category != absorbed.category:
        # B's results would count in A's category: final in a finished tournament.
        finished = {
            r.tournament
            for r in registrations
            if r.tournament.status == Tournament.Status.FINISHED
        }
        for tournament in sorted(finished, key=lambda t: (t.date, t.pk)):
            blockers.append(
                _(
                    "Their categories differ and %(tournament)s is finished: reopen it or "
                    "give them the same category first."
                )
                % {"tournament": _tournament_label(tournament)}
            )

    moves = [
        Move(_("Registrations"), [_tournament_label(r.tournament) for r in registrations]),
        Move(
            _("Seats"),
            [
                _("%(tournament)s: series %(series)s, table %(table)s, seat %(seat)s")
                % {
                    "tournament": _tournament_label(s.series.tournament),
                    "series": s.series.number,
                    "table": s.table.number,
                    "seat": s.number,
                }
                for s in seats
            ],
        ),
        Move(
            _("Roster entries"),
            [
                f"{isolated(entry.season.name)}: {isolated(entry.team.name)}"
                + (f" ({_('substitute')})" if entry.substitute else "")
                for entry in rosters
            ],
        ),
        Move(
            _("Payments and prizes paid"),
            [
                f"{_tournament_label(p.registration.tournament)}:"
                f" {p.get_kind_display()} {p.amount}"
                for p in payments
            ],
        ),
        Move(
            _("Memberships"),
            [
                isolated(m.club.name)
                if m.club_id not in kept_clubs
                else _("%(club)s (a member already)") % {"club": isolated(m.club.name)}
                for m in alphabetical(memberships, key=lambda m: m.club.name)
            ],
        ),
    ]
    if absorbed.user_id and not kept.user_id:
        moves.append(Move(_("User account"), [isolated(absorbed.user.get_username())]))
    if absorbed.federation_number and not kept.federation_number:
        moves.append(Move(_("Federation number"), [isolated(absorbed.federation_number)]))
    ratings = (
        RatingChange.objects.filter(player=absorbed).count()
        + Rating.objects.filter(player=absorbed).count()
    )
    return MergePreview(kept, absorbed, moves, blockers, ratings)


def merge_marks() -> dict[str, int]:
    """The highest id of each kind of row a new entry for a player adds, now (see
    `PlayerMerge.marks`)."""
    models = {
        "registration": Registration,
        "seat": Seat,
        "roster_entry": RosterEntry,
        "payment": Payment,
        "game": Game,
    }
    return {
        name: model.objects.aggregate(top=Max("pk"))["top"] or 0 for name, model in models.items()
    }


def undo_blockers(merge: PlayerMerge) -> list[str]:
    """Why a merge can no longer be undone ([] when it can): something new was entered for
    the kept player since (a registration, seat, roster entry, payment, or a game at one of
    their tables), or something that moved is no longer where the merge put it."""
    if merge.undone_at is not None:
        return [_("This merge has been undone already.")]
    kept, marks, moved = merge.kept, merge.marks, merge.moved
    blockers = []
    new = (
        Registration.objects.filter(player=kept, pk__gt=marks.get("registration", 0)).exists()
        or Seat.objects.filter(player=kept, pk__gt=marks.get("seat", 0)).exists()
        or RosterEntry.objects.filter(player=kept, pk__gt=marks.get("roster_entry", 0)).exists()
        or Payment.objects.filter(
            registration__player=kept, pk__gt=marks.get("payment", 0)
        ).exists()
        or Game.objects.filter(table__seats__player=kept, pk__gt=marks.get("game", 0)).exists()
    )
    if new:
        blockers.append(
            _(
                "Something new has been entered for %(name)s since the merge (a registration, "
                "seat, roster entry, payment or game); the merge can no longer be undone."
            )
            % {"name": isolated(kept.name)}
        )
    for label, model, ids in (
        (_("registrations"), Registration, moved.get("registrations", [])),
        (_("seats"), Seat, moved.get("seats", [])),
        (_("roster entries"), RosterEntry, moved.get("roster_entries", [])),
        (_("memberships"), Membership, moved.get("memberships", [])),
    ):
        if model.objects.filter(pk__in=ids, player=kept).count() != len(ids):
            blockers.append(
                _("Some of the %(rows)s that moved to %(name)s have changed since the merge.")
                % {"rows": label, "name": isolated(kept.name)}
            )
    fields = merge.absorbed
    if fields.get("club_id") and not Club.objects.filter(pk=fields["club_id"]).exists():
        blockers.append(
            _("The home club of %(name)s is no longer on the site.")
            % {"name": isolated(merge.absorbed_name)}
        )
    if moved.get("user") and kept.user_id != fields.get("user_id"):
        blockers.append(_("The user account has been changed since the merge."))
    number = fields.get("federation_number", "")
    if number:
        holder = Player.objects.filter(federation_number=number).exclude(pk=kept.pk).first()
        taken_by_kept = kept.federation_number == number and not moved.get("federation_number")
        if holder is not None or taken_by_kept:
            blockers.append(
                _("Federation number %(n)s belongs to another player now.")
                % {"n": isolated(number)}
            )
    return blockers
