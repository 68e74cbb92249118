"""Import's game rows: every row of a document checked, each distinct game valued once,
and the rows inserted many at a time.

A document of 100,000 games holds tens of thousands of distinct rows (declarers and card
points vary) but only a few thousand distinct games as the engine values them (the same
grand with two, won, ... at many tables). `GameRows.build` checks each sheet row through
`games.game_row` (the one bridge to the rules engine), which values a game the first time
it meets it (`games._memo_key`) and keeps what the row stores; every later row of that game
gets the kept values with its own declarer, card points and tied seat. A row the checks
refuse is never kept: its message names its game number and its card points.

The kept games are bounded (`KEEP`), so that memory does not grow with the file.

`games_insert` writes rows with one `executemany` of a plain INSERT (on PostgreSQL one
COPY; the column list from `Game._meta`): the ORM's `bulk_create` builds a model instance
and prepares every value of every row, most of an import's time. A row's values are whole
numbers, booleans, strings and None (checked below, for the fields they come from), which
both database drivers take as they are. On PostgreSQL the COPY is written in its text
format by the import itself, each distinct game spelt once (`_games_copy`): the driver would
spell every value of every row. `seats_insert` writes the seats (a few per table) by
`executemany` or COPY, spelt by the driver.
"""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Mapping
from operator import itemgetter

from django.db import connection
from django.utils import timezone

from tournaments.bulk import rows_insert
from tournaments.games import game_row, valuation_settings
from tournaments.models import Game, Seat, Table, Tournament
from tournaments.sheets.selectors import TOTAL_FIELDS

# Set per game by the import (`games_insert`), not by the sheet row.
_PER_GAME = ("id", "table", "tournament", "number", "provisional", "client_id")
_STAMPS = ("created", "updated", "version")
# What a sheet row stores, in `Game._meta` order (declared fields and engine values).
ROW_FIELDS = tuple(
    field.attname for field in Game._meta.concrete_fields if field.name not in _PER_GAME + _STAMPS
)
# A row as the seat totals read it (`sheets.totals.seat_figures`): the stored values and
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
# Distinct games kept at most; then the keeping starts afresh.
KEEP = 20_000


class GameRows:
    """The rows of one import, each distinct game valued once (`games.game_row`). A season
    document's match days share one: their games are valued alike while their tournaments'
    `games.valuation_settings` agree (the memo starts afresh where they do not)."""

    def __init__(self):
        self.memo: dict = {}  # game_row's valued games
        self.spelt: dict = {}  # `games_insert`'s COPY text of rows (PostgreSQL)
        self.tournament: Tournament | None = None  # of the rows built last
        self.settings: tuple | None = None  # its valuation settings

    def build(self, *, table: Table, number: int, data: Mapping) -> GameRow:
        """The stored row of sheet row `number`, or UserError (as `game_build`)."""
        tournament = table.series.tournament
        if tournament is not self.tournament:
            settings = valuation_settings(tournament)
            if settings != self.settings:
                self.memo.clear()
            self.tournament, self.settings = tournament, settings
        if len(self.memo) >= KEEP:
            self.memo.clear()
        row = game_row(table=table, number=number, data=data, fields=ROW_FIELDS, memo=self.memo)
        return _new_row(GameRow, (*row, False))


_new_row = tuple.__new__


def game_of(row: GameRow, *, table: Table, number: int) -> Game:
    """An unsaved Game of a row (for the penalties charged at a game's value)."""
    game = Game(
        table=table, tournament_id=table.series.tournament_id, number=number, table_size=table.size
    )
    for name, value in zip(GameRow._fields, row, strict=True):
        setattr(game, name, value)
    return game


def games_insert(
    tournament_id: int,
    tables: list[tuple[int, list[GameRow], Mapping]],
    *,
    spelt: dict | None = None,
):
    """Insert the games of tables given as (table id, rows in sheet order, client ids by
    game number). `spelt` keeps the rows' COPY text from one call to the next (`GameRows`:
    a season's match days repeat each other's rows)."""
    if not tables:
        return
    stamp = Game._meta.get_field("created").get_db_prep_save(timezone.now(), connection)
    client = Game._meta.get_field("client_id")
    if connection.vendor == "postgresql":
        _games_copy(tournament_id, tables, stamp, client, {} if spelt is None else spelt)
        return
    end = (None, stamp, stamp, 0)
    rows_insert(
        Game,
        _COLUMNS,
        [
            (table_id, tournament_id, number, *row, *end)
            if not client_ids or client_ids.get(number) is None
            else (
                (table_id, tournament_id, number, *row)
                + (client.get_db_prep_save(client_ids[number], connection), stamp, stamp, 0)
            )
            for table_id, rows, client_ids in tables
            for number, row in enumerate(rows, start=1)
        ],
    )


