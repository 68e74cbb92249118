"""The JSON-lines command line: ``python -m scoring < games.jsonl > results.jsonl``.

Implements ``shared/rules/scoring-contract.md``: one JSON object per input line (blank lines
skipped), one compact JSON object per game on output in the same order, ``{"error": ...}``
for a rejected line, exit status 1 when any line was rejected.

A *blank* line holds nothing but JSON whitespace (space, tab, CR, LF); any other line gets
exactly one output line. A field given twice on one line is rejected (JSON leaves that
open; silently taking the last one would hide a typing mistake). When the reader of the
output goes away (``... | head -1``) the command stops quietly with status 1: its output
was cut short.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from typing import BinaryIO

from scoring.errors import ScoringError, fail, show_text
from scoring.variants import answer_mapping

__all__ = ["main", "run"]

_DESCRIPTION = """\
Score Skat games given as JSON lines on standard input, one game per line, and write one
JSON object per game to standard output. A rejected game gets {"error": "..."} and the
exit status is 1."""

_EPILOG = """\
example:
  echo '{"rules":"ispa","game":"grand","matadors":4,"card_points":95,"bid":18}' \\
    | python -m scoring
  {"value":144,"score":144,"won":true,"overbid":false,\
"list_points":{"declarer":194,"each_other_player":0}}

rule sets: ispa (International Skat Order, Seeger-Fabian list points), na (North American
tournee skat). The fields are described in shared/rules/scoring-contract.md."""

_CHUNK = 4096
# JSON's whitespace (RFC 8259): a line of only these is blank. bytes.strip() would also
# drop \x0b and \x0c, which are not JSON whitespace.
_JSON_WHITESPACE = b" \t\r\n"
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class _DuplicateField(Exception):
    def __init__(self, field: str):
        super().__init__(field)
        self.field = field


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """json's object_pairs_hook: the object as a dict, unless a key appears twice."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateField(key)
            seen.add(key)
    return data


_loads = json.JSONDecoder(object_pairs_hook=_unique_pairs).decode


def _too_large(exc: ValueError) -> bool:
    """Whether ``exc`` is Python's refusal to convert an int of too many digits."""
    return "integer string conversion" in str(exc)


def _answer(number: int, raw: bytes) -> tuple[str, bool]:
    """The output line for input line ``number`` and whether the game was accepted."""
    try:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise fail("not_utf8", line=number) from None
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]  # a byte order mark some editors write
        try:
            data = _loads(text)
        except json.JSONDecodeError as exc:
            raise fail(
                "invalid_json", line=number, detail=f"{exc.msg} at column {exc.colno}"
            ) from None
        except RecursionError:
            raise fail("invalid_json", line=number, detail="nested too deeply") from None
        except _DuplicateField as exc:
            raise fail("duplicate_field", line=number, field=show_text(exc.field)) from None
        except ValueError as exc:
            if _too_large(exc):  # an integer of more digits than Python converts
                raise fail(
                    "number_too_large", line=number, digits=sys.get_int_max_str_digits()
                ) from None
            raise fail("invalid_json", line=number, detail=str(exc)) from None
        if not isinstance(data, dict):
            raise fail("not_an_object_line", line=number)
        try:
            return _dumps(answer_mapping(data)), True
        except ValueError as exc:  # the value charged for a bid of thousands of digits
            if _too_large(exc):
                raise fail(
                    "number_too_large", line=number, digits=sys.get_int_max_str_digits()
                ) from None
            raise
    except ScoringError as exc:
        return _dumps({"error": exc.message}), False


def run(lines: Iterable[bytes], out: BinaryIO) -> bool:
    """Answer every non-blank line of ``lines`` on ``out``; True when all were accepted."""
    all_ok = True
    chunk: list[str] = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip(_JSON_WHITESPACE):
            continue
        answer, ok = _answer(number, raw)
        all_ok = all_ok and ok
        chunk.append(answer)
        if len(chunk) >= _CHUNK:
            _write(out, chunk)
            chunk = []
    if chunk:
        _write(out, chunk)
    out.flush()
    return all_ok


def _write(out: BinaryIO, chunk: list[str]) -> None:
    chunk.append("")
    # backslashreplace: a lone surrogate from a JSON escape is written as the same escape.
    out.write("\n".join(chunk).encode("utf-8", "backslashreplace"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.parse_args(argv)
    try:
        return 0 if run(sys.stdin.buffer, sys.stdout.buffer) else 1
    except BrokenPipeError:
        # The reader went away. Point stdout at /dev/null so that the flush at exit does
        # not fail once more (Python docs, signal module, "Note on SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
