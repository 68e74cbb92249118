"""The one bridge between the ORM and the rules engine (`scoring`).

Every stored game value comes from here: `game_build` checks a sheet row and computes it,
`scores_recompute` rebuilds the stored values after a rules fix or a settings change, and
`game_preview` shows what a row would score without writing it. Nothing else in the app
calls `scoring` to value a game (STYLE.md habit 4).

A *game mapping* is a game as the scoring contract and the interchange format spell it
(`../shared/rules/scoring-contract.md`): `{"game": "grand", "matadors": 2, ...}` plus the
sheet's `declarer` seat (for an NA ramsch: the seat the result scores and `ramsch`).
`rules` and `table_size` come from the tournament and the table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

import scoring
from scoring.game import FIELD_NAMES
from tournaments.errors import UserError, from_scoring
from tournaments.models import Game, GameType, Penalty, RuleSet, Table, Tournament
from tournaments.versions import version_bump

# The declared fields of a game: the scoring contract's input less what the tournament
# (`rules`), the table (`table_size`) and the ramsch column of the sheet (`ramsch`) give.
DECLARED_FIELDS = tuple(
    name for name in FIELD_NAMES if name not in ("rules", "table_size", "ramsch")
)
# The contract's flags: false unless given.
BOOL_FIELDS = frozenset(
    field.name for field in dataclasses.fields(scoring.Game) if field.default is False
)
# `ramsch_tie`: in a ramsch, the seat tied with `declarer` for the fewest points, which
# scores the same (`scoring.ramsch_tie_check`); not a field of the scoring contract.
SHEET_FIELDS = ("declarer", *DECLARED_FIELDS, "ramsch", "ramsch_tie")
# What the engine's result gives a stored row (`_apply`).
COMPUTED_FIELDS = (
    "value",
    "score",
    "is_won",
    "is_lost",
    "overbid",
    "list_declarer",
    "list_others",
)


def schneider_of(*, rules: str, card_points: int | None, schneider: bool, schwarz: bool) -> bool:
    """A stored game's outcome: schneider by its flags or by its card points (the engine's
    `schneider_reached`), not only the box ticked when it was entered."""
    return scoring.schneider_reached(
        rules, card_points=card_points, schneider=schneider, schwarz=schwarz
    )


def bonus_for(tournament: Tournament) -> scoring.Bonus:
    return scoring.Bonus(
        won=tournament.bonus_won,
        lost=tournament.bonus_lost,
        others_3=tournament.bonus_others_3,
        others_4=tournament.bonus_others_4,
    )


def game_mapping_of(game: Game) -> dict:
    """The stored sheet row as a game mapping (defaults left out), as the interchange has it."""
    data: dict = {}
    if game.declarer is not None and game.game != GameType.RAMSCH:
        data["declarer"] = game.declarer
    for name in DECLARED_FIELDS:
        value = getattr(game, name)
        if name in BOOL_FIELDS:
            if value:
                data[name] = True
        elif value is not None and value != "":
            data[name] = value
    if game.game == GameType.RAMSCH:
        data["ramsch"] = game.ramsch
        data["declarer"] = game.declarer
        if game.ramsch_tie is not None:
            data["ramsch_tie"] = game.ramsch_tie
    return data


def engine_mapping(data: Mapping, *, rules: str, table_size: int) -> dict:
    """The scoring contract's input for a game mapping (declarer left out)."""
    # str(): the engine takes plain strings, and a RuleSet member is a str subclass.
    mapping = {"rules": str(rules), "table_size": table_size}
    for key, value in data.items():
        if key in ("declarer", "ramsch_tie"):
            continue
        if value is None or value == "" or (key in BOOL_FIELDS and value is False):
            continue
        mapping[key] = value
    return mapping


def valuation_settings(tournament: Tournament) -> tuple:
    """What valuing a game (`game_evaluate`, `_apply`) reads of its tournament: the rows of
    two tournaments that agree on these are valued alike (`game_row`'s memo)."""
    return (
        tournament.rules,
        tournament.kontra_allowed,
        tournament.bonus_won,
        tournament.bonus_lost,
        tournament.bonus_others_3,
        tournament.bonus_others_4,
        tournament.ramsch,
        tournament.uses_list_points,
    )


