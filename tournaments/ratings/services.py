"""Writing ratings: one step per closed table, and the replay that keeps the stored numbers
equal to a recompute from all results in date order.

Terms: a table's *order key* (`order_key`) places its result among all results: the
tournament's date, then the tournament, the series and the table, zero-padded so that the
keys' string order is the results' order (`RatingChange.order`). A *rated table* is a
closed table with two seats or more and at least one game; its seats' list points
(`Seat.list_points`, the sheet totals with penalties) give its finishing order.

Who calls what, each inside the caller's transaction:
- `ratings_after_close(table)` when a sheet is closed (`sheets.services.table_close`): one
  step when the table is the latest result of each of its players, else a replay from it;
- `ratings_after_totals(table)` when a closed sheet's totals are written again
  (`sheets.writing.sheet_write`: a dispute settled after the close): a replay from it if
  its finishing order changed;
- `ratings_after_reopen(table)` when a sheet is reopened: its steps go, the later ones
  are replayed;
- `ratings_replay(since=...)` when results from a point in the order on change in bulk
  (an import, a tournament's date or scoring changed, `recompute_scores`);
- `ratings_recompute_for(player)` after another player's results were moved to `player`
  (players merged): a replay from the player's first result;
- `ratings_recompute()` from nothing (`manage.py ratings --recompute`).

A replay recomputes every rated table at or after the point in order, starting each
player from their last step before it: the same arithmetic in the same order as a full
recompute, so the floats are equal to the bit (tests compare them).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Subquery

from tournaments.bulk import rows_insert
from tournaments.models import Game, Player, Rating, RatingChange, Seat, Table
from tournaments.ratings.method import START, Skill, places, rate_table

# Rows written per INSERT: large batches are faster, and stay under SQLite's limit of
# bound parameters (10 fields a change).
BATCH = 2000


def order_key(played_on: datetime.date, tournament_id: int, series: int, table: int) -> str:
    """The key whose string order is the results' order (see the module's docstring)."""
    return f"{played_on.isoformat()}/{tournament_id:012d}/{series:05d}/{table:05d}"


def date_key(played_on: datetime.date) -> str:
    """The key before every result of that date: replaying from it covers the whole day."""
    return f"{played_on.isoformat()}/"


@dataclass(slots=True)
class RatedTable:
    """A rated table as the replay reads it: its key, date and seats in seat order."""

    table_id: int
    order: str
    played_on: datetime.date
    players: list[int]
    list_points: list[int]


@dataclass(slots=True)
class State:
    """A player's rating while a replay runs."""

    skill: Skill
    series: int


def _rated_tables(*, since: str = "", table_ids=None) -> list[RatedTable]:
    """The rated tables at or after `since` (or those of `table_ids`), in results' order,
    read in one query over the seats."""
    seats = Seat.objects.filter(table__closed=True).filter(
        # A closed table without a game (closed short before its first game) has no order.
        Exists(Game.objects.filter(table_id=OuterRef("table_id")))
    )
    if table_ids is not None:
        seats = seats.filter(table_id__in=table_ids)
    if since:
        seats = seats.filter(series__tournament__date__gte=since[:10])
    rows = seats.order_by().values_list(
        "table_id",
        "player_id",
        "list_points",
        "number",
        "table__number",
        "series__number",
        "series__tournament_id",
        "series__tournament__date",
    )
    tables: dict[int, RatedTable] = {}
    seated: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for table_id, player_id, points, number, table, series, tournament, played_on in rows:
        if table_id not in tables:
            key = order_key(played_on, tournament, series, table)
            if key < since:
                continue
            tables[table_id] = RatedTable(table_id, key, played_on, [], [])
        seated[table_id].append((number, player_id, points))
    rated = []
    for table_id, rated_table in tables.items():
        seats_in_order = sorted(seated[table_id])
        # A table of fewer than two seats has no finishing order to learn from.
        if len(seats_in_order) < 2:
            continue
        rated_table.players = [player for _number, player, _points in seats_in_order]
        rated_table.list_points = [points for _number, _player, points in seats_in_order]
        rated.append(rated_table)
    rated.sort(key=lambda t: t.order)
    return rated


# A rating change's columns as `_rate` gives them, in this order.
CHANGE_FIELDS = (
    "player",
    "table",
    "played_on",
    "order",
    "place",
    "mu_before",
    "sigma_before",
    "mu",
    "sigma",
)
RATING_FIELDS = ("player", "mu", "sigma", "series")


def _rate(tables: list[RatedTable], states: dict[int, State]) -> list[tuple]:
    """Rate `tables` in order from `states` (updated in place, START for a newcomer); the
    steps as rows of `CHANGE_FIELDS`."""
    changes = []
    for table in tables:
        before = []
        for player in table.players:
            state = states.get(player)
            if state is None:
                state = states[player] = State(START, 0)
            before.append(state.skill)
        after = rate_table(before, table.list_points)
        for player, old, new, place in zip(
            table.players, before, after, places(table.list_points), strict=True
        ):
            state = states[player]
            state.skill = new
            state.series += 1
            changes.append(
                (
                    player,
                    table.table_id,
                    table.played_on.isoformat(),
                    table.order,
                    place,
                    old.mu,
                    old.sigma,
                    new.mu,
                    new.sigma,
                )
            )
    return changes


