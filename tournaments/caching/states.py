"""The states of what public answers show: one definition each, for the HTML pages and the
JSON answers alike (`answers` turns a state into an ETag and a shared-cache key).

A *state* (`State`) is a short string that changes whenever anything an answer shows may
change, read from the database on every request, with when it last moved (Last-Modified)
and whether the answer depends on who asks (drafts are or may be in it):
- a tournament's: its id, version and when the version moved (`tournaments.versions`),
  and a digest of its own row, so that an edit of its settings shows even where a writer
  does not bump the version;
- a player's: their own fields (whether listed publicly too) and club, their
  tournaments' names, dates, visibility and layout, and each of their seats with its
  stored totals and its table's `sheet_version` (a game at another table changes
  nothing of theirs), and their rating with its history;
- a rating list's: every figure and name it shows (`rating_list_state`);
- a season's: every setting that changes its tables, each match day's version,
  publication, status and confirmation, its rosters and venues (confirming a day or
  changing a roster writes no version);
- a player's career (their page and the API's player): the player's, the names of their
  table mates, and the states of the seasons of their tournaments (`career_state`); two
  players' head to head: both players' (`head_to_head_state`).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournaments import permissions
from tournaments.models import (
    Club,
    League,
    Player,
    Rating,
    RatingChange,
    Registration,
    RosterEntry,
    Season,
    Seat,
    Series,
    Table,
    Tournament,
    Venue,
)
from tournaments.ratings.selectors import listed_ratings
from tournaments.sheets.selectors import TOTAL_FIELDS


@dataclass(frozen=True)
class State:
    key: str  # changes whenever the answer may
    changed: datetime.datetime | None = None  # when it last moved (Last-Modified)
    private: bool = False  # the answer depends on who asks
    version: int | None = None  # a tournament's version (the X-Version header of JSON)


def visible_tournaments(user):
    """The tournaments `user` may read (`permissions.visible_tournaments`)."""
    return permissions.visible_tournaments(user)


# The tournament's own row, read for its state (`tournament_state_of`).
ROW_FIELDS = tuple(field.attname for field in Tournament._meta.concrete_fields)
BIGINT = (-(2**63), 2**63 - 1)


@lru_cache(maxsize=1)
def _tournament_sql() -> str:
    columns = ", ".join(field.column for field in Tournament._meta.concrete_fields)
    return f"SELECT {columns} FROM {Tournament._meta.db_table} WHERE slug = %s"


def tournament_state_of(user, slug: str) -> State | None:
    """The state of the tournament `slug`; None when `user` may not see it (404).

    Its id, version and when the version last moved (a tournament deleted and another
    created in its place may get the same id and count again from 0), and a digest of its
    row, so that an edit of its settings shows even where a writer does not bump the
    version (`leagues.services.match_day_confirm` sets the status alone).

    One statement of plain SQL (the columns named from the model): every answer of a
    tournament, those answered 304 or from the cache too, starts here. The ORM took 1.7 ms
    to build and run it, as much as the model instance with its club, season and league,
    which only an answer computed afresh needs; plain SQL 0.3 ms.
    """
    with connection.cursor() as cursor:
        cursor.execute(_tournament_sql(), [slug])
        found = cursor.fetchone()
    if found is None:
        return None
    row = dict(zip(ROW_FIELDS, found, strict=True))
    if not row["published"]:
        tournament = Tournament.objects.select_related("club", "season__league").get(pk=row["id"])
        if not permissions.can_view_tournament(user, tournament):
            return None
    values = [row[name] for name in ROW_FIELDS if name not in ("version", "changed", "created")]
    digest = hashlib.sha256(repr(values).encode()).hexdigest()[:12]
    changed = _aware(row["changed"])
    return State(
        f"t{row['id']}.{row['version']}.{changed.isoformat()}.{digest}",
        changed,
        not row["published"],
        row["version"],
    )


@lru_cache(maxsize=1)
def _player_sql() -> tuple[str, str, str]:
    """A player's state as four statements of plain SQL (tables and columns named from
    the models): the ORM took 3.3 ms per request to build the three querysets and 0.3 ms to
    run them (a player page answered 304 or from the cache)."""

    def table(model):
        return model._meta.db_table

    def column(model, name):
        return model._meta.get_field(name).column

    # The declared games by type are left out: every write that changes them moves the
    # table's `sheet_version`, read here (and their JSON would be parsed per request).
    totals = ", ".join(f"s.{column(Seat, name)}" for name in TOTAL_FIELDS if name != "declared")
    own = (
        "SELECT p.name, p.team, p.category, p.club_id, c.name, p.listed"
        f" FROM {table(Player)} p LEFT OUTER JOIN {table(Club)} c ON c.id = p.club_id"
        " WHERE p.id = %s"
    )
    tournaments = (
        # Whether a tournament is finished (its final place shown), not its status: the
        # first game anywhere starts it, which changes nothing on the page.
        "SELECT t.id, t.published, t.name, t.date, t.slug, t.layout, t.status = %s, t.changed"
        f" FROM {table(Tournament)} t WHERE t.id IN"
        f" (SELECT r.tournament_id FROM {table(Registration)} r WHERE r.player_id = %s)"
        f" OR t.id IN (SELECT sr.tournament_id FROM {table(Seat)} s"
        f" INNER JOIN {table(Series)} sr ON sr.id = s.series_id WHERE s.player_id = %s)"
        " ORDER BY t.id"
    )
    seats = (
        f"SELECT s.id, s.table_id, tb.number, tb.sheet_version, sr.number, {totals}"
        f" FROM {table(Seat)} s INNER JOIN {table(Table)} tb ON tb.id = s.table_id"
        f" INNER JOIN {table(Series)} sr ON sr.id = s.series_id"
        " WHERE s.player_id = %s ORDER BY s.id"
    )
    rating = (
        "SELECT r.mu, r.sigma, r.series, COUNT(c.id), SUM(c.mu), SUM(c.sigma), MAX(c.id)"
        f" FROM {table(Rating)} r LEFT OUTER JOIN {table(RatingChange)} c"
        " ON c.player_id = r.player_id WHERE r.player_id = %s"
        " GROUP BY r.mu, r.sigma, r.series"
    )
    return own, tournaments, seats, rating


def player_state(player_id: int) -> State:
    """What a player's page and answer show, not the versions of their tournaments: a
    phone following its own player is answered 304 until the player's own tables change.

    Their fields and club; their tournaments' names, dates, visibility, whether finished
    (a finished one shows the player's final place) and layout (drawn
    afresh by every write to a tournament other than to score sheets); each of their seats
    with its stored totals (`sheets.totals`) and its table's `sheet_version`, which every
    write to the sheet moves (a correction that keeps the figures, clubs corrected to
    diamonds of the same value, still changes the games declared by type); their rating
    (`ratings`) and a digest of its history (how many steps, their sums, the latest),
    which the rating services write without a seat of theirs changing (a table corrected
    before theirs moves their later steps)."""
    if not BIGINT[0] <= player_id <= BIGINT[1]:
        return State("no such player")  # the ORM's answer for a key out of range: 404
    own_sql, tournaments_sql, seats_sql, rating_sql = _player_sql()
    with connection.cursor() as cursor:
        cursor.execute(own_sql, [player_id])
        own = cursor.fetchall()
        cursor.execute(tournaments_sql, [Tournament.Status.FINISHED, player_id, player_id])
        tournaments = cursor.fetchall()
        cursor.execute(seats_sql, [player_id])
        seats = cursor.fetchall()
        cursor.execute(rating_sql, [player_id])
        rating = cursor.fetchall()
    # `changed` moves with every write to the tournament: Last-Modified, not the key.
    shown = [line[:-1] for line in tournaments]
    changed = max((_aware(line[-1]) for line in tournaments), default=None)
    private = not all(line[1] for line in tournaments)
    return State(repr((own, shown, seats, rating)), changed, private)


def _aware(value) -> datetime.datetime:
    """A datetime read by plain SQL as the ORM gives it (SQLite: text, naive UTC)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    return value if timezone.is_aware(value) else timezone.make_aware(value, datetime.UTC)