def game_evaluate(*, tournament: Tournament, table_size: int, data: Mapping) -> scoring.GameResult:
    """Score one game mapping under the tournament's rules, or raise UserError."""
    if (data.get("kontra") or data.get("re")) and not tournament.kontra_allowed:
        raise UserError(
            _("Kontra and Re are not allowed in this tournament (rules §1.7)."), field="kontra"
        )
    bid = data.get("bid")
    if (
        tournament.rules == RuleSet.NA
        and type(bid) is int
        and bid > scoring.tables.NA_HIGHEST_VALUE
    ):
        # The engine takes any bid from 10 (the scoring contract), but no NA game is worth
        # more than grand ouvert with 4 (rules §3.2): a higher bid on a sheet is a typo.
        raise UserError(
            _("No game is worth more than %(value)s: check the bid.")
            % {"value": scoring.tables.NA_HIGHEST_VALUE},
            field="bid",
        )
    return game_score(
        data,
        rules=tournament.rules,
        table_size=table_size,
        bonus=bonus_for(tournament),
        ramsch_rule=tournament.ramsch,
    )


def game_score(
    data: Mapping,
    *,
    rules: str,
    table_size: int,
    bonus: scoring.Bonus = scoring.DEFAULT_BONUS,
    ramsch_rule: str = "",
) -> scoring.GameResult:
    """What the engine makes of one game mapping, or UserError (no tournament's house rules:
    `game_evaluate` adds those). A ramsch is scored under `ramsch_rule`
    (`scoring.variants`; "" = the rule set's own: rules §3.5 in NA, none in ISPA)."""
    try:
        mapping = engine_mapping(data, rules=rules, table_size=table_size)
        if ramsch_rule and mapping.get("game") == GameType.RAMSCH:
            return scoring.ramsch_score(scoring.parse_game(mapping), ramsch_rule, bonus)
        return scoring.score_mapping(mapping, bonus)
    except scoring.ScoringError as error:
        raise from_scoring(error) from None


def check_declarer(*, table_size: int, number: int, data: Mapping) -> int | None:
    """The declarer seat of a sheet row: a seat of the table that is not sitting out."""
    kind = data.get("game")
    declarer = data.get("declarer")
    if kind == GameType.PASSED:
        if declarer not in (None, ""):
            raise UserError(_("A passed-in deal has no declarer."), field="declarer")
        return None
    if declarer in (None, ""):
        if kind == GameType.RAMSCH:
            raise UserError(_("Choose the seat the ramsch result scores."), field="declarer")
        raise UserError(_("Choose the declarer."), field="declarer")
    if isinstance(declarer, bool) or not isinstance(declarer, int):
        raise UserError(_("The declarer must be a seat number."), field="declarer")
    if not 1 <= declarer <= table_size:
        raise UserError(
            _("Seat %(seat)s does not exist at a table of %(size)s.")
            % {"seat": declarer, "size": table_size},
            field="declarer",
        )
    if declarer in scoring.sitting_out(number, table_size):
        if declarer == scoring.dealer(number, table_size):
            message = _("Seat %(seat)s deals game %(number)s and sits out (rules §4).")
        else:
            message = _("Seat %(seat)s sits out game %(number)s (rules §3.6).")
        raise UserError(message % {"seat": declarer, "number": number}, field="declarer")
    return declarer


def check_tie(*, tournament: Tournament, table_size: int, number: int, data: Mapping) -> None:
    """A ramsch's tied seat (`ramsch_tie`): another seat with cards, where ties share."""
    tie = data.get("ramsch_tie")
    if tie in (None, ""):
        return
    if data.get("game") != GameType.RAMSCH:
        raise UserError(_("Only a ramsch can end in a tie."), field="ramsch_tie")
    try:
        check_declarer(
            table_size=table_size, number=number, data={"game": "ramsch", "declarer": tie}
        )
    except UserError as error:
        raise UserError(str(error), field="ramsch_tie") from None
    if tie == data.get("declarer"):
        raise UserError(_("The tied seat must be another seat."), field="ramsch_tie")
    try:
        scoring.ramsch_tie_check(
            str(tournament.rules),
            tournament.ramsch,
            str(data.get("ramsch") or ""),
            tie_option=tournament.ramsch_tie_both_win,
        )
    except scoring.ScoringError as error:
        raise UserError(str(from_scoring(error)), field="ramsch_tie") from None


