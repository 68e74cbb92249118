"""Import's game rows: each distinct game of a document checked and valued once, and the
rows inserted many at a time.

A document of 100,000 games holds a few thousand distinct ones (the same grand with two,
won with 61, ... at many tables). `GameRows.build` checks a sheet row through
`games.game_build` (the one bridge to the rules engine) the first time it meets a game,
and keeps what the row stores as a `GameRow`; a game that is the same in every field, at a
table of the same size and on a deal where the same seats sit out, is checked and valued
the same (`game_build` depends on nothing else), so it gets the kept row. A row the checks
refuse is never kept: its message names its game number, so each refused row is checked
on its own.

The kept rows are bounded (`KEEP`): a large document has more distinct games than are
worth keeping (card points and bids vary), and memory must not grow with the file.

`games_insert` writes rows with one `executemany` of a plain INSERT (on PostgreSQL one
COPY; the column list from `Game._meta`): the ORM's `bulk_create` builds a model instance
and prepares every value of every row, most of an import's time. A row's values are whole
numbers, booleans, strings and None (checked below, for the fields they come from), which
both database drivers take as they are.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping

from django.db import connection
from django.utils import timezone

import scoring
from tournaments.games import game_values
from tournaments.models import Game, Table

# Set per game by the import (`games_insert`), not by the sheet row.
_PER_GAME = ("id", "table", "tournament", "number", "provisional", "client_id")
_STAMPS = ("created", "updated", "version")
# What a sheet row stores, in `Game._meta` order (declared fields and engine values).
ROW_FIELDS = tuple(
    field.attname for field in Game._meta.concrete_fields if field.name not in _PER_GAME + _STAMPS
)
# A row as the seat totals read it (`sheets.totals.totals_of_rows`): the stored values and
# whether the game is provisional.
GameRow = namedtuple("GameRow", (*ROW_FIELDS, "provisional"))
_COLUMNS = ("table_id", "tournament_id", "number", *ROW_FIELDS, "provisional", "client_id")
_COLUMNS += _STAMPS
# The internal types whose values the drivers take as Python gives them.
_PLAIN = {
    "BooleanField",
    "CharField",
    "IntegerField",
    "PositiveSmallIntegerField",
    "PositiveBigIntegerField",
}
if {Game._meta.get_field(name).column for name in _COLUMNS} | {"id"} != {
    field.column for field in Game._meta.concrete_fields
} or any(
    Game._meta.get_field(name).get_internal_type() not in _PLAIN for name in GameRow._fields
):  # pragma: no cover - a new Game column must be given a value here
    raise RuntimeError("interchange.rows: Game has a column the import does not write")
# Distinct rows (and engine results) kept at most; then the keeping starts afresh.
KEEP = 20_000


class GameRows:
    """The distinct games of one import, checked and valued once each (up to `KEEP`)."""

    def __init__(self):
        self.memo: dict = {}  # game_build's engine results
        self.rows: dict = {}  # (size, seats out, game) -> GameRow

    def build(self, *, table: Table, number: int, data: Mapping) -> GameRow:
        """The stored row of sheet row `number`, or UserError (as `game_build`)."""
        size = table.size
        try:
            key = (
                size,
                scoring.sitting_out(number, size),
                # The type too: True and 1 are equal keys, but not the same game.
                frozenset((k, type(v), v) for k, v in data.items()),
            )
            row = self.rows.get(key)
        except TypeError:  # an unhashable value (a list): checked, and refused, as it comes
            key = row = None
        if row is None:
            if len(self.rows) >= KEEP or len(self.memo) >= KEEP:
                self.rows.clear()
                self.memo.clear()
            values = game_values(table=table, number=number, data=data, memo=self.memo)
            row = GameRow(*(getattr(values, name) for name in ROW_FIELDS), False)
            if key is not None:
                self.rows[key] = row
        return row


def game_of(row: GameRow, *, table: Table, number: int) -> Game:
    """An unsaved Game of a row (for the penalties charged at a game's value)."""
    game = Game(
        table=table, tournament_id=table.series.tournament_id, number=number, table_size=table.size
    )
    for name, value in zip(GameRow._fields, row, strict=True):
        setattr(game, name, value)
    return game


def games_insert(games: list[tuple[int, int, int, GameRow, object]]):
    """Insert games given as (table id, tournament id, number, row, client id or None)."""
    if not games:
        return
    quote = connection.ops.quote_name
    table = quote(Game._meta.db_table)
    columns = ", ".join(quote(Game._meta.get_field(name).column) for name in _COLUMNS)
    marks = ", ".join(["%s"] * len(_COLUMNS))
    stamp = Game._meta.get_field("created").get_db_prep_save(timezone.now(), connection)
    client = Game._meta.get_field("client_id")
    end = (None, stamp, stamp, 0)
    params = [
        (table_id, tournament_id, number, *row, *end)
        if client_id is None
        else (
            (table_id, tournament_id, number, *row)
            + (client.get_db_prep_save(client_id, connection), stamp, stamp, 0)
        )
        for table_id, tournament_id, number, row, client_id in games
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY: several times faster than a row-by-row INSERT through the driver.
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for values in params:
                    copy.write_row(values)
        else:
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", params)
