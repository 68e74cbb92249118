"""The JSON-lines command line, byte for byte against the scoring contract."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.__main__ import run

ROOT = Path(__file__).resolve().parents[2]

# The six examples of shared/rules/scoring-contract.md, input → exact output.
CONTRACT_EXAMPLES = [
    pytest.param(
        '{"rules":"ispa","game":"grand","matadors":4,"card_points":95,"bid":18}',
        '{"value":144,"score":144,"won":true,"overbid":false,'
        '"list_points":{"declarer":194,"each_other_player":0}}',
        id="contract-1",
    ),
    pytest.param(
        '{"rules":"ispa","game":"diamonds","matadors":2,"without":true,"card_points":50,'
        '"table_size":4}',
        '{"value":27,"score":-54,"won":false,"overbid":false,'
        '"list_points":{"declarer":-104,"each_other_player":30}}',
        id="contract-2",
    ),
    pytest.param(
        '{"rules":"ispa","game":"clubs","matadors":1,"card_points":70,"bid":30}',
        '{"value":36,"score":-72,"won":false,"overbid":true,'
        '"list_points":{"declarer":-122,"each_other_player":40}}',
        id="contract-3",
    ),
    pytest.param(
        '{"rules":"ispa","game":"null","ouvert":true,"won":false}',
        '{"value":46,"score":-92,"won":false,"overbid":false,'
        '"list_points":{"declarer":-142,"each_other_player":40}}',
        id="contract-4",
    ),
    pytest.param(
        '{"rules":"na","game":"solo","trump":"hearts","matadors":3,'
        '"schneider_announced":true,"card_points":95,"won":true}',
        '{"value":60,"score":60,"won":true,"overbid":false}',
        id="contract-5",
    ),
    pytest.param(
        '{"rules":"ispa","game":"clubs","matadors":12,"won":true}',
        '{"error":"matadors must be between 1 and 11 for a suit game"}',
        id="contract-6",
    ),
]


def cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(("line", "expected"), CONTRACT_EXAMPLES)
def test_contract_example(line, expected):
    done = cli(line.encode() + b"\n")
    assert done.stdout == expected.encode() + b"\n"
    assert done.stderr == b""
    assert done.returncode == (1 if "error" in expected else 0)


def test_contract_examples_in_one_stream():
    lines = [p.values[0] for p in CONTRACT_EXAMPLES]
    expected = [p.values[1] for p in CONTRACT_EXAMPLES]
    done = cli(("\n".join(lines) + "\n").encode())
    assert done.stdout.decode().splitlines() == expected
    assert done.returncode == 1


def test_all_accepted_exits_0_and_blank_lines_are_skipped():
    # contract: blank input lines are skipped; one output line per game, in order.
    lines = [p.values[0] for p in CONTRACT_EXAMPLES[:5]]
    stdin = ("\n  \n" + "\n\n".join(lines) + "\r\n\n").encode()
    done = cli(stdin)
    assert done.stdout.decode().splitlines() == [p.values[1] for p in CONTRACT_EXAMPLES[:5]]
    assert done.returncode == 0


def test_no_final_newline_and_empty_input():
    assert cli(b'{"rules":"na","game":"ramsch","ramsch":"no_trick"}').stdout == b'{"score":20}\n'
    empty = cli(b"")
    assert (empty.stdout, empty.returncode) == (b"", 0)


def test_help():
    done = cli(b"", "--help")
    assert done.returncode == 0
    assert b"usage: python -m scoring" in done.stdout


def answers(stdin: bytes) -> tuple[list[str], bool]:
    out = io.BytesIO()
    ok = run(io.BytesIO(stdin), out)
    return out.getvalue().decode().splitlines(), ok


# (input, output) for lines that are not games; line numbers count blank lines too.
# fmt: off
BAD_LINES = [
    pytest.param(b"\nnot json\n",
                 '{"error":"line 2 is not valid JSON: Expecting value at column 1"}',
                 id="not-json"),
    pytest.param(b'{"rules":"ispa",}\n',
                 '{"error":"line 1 is not valid JSON: Expecting property name enclosed in '
                 'double quotes at column 17"}', id="trailing-comma"),
    pytest.param(b"[1, 2]\n", '{"error":"line 1 is not a JSON object"}', id="array"),
    pytest.param(b"null\n", '{"error":"line 1 is not a JSON object"}', id="null"),
    pytest.param(b"\xff\xfe{}\n", '{"error":"line 1 is not valid UTF-8"}', id="not-utf8"),
    pytest.param(b"[" * 100_000 + b"\n",
                 '{"error":"line 1 is not valid JSON: nested too deeply"}', id="deep"),
    pytest.param(b"{}\n", '{"error":"rules is required"}', id="empty-object"),
    # a byte order mark at the start of the file is tolerated
    pytest.param(b'\xef\xbb\xbf{"rules":"na","game":"null","won":true}\n',
                 '{"value":20,"score":20,"won":true,"overbid":false}', id="bom"),
    # non-ASCII is written as UTF-8, a lone surrogate as its JSON escape
    pytest.param('{"rules":"ispa","game":"Grän"}\n'.encode(),
                 "{\"error\":\"unknown game 'Grän' for ispa rules: use one of diamonds, "
                 "hearts, spades, clubs, grand, null, passed\"}", id="utf8-echo"),
    pytest.param(b'{"rules":"\\ud800","game":"x"}\n',
                 "{\"error\":\"unknown rules '\\ud800': use 'ispa' or 'na'\"}",
                 id="lone-surrogate"),
    # A field given twice is a typing mistake, not "the last one wins".
    pytest.param(b'{"rules":"ispa","rules":"na","game":"null","won":true}\n',
                 '{"error":"line 1: field \'rules\' appears twice"}', id="duplicate-field"),
    pytest.param(b'{"rules":"na","game":"null","won":true,"won":true}\n',
                 '{"error":"line 1: field \'won\' appears twice"}', id="duplicate-same-value"),
    # Python refuses to convert an integer of more than 4300 digits; say so plainly.
    pytest.param(b'{"rules":"na","game":"null","won":true,"bid":' + b"9" * 5000 + b"}\n",
                 '{"error":"line 1: a number is too large (more than 4300 digits)"}',
                 id="huge-number"),
    # A 4300-digit bid is read, but the value charged (a multiple of 10) has 4301 digits.
    pytest.param(b'{"rules":"na","game":"solo","trump":"hearts","matadors":1,"won":true,'
                 b'"bid":' + b"9" * 4300 + b"}\n",
                 '{"error":"line 1: a number is too large (more than 4300 digits)"}',
                 id="huge-value-charged"),
    # Only JSON whitespace makes a blank line: \x0b and \x0c lines get an answer.
    pytest.param(b"\x0b\n", '{"error":"line 1 is not valid JSON: Expecting value at column 1"}',
                 id="vertical-tab"),
    pytest.param(b" \t\r\n\x0c\n",
                 '{"error":"line 2 is not valid JSON: Expecting value at column 1"}',
                 id="form-feed-after-blank-line"),
]
# fmt: on


@pytest.mark.parametrize(("stdin", "expected"), BAD_LINES)
def test_bad_lines(stdin, expected):
    lines, ok = answers(stdin)
    assert lines == [expected]
    assert ok == ("error" not in expected)


def test_a_bad_line_does_not_stop_the_run():
    lines, ok = answers(b'oops\n{"rules":"na","game":"ramsch","ramsch":"all_tricks"}\n')
    assert lines[1] == '{"score":-30}'
    assert not ok


def test_many_lines_are_written_in_chunks():
    line = b'{"rules":"na","game":"null","won":false}\n'
    lines, ok = answers(line * 10_000)
    assert (
        ok
        and len(lines) == 10_000
        and set(lines) == {'{"value":20,"score":-20,"won":false,"overbid":false}'}
    )


@settings(database=None, deadline=None, max_examples=300)
@given(st.lists(st.one_of(st.binary(max_size=60), st.text(max_size=60).map(str.encode))))
def test_cli_never_crashes_on_arbitrary_lines(chunks):
    stdin = b"\n".join(chunks)
    lines, _ = answers(stdin)
    # contract: one output line per non-blank line; blank means JSON whitespace only.
    expected = sum(1 for raw in stdin.split(b"\n") if raw.strip(b" \t\r\n"))
    assert len(lines) == expected
    for line in lines:
        assert isinstance(json.loads(line), dict)


def test_a_reader_that_goes_away_stops_the_command_quietly(tmp_path):
    # `python -m scoring < big.jsonl | head -1`: no traceback, status 1 (output cut short).
    games = tmp_path / "big.jsonl"
    games.write_bytes(b'{"rules":"na","game":"null","won":false}\n' * 100_000)  # ~5 MB out
    with (
        games.open("rb") as stdin,
        subprocess.Popen(
            [sys.executable, "-m", "scoring"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        ) as process,
    ):
        first = process.stdout.readline()
        process.stdout.close()  # far more is still to come than a pipe holds
        stderr = process.stderr.read()
        status = process.wait(timeout=60)
    assert first == b'{"value":20,"score":-20,"won":false,"overbid":false}\n'
    assert (status, stderr) == (1, b"")


def test_duplicate_key_in_a_later_line_leaves_the_others_alone():
    lines, ok = answers(
        b'{"rules":"na","game":"null","won":true}\n{"game":"null","game":"null"}\n'
    )
    assert lines == [
        '{"value":20,"score":20,"won":true,"overbid":false}',
        '{"error":"line 2: field \'game\' appears twice"}',
    ]
    assert not ok
