"""Series totals and Seeger-Fabian list points (rules §2, §3.5, §3.6).

Terms: a *sheet* is the list of one table in one series, one row per deal; the dealer of
deal n is seat ``(n − 1) % table_size + 1`` (rules §4). A seat's *game points* are the sum
of its game scores as declarer (plus Ramsch results and penalties); *won* / *lost* count
its games as declarer; *others lost* counts the games the other declarers at its table
lost. The *list points* (Wertungspunkte) are
``game points + 50 × (won − lost) + (40 or 30) × others lost`` in ISPA with list scoring,
and the plain game points otherwise.

Two entry points: :func:`score_sheet` takes the declared games (a Game or a contract
mapping, with the declarer's seat) and scores them; :func:`score_series` takes rows whose
games are already scored (:class:`SheetGame`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.engine import score, score_parsed
from scoring.errors import ScoringError, fail, show_int, show_text
from scoring.game import DEFAULT_BONUS, Bonus, Game, GameResult, parse_game
from scoring.tables import ISPA_TABLE_SIZES, NA_TABLE_SIZES, RAMSCH_RESULTS, RULE_SETS

__all__ = [
    "SeatTotals",
    "SheetGame",
    "list_points_for",
    "ranking_key",
    "score_series",
    "score_sheet",
    "dealer",
    "sitting_out",
]


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


# rules §4: ISPA tables have 3 or 4 seats; rules §3.6: NA tables may have 4 or 5.
_TABLE_SIZES = {"ispa": ISPA_TABLE_SIZES, "na": NA_TABLE_SIZES}


def dealer(number: int, table_size: int) -> int:
    """The seat that deals game ``number`` (1-based) of a sheet: seat 1 deals game 1 and the
    deal passes on to the next seat (rules §4)."""
    return (number - 1) % table_size + 1


def sitting_out(number: int, table_size: int) -> frozenset[int]:
    """The seats that get no cards in deal ``number`` (1-based) of a sheet.

    At a 4-table the dealer sits out (rules §4). At an NA 5-table the dealer deals "to the
    two players on his left and the one on his right" (Foster 1909); the deal passes to the
    left, so the dealer's left is the next seat and the seat third after him sits out too.
    """
    if table_size == 3:
        return frozenset()
    deals = dealer(number, table_size)
    if table_size == 4:
        return frozenset({deals})
    return frozenset({deals, (deals + 2) % 5 + 1})


def _why_out(seat: int, number: int, table_size: int) -> str:
    if dealer(number, table_size) == seat:
        return f"it deals, and the dealer sits out at a table of {table_size}"
    return "at a table of 5 the seat third after the dealer sits out too"


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
        raise fail("table_size_range", sizes="3 or 4")
    others = bonus.others_3 if table_size == 3 else bonus.others_4
    return game_points + bonus.won * won - bonus.lost * lost + others * others_lost


def ranking_key(totals: SeatTotals) -> tuple[int, int, int]:
    """Sort key for standings: list points desc, more won, fewer lost (rules §2).

    A tie left after these is drawn by lot by the director.
    """
    return (-totals.list_points, -totals.won, totals.lost)


def _check_table(rules: str, table_size: int) -> None:
    if rules not in RULE_SETS:
        raise fail("unknown_rules", value=show_text(rules))
    sizes = _TABLE_SIZES[rules]
    if type(table_size) is not int or table_size not in sizes:
        raise fail("series_table_size", max=max(sizes), rules=rules)


def _result_rules(result: GameResult) -> str:
    """The rule set that scored ``result``: ISPA results always carry list points (a
    passed-in deal's are 0), NA results never do (rules §3.6)."""
    return "na" if result.list_declarer is None else "ispa"


def score_series(
    games: Iterable[SheetGame],
    *,
    rules: str,
    table_size: int,
    bonus: Bonus = DEFAULT_BONUS,
    list_scoring: bool = True,
    penalties: Iterable[tuple[int, int]] = (),
) -> dict[int, SeatTotals]:
    """Total one table's sheet of scored games: seat number → totals, for 1..table_size.

    Row n of ``games`` is deal n: its declarer (or Ramsch seat) must hold cards in that
    deal (:func:`sitting_out`), and every result must come from ``rules``.
    """
    _check_table(rules, table_size)
    seats = range(1, table_size + 1)
    points = dict.fromkeys(seats, 0)
    won = dict.fromkeys(seats, 0)
    lost = dict.fromkeys(seats, 0)
    lost_total = 0

    def check_seat(seat: object) -> int:
        if type(seat) is not int or seat not in points:
            shown = show_int(seat) if type(seat) is int else show_text(repr(seat))
            raise fail("bad_seat", seat=shown, table_size=table_size)
        return seat

    def check_playing(seat: int, number: int) -> None:
        if seat in sitting_out(number, table_size):
            why = _why_out(seat, number, table_size)
            raise fail("sitting_out", number=number, seat=seat, why=why)

    def bad(number: int, reason: str) -> ScoringError:
        return fail("bad_sheet_game", number=number, reason=reason)

    for number, row in enumerate(games, 1):
        declarer, result = row.declarer, row.result
        if row.ramsch:
            # rules §3.5: a Ramsch scores the seats described and counts as no game won
            # or lost; ISPA has none (rules §1.6).
            if rules != "na":
                raise bad(number, "ispa has no Ramsch")
            if declarer is not None or result is not None:
                raise bad(number, "a Ramsch has no declarer and no scored result")
            for seat, outcome in row.ramsch:
                if outcome not in RAMSCH_RESULTS:
                    raise fail(
                        "unknown_ramsch",
                        value=show_text(outcome),
                        choices=", ".join(RAMSCH_RESULTS),
                    )
                check_playing(check_seat(seat), number)
                points[seat] += RAMSCH_RESULTS[outcome]
            continue
        if result is not None and _result_rules(result) != rules:
            raise bad(number, f"it is an {_result_rules(result)} result in an {rules} series")
        if result is not None and result.won is None:
            # A result without a winner: ISPA's passed-in deal, or an NA Ramsch result.
            if rules == "na":
                raise bad(number, "a Ramsch result goes in ramsch, as (seat, outcome)")
            if declarer is not None:
                raise bad(number, "a passed-in deal has no declarer")
            continue  # rules §1.6, §2: a passed-in deal is 0 for all, no game won or lost
        if declarer is None:
            if result is not None:
                raise bad(number, "a result needs a declarer")
            if rules == "na":  # rules §3.5 (NA law 14): when all pass, Ramsch is played
                raise bad(number, "na has no passed-in deal: when all pass, Ramsch is played")
            continue  # rules §1.6: a passed-in deal
        check_playing(check_seat(declarer), number)
        if result is None:
            raise bad(number, "a declarer needs a result")
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


def score_sheet(
    games: Iterable[tuple[int | None, Game | Mapping[str, object]]],
    *,
    rules: str,
    table_size: int,
    bonus: Bonus = DEFAULT_BONUS,
    list_scoring: bool = True,
    penalties: Iterable[tuple[int, int]] = (),
) -> dict[int, SeatTotals]:
    """Score and total one table's sheet of declared games: seat number → totals.

    Each row is ``(seat, game)``, one per deal in the order played. ``game`` is a
    :class:`Game` or a mapping of the scoring contract; ``rules`` and ``table_size`` may be
    left out of a mapping (a Game's default table_size 3 counts as not given) and, when
    given, must be the sheet's. ``seat`` is the declarer, None for a passed-in deal (ISPA
    ``passed``), and for an NA ``ramsch`` the seat whose result the game describes.
    """
    _check_table(rules, table_size)
    rows: list[SheetGame] = []
    for number, row in enumerate(games, 1):
        try:
            seat, game = row
        except (TypeError, ValueError):
            raise fail(
                "bad_sheet_game", number=number, reason="a row is (declarer seat, game)"
            ) from None
        game, result = _score_row(number, game, rules, table_size, bonus)
        if game.game == "ramsch":
            if seat is None:
                raise fail(
                    "bad_sheet_game", number=number, reason="a Ramsch needs the seat it scores"
                )
            rows.append(SheetGame(None, None, ((seat, str(game.ramsch)),)))
        else:
            rows.append(SheetGame(seat, result))
    return score_series(
        rows,
        rules=rules,
        table_size=table_size,
        bonus=bonus,
        list_scoring=list_scoring,
        penalties=penalties,
    )


def _score_row(
    number: int, game: object, rules: str, table_size: int, bonus: Bonus
) -> tuple[Game, GameResult]:
    """Row ``number``'s game, checked against the sheet's rules and table, and scored."""

    def bad(reason: str) -> ScoringError:
        return fail("bad_sheet_game", number=number, reason=reason)

    mapping: dict[str, object] | None = None
    try:
        if isinstance(game, Game):
            parsed = game
        elif isinstance(game, Mapping):
            mapping = {"rules": rules, "table_size": table_size, **game}
            parsed = parse_game(mapping)
        else:
            raise fail("not_an_object")
    except ScoringError as error:
        raise bad(error.message) from error
    if parsed.rules != rules:
        raise bad(f"it is a game of rules '{show_text(parsed.rules)}' in an {rules} sheet")
    if parsed.table_size != table_size:
        if mapping is not None or parsed.table_size != 3:  # a Game's 3 is its default
            raise bad(f"it is for a table of {show_int(parsed.table_size)}, not {table_size}")
        parsed = dataclasses.replace(parsed, table_size=table_size)
    try:
        if mapping is None:
            return parsed, score(parsed, bonus)
        return score_parsed(mapping, bonus)
    except ScoringError as error:
        raise bad(error.message) from error
