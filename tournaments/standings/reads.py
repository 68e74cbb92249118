"""The tournament standings' reads as SQL written once per shape.

The busiest read of the site (every phone in the hall asks for the standings after each
game): building the same querysets on every request cost more than running them. Plain SQL
that SQLite and PostgreSQL both run, tables and columns named from the models; the rows are
the tuples `values_list` gives, but for booleans on SQLite (0/1 there, which compare and
test the same). Nothing here writes.
"""

from functools import lru_cache

from django.db import connection

from tournaments.models import Club, Player, Registration, Seat, Table

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


@lru_cache(maxsize=4)
def registrations_sql(category: bool) -> str:
    return (
        "SELECT r.player_id, p.name, c.name, p.team, p.category, r.lot"
        f" FROM {Registration._meta.db_table} r"
        f" INNER JOIN {Player._meta.db_table} p ON p.id = r.player_id"
        f" LEFT OUTER JOIN {Club._meta.db_table} c ON c.id = p.club_id"
        " WHERE r.tournament_id = %s" + (" AND p.category = %s" if category else "")
    )


@lru_cache(maxsize=64)
def tables_sql(series: int) -> str:
    return (
        f"SELECT id, series_id, number, size FROM {Table._meta.db_table}"
        f" WHERE series_id IN ({', '.join(['%s'] * series)})"
    )


@lru_cache(maxsize=64)
def seats_sql(series: int, category: bool) -> str:
    columns = ", ".join(f"s.{name}" for name in STANDING_SEAT_FIELDS)
    join = f" INNER JOIN {Player._meta.db_table} p ON p.id = s.player_id" if category else ""
    return (
        f"SELECT {columns} FROM {Seat._meta.db_table} s{join}"
        f" WHERE s.series_id IN ({', '.join(['%s'] * series)})"
        + (" AND p.category = %s" if category else "")
    )


def fetch(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
