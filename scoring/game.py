"""The engine's value types: a declared game, its result, and the list-scoring bonus.

A :class:`Game` holds exactly the input fields of the command-line contract
(``shared/rules/scoring-contract.md``). Constructing one checks the *types* of its fields,
so a Game is always well typed; whether the rules allow it is decided by ``score()``.
A field counts as "given" when it differs from its default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from scoring.errors import ScoringError, fail, show_text

__all__ = [
    "DEFAULT_BONUS",
    "FIELD_NAMES",
    "Bonus",
    "Game",
    "GameResult",
    "first_given",
    "parse_game",
    "result_of",
]


@dataclass(frozen=True, slots=True)
class Game:
    """One declared game, field for field as in the scoring contract.

    A field counts as "given" when it differs from its default. So with ``card_points``,
    ``schneider=False`` means "not given" here: ``won`` and ``schneider`` follow from the
    card points, and only ``schneider=True`` (or a ``won`` they contradict) is an error. A
    JSON object can say ``"schneider": false`` explicitly; ``score_mapping`` and the
    command line reject that when the card points make it schneider.
    """

    rules: str
    game: str
    trump: str | None = None
    matadors: int | None = None
    without: bool = False
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    won: bool | None = None
    schneider: bool = False
    schwarz: bool = False
    card_points: int | None = None
    bid: int | None = None
    kontra: bool = False
    re: bool = False
    table_size: int = 3
    ramsch: str | None = None

    def __post_init__(self) -> None:
        # One cheap test for the common, well-typed case; the slow search only on failure.
        # int fields must be exactly int: a JSON true is a bool, and bool is an int subclass.
        if not (
            type(self.rules) is str
            and type(self.game) is str
            and (self.trump is None or type(self.trump) is str)
            and (self.matadors is None or type(self.matadors) is int)
            and type(self.without) is bool
            and type(self.hand) is bool
            and type(self.schneider_announced) is bool
            and type(self.schwarz_announced) is bool
            and type(self.ouvert) is bool
            and (self.won is None or type(self.won) is bool)
            and type(self.schneider) is bool
            and type(self.schwarz) is bool
            and (self.card_points is None or type(self.card_points) is int)
            and (self.bid is None or type(self.bid) is int)
            and type(self.kontra) is bool
            and type(self.re) is bool
            and type(self.table_size) is int
            and (self.ramsch is None or type(self.ramsch) is str)
        ):
            raise _type_error(self)


# Field name → (accepted types, whether None is accepted, how to say it in a message).
_FIELD_TYPES: dict[str, tuple[type, bool, str]] = {
    "rules": (str, False, "a string"),
    "game": (str, False, "a string"),
    "trump": (str, True, "a string"),
    "matadors": (int, True, "an integer"),
    "without": (bool, False, "true or false"),
    "hand": (bool, False, "true or false"),
    "schneider_announced": (bool, False, "true or false"),
    "schwarz_announced": (bool, False, "true or false"),
    "ouvert": (bool, False, "true or false"),
    "won": (bool, True, "true or false"),
    "schneider": (bool, False, "true or false"),
    "schwarz": (bool, False, "true or false"),
    "card_points": (int, True, "an integer"),
    "bid": (int, True, "an integer"),
    "kontra": (bool, False, "true or false"),
    "re": (bool, False, "true or false"),
    "table_size": (int, False, "an integer"),
    "ramsch": (str, True, "a string"),
}

#: The contract's input fields, in declaration order.
FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Game))
_FIELD_SET = frozenset(FIELD_NAMES)
_DEFAULTS = {f.name: f.default for f in fields(Game)}
assert set(_FIELD_TYPES) == _FIELD_SET


def first_given(game: Game, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` whose value differs from its default, else None."""
    for name in names:
        # "is not": the defaults are None and False, and a given 0 must not equal False.
        if getattr(game, name) is not _DEFAULTS[name]:
            return name
    return None


def _type_error(game: Game) -> ScoringError:
    for name in FIELD_NAMES:
        expected, nullable, wording = _FIELD_TYPES[name]
        value = getattr(game, name)
        if value is None and nullable:
            continue
        if type(value) is not expected:
            return fail("bad_type", field=name, expected=wording)
    raise AssertionError("no field has a wrong type")  # pragma: no cover


def parse_game(mapping: object) -> Game:
    """Turn a JSON-decoded object into a Game, checking field names and types only.

    JSON ``null`` is accepted for the fields whose default is null (it means "not given").
    """
    if not isinstance(mapping, Mapping):
        raise fail("not_an_object")
    for key in mapping:
        if key not in _FIELD_SET:
            raise fail("unknown_field", field=show_text(key))
    if "rules" not in mapping:
        raise fail("missing_field", field="rules")
    if "game" not in mapping:
        raise fail("missing_field", field="game")
    return Game(**mapping)


@dataclass(frozen=True, slots=True)
class Bonus:
    """The Seeger-Fabian bonus points, a per-tournament setting (rules §2)."""

    won: int = 50
    lost: int = 50
    others_3: int = 40
    others_4: int = 30

    def __post_init__(self) -> None:
        for name in ("won", "lost", "others_3", "others_4"):
            if type(getattr(self, name)) is not int:
                raise fail("bad_type", field=f"bonus {name}", expected="an integer")

    def others(self, table_size: int) -> int:
        """What each other player gets when the declarer loses (rules §2)."""
        return self.others_3 if table_size == 3 else self.others_4


DEFAULT_BONUS = Bonus()


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game scores.

    ``value`` is the value charged (for an overbid game the lowest multiple of the base
    value that reaches the bid); ``score`` is the declarer's game score; ``won`` is the
    outcome after the overbid check. ``list_declarer`` / ``list_others`` are the
    Seeger-Fabian list points (ISPA only, else None). ``multiplier`` is the game level
    (ISPA) or multiplier (NA) the game reached and ``base`` its base or unit value, so a
    won or lost game's value is ``base * multiplier``; both are None for fixed-value games.
    """

    value: int | None
    score: int
    won: bool | None
    overbid: bool
    list_declarer: int | None
    list_others: int | None
    multiplier: int | None
    base: int | None

    @property
    def levels(self) -> int | None:
        """The ISPA name for ``multiplier``: "with 2, game 3, hand 4"."""
        return self.multiplier


_RESULTS: dict[tuple[int | bool | None, ...], GameResult] = {}
_RESULTS_LIMIT = 1 << 16


def result_of(values: tuple[int | bool | None, ...]) -> GameResult:
    """The GameResult with these field values, in field order.

    Equal results are shared (they are frozen): the few thousand results a list produces
    recur, and looking one up is several times cheaper than building a frozen dataclass.
    The table is bounded; it is emptied when full.
    """
    result = _RESULTS.get(values)
    if result is None:
        if len(_RESULTS) >= _RESULTS_LIMIT:
            _RESULTS.clear()
        result = _RESULTS[values] = GameResult(*values)
    return result