def season_state(slug: str) -> State | None:
    """What a season's tables are computed from, short of the games: the state of the
    season's pages (`/seasons/SLUG/`, `/seasons/SLUG/tables/`) and of the API's season.

    The season's settings that change its tables (name, owner, team and series counts,
    closing and its archive); per match day its version (moved by every write to its
    sheets, registrations, draw and settings), when it moved (a day deleted and another
    made in its place may start from the same version), publication, status, name, date
    and confirmation; the rosters with their teams' names and clubs and the venues'
    teams. Confirmations, rosters and venues are written without a match day's version
    moving (`leagues.services`). Four small queries, whatever the size of the season.
    """
    return _seasons_state(Season.objects.filter(slug=slug))


def _seasons_state(seasons) -> State | None:
    """`season_state` of the seasons of a queryset (one or many; None for none)."""
    season = list(
        seasons.order_by("pk").values_list(
            "pk",
            "name",
            "club_id",
            "club__name",
            "league_id",
            "league__name",
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
    ids = [row[0] for row in season]
    days = list(
        Tournament.objects.filter(season_id__in=ids)
        .order_by("pk")
        .values_list(
            "pk",
            "version",
            "changed",
            "published",
            "status",
            "name",
            "date",
            "slug",
            "confirmation__at",
        )
    )
    rosters = list(
        RosterEntry.objects.filter(season_id__in=ids)
        .order_by("pk")
        .values_list("player_id", "team_id", "team__name", "team__club__name")
    )
    venues = list(
        Venue.objects.filter(tournament__season_id__in=ids)
        .order_by("pk", "teams__pk")
        .values_list("pk", "tournament_id", "name", "teams__name")
    )
    changed = max((day[2] for day in days), default=None)
    return State(repr((season, days, rosters, venues)), changed, not all(day[3] for day in days))


def career_state(player_id: int) -> State:
    """What a player's career page and answer show (`careers.selectors.player_career`):
    the player's state (`player_state`); the names of everyone who shared one of their
    tables (the table mates; who sits where moves the tournament's layout, which the
    player's state holds); and the state of every season of their tournaments
    (`season_state`: their place in its player table moves with every match day's
    games, theirs or not). Four more small queries, whatever the number of seasons."""
    own = player_state(player_id)
    if own.key == "no such player":
        return own
    seat, player = Seat._meta.db_table, Player._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT p.id, p.name FROM {seat} s INNER JOIN {player} p"
            " ON p.id = s.player_id WHERE s.table_id IN"
            f" (SELECT table_id FROM {seat} WHERE player_id = %s) ORDER BY p.id",
            [player_id],
        )
        mates = cursor.fetchall()
    seasons = _seasons_state(
        Season.objects.filter(
            pk__in=Tournament.objects.filter(
                pk__in=Seat.objects.filter(player_id=player_id).values("series__tournament_id")
            ).values("season_id")
        )
    )
    changed = max((c for c in (own.changed, seasons and seasons.changed) if c), default=None)
    private = own.private or bool(seasons and seasons.private)
    key = repr((own.key, mates, seasons.key if seasons else None))
    return State(hashlib.sha256(key.encode()).hexdigest(), changed, private)


def head_to_head_state(player_id: int, other_id: int) -> State:
    """What the head-to-head page of two players shows: both players' states (their
    tables, with the stored totals, and their tournaments)."""
    first, second = player_state(player_id), player_state(other_id)
    changed = max((c for c in (first.changed, second.changed) if c), default=None)
    key = repr((first.key, second.key))
    return State(
        hashlib.sha256(key.encode()).hexdigest(), changed, first.private or second.private
    )


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


def rating_list_state(*, club=None, league=None, category: str = "") -> State:
    """What a rating list shows (`ratings.selectors.rating_list`, the site's, a club's or
    a league's, of a category): each listed rating's figures and series, its player's
    name, category and home club; the club's or league's name (the site's list: every
    league, whose lists it names). Read from the rows themselves, in the list's own query
    (as values; the site's list reads the leagues too), so that whatever writes a rating
    (`ratings.services`, a recompute) or a name changes the answer with nothing to bump;
    a list is public (no drafts in it). The shared answer saves the ranks and the
    page's rendering: at 2,000 rated players (SQLite, CPU per request, medians of 7, on a
    loaded machine) the site's list took 45 ms computed, 6.5 ms from the cache or as a
    304, of which the state's read is 5.8 ms."""
    rows = list(
        listed_ratings(club=club, league=league, category=category).values_list(
            "player_id",
            "mu",
            "sigma",
            "series",
            "player__name",
            "player__category",
            "player__club__name",
            "player__listed",  # a player not listed publicly shows by initials
        )
    )
    scope = [(scoped.pk, scoped.name) for scoped in (club, league) if scoped is not None]
    if not scope:  # the site's list names every league's list
        scope = list(League.objects.order_by("pk").values_list("pk", "slug", "name"))
    digest = hashlib.sha256(repr((scope, rows)).encode())
    return State(digest.hexdigest()[:32])