def _apply(game: Game, data: Mapping, result: scoring.GameResult, declarer: int | None):
    """Copy the declared fields and the engine's result onto a Game row."""
    game.declarer = declarer
    for name in DECLARED_FIELDS:
        value = data.get(name)
        if name in BOOL_FIELDS:
            value = bool(value)
        elif name == "trump":
            value = value or ""
        elif value == "":
            value = None  # the engine read "" as "not given"; so does the row
        setattr(game, name, value)
    game.ramsch = data.get("ramsch") or ""
    tie = data.get("ramsch_tie")
    game.ramsch_tie = tie if tie not in (None, "") else None
    game.value = result.value or 0
    game.score = result.score
    game.overbid = result.overbid
    declared = game.game not in (GameType.PASSED, GameType.RAMSCH)
    # Gewinner-Ramsch: "Additionally they are awarded the won game" (scoring.variants).
    game.is_won = (declared or game.game == GameType.RAMSCH) and result.won is True
    game.is_lost = declared and result.won is False
    # rules §2: list scoring off, or NA, → plain game points (list points = score).
    if result.list_declarer is not None and game.table.series.tournament.uses_list_points:
        game.list_declarer = result.list_declarer
        game.list_others = result.list_others or 0
    else:
        game.list_declarer = result.score
        game.list_others = 0


class _Values:
    """The attributes `_apply` sets, without a model instance (`game_row`)."""

    def __init__(self, table: Table):
        self.table = table
        self.table_size = table.size


def game_build(*, table: Table, number: int, data: Mapping) -> Game:
    """An unsaved, fully computed Game for sheet row `number`, or UserError."""
    game = Game(
        table=table,
        tournament_id=table.series.tournament_id,
        number=number,
        table_size=table.size,
    )
    _check_row(data)
    declarer = check_declarer(table_size=table.size, number=number, data=data)
    tournament = table.series.tournament
    check_tie(tournament=tournament, table_size=table.size, number=number, data=data)
    result = game_evaluate(tournament=tournament, table_size=table.size, data=data)
    _apply(game, data, result, declarer)
    return game


_SHEET_FIELD_SET = frozenset(SHEET_FIELDS)
# What `_apply` takes from the row itself rather than from its game (`_memo_key`).
_PER_ROW = ("declarer", "ramsch_tie", "card_points")


def _check_row(data: Mapping):
    if not _SHEET_FIELD_SET.issuperset(data):
        unknown = set(data) - _SHEET_FIELD_SET
        raise UserError(
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )


def _memo_key(table_size: int, data: Mapping) -> tuple:
    """What a row's engine result and declared fields depend on besides its `_PER_ROW`
    fields: the other fields with their types (True and 1 are equal keys, but not the same
    game) and the band of its card points (`scoring.card_points_band`: card points of one
    band are accepted and valued alike). Unhashable for a row with a list or object value."""
    fields = dict(data)
    fields.pop("declarer", None)
    fields.pop("ramsch_tie", None)
    card_points = fields.get("card_points")
    if type(card_points) is int:
        fields["card_points"] = scoring.card_points_band(card_points)
    return (table_size, tuple(fields.items()), tuple(map(type, fields.values())))


def game_row(*, table: Table, number: int, data: Mapping, fields: tuple, memo: dict) -> tuple:
    """What `game_build` computes for sheet row `number`, as the tuple of the Game
    attributes `fields`, or UserError; for many rows of one tournament at once (an import,
    which writes the rows itself), or of tournaments with the same `valuation_settings`
    (a season's match days). Every row is checked; the engine's valuation and the
    declared fields are computed once per distinct game (`_memo_key`) and kept in `memo`,
    to which each row adds its own `_PER_ROW` fields. Only accepted rows are kept."""
    _check_row(data)
    size = table.size
    declarer = check_declarer(table_size=size, number=number, data=data)
    if "ramsch_tie" in data:  # else check_tie has nothing to check
        check_tie(tournament=table.series.tournament, table_size=size, number=number, data=data)
    key = _memo_key(size, data)
    try:
        kept = memo.get(key)
    except TypeError:  # a list or object value: valued, and refused, as it comes
        key = kept = None
    if kept is None:
        values = _Values(table)
        result = game_evaluate(tournament=table.series.tournament, table_size=size, data=data)
        _apply(values, data, result, declarer)
        row = tuple([getattr(values, name) for name in fields])
        if key is not None:
            memo[key] = (row, *(fields.index(name) for name in _PER_ROW))
        return row
    row, at_declarer, at_tie, at_card_points = kept
    row = list(row)
    row[at_declarer] = declarer
    tie = data.get("ramsch_tie")
    row[at_tie] = tie if tie not in (None, "") else None
    card_points = data.get("card_points")
    row[at_card_points] = None if card_points == "" else card_points  # as `_apply`
    return tuple(row)