def _write(changes: list[tuple], states: dict[int, State]):
    """Store the new steps and each touched player's rating (a player without a step left
    has no rating: as a recompute would leave them)."""
    rows_insert(RatingChange, CHANGE_FIELDS, changes)
    kept = [
        Rating(player_id=player, mu=state.skill.mu, sigma=state.skill.sigma, series=state.series)
        for player, state in states.items()
        if state.series
    ]
    gone = [player for player, state in states.items() if not state.series]
    if gone:
        Rating.objects.filter(player_id__in=gone).delete()
    Rating.objects.bulk_create(
        kept,
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "series"],
    )


def _states_before(since: str, players) -> dict[int, State]:
    """Each player's rating just before `since`: their last step before it (START and no
    series without one), read in one query."""
    earlier = RatingChange.objects.filter(player_id=OuterRef("pk"), order__lt=since).order_by(
        "-order"
    )
    rows = (
        Player.objects.filter(pk__in=players)
        .annotate(
            last_mu=Subquery(earlier.values("mu")[:1]),
            last_sigma=Subquery(earlier.values("sigma")[:1]),
            rated=Subquery(
                RatingChange.objects.filter(player_id=OuterRef("pk"), order__lt=since)
                .order_by()
                .values("player_id")
                .annotate(n=Count("pk"))
                .values("n")
            ),
        )
        .values_list("pk", "last_mu", "last_sigma", "rated")
    )
    return {
        pk: State(Skill(mu, sigma) if rated else START, rated or 0)
        for pk, mu, sigma, rated in rows
    }


def ratings_replay(*, since: str) -> int:
    """Recompute every rated table at or after the key `since` (`order_key`, `date_key`),
    and the ratings of their players and of the players whose steps from there are gone;
    returns the tables rated."""
    gone = set(RatingChange.objects.filter(order__gte=since).values_list("player_id", flat=True))
    RatingChange.objects.filter(order__gte=since).delete()
    tables = _rated_tables(since=since)
    players = gone | {player for table in tables for player in table.players}
    states = _states_before(since, players)
    _write(_rate(tables, states), states)
    return len(tables)


def _table_key(table: Table) -> str:
    series = table.series
    return order_key(series.tournament.date, series.tournament_id, series.number, table.number)


def ratings_after_close(table: Table) -> int:
    """Rate a table just closed (inside the closing transaction); returns the seats rated.

    The fast path, one step: no player of the table has a later result. Otherwise (an old
    tournament closed late, a reopened table closed again) the results from this table on
    are replayed, so the numbers are those of a recompute."""
    key = _table_key(table)
    rated = _rated_tables(table_ids=[table.pk])
    if not rated:  # no game, or fewer than two seats: not rated
        return 0
    (rated_table,) = rated
    # Locked first: a table of the same players closed at the same time waits for this one.
    ratings = Rating.objects.select_for_update().filter(player_id__in=rated_table.players)
    states = {
        rating.player_id: State(Skill(rating.mu, rating.sigma), rating.series)
        for rating in ratings
    }
    later = RatingChange.objects.filter(player_id__in=rated_table.players, order__gte=key)
    if later.exists():
        ratings_replay(since=key)
        return len(rated_table.players)
    _write(_rate(rated, states), states)
    return len(rated_table.players)


def ratings_after_totals(table: Table):
    """A closed table's seat totals were written again (a dispute settled, a provisional
    game confirmed after the close; `sheets.writing.sheet_write`): replayed from it only
    if its finishing order changed, since the update reads the places alone."""
    if not table.closed:
        return
    stored = dict(RatingChange.objects.filter(table=table).values_list("player_id", "place"))
    rated = _rated_tables(table_ids=[table.pk])
    now = {}
    if rated:
        now = dict(zip(rated[0].players, places(rated[0].list_points), strict=True))
    if now == stored:
        return
    if now:
        ratings_after_close(table)
    else:
        ratings_replay(since=_table_key(table))


def ratings_after_reopen(table: Table):
    """Take back a reopened table's steps (inside the reopening transaction) and replay
    what follows it."""
    if RatingChange.objects.filter(table=table).exists():
        ratings_replay(since=_table_key(table))


def ratings_recompute() -> tuple[int, int]:
    """Every rating again from all rated tables in order; returns (tables, players)."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    tables = _rated_tables()
    states: dict[int, State] = {}
    rows_insert(RatingChange, CHANGE_FIELDS, _rate(tables, states))
    rows_insert(
        Rating,
        RATING_FIELDS,
        [(p, s.skill.mu, s.skill.sigma, s.series) for p, s in states.items()],
    )
    return len(tables), len(states)


def ratings_recompute_for(player: Player) -> int:
    """After `player` took over another's results (players merged): replay from their
    first seat at a closed table; returns the tables rated."""
    first = (
        Seat.objects.filter(player=player, table__closed=True)
        .order_by("series__tournament__date")
        .values_list("series__tournament__date", flat=True)
        .first()
    )
    if first is None:
        Rating.objects.filter(player=player).delete()
        RatingChange.objects.filter(player=player).delete()
        return 0
    return ratings_replay(since=date_key(first))
