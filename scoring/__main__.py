"""The JSON-lines command line: ``python -m scoring < games.jsonl > results.jsonl``.

Implements ``shared/rules/scoring-contract.md``: one JSON object per input line (blank lines
skipped), one compact JSON object per game on output in the same order, ``{"error": ...}``
for a rejected line, exit status 1 when any line was rejected.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import BinaryIO

from scoring.engine import result_to_contract, score
from scoring.errors import ScoringError, fail
from scoring.game import parse_game

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
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.JSONDecoder().decode


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
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            raise fail("invalid_json", line=number, detail=str(exc)[:80]) from None
        if not isinstance(data, dict):
            raise fail("not_an_object_line", line=number)
        game = parse_game(data)
        return _dumps(result_to_contract(game, score(game))), True
    except ScoringError as exc:
        return _dumps({"error": exc.message}), False


def run(lines: Iterable[bytes], out: BinaryIO) -> bool:
    """Answer every non-blank line of ``lines`` on ``out``; True when all were accepted."""
    all_ok = True
    chunk: list[str] = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
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
    return 0 if run(sys.stdin.buffer, sys.stdout.buffer) else 1


if __name__ == "__main__":
    sys.exit(main())