def game_preview(*, table: Table, data: Mapping, number: int | None = None) -> dict:
    """What a row would score, for the live value while a secretary types (no write)."""
    if number is None:
        number = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
    game = game_build(table=table, number=number, data=data)
    return {
        "value": game.value,
        "score": game.score,
        "won": game.is_won if (game.is_won or game.is_lost) else None,
        "overbid": game.overbid,
        "list_declarer": game.list_declarer,
        "list_others": game.list_others,
    }


def scores_recompute(*, tournament: Tournament | None = None) -> int:
    """Rebuild every stored value after a rules fix or a settings change; returns the count.

    A game the engine now rejects is reported as a UserError naming it, and nothing changes.
    """
    games = Game.objects.select_related("table__series__tournament").order_by("pk")
    # Games with penalties at their value (NA laws of 1908): those follow the new value.
    penalised = Penalty.objects.filter(law__isnull=False)
    if tournament is not None:
        games = games.filter(table__series__tournament=tournament)
        penalised = penalised.filter(table__series__tournament=tournament)
    penalised_ids = set(penalised.values_list("game_id", flat=True))
    fields = list(COMPUTED_FIELDS)
    count = 0
    charged: list[Game] = []
    with transaction.atomic():
        batch = []
        for game in games.iterator(chunk_size=2000):
            data = game_mapping_of(game)
            try:
                result = game_evaluate(
                    tournament=game.table.series.tournament,
                    table_size=game.table.size,
                    data=data,
                )
            except UserError as error:
                raise UserError(
                    _("%(t)s, series %(s)s, table %(tb)s, game %(g)s: %(e)s")
                    % {
                        "t": game.table.series.tournament.name,
                        "s": game.table.series.number,
                        "tb": game.table.number,
                        "g": game.number,
                        "e": error,
                    }
                ) from None
            _apply(game, data, result, game.declarer)
            if game.pk in penalised_ids:
                charged.append(game)
            batch.append(game)
            if len(batch) >= 2000:
                Game.objects.bulk_update(batch, fields)
                count += len(batch)
                batch = []
        if batch:
            Game.objects.bulk_update(batch, fields)
            count += len(batch)
        for game in charged:  # penalties at a game's value follow the new value
            penalties_follow(game=game)
        touched = Tournament.objects.all() if tournament is None else [tournament]
        for each in touched:
            version_bump(tournament_id=each.pk)
    return count


def penalty_charges(*, game: Game, seat: int, law: int) -> list[tuple[int, int]]:
    """What a penalty law of 1908 charges at `game`'s value: [(seat, points), ...].

    The erring `seat` is the declarer, an opponent (holds cards this deal) or a seat
    sitting out (rules §3.6); `scoring.penalty_charge` decides what the law allows and
    the value taken. Law 8 also credits the declarer, so it gives two entries.
    """
    table = game.table
    if not 1 <= seat <= table.size:
        raise UserError(
            _("Seat %(seat)s does not exist at a table of %(size)s.")
            % {"seat": seat, "size": table.size},
            field="seat",
        )
    data = game_mapping_of(game)
    tournament = table.series.tournament
    result = game_evaluate(tournament=tournament, table_size=table.size, data=data)
    if seat == game.declarer and game.game != GameType.RAMSCH:
        role = "declarer"
    elif seat in table.sitting_out(game.number):
        role = "sitting_out"
    else:
        role = "opponent"
    try:
        mapping = engine_mapping(data, rules=tournament.rules, table_size=table.size)
        charge = scoring.penalty_charge(law, scoring.parse_game(mapping), result, role)
    except scoring.ScoringError as error:
        raise from_scoring(error) from None
    charges = [(seat, charge.charged)]
    if charge.declarer_credit:
        charges.append((game.declarer, charge.declarer_credit))
    return charges


def penalties_follow(*, game: Game) -> None:
    """Recompute the penalties charged at a game's value after the game changed (a correction,
    `scores_recompute`), or refuse the change with a UserError naming the law."""
    for law in sorted(set(game.penalties.values_list("law", flat=True))):
        rows = list(game.penalties.filter(law=law).order_by("id"))
        try:
            charges = penalty_charges(game=game, seat=rows[0].seat, law=law)
        except UserError as error:
            raise UserError(
                _(
                    "Game %(number)s carries a penalty under law %(law)s that the corrected "
                    "game does not allow (%(error)s). Delete the penalty first."
                )
                % {"number": game.number, "law": law, "error": error}
            ) from None
        for penalty, (seat, points) in zip(rows, charges, strict=True):
            if (penalty.seat, penalty.points) != (seat, points):
                penalty.seat, penalty.points = seat, points
                penalty.save(update_fields=["seat", "points"])
