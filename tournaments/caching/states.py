"""The states of what public answers show: one definition each, for the HTML pages and the
JSON answers alike (`answers` turns a state into an ETag and a shared-cache key).

A *state* (`State`) is a short string that changes whenever anything an answer shows may
change, read from the database on every request, with when it last moved (Last-Modified)
and whether the answer depends on who asks (drafts are or may be in it):
- a tournament's: its id, version and when the version moved (`tournaments.versions`),
  and a digest of its own row, so that an edit of its settings shows even where a writer
  does not bump the version;
- a player's: their own fields and club, their tournaments' names, dates, visibility and
  layout, and each of their seats with its stored totals and its table's `sheet_version`
  (a game at another table changes nothing of theirs);
- a season's: every setting that changes its tables, and each match day's version,
  publication, status and confirmation (confirming a day writes no version).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from tournaments import permissions
from tournaments.models import Player, Registration, Season, Seat, Tournament
from tournaments.sheets.selectors import TOTAL_FIELDS


@dataclass(frozen=True)
class State:
    key: str  # changes whenever the answer may
    changed: datetime.datetime | None = None  # when it last moved (Last-Modified)
    private: bool = False  # the answer depends on who asks
    version: int | None = None  # a tournament's version (the X-Version header of JSON)


def visible_tournaments(user):
    """The tournaments `user` may read: published ones, and drafts of the clubs they run."""
    published = Tournament.objects.filter(published=True)
    if not user.is_authenticated:
        return published
    return published | Tournament.objects.filter(club__in=permissions.managed_clubs(user))


def _row_digest(tournament: Tournament) -> str:
    values = [
        getattr(tournament, field.attname)
        for field in Tournament._meta.concrete_fields
        if field.name not in ("version", "changed", "created")
    ]
    return hashlib.sha256(repr(values).encode()).hexdigest()[:12]


def tournament_state(tournament: Tournament) -> State:
    """The id, version and when the version last moved (a tournament deleted and another
    created in its place may get the same id and count again from 0), and its row."""
    return State(
        f"t{tournament.pk}.{tournament.version}.{tournament.changed.isoformat()}"
        f".{_row_digest(tournament)}",
        tournament.changed,
        not tournament.published,
        tournament.version,
    )


def tournament_state_of(user, slug: str) -> State | None:
    """The state of the tournament `slug`; None when `user` may not see it (404)."""
    tournament = Tournament.objects.filter(slug=slug).select_related("club").first()
    if tournament is None or not permissions.can_view_tournament(user, tournament):
        return None
    return tournament_state(tournament)


def player_state(player_id: int) -> State:
    """What a player's page and answer show, not the versions of their tournaments: a
    phone following its own player is answered 304 until the player's own tables change.
    Three small queries."""
    own = list(
        Player.objects.filter(pk=player_id).values_list(
            "name", "team", "category", "club_id", "club__name"
        )
    )
    tournaments = list(
        Tournament.objects.filter(
            Q(pk__in=Registration.objects.filter(player_id=player_id).values("tournament_id"))
            | Q(pk__in=Seat.objects.filter(player_id=player_id).values("series__tournament_id"))
        )
        .order_by("pk")
        .values_list("pk", "published", "name", "date", "slug", "layout", "changed")
    )
    seats = list(
        Seat.objects.filter(player_id=player_id)
        .order_by("pk")
        .values_list(
            "pk",
            "table_id",
            "table__number",
            "table__sheet_version",
            "series__number",
            *TOTAL_FIELDS,
        )
    )
    # `changed` moves with every write to the tournament: Last-Modified, not the key.
    shown = [line[:-1] for line in tournaments]
    changed = max((line[-1] for line in tournaments), default=None)
    private = not all(line[1] for line in tournaments)
    return State(repr((own, shown, seats)), changed, private)


def season_state(slug: str) -> State | None:
    """A season's settings that change its tables (name, owner, team and series counts,
    closing and its archive) and, per match day, its version, when it moved, publication,
    status and confirmation (`leagues.services.match_day_confirm` bumps no version)."""
    season = list(
        Season.objects.filter(slug=slug).values_list(
            "pk",
            "name",
            "club_id",
            "league_id",
            "teams_best_n",
            "team_size",
            "substitutes",
            "min_series",
            "best_series",
            "status",
            "closed_at",  # the archive is written with it (`season_close`)
        )
    )
    if not season:
        return None
    days = list(
        Tournament.objects.filter(season_id=season[0][0])
        .order_by("pk")
        .values_list("pk", "version", "changed", "published", "status", "confirmation__at")
    )
    changed = max((day[2] for day in days), default=None)
    return State(repr((season, days)), changed, not all(day[3] for day in days))


def tournaments_state(tournaments: Iterable[Tournament], *extra) -> State:
    """One state for a list of tournaments: their ids, versions and publication, and
    `extra` (such a list always depends on who asks)."""
    digest = hashlib.sha256(repr(extra).encode())
    latest = None
    for pk, version, published, changed in sorted(
        (t.pk, t.version, t.published, t.changed) for t in tournaments
    ):
        digest.update(f"{pk}:{version}:{published};".encode())
        latest = changed if latest is None or changed > latest else latest
    return State(digest.hexdigest()[:32], latest, True)
