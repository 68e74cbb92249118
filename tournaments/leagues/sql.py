"""The season tables' reads as SQL written once per shape: each player's totals of a match
day and each player's best series, summed by the database from the seats' stored totals
(`sheets.totals`), and the registrations and venues of the match days.

A club's annual ranking has some 25,000 seats; the season's tables need none of them one
by one, only each player's sums per match day (some 5,500 rows). Plain SQL that SQLite and
PostgreSQL both run, tables and columns named from the models, read as plain tuples
(`standings.sql.fetch`): through the ORM every summed value of every row passes a
converter, which cost more than the database took to sum them, and building the
registrations' and venues' querysets cost more than running them (as for the tournament
standings, `standings.sql`).

Terms: a series *has a game* when a game is stored at one of its tables; a seat's stored
games say so at once, so the games are asked only for a series whose seats count none
(say, its only rows disputed), and only when some seat counts none (PostgreSQL evaluates
`_unplayed` when first asked). The player table counts the series with a game only.
Nothing here writes.
"""

from functools import lru_cache

from tournaments.models import Club, Game, Player, Registration, Seat, Series, Table, Team, Venue
from tournaments.standings.sql import fetch, marks

SEATS, SERIES = Seat._meta.db_table, Series._meta.db_table


def _unplayed(days: int) -> str:
    """The ids of the series of `days` day ids that have no game (a CTE's body)."""
    return (
        f"SELECT u.id FROM {SERIES} u WHERE u.tournament_id IN {marks(days)}"
        f" AND NOT EXISTS (SELECT 1 FROM {SEATS} x"
        " WHERE x.series_id = u.id AND x.games_played > 0)"
        f" AND NOT EXISTS (SELECT 1 FROM {Game._meta.db_table} g"
        f" INNER JOIN {Table._meta.db_table} t ON t.id = g.table_id WHERE t.series_id = u.id)"
    )


# A player's day, in the order of `day_totals`' columns after (day id, player id): list
# points, won and lost (what the day ranks by and the season counts), how many seats, then
# the seats in series without a game and their list points, won and lost (which the
# player table does not count). A seat that counts a game is in a series with a game: the
# series without are looked for (`_unplayed`) only if some seat counts none.
_IDLE = "st.games_played = 0 AND st.series_id IN (SELECT id FROM unplayed)"
_DAY_SUMS = (
    "SUM(st.list_points)",
    "SUM(st.won)",
    "SUM(st.lost)",
    "COUNT(*)",
    *(
        f"SUM(CASE WHEN {_IDLE} THEN {value} ELSE 0 END)"
        for value in ("1", "st.list_points", "st.won", "st.lost")
    ),
)


@lru_cache(maxsize=64)
def _day_totals_sql(days: int) -> str:
    return (
        f"WITH unplayed AS ({_unplayed(days)})"
        f" SELECT s.tournament_id, st.player_id, {', '.join(_DAY_SUMS)}"
        f" FROM {SEATS} st INNER JOIN {SERIES} s ON s.id = st.series_id"
        f" WHERE s.tournament_id IN {marks(days)}"
        " GROUP BY s.tournament_id, st.player_id"
    )


def day_totals(days: list[int]) -> list[tuple]:
    """(day id, player id, list points, won, lost, seats, seats in series without a game,
    their list points, won, lost) for every player seated on one of the `days` (ids)."""
    return fetch(_day_totals_sql(len(days)), [*days, *days]) if days else []


# The seat's columns a series may be ordered by (`best_series`).
SERIES_FIGURES = ("list_points", "won", "lost")


@lru_cache(maxsize=64)
def _best_series_sql(days: int, order: tuple[str, ...]) -> str:
    # Series equal in list points, won and lost have the same sums, whichever of them
    # the row number puts first.
    terms = [term.split() for term in order]
    if any(name not in SERIES_FIGURES or way not in ("asc", "desc") for name, way in terms):
        raise ValueError(f"a series is ordered by {SERIES_FIGURES} only: {order!r}")
    by = ", ".join(f"st.{name} {way.upper()}" for name, way in terms)
    return (
        f"WITH unplayed AS ({_unplayed(days)}), ranked AS ("
        " SELECT st.player_id, st.list_points, st.won, st.lost, ROW_NUMBER() OVER ("
        f"PARTITION BY st.player_id ORDER BY {by}"
        ") AS place"
        f" FROM {SEATS} st INNER JOIN {SERIES} s ON s.id = st.series_id"
        f" WHERE s.tournament_id IN {marks(days)}"
        " AND st.series_id NOT IN (SELECT id FROM unplayed))"
        " SELECT player_id, COUNT(*), SUM(list_points), SUM(won), SUM(lost)"
        " FROM ranked WHERE place <= %s GROUP BY player_id"
    )


def best_series(
    days: list[int], best: int, *, order: tuple[str, ...]
) -> dict[int, tuple[int, int, int, int]]:
    """Player → (series counted, list points, won, lost) of their best `best` series with a
    game on the `days` (ids), best in `order` (the figures' terms of
    `leagues.selectors.PLAYER_ORDER`, "list_points desc", ...: the caller's, so that the
    order is written once)."""
    if not days:
        return {}
    rows = fetch(_best_series_sql(len(days), tuple(order)), [*days, *days, best])
    return {player_id: tuple(sums) for player_id, *sums in rows}


@lru_cache(maxsize=64)
def _registrations_sql(days: int) -> str:
    return (
        "SELECT r.tournament_id, r.player_id, p.name, c.name, p.team, p.category, r.lot,"
        " p.listed"
        f" FROM {Registration._meta.db_table} r"
        f" INNER JOIN {Player._meta.db_table} p ON p.id = r.player_id"
        f" LEFT OUTER JOIN {Club._meta.db_table} c ON c.id = p.club_id"
        f" WHERE r.tournament_id IN {marks(days)} ORDER BY r.id"
    )


def registrations(days: list[int]) -> list[tuple]:
    """(day id, player id, name, club, team, category, lot, listed) of every registration of the
    `days` (ids), in the order they were made."""
    return fetch(_registrations_sql(len(days)), days) if days else []


@lru_cache(maxsize=64)
def _venues_sql(days: int) -> str:
    teams = Venue.teams.through._meta.db_table
    return (
        f"SELECT v.tournament_id, v.name, t.name FROM {Venue._meta.db_table} v"
        f" INNER JOIN {teams} vt ON vt.venue_id = v.id"
        f" INNER JOIN {Team._meta.db_table} t ON t.id = vt.team_id"
        f" WHERE v.tournament_id IN {marks(days)} ORDER BY v.tournament_id, v.id"
    )


def venue_teams(days: list[int]) -> list[tuple]:
    """(day id, venue name, team name) of every team at a venue of the `days` (ids), the
    venues in the order they were made."""
    return fetch(_venues_sql(len(days)), days) if days else []
