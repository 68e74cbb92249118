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

The fast C parser of `ijson` (yajl2_c) is used when it is installed, else the best there is.
"""

from __future__ import annotations

import codecs
import gc
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import BinaryIO

import ijson

from tournaments.interchange.writer import import_source
from tournaments.models import Club, Tournament


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


def _outline_type(odd: list):
    class _Outline(dict):
        """An object of the outline: a `games` list is dropped as soon as it is attached
        (its games are still parsed, and freed one list at a time); keys that would make
        the item-by-item reading ambiguous are noted in `odd`."""

        __slots__ = ()

        def __setitem__(self, key, value):
            if key == "games" and type(value) is list:
                value = _DROPPED
            elif key == "item" or ((key == "series" or key == "tables") and key in self):
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


def _holds_dropped(value) -> bool:
    """Whether a `games` list was let go somewhere in `value` (outside a table)."""
    if value is _DROPPED:
        return True
    if isinstance(value, Mapping):
        return any(_holds_dropped(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_dropped(v) for v in value)
    return False


def _read_whole(file: BinaryIO):
    """The document read whole, as `json` reads it (its errors are the command's)."""
    file.seek(0)
    return json.loads(file.read().decode("utf-8"))


def _outline(file: BinaryIO):
    """The outline of the document, or None where it must be read whole (module docstring)."""
    odd: list[str] = []
    try:
        values = list(
            BACKEND.items(
                _Utf8(file), "", map_type=_outline_type(odd), use_float=True, buf_size=BUFFER
            )
        )
    except ijson.JSONError:
        return None
    if len(values) != 1 or odd:
        return None
    document = values[0]
    if isinstance(document, Mapping) and any(
        _holds_dropped(value) for key, value in document.items() if key != "series"
    ):
        return None
    return document


def _tables(file: BinaryIO) -> Iterator[dict]:
    """Every table of the document's series, in full, in document order."""
    file.seek(0)
    yield from BACKEND.items(file, "series.item.tables.item", use_float=True, buf_size=BUFFER)


@contextmanager
def _fewer_collections():
    """The cyclic garbage collector run less often while a file is imported.

    An import makes millions of short-lived objects (the parsed games, their rows), all
    freed by reference counting, while it keeps a chunk of rows: at the default thresholds
    the collector walks the kept rows over and over, about a tenth of an import's time.
    """
    before = gc.get_threshold()
    gc.set_threshold(50_000, 20, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def import_file(path: str, *, club: Club | str | None = None, replace: bool = False) -> Tournament:
    """Import the document in file `path` ("-": standard input, kept in a temporary file to
    be read twice). Raises OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError
    or NotAnObject for a file that holds no document, InterchangeError for a document
    that cannot be imported (nothing written)."""
    with ExitStack() as stack:
        stack.enter_context(_fewer_collections())
        if path == "-":
            file = stack.enter_context(tempfile.TemporaryFile())
            source = getattr(sys.stdin, "buffer", None)
            if source is None:  # a text stream (tests, an embedding program)
                file.write(sys.stdin.read().encode("utf-8"))
            else:
                shutil.copyfileobj(source, file)
            file.seek(0)
        else:
            file = stack.enter_context(open(path, "rb"))  # noqa: SIM115 - closed by the stack
        document = _outline(file)
        if document is None:
            document = _read_whole(file)
            if not isinstance(document, dict):
                raise NotAnObject
            return import_source(document, club=club, replace=replace)
        if not isinstance(document, dict):
            raise NotAnObject
        stream = _tables(file)

        def tables_of(outlines: list) -> Iterator[dict]:
            for _outline_table in outlines:
                yield next(stream)

        def finished():
            if next(stream, _END) is not _END:  # pragma: no cover - the outline counts them
                raise RuntimeError("interchange.stream: tables left over after the series")

        return import_source(
            document, club=club, replace=replace, tables_of=tables_of, finished=finished
        )
