"""The engine's shape: pure standard library, its public names, its tables and codes."""

import ast
import sys
from pathlib import Path

import pytest

import scoring
from scoring import RAMSCH_RESULTS, ScoringError, is_valid_bid, valid_bids
from scoring import game as game_module
from scoring.errors import MESSAGES, fail
from tests.scoring import (
    test_cli,
    test_north_american,
    test_seeger_fabian,
    test_validation,
    test_variants,
)

PACKAGE = Path(scoring.__file__).parent


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_scoring_never_imports_django():
    # STYLE habit 1: scoring/ is pure Python; a rules engine testable without a database.
    sources = sorted(PACKAGE.glob("*.py"))
    assert len(sources) >= 8
    for path in sources:
        for module in imported_modules(path):
            assert module.split(".")[0] != "django", f"{path.name} imports {module}"


def test_scoring_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"scoring", "__future__"}
    for path in sorted(PACKAGE.glob("*.py")):
        for module in imported_modules(path):
            assert module.split(".")[0] in allowed, f"{path.name} imports {module}"


def test_public_api():
    # The names the Django side imports.
    expected = {
        "ScoringError", "Bonus", "DEFAULT_BONUS", "Game", "GameResult", "parse_game",
        "score", "score_mapping", "result_to_contract", "SheetGame", "SeatTotals",
        "score_series", "RULE_SETS", "ISPA_GAMES", "NA_GAMES", "SUITS", "valid_bids",
        "RAMSCH_RESULTS", "dealer", "sitting_out",
    }  # fmt: skip
    assert expected <= set(scoring.__all__)
    for name in scoring.__all__:
        assert hasattr(scoring, name)


def test_ispa_bids_are_the_63_game_values():
    # rules §1.5: "the 63 values 18, 20, 22, 23, 24, 27, 30, … 240, 264".
    bids = valid_bids("ispa")
    assert len(bids) == 63
    assert {18, 20, 22, 23, 24, 27, 30, 240, 264} <= bids
    assert min(bids) == 18 and max(bids) == 264
    # Wikipedia "Bidding": the sequence through 60.
    assert sorted(b for b in bids if b <= 60) == [
        18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60,
    ]  # fmt: skip


# (rules, bid, valid)
BID_ROWS = [
    pytest.param("ispa", 18, True, id="ispa-18"),  # rules §1.5
    pytest.param("ispa", 19, False, id="ispa-19"),
    pytest.param("ispa", 264, True, id="ispa-264"),
    pytest.param("na", 10, True, id="na-10"),  # rules §3.4: bids start at 10
    pytest.param("na", 11, True, id="na-11"),  # Hoyle: "if he has bid or refused eleven"
    pytest.param("na", 9, False, id="na-9"),
    pytest.param("na", 216, True, id="na-216"),
    # scoring contract: "NA: ≥ 10"; a bid above every game is valid (and overbid).
    pytest.param("na", 217, True, id="na-217"),
    pytest.param("na", 10**6, True, id="na-million"),
    pytest.param("na", True, False, id="na-bool"),
]


@pytest.mark.parametrize(("rules", "bid", "valid"), BID_ROWS)
def test_is_valid_bid(rules, bid, valid):
    assert is_valid_bid(rules, bid) is valid


def test_na_bids_are_a_range_not_a_list():
    with pytest.raises(ScoringError) as caught:
        valid_bids("na")
    assert caught.value.code == "no_bid_list"
    for call in (lambda: valid_bids("skat"), lambda: is_valid_bid("skat", 18)):
        with pytest.raises(ScoringError) as caught:
            call()
        assert caught.value.code == "unknown_rules"


def test_ramsch_results():
    # rules §3.5.
    assert dict(RAMSCH_RESULTS) == {"fewest_points": 10, "no_trick": 20, "all_tricks": -30}


def test_every_code_is_tested():
    """Each code in MESSAGES is raised by at least one table row."""
    covered = {row.values[1] for row in test_validation.ERROR_ROWS}
    covered |= {row.values[2] for row in test_seeger_fabian.SERIES_ERRORS}
    covered |= {  # test_cli.BAD_LINES
        "invalid_json",
        "not_utf8",
        "not_an_object_line",
        "duplicate_field",
        "number_too_large",
    }
    covered |= {"no_bid_list"}  # above
    covered |= {row.values[2] for row in test_variants.RAMSCH_ERRORS}
    covered |= {row.values[3] for row in test_variants.PENALTY_ERRORS}
    covered |= {"penalty_not_object"}  # test_variants.CLI_ROWS
    covered |= {row.values[4] for row in test_variants.TIE_ROWS} - {None}
    assert test_cli.BAD_LINES and test_north_american.VALUE_ROWS
    assert covered == set(MESSAGES)


def test_messages_format_with_their_params():
    error = fail("matadors_range", max=4, what="a grand game")
    assert error.code == "matadors_range"
    assert error.params == {"max": 4, "what": "a grand game"}
    assert str(error) == error.message == "matadors must be between 1 and 4 for a grand game"


def test_equal_results_are_shared_and_the_table_is_bounded(monkeypatch):
    values = (20, 20, True, False, 70, 0, 2, 10)
    assert game_module.result_of(values) is game_module.result_of(values)
    assert game_module.result_of(values) == scoring.GameResult(*values)
    monkeypatch.setattr(game_module, "_RESULTS_LIMIT", 3)
    for points in range(10):
        result = game_module.result_of((points, points, True, False, 0, 0, None, None))
        assert result.score == points
    assert len(game_module._RESULTS) <= 3
