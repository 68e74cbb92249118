"""Import from a file without holding the document: the file is read twice with `ijson`.

1. The *outline*: the whole document as objects, but every `games` list let go as it is
   read (`_Outline`); what remains (format, tournament, players, archive, the series with
   their tables' numbers, seats and penalties) is small beside the games. The head is
   checked from it, and the series' outlines say how many tables each series has.
2. The *tables*: every table of `series` again, in full and one at a time, handed to the
   checker in document order (`import_source`'s `tables_of`), which checks and writes
   them in chunks (`writer`).

A document's key order is free, so nothing assumes `series` comes after the players. Some
documents read differently item by item than as a whole: a map key `item` (ijson's name
for a list's items), a `series` or `tables` key given twice, a `games` list outside a
table; such a document, and one `ijson` refuses, is read whole with `json` instead, as
before (the JSON module then names the first error of a file that is not JSON).

A season document (`leagues.interchange`, `skat-season/1`) is read the same way: its
outline holds every match day's tournament outline, and one stream of tables
(`TableFeed`) serves the match days' imports in turn.

The fast C parser of `ijson` (yajl2_c) is used when it is installed, else the best there is.
"""

from __future__ import annotations

import codecs
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import BinaryIO

import ijson

from skatclub.runtime import collector_for_import
from tournaments.interchange.writer import import_source
from tournaments.models import Club, Tournament
from tournaments.registry.matching import PlayerTally


class NotAnObject(ValueError):
    """The file's JSON value is not an object."""


def _backend():
    try:
        return ijson.get_backend("yajl2_c")
    except ImportError:  # pragma: no cover - the wheel ships the C backend
        return ijson


BACKEND = _backend()
# Bytes per read: fewer calls into Python, still a small buffer.
BUFFER = 1 << 16
_END = object()


class _Dropped(list):
    """A `games` list the outline let go (empty, and told apart from a real one)."""

    __slots__ = ()


_DROPPED = _Dropped()


# Keys on the way to a table that must not be given twice in an object (the stream of
# tables would not read what the outline reads).
TOURNAMENT_PATH_KEYS = frozenset({"series", "tables"})


def _outline_type(odd: list, once: frozenset[str]):
    class _Outline(dict):
        """An object of the outline: a `games` list is dropped as soon as it is attached
        (its games are still parsed, and freed one list at a time); keys that would make
        the item-by-item reading ambiguous are noted in `odd`."""

        __slots__ = ()

        def __setitem__(self, key, value):
            if key == "games" and type(value) is list:
                value = _DROPPED
            elif key == "item" or (key in once and key in self):
                odd.append(key)
            dict.__setitem__(self, key, value)

    return _Outline


class _Utf8:
    """A binary file that raises UnicodeDecodeError where it is not UTF-8 (as reading it
    as text would), passed to the parser."""

    def __init__(self, file: BinaryIO):
        self.file = file
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size)
        self.decoder.decode(data, final=not data and size != 0)
        return data


def holds_dropped(value) -> bool:
    """Whether a `games` list was let go somewhere in `value` (outside a table)."""
    if value is _DROPPED:
        return True
    if isinstance(value, Mapping):
        return any(holds_dropped(v) for v in value.values())
    if isinstance(value, list):
        return any(holds_dropped(v) for v in value)
    return False


def read_whole(file: BinaryIO):
    """The document read whole, as `json` reads it (its errors are the command's)."""
    file.seek(0)
    return json.loads(file.read().decode("utf-8"))


def outline(file: BinaryIO, once: frozenset[str] = TOURNAMENT_PATH_KEYS):
    """The document's outline (every `games` list dropped), or None where it must be read
    whole: a map key `item`, a key of `once` given twice in an object, or a file `ijson`
    refuses. Where a dropped `games` list lay outside a table is the caller's to check
    (`holds_dropped`)."""
    odd: list[str] = []
    try:
        values = list(
            BACKEND.items(
                _Utf8(file), "", map_type=_outline_type(odd, once), use_float=True, buf_size=BUFFER
            )
        )
    except ijson.JSONError:
        return None
    if len(values) != 1 or odd:
        return None
    return values[0]


def _tournament_outline(file: BinaryIO):
    """The outline of a tournament document, or None where it must be read whole (module
    docstring)."""
    document = outline(file)
    if isinstance(document, Mapping) and any(
        holds_dropped(value) for key, value in document.items() if key != "series"
    ):
        return None
    return document


def tables(file: BinaryIO, prefix: str = "series.item.tables.item") -> Iterator[dict]:
    """Every table at `prefix` (ijson's path), in full, in document order."""
    file.seek(0)
    yield from BACKEND.items(file, prefix, use_float=True, buf_size=BUFFER)


class TableFeed:
    """Hands a stream of tables to `writer.import_source` one tournament at a time: the
    tables of each series of the tournament's outline, taken from the stream in document
    order (`tables_of`); `finished` takes what the checker left of that tournament, so
    that the next tournament of the same stream starts at its own tables."""

    def __init__(self, stream: Iterator[dict]):
        self.stream = stream
        self.owed = 0

    def start(self, document) -> None:
        """The next tournament: `document` is its outline."""
        entries = document.get("series") if isinstance(document, Mapping) else None
        self.owed = sum(
            len(series["tables"])
            for series in (entries if isinstance(entries, list) else [])
            if isinstance(series, Mapping) and isinstance(series.get("tables"), list)
        )

    def tables_of(self, outlines: list) -> Iterator[dict]:
        for _outline_table in outlines:
            self.owed -= 1
            yield next(self.stream)

    def finished(self) -> None:
        while self.owed > 0:  # pragma: no cover - the checker reads every table
            self.owed -= 1
            next(self.stream)

    def end(self) -> None:
        if next(self.stream, _END) is not _END:  # pragma: no cover - the outline counts them
            raise RuntimeError("interchange.stream: tables left over after the series")


@contextmanager
def opened(path: str) -> Iterator[BinaryIO]:
    """The file at `path` opened to be read twice ("-": standard input, kept in a
    temporary file)."""
    if path != "-":
        with open(path, "rb") as file:
            yield file
        return
    with tempfile.TemporaryFile() as file:
        source = getattr(sys.stdin, "buffer", None)
        if source is None:  # a text stream (tests, an embedding program)
            file.write(sys.stdin.read().encode("utf-8"))
        else:
            shutil.copyfileobj(source, file)
        file.seek(0)
        yield file


def import_file(
    path: str,
    *,
    club: Club | str | None = None,
    replace: bool = False,
    tally: PlayerTally | None = None,
) -> Tournament:
    """Import the document in file `path` ("-": standard input, kept in a temporary file to
    be read twice). Raises OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError
    or NotAnObject for a file that holds no document, InterchangeError for a document
    that cannot be imported (nothing written)."""
    with ExitStack() as stack:
        stack.enter_context(collector_for_import())
        file = stack.enter_context(opened(path))
        document = _tournament_outline(file)
        if document is None:
            document = read_whole(file)
            if not isinstance(document, dict):
                raise NotAnObject
            return import_source(document, club=club, replace=replace, tally=tally)
        if not isinstance(document, dict):
            raise NotAnObject
        feed = TableFeed(tables(file))
        feed.start(document)

        def finished():
            feed.finished()
            feed.end()

        return import_source(
            document,
            club=club,
            replace=replace,
            tables_of=feed.tables_of,
            finished=finished,
            tally=tally,
        )