def _text(kind: str):
    """How COPY's text format spells a value of a column of internal type `kind`."""
    if kind == "BooleanField":
        return lambda value: "\\N" if value is None else ("t" if value else "f")
    if kind == "CharField":
        return lambda value: "\\N" if value is None else value.translate(_ESCAPES)
    return lambda value: "\\N" if value is None else str(int(value))


_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_ROW_TEXT = tuple(
    _text(Game._meta.get_field(name).get_internal_type()) for name in GameRow._fields
)
# The fields in which the rows of one game differ (`games._PER_ROW`, and whether it is
# provisional), spelt per row; the others once per game. COPY takes them first.
_VARYING = ("declarer", "ramsch_tie", "card_points", "provisional")
_AT_VARYING = tuple(GameRow._fields.index(name) for name in _VARYING)
_AT_GAME = tuple(i for i in range(len(GameRow._fields)) if i not in _AT_VARYING)
_varying_of = itemgetter(*_AT_VARYING)
_game_of = itemgetter(*_AT_GAME)
_VARYING_TEXT = tuple(_ROW_TEXT[i] for i in _AT_VARYING)
_GAME_TEXT = tuple(_ROW_TEXT[i] for i in _AT_GAME)
_COPY_COLUMNS = (
    *_COLUMNS[:3],
    *_VARYING,
    *(GameRow._fields[i] for i in _AT_GAME),
    *_COLUMNS[3 + len(GameRow._fields) :],
)
# Lines sent to COPY at once.
_COPY_LINES = 5_000


def _games_copy(tournament_id, tables, stamp, client, spelt: dict[tuple, str]):
    """PostgreSQL: the games by one COPY in its text format, each distinct game spelt once
    and the fields its rows differ in once per distinct combination (a document repeats
    its games at many tables: spelling them is most of the work). Equal values spell
    alike in a column, so equal parts share their text."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(Game._meta.get_field(name).column) for name in _COPY_COLUMNS)
    tail = f"\t\\N\t{stamp.isoformat()}\t{stamp.isoformat()}\t0\n"
    varying: dict[tuple, str] = {}
    with connection.cursor() as cursor:
        copy_sql = f"COPY {quote(Game._meta.db_table)} ({names}) FROM STDIN"
        with cursor.cursor.copy(copy_sql) as copy:
            lines = []
            for table_id, rows, client_ids in tables:
                for number, row in enumerate(rows, start=1):
                    if client_ids and client_ids.get(number) is not None:
                        # A phone row's (few): as the driver spells them.
                        copy.write("".join(lines))
                        lines = []
                        copy.write_row(
                            (table_id, tournament_id, number, *_varying_of(row))
                            + _game_of(row)
                            + (client.get_db_prep_save(client_ids[number], connection),)
                            + (stamp, stamp, 0)
                        )
                        continue
                    game = _game_of(row)
                    text = spelt.get(game)
                    if text is None:
                        if len(spelt) >= KEEP:
                            spelt.clear()
                        text = spelt[game] = "\t".join(
                            [spell(value) for spell, value in zip(_GAME_TEXT, game, strict=True)]
                        )
                    values = _varying_of(row)
                    own = varying.get(values)
                    if own is None:
                        own = varying[values] = "\t".join(
                            [
                                spell(value)
                                for spell, value in zip(_VARYING_TEXT, values, strict=True)
                            ]
                        )
                    lines.append(f"{table_id}\t{tournament_id}\t{number}\t{own}\t{text}{tail}")
                if len(lines) >= _COPY_LINES:
                    copy.write("".join(lines))
                    lines = []
            copy.write("".join(lines))


# A seat as the import writes it: its table, series, number, player and table size, then
# its totals (`sheets.totals.seat_figures`, whole numbers and a boolean, and the declared
# games by type, a mapping written as JSON text).
SEAT_COLUMNS = ("table_id", "series_id", "number", "player_id", "table_size", *TOTAL_FIELDS)
_SEAT_JSON = SEAT_COLUMNS.index("declared")
if {Seat._meta.get_field(name).column for name in SEAT_COLUMNS} | {"id"} != {
    field.column for field in Seat._meta.concrete_fields
} or any(
    Seat._meta.get_field(name).get_internal_type()
    not in (_PLAIN if name != "declared" else {"JSONField"})
    for name in TOTAL_FIELDS
):  # pragma: no cover - a new Seat column must be given a value here
    raise RuntimeError("interchange.rows: Seat has a column the import does not write")


def seats_insert(seats: list[tuple]):
    """Insert seats given as values of `SEAT_COLUMNS` (nothing reads their keys back)."""
    if seats:
        at = _SEAT_JSON
        rows_insert(
            Seat,
            SEAT_COLUMNS,
            [(*seat[:at], json.dumps(seat[at]), *seat[at + 1 :]) for seat in seats],
        )
