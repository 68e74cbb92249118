"""The tournament standings' reads, and a season's rosters (`roster_teams`, read by every
season table and draw), as SQL written once per shape.

The busiest read of the site (every phone in the hall asks for the standings after each
game): building the same querysets on every request cost more than running them. Plain SQL
that SQLite and PostgreSQL both run, tables and columns named from the models; the rows are
the tuples `values_list` gives, but for booleans on SQLite (0/1 there, which compare and
test the same). Nothing here writes.
"""

from functools import lru_cache

from django.db import connection

from tournaments.models import (
    Club,
    Player,
    Registration,
    RosterEntry,
    Seat,
    Series,
    Table,
    Team,
)

# What the tournament's standings read of each seat (its stored totals, `sheets.totals`).
SEAT_TOTALS = (
    "list_points",
    "game_points",
    "won",
    "lost",
    "others_lost",
    "games_played",
    "provisional",
)
STANDING_SEAT_FIELDS = ("player_id", "series_id", "table_id", *SEAT_TOTALS)


@lru_cache(maxsize=8)
def registrations_sql(category: bool, vendor: str) -> str:
    """The registered players with their names, clubs, teams, categories, lots and whether
    they are listed publicly.

    On PostgreSQL each registration's player is read through the players' primary key (a
    LATERAL subquery, which the planner cannot turn into a join), so that the read costs
    what the event has, not what the database has. A plain join is planned as a hash join
    from a few dozen players on, which reads every player of the database: 1.0 ms for 60
    or 250 players in a database of 8,300 (the lateral read: 0.4 and 0.7 ms), and more as
    the club's or federation's player list grows. Where the event holds a large share of
    the database's players the hash join is quicker (2,000 and 4,000 of 8,300: 3.0 and 5.8
    ms, lateral 4.0 and 8.6 ms; those pages take 40 and 80 ms). SQLite's planner reads the
    players by their key of its own accord."""
    players, clubs = Player._meta.db_table, Club._meta.db_table
    if vendor == "postgresql":
        player = (
            " CROSS JOIN LATERAL (SELECT name, team, category, club_id, listed"
            f" FROM {players} WHERE id = r.player_id LIMIT 1) p"
        )
    else:
        player = f" INNER JOIN {players} p ON p.id = r.player_id"
    return (
        "SELECT r.player_id, p.name, c.name, p.team, p.category, r.lot, p.listed"
        f" FROM {Registration._meta.db_table} r{player}"
        f" LEFT OUTER JOIN {clubs} c ON c.id = p.club_id"
        " WHERE r.tournament_id = %s" + (" AND p.category = %s" if category else "")
    )


def marks(count: int) -> str:
    """`count` parameter marks in parentheses, for `IN (...)`."""
    return f"({', '.join(['%s'] * count)})"


@lru_cache(maxsize=64)
def tables_sql(series: int) -> str:
    return (
        f"SELECT id, series_id, number, size, closed, closed_short FROM {Table._meta.db_table}"
        f" WHERE series_id IN {marks(series)}"
    )


@lru_cache(maxsize=64)
def seats_sql(series: int, category: bool) -> str:
    columns = ", ".join(f"s.{name}" for name in STANDING_SEAT_FIELDS)
    join = f" INNER JOIN {Player._meta.db_table} p ON p.id = s.player_id" if category else ""
    return (
        f"SELECT {columns} FROM {Seat._meta.db_table} s{join}"
        f" WHERE s.series_id IN {marks(series)}" + (" AND p.category = %s" if category else "")
    )


@lru_cache(maxsize=64)
def totals_sql(tournaments: int) -> str:
    """(tournament id, player id, list points, won, lost) summed over every seat of the
    `tournaments` (ids): what their standings rank (a player's career places, read for all
    of their tournaments at once)."""
    return (
        "SELECT sr.tournament_id, s.player_id, SUM(s.list_points), SUM(s.won), SUM(s.lost)"
        f" FROM {Seat._meta.db_table} s INNER JOIN {Series._meta.db_table} sr"
        f" ON sr.id = s.series_id WHERE sr.tournament_id IN {marks(tournaments)}"
        " GROUP BY sr.tournament_id, s.player_id"
    )


# A season's rosters: (player id, team id, team name, club name), in the rosters' order.
ROSTERS_SQL = (
    "SELECT re.player_id, re.team_id, t.name, c.name"
    f" FROM {RosterEntry._meta.db_table} re"
    f" INNER JOIN {Team._meta.db_table} t ON t.id = re.team_id"
    f" INNER JOIN {Club._meta.db_table} c ON c.id = t.club_id"
    f" INNER JOIN {Player._meta.db_table} p ON p.id = re.player_id"
    " WHERE re.season_id = %s ORDER BY re.team_id, re.substitute, p.name"
)


def fetch(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
