"""Series totals and Seeger-Fabian list points (rules §2, §3.5, §3.6).

Terms: a *sheet* is the list of one table in one series, one row per deal. A seat's *game
points* are the sum of its game scores as declarer (plus Ramsch results and penalties);
*won* / *lost* count its games as declarer; *others lost* counts the games the other
declarers at its table lost. The *list points* (Wertungspunkte) are
``game points + 50 × (won − lost) + (40 or 30) × others lost`` in ISPA with list scoring,
and the plain game points otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import fail, show_int
from scoring.game import DEFAULT_BONUS, Bonus, GameResult
from scoring.tables import RAMSCH_RESULTS, RULE_SETS

__all__ = ["SeatTotals", "SheetGame", "list_points_for", "ranking_key", "score_series"]


@dataclass(frozen=True, slots=True)
class SheetGame:
    """One row of a sheet.

    ``declarer`` is the 1-based seat of the declarer, None for a passed-in deal or a
    Ramsch; ``result`` is the scored game (None or a passed result for a passed-in deal).
    ``ramsch`` lists (seat, "fewest_points" / "no_trick" / "all_tricks") for an NA Ramsch.
    """

    declarer: int | None
    result: GameResult | None
    ramsch: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SeatTotals:
    """One seat's totals over a series."""

    seat: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    list_points: int


# rules §3.6: NA tables may have 4 or 5 players; ISPA tables 3 or 4 (rules §4).
_MAX_TABLE = {"ispa": 4, "na": 5}


def list_points_for(
    game_points: int,
    won: int,
    lost: int,
    others_lost: int,
    table_size: int,
    bonus: Bonus = DEFAULT_BONUS,
) -> int:
    """Seeger-Fabian list points of one player over a series (rules §2)."""
    if table_size != 3 and table_size != 4:
        raise fail("table_size_range")
    others = bonus.others_3 if table_size == 3 else bonus.others_4
    return game_points + bonus.won * won - bonus.lost * lost + others * others_lost


def ranking_key(totals: SeatTotals) -> tuple[int, int, int]:
    """Sort key for standings: list points desc, more won, fewer lost (rules §2).

    A tie left after these is drawn by lot by the director.
    """
    return (-totals.list_points, -totals.won, totals.lost)


def score_series(
    games: Iterable[SheetGame],
    *,
    rules: str,
    table_size: int,
    bonus: Bonus = DEFAULT_BONUS,
    list_scoring: bool = True,
    penalties: Iterable[tuple[int, int]] = (),
) -> dict[int, SeatTotals]:
    """Total one table's sheet: seat number → totals, for seats 1..table_size."""
    if rules not in RULE_SETS:
        raise fail("unknown_rules", value=str(rules)[:40])
    max_table = _MAX_TABLE[rules]
    if type(table_size) is not int or not 3 <= table_size <= max_table:
        raise fail("series_table_size", max=max_table, rules=rules)
    seats = range(1, table_size + 1)
    points = dict.fromkeys(seats, 0)
    won = dict.fromkeys(seats, 0)
    lost = dict.fromkeys(seats, 0)
    lost_total = 0

    def check_seat(seat: object) -> int:
        if type(seat) is not int or seat not in points:
            shown = show_int(seat) if type(seat) is int else repr(seat)[:40]
            raise fail("bad_seat", seat=shown, table_size=table_size)
        return seat

    for number, row in enumerate(games, 1):
        declarer, result = row.declarer, row.result
        if row.ramsch:
            # rules §3.5: a Ramsch scores the seats described and counts as no game won
            # or lost; ISPA has none (rules §1.6).
            if rules != "na":
                raise fail("bad_sheet_game", number=number, reason="ispa has no Ramsch")
            if declarer is not None or result is not None:
                raise fail("bad_sheet_game", number=number, reason="a Ramsch has no declarer")
            for seat, outcome in row.ramsch:
                if outcome not in RAMSCH_RESULTS:
                    raise fail(
                        "unknown_ramsch",
                        value=str(outcome)[:40],
                        choices=", ".join(RAMSCH_RESULTS),
                    )
                points[check_seat(seat)] += RAMSCH_RESULTS[outcome]
            continue
        if declarer is None:
            # rules §1.6, §2: a passed-in deal is 0 for all and no game won or lost.
            if result is not None and result.won is not None:
                raise fail("bad_sheet_game", number=number, reason="a result needs a declarer")
            continue
        check_seat(declarer)
        if result is None or result.won is None:
            raise fail("bad_sheet_game", number=number, reason="a declarer needs a result")
        points[declarer] += result.score
        if result.won:
            won[declarer] += 1
        else:  # rules §2: an overbid game is a lost game
            lost[declarer] += 1
            lost_total += 1

    for seat, fine in penalties:  # rules §3.6: point fines per player
        if type(fine) is not int:
            raise fail("bad_type", field="penalty points", expected="an integer")
        points[check_seat(seat)] += fine

    totals: dict[int, SeatTotals] = {}
    for seat in seats:
        # rules §2: every seat but the declarer gains when he loses, at a 4-table the
        # dealer who sits out included; so a seat's "others lost" is every lost game at
        # the table but its own.
        others_lost = lost_total - lost[seat]
        if rules == "ispa" and list_scoring:
            list_points = list_points_for(
                points[seat], won[seat], lost[seat], others_lost, table_size, bonus
            )
        else:  # rules §2 (list scoring off) and §3.6: plain sheet totals
            list_points = points[seat]
        totals[seat] = SeatTotals(
            seat, points[seat], won[seat], lost[seat], others_lost, list_points
        )
    return totals
