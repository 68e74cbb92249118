"""Every write of the tournaments app, and the one bridge between the ORM and `scoring`.

Service functions are named `<thing>_<action>`, take keyword arguments only, run inside one
transaction and raise `UserError` for a user's mistake (nothing is written then).

A *game mapping* is a game as the scoring contract and the interchange format spell it
(`../shared/rules/scoring-contract.md`): `{"game": "grand", "matadors": 2, ...}` plus the
sheet's `declarer` seat (for an NA ramsch: the seat the result scores and `ramsch`).
`rules` and `table_size` come from the tournament and the table.
"""

from __future__ import annotations

import datetime
import random
import re
import secrets
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

import scoring
from tournaments import draw as draw_engine
from tournaments import selectors
from tournaments.errors import UserError, from_scoring
from tournaments.models import (
    Category,
    Club,
    Game,
    GameChange,
    GameType,
    Payment,
    Penalty,
    PenaltyChange,
    Player,
    Prize,
    Registration,
    RuleSet,
    Season,
    Seat,
    Series,
    SheetCopy,
    Table,
    Tournament,
    has_control_characters,
)

# The declared fields of a game: the scoring contract's input less `rules`/`table_size`.
DECLARED_FIELDS = (
    "game",
    "trump",
    "matadors",
    "without",
    "hand",
    "schneider_announced",
    "schwarz_announced",
    "ouvert",
    "won",
    "schneider",
    "schwarz",
    "card_points",
    "bid",
    "kontra",
    "re",
)
BOOL_FIELDS = frozenset(
    {
        "without",
        "hand",
        "schneider_announced",
        "schwarz_announced",
        "ouvert",
        "schneider",
        "schwarz",
        "kontra",
        "re",
    }
)
SHEET_FIELDS = ("declarer", *DECLARED_FIELDS, "ramsch")


# --------------------------------------------------------------------------------------
# The bridge to the rules engine
# --------------------------------------------------------------------------------------


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
    return data


def _engine_mapping(data: Mapping, *, rules: str, table_size: int) -> dict:
    """The scoring contract's input for a game mapping (declarer left out)."""
    # str(): the engine takes plain strings, and a RuleSet member is a str subclass.
    mapping = {"rules": str(rules), "table_size": table_size}
    for key, value in data.items():
        if key == "declarer":
            continue
        if value is None or value == "" or (key in BOOL_FIELDS and value is False):
            continue
        mapping[key] = value
    return mapping


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
    try:
        return scoring.score_mapping(
            _engine_mapping(data, rules=tournament.rules, table_size=table_size),
            bonus_for(tournament),
        )
    except scoring.ScoringError as error:
        raise from_scoring(error) from None


def _check_declarer(*, table_size: int, number: int, data: Mapping) -> int | None:
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
    dealer = (number - 1) % table_size + 1
    if table_size == 4 and declarer == dealer:
        raise UserError(
            _("Seat %(seat)s deals game %(number)s and sits out (rules §4).")
            % {"seat": declarer, "number": number},
            field="declarer",
        )
    return declarer


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
    game.value = result.value or 0
    game.score = result.score
    game.overbid = result.overbid
    declared = game.game not in (GameType.PASSED, GameType.RAMSCH)
    game.is_won = declared and result.won is True
    game.is_lost = declared and result.won is False
    # rules §2: list scoring off, or NA, → plain game points (list points = score).
    if result.list_declarer is not None and game.table.series.tournament.uses_list_points:
        game.list_declarer = result.list_declarer
        game.list_others = result.list_others or 0
    else:
        game.list_declarer = result.score
        game.list_others = 0


def game_build(*, table: Table, number: int, data: Mapping) -> Game:
    """An unsaved, fully computed Game for sheet row `number`, or UserError."""
    unknown = set(data) - set(SHEET_FIELDS)
    if unknown:
        raise UserError(
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    tournament = table.series.tournament
    declarer = _check_declarer(table_size=table.size, number=number, data=data)
    result = game_evaluate(tournament=tournament, table_size=table.size, data=data)
    game = Game(table=table, number=number, table_size=table.size)
    _apply(game, data, result, declarer)
    return game


def _game_snapshot(game: Game) -> dict:
    return {name: getattr(game, name) for name in (*SHEET_FIELDS, "value", "score")}


def _locked_table(table: Table) -> Table:
    # of=("self",): lock this table's row only, not its series and tournament (on PostgreSQL
    # that would make every table's phones wait for each other).
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("series__tournament")
        .get(pk=table.pk)
    )


def _check_open(table: Table):
    if table.series.status == Series.Status.CLOSED:
        raise UserError(_("This series is closed; reopen it to change its sheets."))


def _check_sheet_open(table: Table):
    """A closed sheet is final: reopen it before changing anything on it."""
    _check_open(table)
    if table.closed:
        raise UserError(_("This sheet is closed; reopen it to change it."))


def game_record(*, table: Table, data: Mapping, user: AbstractBaseUser | None = None) -> Game:
    """Enter the next row of a table's sheet."""
    with transaction.atomic():
        table = _locked_table(table)
        _check_open(table)
        if table.closed:
            raise UserError(_("This sheet is closed; reopen it to enter more games."))
        number = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
        limit = table.series.tournament.games_per_series(table.size)
        if number > limit:
            raise UserError(
                _("The sheet is complete: a table of %(size)s plays %(limit)s games.")
                % {"size": table.size, "limit": limit}
            )
        game = game_build(table=table, number=number, data=data)
        game.save()
        GameChange.objects.create(
            table=table,
            game=game,
            game_number=number,
            action=GameChange.Action.CREATED,
            user=_user(user),
            diff=_jsonable(_game_snapshot(game)),
        )
        _mark_started(table.series)
    return game


def _mark_started(series: Series):
    """The first game starts the series (no more seat swaps) and the tournament."""
    if not series.started:
        Series.objects.filter(pk=series.pk).update(started=True)
        series.started = True
    tournament = series.tournament
    if tournament.status == Tournament.Status.PLANNED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
        tournament.status = Tournament.Status.RUNNING


def games_bulk_record(*, table: Table, rows: Sequence[Mapping]) -> list[Game]:
    """Append many rows to a sheet at once (generated or imported data; no history rows).

    Each row is checked as `game_record` checks it; one bad row rejects them all.
    """
    with transaction.atomic():
        table = _locked_table(table)
        _check_open(table)
        if table.closed:
            raise UserError(_("This sheet is closed; reopen it to enter more games."))
        start = table.games.aggregate(n=Max("number"))["n"] or 0
        limit = table.series.tournament.games_per_series(table.size)
        if start + len(rows) > limit:
            raise UserError(
                _("The sheet is complete: a table of %(size)s plays %(limit)s games.")
                % {"size": table.size, "limit": limit}
            )
        games = [
            game_build(table=table, number=number, data=row)
            for number, row in enumerate(rows, start=start + 1)
        ]
        Game.objects.bulk_create(games, batch_size=1000)
        if games:
            _mark_started(table.series)
    return games


def game_correct(
    *, game: Game, data: Mapping, user: AbstractBaseUser | None = None, reason: str = ""
) -> Game:
    """Replace the declared fields of an entered game; the change is kept in its history."""
    with transaction.atomic():
        table = _locked_table(game.table)
        _check_sheet_open(table)
        current = Game.objects.select_for_update().get(pk=game.pk)
        before = _game_snapshot(current)
        updated = game_build(table=table, number=current.number, data=data)
        updated.pk = current.pk
        updated.created = current.created
        # A correction is not a confirmation; the phone's row id stays for resends.
        updated.provisional, updated.client_id = current.provisional, current.client_id
        after = _game_snapshot(updated)
        diff = {k: [before[k], after[k]] for k in before if before[k] != after[k]}
        if not diff:
            return current
        updated.save()
        GameChange.objects.create(
            table=table,
            game=updated,
            game_number=updated.number,
            action=GameChange.Action.CORRECTED,
            user=_user(user),
            diff=_jsonable(diff),
            reason=reason[:200],
        )
    return updated


def game_delete(*, game: Game, user: AbstractBaseUser | None = None, reason: str = ""):
    """Delete the last row of a sheet (a row in the middle is corrected instead)."""
    with transaction.atomic():
        table = _locked_table(game.table)
        _check_sheet_open(table)
        last = table.games.aggregate(n=Max("number"))["n"]
        if game.number != last:
            raise UserError(
                _("Only the last game of a sheet can be deleted; correct game %(n)s instead.")
                % {"n": game.number}
            )
        GameChange.objects.create(
            table=table,
            game=None,
            game_number=game.number,
            action=GameChange.Action.DELETED,
            user=_user(user),
            diff=_jsonable(_game_snapshot(game)),
            reason=reason[:200],
        )
        game.delete()


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


def penalty_record(
    *, table: Table, seat: int, points: int, reason: str = "", user=None
) -> Penalty:
    """Fine a seat (rules §3.6); kept in the sheet's penalty history."""
    with transaction.atomic():
        table = _locked_table(table)
        _check_sheet_open(table)
        if not 1 <= seat <= table.size:
            raise UserError(_("Seat %(seat)s does not exist at this table.") % {"seat": seat})
        if points == 0:
            raise UserError(_("A penalty of 0 points changes nothing."))
        penalty = _validated(
            Penalty(
                table=table,
                table_size=table.size,
                seat=seat,
                points=points,
                reason=reason.strip(),
            ),
            exclude=["table"],
        )
        penalty.save()
        _penalty_history(penalty, action=PenaltyChange.Action.CREATED, user=user)
    return penalty


def _penalty_history(penalty: Penalty, *, action: str, user, reason: str = ""):
    """One line of the penalty history: the penalty as it is (it is gone after a deletion)."""
    PenaltyChange.objects.create(
        table=penalty.table,
        penalty=None if action == PenaltyChange.Action.DELETED else penalty,
        action=action,
        seat=penalty.seat,
        points=penalty.points,
        penalty_reason=penalty.reason,
        user=_user(user),
        reason=reason.strip()[:200],
    )


def penalty_delete(*, penalty: Penalty, user=None, reason: str = ""):
    """Remove a mistyped penalty; its history keeps what it was, who removed it and why."""
    with transaction.atomic():
        table = _locked_table(penalty.table)
        _check_sheet_open(table)
        penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
        _penalty_history(penalty, action=PenaltyChange.Action.DELETED, user=user, reason=reason)
        penalty.delete()


# --------------------------------------------------------------------------------------
# Table sheets
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TotalDifference:
    seat: int
    player: str
    paper: int
    computed: int


def table_close(
    *,
    table: Table,
    paper_totals: Mapping[int, int] | None = None,
    accept_differences: bool = False,
    user: AbstractBaseUser | None = None,
) -> list[TotalDifference]:
    """Close a sheet: it must hold the whole series; typed paper totals are compared.

    Returns the differences between the paper totals and the site's; with differences the
    sheet stays open unless `accept_differences` (the paper list is wrong).
    """
    from tournaments.selectors import table_seat_totals

    with transaction.atomic():
        table = _locked_table(table)
        _check_open(table)
        played = table.games.count()
        limit = table.series.tournament.games_per_series(table.size)
        if played != limit:
            raise UserError(
                _("The sheet holds %(played)s of %(limit)s games; it cannot be closed yet.")
                % {"played": played, "limit": limit}
            )
        differences = []
        if paper_totals:
            totals = {t.seat: t for t in table_seat_totals(table)}
            for seat, paper in sorted(paper_totals.items()):
                if seat not in totals:
                    raise UserError(_("Seat %(seat)s does not exist.") % {"seat": seat})
                if totals[seat].list_points != paper:
                    differences.append(
                        TotalDifference(
                            seat, totals[seat].player_name, paper, totals[seat].list_points
                        )
                    )
            table.paper_totals = {str(seat): paper for seat, paper in paper_totals.items()}
        if differences and not accept_differences:
            table.save(update_fields=["paper_totals"])
            return differences
        table.closed = True
        table.save(update_fields=["closed", "paper_totals"])
    return differences


def table_reopen(*, table: Table, user=None) -> Table:
    with transaction.atomic():
        table = _locked_table(table)
        _check_open(table)
        table.closed = False
        table.save(update_fields=["closed"])
    return table


# --------------------------------------------------------------------------------------
# Series and draws
# --------------------------------------------------------------------------------------


def _previous_opponents(
    tournament: Tournament, *, before: int | None = None
) -> set[frozenset[int]]:
    """Pairs of players who have met at a table; only series numbered below `before` if set."""
    seats = Seat.objects.filter(series__tournament=tournament)
    if before is not None:
        seats = seats.filter(series__number__lt=before)
    by_table: dict[int, list[int]] = {}
    for table_id, player_id in seats.values_list("table_id", "player_id"):
        by_table.setdefault(table_id, []).append(player_id)
    pairs = set()
    for players in by_table.values():
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                pairs.add(frozenset((a, b)))
    return pairs


def _draw_tables(
    *, tournament: Tournament, method: str, seed: int, keep_apart: str, number: int
) -> list[list[int]]:
    """The seating of series `number`; earlier series give the previous opponents."""
    from tournaments.selectors import tournament_standings

    if keep_apart not in Series.KeepApart.values:
        raise UserError(_("Choose whom the draw keeps apart."), field="keep_apart")
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player__club")
    )
    entrants = [
        draw_engine.Entrant(
            id=r.player_id,
            team=r.player.team,
            club=r.player.club.name if r.player.club else "",
        )
        for r in registrations
    ]
    ranking = None
    if method == Series.DrawMethod.STANDINGS:
        # Seeding needs final standings: every sheet of the earlier series closed.
        open_sheets = (
            Table.objects.filter(
                series__tournament=tournament, series__number__lt=number, closed=False
            )
            .order_by("series__number", "number")
            .values_list("series__number", "number")
        )
        if open_sheets:
            series_number, table_number = open_sheets[0]
            raise UserError(
                _(
                    "The standings are not final: table %(table)s of series %(series)s is "
                    "still open. Close every sheet before a draw seeded by the standings."
                )
                % {"table": table_number, "series": series_number}
            )
        ranked = [row.player_id for row in tournament_standings(tournament)]
        registered = {e.id for e in entrants}
        ranking = [pid for pid in ranked if pid in registered]
        # Players without a result yet (late entries) go to the end, in name order.
        names = {r.player_id: r.player.name.casefold() for r in registrations}
        ranking += sorted(registered - set(ranking), key=lambda pid: (names[pid], pid))
    try:
        return draw_engine.draw(
            entrants,
            seed=seed,
            ranking=ranking,
            keep_apart=keep_apart,
            previous_opponents=_previous_opponents(tournament, before=number),
        )
    except draw_engine.DrawError as error:
        raise UserError(_draw_message(error, len(entrants)), code=error.code) from None


def _draw_message(error: draw_engine.DrawError, count: int) -> str:
    if error.code == "impossible_split":
        return _(
            "%(count)s players cannot be split into tables of 3 and 4 (rules §4). Add or "
            "remove a player: 3, 4 and every number from 6 up can be seated."
        ) % {"count": count}
    return str(error)


def _create_tables(series: Series, tables: Sequence[Sequence[int]]):
    table_rows = Table.objects.bulk_create(
        [
            Table(series=series, number=i, size=len(players))
            for i, players in enumerate(tables, start=1)
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(
                table=table,
                table_size=table.size,
                series=series,
                number=seat,
                player_id=player_id,
            )
            for table, players in zip(table_rows, tables, strict=True)
            for seat, player_id in enumerate(players, start=1)
        ]
    )


def series_draw(
    *,
    tournament: Tournament,
    method: str = Series.DrawMethod.RANDOM,
    seed: int | None = None,
    keep_apart: str = "team",
    user: AbstractBaseUser | None = None,
) -> Series:
    """Draw the next series: split into 4- and 3-tables and seat everyone (rules §4)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status == Tournament.Status.FINISHED:
            raise UserError(_("The tournament is finished."))
        number = (tournament.series.aggregate(n=Max("number"))["n"] or 0) + 1
        tables = _draw_tables(
            tournament=tournament, method=method, seed=seed, keep_apart=keep_apart, number=number
        )
        series = Series.objects.create(
            tournament=tournament,
            number=number,
            draw_seed=seed,
            draw_method=method,
            keep_apart=keep_apart,
        )
        _create_tables(series, tables)
        table_links_issue(series=series)
    return series


def series_redraw(
    *,
    series: Series,
    seed: int | None = None,
    keep_apart: str | None = None,
    user: AbstractBaseUser | None = None,
) -> Series:
    """Draw a series again, before its first game (`keep_apart` None: as it was drawn)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        if series.started or Game.objects.filter(table__series=series).exists():
            raise UserError(_("Games have been entered; the series can no longer be redrawn."))
        series.tables.all().delete()
        # The series being redrawn is not a previous series: its pairs are gone with it.
        if keep_apart is None:
            keep_apart = series.keep_apart
        tables = _draw_tables(
            tournament=series.tournament,
            method=series.draw_method,
            seed=seed,
            keep_apart=keep_apart,
            number=series.number,
        )
        series.draw_seed = seed
        series.keep_apart = keep_apart
        series.save(update_fields=["draw_seed", "keep_apart"])
        _create_tables(series, tables)
        table_links_issue(series=series)
    return series


def seat_swap(*, seat_a: Seat, seat_b: Seat, user: AbstractBaseUser | None = None):
    """Swap two players' seats in a series that has not started."""
    with transaction.atomic():
        a = Seat.objects.select_for_update().select_related("series").get(pk=seat_a.pk)
        b = Seat.objects.select_for_update().get(pk=seat_b.pk)
        if a.series_id != b.series_id:
            raise UserError(_("Both seats must be in the same series."))
        if a.series.started:
            raise UserError(_("The series has started; seats can no longer be swapped."))
        if a.pk == b.pk:
            return
        player_a, player_b = a.player_id, b.player_id
        # Two steps keep the (series, player) constraint satisfied at every statement.
        Seat.objects.filter(pk=b.pk).delete()
        a.player_id = player_b
        a.save(update_fields=["player"])
        Seat.objects.create(
            pk=b.pk,
            table_id=b.table_id,
            series_id=b.series_id,
            number=b.number,
            table_size=b.table_size,
            player_id=player_a,
        )


def series_close(*, series: Series, user=None) -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        open_tables = list(series.tables.filter(closed=False).values_list("number", flat=True))
        if open_tables:
            raise UserError(
                _("Close every sheet first; still open: table %(tables)s.")
                % {"tables": ", ".join(str(n) for n in open_tables)}
            )
        series.status = Series.Status.CLOSED
        series.save(update_fields=["status"])
    return series


def series_reopen(*, series: Series, user=None) -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        series.status = Series.Status.OPEN
        series.save(update_fields=["status"])
        Tournament.objects.filter(pk=series.tournament_id).update(status=Tournament.Status.RUNNING)
    return series


def series_delete(*, series: Series, user=None):
    """Remove the last series of a tournament while no game is entered (a wrong draw)."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        last = series.tournament.series.aggregate(n=Max("number"))["n"]
        if series.number != last:
            raise UserError(_("Only the last series can be removed."))
        if Game.objects.filter(table__series=series).exists():
            raise UserError(_("Games have been entered; the series cannot be removed."))
        series.delete()


# --------------------------------------------------------------------------------------
# Clubs, players, tournaments
# --------------------------------------------------------------------------------------


def _user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _jsonable(data: dict) -> dict:
    def convert(value):
        if isinstance(value, list):
            return [convert(v) for v in value]
        if isinstance(value, datetime.date | datetime.datetime):
            return value.isoformat()
        return value

    return {key: convert(value) for key, value in data.items()}


def _validated(instance, *, exclude: Iterable[str] = ()):
    try:
        instance.full_clean(exclude=list(exclude))
    except ValidationError as error:
        messages = []
        for field, errors in error.message_dict.items():
            label = field if field == "__all__" else instance._meta.get_field(field).verbose_name
            for message in errors:
                messages.append(message if field == "__all__" else f"{label}: {message}")
        field = next(iter(error.message_dict), None)
        raise UserError(" ".join(messages), field=None if field == "__all__" else field) from None
    return instance


def unique_slug(model, text: str, *, max_length: int = 80) -> str:
    base = slugify(text)[: max_length - 6].strip("-") or "t"
    slug, n = base, 2
    while model.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def club_create(*, name: str, city: str = "", secretaries: Iterable = ()) -> Club:
    with transaction.atomic():
        club = _validated(Club(name=name.strip(), city=city.strip()))
        club.save()
        club.secretaries.set(list(secretaries))
    return club


def season_create(
    *, club: Club, name: str, teams_best_n: int | None = None, slug: str | None = None
) -> Season:
    with transaction.atomic():
        season = Season(
            club=club,
            name=name.strip(),
            slug=slug or unique_slug(Season, name),
            teams_best_n=teams_best_n,
        )
        _validated(season)
        season.save()
    return season


def player_create(
    *,
    name: str,
    club: Club | None,
    team: str = "",
    category: str = "",
    federation_number: str = "",
) -> Player:
    with transaction.atomic():
        player = _validated(
            Player(
                name=" ".join(name.split()),
                club=club,
                team=team.strip(),
                category=category,
                federation_number=federation_number.strip(),
            )
        )
        try:
            player.save()
        except IntegrityError:
            raise UserError(
                _("Another player of this club has federation number %(n)s.")
                % {"n": federation_number}
            ) from None
    return player


def player_update(*, player: Player, **fields) -> Player:
    allowed = {"name", "team", "category", "federation_number"}
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"player_update got unknown fields {unknown}")
    with transaction.atomic():
        for key, value in fields.items():
            setattr(player, key, " ".join(value.split()) if key == "name" else value.strip())
        _validated(player)
        player.save()
    return player


TOURNAMENT_SETTINGS = (
    "rules",
    "list_scoring",
    "bonus_won",
    "bonus_lost",
    "bonus_others_3",
    "bonus_others_4",
    "games_per_series_3",
    "games_per_series_4",
    "kontra_allowed",
    "team_best_n",
    "published",
    "double_entry",
)


def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    season: Season | None = None,
    slug: str | None = None,
    **settings,
) -> Tournament:
    unknown = set(settings) - set(TOURNAMENT_SETTINGS)
    if unknown:
        raise TypeError(f"tournament_create got unknown settings {unknown}")
    with transaction.atomic():
        tournament = Tournament(
            club=club,
            season=season,
            name=name.strip(),
            date=date,
            slug=slug or unique_slug(Tournament, f"{name} {date:%Y-%m-%d}"),
            **settings,
        )
        _validated(tournament)
        if tournament.rules == RuleSet.NA and tournament.kontra_allowed:
            raise UserError(_("Kontra and Re are an ISPA house rule (rules §1.7)."))
        tournament.save()
    return tournament


def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change a tournament's name, date or settings; scores are recomputed when rules change."""
    allowed = {"name", "date", "season", *TOURNAMENT_SETTINGS}
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"tournament_update got unknown fields {unknown}")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        double_before = tournament.double_entry
        scoring_fields = set(TOURNAMENT_SETTINGS) - {"team_best_n", "published", "double_entry"}
        changes_scoring = any(
            getattr(tournament, key) != value
            for key, value in fields.items()
            if key in scoring_fields
        )
        if (
            "rules" in fields
            and fields["rules"] != tournament.rules
            and Game.objects.filter(table__series__tournament=tournament).exists()
        ):
            raise UserError(_("Games have been entered; the rule set can no longer change."))
        for size in (3, 4):
            length = fields.get(f"games_per_series_{size}")
            if length is None:
                continue
            longest = (
                Table.objects.filter(series__tournament=tournament, size=size)
                .annotate(played=Count("games"))
                .filter(played__gt=length)
                .order_by("-played", "series__number", "number")
                .select_related("series")
                .first()
            )
            if longest is not None:
                raise UserError(
                    _(
                        "Table %(table)s of series %(series)s already holds %(played)s games; "
                        "a series at a table of %(size)s cannot be shorter than that."
                    )
                    % {
                        "table": longest.number,
                        "series": longest.series.number,
                        "played": longest.played,
                        "size": size,
                    },
                    field=f"games_per_series_{size}",
                )
        for key, value in fields.items():
            setattr(tournament, key, value)
        _validated(tournament)
        tournament.save()
        if changes_scoring:
            scores_recompute(tournament=tournament)
        if tournament.double_entry and not double_before:
            # Turned on after a draw: the second keepers' links of the series still in play.
            for series in tournament.series.exclude(status=Series.Status.CLOSED):
                table_links_issue(series=series)
    return tournament


def tournament_set_status(*, tournament: Tournament, status: str) -> Tournament:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if (
            status == Tournament.Status.FINISHED
            and tournament.series.filter(status=Series.Status.OPEN).exists()
        ):
            raise UserError(_("Close every series before finishing the tournament."))
        tournament.status = status
        tournament.save(update_fields=["status"])
    return tournament


def registration_add(*, tournament: Tournament, players: Iterable[Player]) -> int:
    """Register players (already registered ones and repeats are skipped); returns how many
    were added."""
    with transaction.atomic():
        existing = set(tournament.registrations.values_list("player_id", flat=True))
        new = []
        for player in players:
            if player.pk not in existing:
                existing.add(player.pk)
                new.append(Registration(tournament=tournament, player=player))
        Registration.objects.bulk_create(new)
    return len(new)


def registration_remove(*, registration: Registration):
    with transaction.atomic():
        if Seat.objects.filter(
            series__tournament=registration.tournament_id, player=registration.player_id
        ).exists():
            raise UserError(_("This player has been seated in a series and cannot be removed."))
        if registration.payments.exists():
            raise UserError(_("Money has been booked for this player; remove the payments first."))
        registration.delete()


def registration_set_lots(*, tournament: Tournament, lots: Mapping[int, int | None]):
    """Record the order a draw by lot gave among tied players (rules §2)."""
    with transaction.atomic():
        for registration in tournament.registrations.select_for_update():
            if registration.player_id in lots:
                registration.lot = lots[registration.player_id]
                registration.save(update_fields=["lot"])


def scores_recompute(*, tournament: Tournament | None = None) -> int:
    """Rebuild every stored value after a rules fix or a settings change; returns the count.

    A game the engine now rejects is reported as a UserError naming it, and nothing changes.
    """
    games = Game.objects.select_related("table__series__tournament").order_by("pk")
    if tournament is not None:
        games = games.filter(table__series__tournament=tournament)
    fields = [
        "value",
        "score",
        "is_won",
        "is_lost",
        "overbid",
        "list_declarer",
        "list_others",
    ]
    count = 0
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
            batch.append(game)
            if len(batch) >= 2000:
                Game.objects.bulk_update(batch, fields)
                count += len(batch)
                batch = []
        if batch:
            Game.objects.bulk_update(batch, fields)
            count += len(batch)
    return count


@dataclass(frozen=True)
class ImportResult:
    created: int
    reused: int
    registered: int


def players_import(*, tournament: Tournament, rows: Sequence[Mapping]) -> ImportResult:
    """Register an imported player list: known players are reused, new ones created.

    A row's club is the tournament's club when empty or equal to it; another club is found
    by name or created (open tournaments have guests). A player is the same when the club
    and the federation number agree, or else the club and the name.
    """
    created = reused = 0
    players = []
    with transaction.atomic():
        clubs = {tournament.club.name.casefold(): tournament.club}
        for row in rows:
            # Before any look-up: PostgreSQL refuses a NUL even in a query's parameters.
            if any(
                isinstance(value, str) and has_control_characters(value) for value in row.values()
            ):
                raise UserError(_("Remove the control character (such as NUL or a line break)."))
            club_name = (row.get("club") or "").strip()
            club = clubs.get(club_name.casefold()) if club_name else tournament.club
            if club is None:
                club = Club.objects.filter(name__iexact=club_name).first() or club_create(
                    name=club_name
                )
                clubs[club_name.casefold()] = club
            number = (row.get("federation_number") or "").strip()
            name = " ".join(str(row.get("name") or "").split())
            player = None
            if number:
                player = Player.objects.filter(club=club, federation_number=number).first()
            if player is None:
                player = Player.objects.filter(club=club, name__iexact=name).first()
            if player is None:
                player = player_create(
                    name=name,
                    club=club,
                    team=row.get("team") or "",
                    category=row.get("category") or "",
                    federation_number=number,
                )
                created += 1
            else:
                reused += 1
            players.append(player)
        registered = registration_add(tournament=tournament, players=players)
    return ImportResult(created=created, reused=reused, registered=registered)


# --------------------------------------------------------------------------------------
# Table-side entry on the players' phones: links, provisional games, confirmation
# --------------------------------------------------------------------------------------

# (table entry services go here)
#
# Each table of a drawn series gets a private *link*: a random token in its address
# (`Table.entry_token`; with double entry a second one, `entry_token_2`, for the second
# list keeper). Whoever holds a link keys that table's games on a phone, with no account.
# Games keyed through the first link are *provisional* until the sheet is confirmed
# (`sheet_confirm`): by the director, or through the second link once both copies agree.
# The second keeper's rows go into the table's `SheetCopy`; a row that differs from the
# game of the same number is *disputed* and counts nowhere until the director chooses a
# version (`sheet_settle`; see `selectors.sheet_copies_compare`). Every row a phone sends
# carries the phone's own `client_id`: a row sent again after a network drop is answered
# with the row already stored, never entered twice.


FIRST_KEEPER, SECOND_KEEPER = 1, 2


def _new_token() -> str:
    return secrets.token_urlsafe(24)


def table_links_issue(*, series: Series, reissue: bool = False, user=None) -> int:
    """Give every table of a series its link (and the second keeper's, with double entry).

    Tables keep the links they have unless `reissue`: then every old link of the series
    stops working. Returns how many links were issued.
    """
    with transaction.atomic():
        double = Tournament.objects.values_list("double_entry", flat=True).get(
            pk=series.tournament_id
        )
        tables = list(Table.objects.select_for_update().filter(series_id=series.pk))
        issued = 0
        for table in tables:
            if reissue or not table.entry_token:
                table.entry_token = _new_token()
                issued += 1
            if double and (reissue or not table.entry_token_2):
                table.entry_token_2 = _new_token()
                issued += 1
            elif not double and reissue:
                table.entry_token_2 = None
        Table.objects.bulk_update(tables, ["entry_token", "entry_token_2"])
    return issued


def _keepers(table: Table, keeper: int | None) -> list[str]:
    if keeper is None:
        return ["entry_token", "entry_token_2"]
    if keeper == FIRST_KEEPER:
        return ["entry_token"]
    if keeper == SECOND_KEEPER:
        return ["entry_token_2"]
    raise ValueError(f"keeper must be 1, 2 or None, not {keeper!r}")


def table_link_reissue(*, table: Table, keeper: int | None = None, user=None) -> Table:
    """A new link for a table's list keeper (both keepers when None); the old one stops."""
    with transaction.atomic():
        table = _locked_table(table)
        double = table.series.tournament.double_entry
        if keeper == SECOND_KEEPER and not double:
            raise UserError(_("This tournament has no double entry: there is no second link."))
        for name in _keepers(table, keeper):
            new = _new_token() if (name == "entry_token" or double) else None
            setattr(table, name, new)
        table.save(update_fields=["entry_token", "entry_token_2"])
    return table


def table_link_revoke(*, table: Table, keeper: int | None = None, user=None) -> Table:
    """Stop a table's link (both keepers' when None) until a new one is issued."""
    with transaction.atomic():
        table = _locked_table(table)
        for name in _keepers(table, keeper):
            setattr(table, name, None)
        table.save(update_fields=["entry_token", "entry_token_2"])
    return table


def series_links_revoke(*, series: Series, user=None) -> int:
    """Stop every link of a series; returns how many tables had one."""
    with transaction.atomic():
        tables = Table.objects.select_for_update().filter(series_id=series.pk)
        linked = tables.exclude(entry_token=None, entry_token_2=None)
        count = linked.count()
        linked.update(entry_token=None, entry_token_2=None)
    return count


def _as_client_id(value) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        raise UserError(
            _("The row has no valid id; reload the page."), code="bad_client_id"
        ) from None


def _check_entry_open(table: Table):
    """Phones enter rows only while the series is in play and the sheet open."""
    if table.series.status == Series.Status.CLOSED:
        raise UserError(_("This series is closed: its sheets take no more games."), code="closed")
    if table.closed:
        raise UserError(_("This sheet is closed: it takes no more games."), code="closed")


def _check_number(*, number: int | None, expected: int, limit: int, size: int):
    if number is not None and number < expected:
        raise UserError(
            _(
                "Game %(n)s is already on the sheet (entered elsewhere meanwhile). Check the "
                "sheet: this row would now be game %(next)s."
            )
            % {"n": number, "next": expected},
            code="number_taken",
        )
    if number is not None and number > expected:
        raise UserError(
            _("Game %(n)s cannot be entered before game %(next)s.")
            % {"n": number, "next": expected},
            code="number_gap",
        )
    if expected > limit:
        raise UserError(
            _("The sheet is complete: a table of %(size)s plays %(limit)s games.")
            % {"size": size, "limit": limit},
            code="complete",
        )


def _client_id_elsewhere(client_id: uuid.UUID, *, table: Table, copy: bool) -> bool:
    """Whether a phone's row id is already used by another sheet (or the other keeper).

    Games are looked up by their unique index; second copies only within the series (a
    phone's ids are random, so a clash can only come from the same phone at another table).
    """
    games = Game.objects.filter(client_id=client_id)
    if copy:
        if games.exists():
            return True
    elif games.exclude(table_id=table.pk).exists():
        return True
    copies = SheetCopy.objects.filter(
        table__series_id=table.series_id, rows__icontains=str(client_id)
    )
    if not copy:
        return copies.exists()
    return copies.exclude(table_id=table.pk).exists()


def _conflict() -> UserError:
    return UserError(
        _("This row was already sent for another sheet; it is not entered here."),
        code="client_id_conflict",
    )


def client_id_changed(number: int) -> UserError:
    return UserError(
        _(
            "Game %(n)s was already entered from this phone with different content; the "
            "sheet keeps the first version. Check the sheet and ask the director to correct it."
        )
        % {"n": number},
        code="client_id_conflict",
    )


def _sent_mapping(table: Table, number: int, data: Mapping) -> dict | None:
    """The game mapping a row as sent comes to (None: it does not check)."""
    try:
        return game_mapping_of(game_build(table=table, number=number, data=data))
    except UserError:
        return None


def _check_resend(table: Table, *, number: int, stored: dict, data: Mapping | None):
    """A row sent again with the same client_id must be the row stored the first time;
    `data` None: the caller only wants the stored row (no content to compare)."""
    if data is not None and _sent_mapping(table, number, data) != stored:
        raise client_id_changed(number)


def client_id_entered(client_id: uuid.UUID) -> int | None:
    """The game number under which a phone's row is on a sheet (a game, or a second copy's
    row), None if it is nowhere: for a resend through a link revoked meanwhile."""
    game = Game.objects.filter(client_id=client_id).values_list("number", flat=True).first()
    if game is not None:
        return game
    change = (
        GameChange.objects.filter(action=GameChange.Action.CREATED, diff__client_id=str(client_id))
        .values_list("table_id", "game_number")
        .first()
    )
    if change is None:
        return None
    table_id, number = change
    rows = SheetCopy.objects.filter(table_id=table_id).values_list("rows", flat=True).first()
    if any(row.get("client_id") == str(client_id) for row in rows or []):
        return number
    return None


def _check_not_deleted(table: Table, client_id: uuid.UUID):
    """A row the director deleted (or removed from the second copy) is not entered again by
    a late resend: its entry is in the history with the phone's id."""
    created = GameChange.objects.filter(
        table=table,
        game=None,  # a game's entry loses its game when the game is deleted
        action=GameChange.Action.CREATED,
        diff__client_id=str(client_id),
    ).first()
    if created is not None:
        raise UserError(
            _(
                "Game %(n)s from this phone was entered and then deleted by the director; "
                "it is not entered again."
            )
            % {"n": created.game_number},
            code="deleted",
        )


def _created_mapping(game: Game) -> dict:
    """The game as the phone entered it (before any correction by the director)."""
    change = (
        GameChange.objects.filter(game=game, action=GameChange.Action.CREATED)
        .order_by("at", "id")
        .first()
    )
    if change is None:
        return game_mapping_of(game)
    entered = Game(table=game.table, number=game.number)
    for name in SHEET_FIELDS:
        if name in change.diff:
            setattr(entered, name, change.diff[name])
    return game_mapping_of(entered)


def game_record_at_table(
    *, table: Table, data: Mapping | None, client_id, number: int | None = None
) -> tuple[Game, bool]:
    """Enter a row keyed on the first list keeper's phone: provisional, once per client_id.

    Returns (game, created). A row sent again (same `client_id`, same content) returns the
    game stored the first time, whatever has happened since; with different content it is
    refused ("client_id_conflict"), and a row the director deleted since is not entered again
    ("deleted"). `data` None only looks the row up. `number` is the game the phone meant;
    if the sheet has moved on meanwhile the row is refused (code "number_taken").
    """
    client_id = _as_client_id(client_id)
    with transaction.atomic():
        table = _locked_table(table)
        existing = Game.objects.filter(client_id=client_id, table=table).first()
        if existing is not None:
            _check_resend(
                table, number=existing.number, stored=_created_mapping(existing), data=data
            )
            return existing, False
        if _client_id_elsewhere(client_id, table=table, copy=False):
            raise _conflict()
        _check_not_deleted(table, client_id)
        _check_entry_open(table)
        expected = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
        _check_number(
            number=number,
            expected=expected,
            limit=table.series.tournament.games_per_series(table.size),
            size=table.size,
        )
        if data is None:
            raise UserError(_("The row could not be read."))
        game = game_build(table=table, number=expected, data=data)
        game.provisional = True
        game.client_id = client_id
        try:
            with transaction.atomic():
                game.save()
        except IntegrityError:
            # The same id stored meanwhile: a resend that overtook this one (answered as a
            # resend), or the same id sent for another table (a conflict).
            existing = Game.objects.filter(client_id=client_id).first()
            if existing is None or existing.table_id != table.pk:
                raise _conflict() from None
            _check_resend(
                table, number=existing.number, stored=_created_mapping(existing), data=data
            )
            return existing, False
        GameChange.objects.create(
            table=table,
            game=game,
            game_number=game.number,
            action=GameChange.Action.CREATED,
            user=None,
            # The phone's id stays in the history: a late resend of a deleted row is known.
            diff=_jsonable({**_game_snapshot(game), "client_id": str(client_id)}),
            reason=_("table link"),
        )
        _mark_started(table.series)
    return game, True


def sheet_copy_record(
    *, table: Table, data: Mapping | None, client_id, number: int | None = None
) -> tuple[dict, bool]:
    """Enter a row keyed on the second list keeper's phone into the sheet's second copy.

    Checked as a game is (`game_build`) and kept as its game mapping; once per `client_id`
    like `game_record_at_table` (a row's "sent" keeps what the phone sent when the director
    later replaces its data). Returns (row, created).
    """
    client_id = _as_client_id(client_id)
    with transaction.atomic():
        table = _locked_table(table)
        copy, _created = SheetCopy.objects.get_or_create(table=table)
        for row in copy.rows:
            if row.get("client_id") == str(client_id):
                stored = row.get("sent", row["data"])
                _check_resend(table, number=row["number"], stored=stored, data=data)
                return row, False
        if _client_id_elsewhere(client_id, table=table, copy=True):
            raise _conflict()
        _check_not_deleted(table, client_id)
        if not table.series.tournament.double_entry:
            raise UserError(_("This tournament has no double entry."), code="closed")
        _check_entry_open(table)
        expected = len(copy.rows) + 1
        _check_number(
            number=number,
            expected=expected,
            limit=table.series.tournament.games_per_series(table.size),
            size=table.size,
        )
        if data is None:
            raise UserError(_("The row could not be read."))
        game = game_build(table=table, number=expected, data=data)
        row = {"number": expected, "client_id": str(client_id), "data": game_mapping_of(game)}
        copy.rows = [*copy.rows, row]
        copy.save(update_fields=["rows", "updated"])
        GameChange.objects.create(
            table=table,
            game=None,
            game_number=expected,
            action=GameChange.Action.CREATED,
            user=None,
            diff=_jsonable({**_game_snapshot(game), "client_id": str(client_id)}),
            reason=_("table link, second copy"),
        )
        _mark_started(table.series)
    return row, True


def sheet_confirm(*, table: Table, user=None, second_keeper: bool = False) -> int:
    """Confirm a sheet: its provisional games become final. Returns how many were confirmed.

    With double entry both copies must agree on every row first (`sheet_settle`); then the
    director or the second list keeper (`second_keeper`, through their link) may confirm.
    """
    from tournaments.selectors import sheet_copies_compare

    with transaction.atomic():
        table = _locked_table(table)
        _check_open(table)
        double = table.series.tournament.double_entry
        if second_keeper and not double:
            raise UserError(_("This tournament has no double entry."))
        games = list(table.games.filter(provisional=True).order_by("number"))
        if not games:
            return 0
        if double:
            unsettled = [row.number for row in sheet_copies_compare(table) if row.unsettled]
            if unsettled:
                raise UserError(
                    _(
                        "The two copies of the sheet differ in game %(numbers)s: choose a "
                        "version of each first."
                    )
                    % {"numbers": ", ".join(str(n) for n in unsettled)},
                    code="copies_differ",
                )
        Game.objects.filter(pk__in=[g.pk for g in games]).update(provisional=False)
        reason = (
            _("sheet confirmed by the second list keeper")
            if second_keeper
            else _("sheet confirmed")
        )
        GameChange.objects.bulk_create(
            GameChange(
                table=table,
                game=game,
                game_number=game.number,
                action=GameChange.Action.CORRECTED,
                user=_user(user),
                diff={"provisional": [True, False]},
                reason=reason,
            )
            for game in games
        )
    return len(games)


def sheet_settle(*, table: Table, choose: str, number: int | None = None, user=None) -> list[int]:
    """Choose the first or the second copy's version of a row (of every unsettled row when
    `number` is None) under double entry; both copies then agree. Returns the rows settled.

    "second" replaces the game with the second copy's row (a correction in its history) or
    enters it when the first copy lacks it; "first" overwrites the second copy's row with
    the game (the second copy's old row goes into the history) or removes a row the first
    copy lacks. The games stay provisional until the sheet is confirmed.
    """
    from tournaments.selectors import sheet_copies_compare

    if choose not in ("first", "second"):
        raise ValueError(f"choose must be 'first' or 'second', not {choose!r}")
    with transaction.atomic():
        table = _locked_table(table)
        _check_open(table)
        if not table.series.tournament.double_entry:
            raise UserError(_("This tournament has no double entry."))
        rows = [row for row in sheet_copies_compare(table) if row.unsettled]
        if number is not None:
            rows = [row for row in rows if row.number == number]
            if not rows:
                raise UserError(_("Both copies already agree on game %(n)s.") % {"n": number})
        elif choose == "second":
            # All at once: the rows the second keeper has not reached yet are not disputes.
            rows = [row for row in rows if row.second is not None]
        copy, _created = SheetCopy.objects.get_or_create(table=table)
        copy_rows = {row["number"]: row for row in copy.rows}
        # Rows only one copy has sit at the end of a copy: add them in order, remove them
        # from the last one back.
        ordered = sorted(rows, key=lambda r: r.number)
        if choose == "first":
            ordered = [r for r in ordered if r.first is not None] + [
                r for r in reversed(ordered) if r.first is None
            ]
        for row in ordered:
            if choose == "second":
                _settle_second(table, row, user)
            else:
                _settle_first(table, row, copy_rows, user)
        copy.rows = [copy_rows[n] for n in sorted(copy_rows)]
        copy.save(update_fields=["rows", "updated"])
    return sorted(row.number for row in rows)


def _settle_second(table: Table, row, user):
    reason = _("settled: the second copy's version")
    if row.second is None:
        raise UserError(
            _(
                "The second copy has no game %(n)s: keep the first copy's version, or delete "
                "the game on the score sheet."
            )
            % {"n": row.number}
        )
    if row.first_game is not None:
        game_correct(game=row.first_game, data=row.second, user=user, reason=reason)
        return
    expected = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
    if row.number != expected:
        raise UserError(
            _("Game %(n)s cannot be entered before game %(next)s.")
            % {"n": row.number, "next": expected}
        )
    _check_entry_open(table)
    game = game_build(table=table, number=row.number, data=row.second)
    game.provisional = True
    game.save()
    GameChange.objects.create(
        table=table,
        game=game,
        game_number=game.number,
        action=GameChange.Action.CREATED,
        user=_user(user),
        diff=_jsonable(_game_snapshot(game)),
        reason=reason,
    )


def _settle_first(table: Table, row, copy_rows: dict, user):
    last = max(copy_rows, default=0)
    if row.first is None:
        if row.number != last:
            raise UserError(
                _("Remove the second copy's game %(n)s first: rows go from the end.") % {"n": last}
            )
        removed = copy_rows.pop(row.number)
        GameChange.objects.create(
            table=table,
            game=None,
            game_number=row.number,
            action=GameChange.Action.DELETED,
            user=_user(user),
            diff=_jsonable(removed["data"]),
            reason=_("settled: the first copy's version (the second copy's row removed)"),
        )
        return
    if row.second is None and row.number != last + 1:
        raise UserError(
            _("Fill in the second copy's game %(n)s first: rows go in order.") % {"n": last + 1}
        )
    old = (row.second_game and _game_snapshot(row.second_game)) or {}
    new = _game_snapshot(row.first_game)
    before = copy_rows.get(row.number) or {}
    copy_rows[row.number] = {
        "number": row.number,
        "client_id": before.get("client_id"),
        "data": row.first,
    }
    if before.get("client_id"):  # what the phone sent, for its resends (sheet_copy_record)
        copy_rows[row.number]["sent"] = before.get("sent", before.get("data"))
    GameChange.objects.create(
        table=table,
        game=row.first_game,
        game_number=row.number,
        action=GameChange.Action.CORRECTED,
        user=_user(user),
        diff=_jsonable({k: [old.get(k), new[k]] for k in new if old.get(k) != new[k]}),
        reason=_("settled: the first copy's version (the second copy's row replaced)"),
    )


# --------------------------------------------------------------------------------------
# Money: fees, payments, prize plan
# --------------------------------------------------------------------------------------

# (money services go here)
#
# Amounts are exact Decimals with two places, never floats (a float raises TypeError).
# Payments are stored signed from the cash box's view: fees paid in are positive, prize
# payouts and refunds negative; `payment_record` takes a positive amount and signs it by
# kind. The figures built from them (fees due, pot, balances) are `selectors.tournament_money`.


MONEY_SETTINGS = (
    "currency",
    "entry_fee",
    "table_fee",
    "lost_game_fee",
    "lost_game_fee_from",
    "lost_game_fee_high",
)
FEE_FIELDS = ("entry_fee", "table_fee", "lost_game_fee", "lost_game_fee_high")


def _decimal(value, *, label) -> Decimal | None:
    """A Decimal from a Decimal, an int or a numeric string; None and "" stay None."""
    if value is None or value == "":
        return None
    if isinstance(value, float | bool):
        raise TypeError(f"{label}: money is kept in Decimals, never in floats")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise UserError(
            _("%(label)s: “%(value)s” is not an amount.") % {"label": label, "value": value}
        ) from None
    if not number.is_finite():
        raise UserError(
            _("%(label)s: “%(value)s” is not an amount.") % {"label": label, "value": value}
        )
    return number


def tournament_money_update(*, tournament: Tournament, **fields) -> Tournament:
    """Set the currency, the fees and the tiered lost-game fee of a tournament."""
    unknown = set(fields) - set(MONEY_SETTINGS)
    if unknown:
        raise TypeError(f"tournament_money_update got unknown fields {unknown}")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.currency = (tournament.currency or "").strip().upper()
        if not re.fullmatch(r"[A-Z]{3}", tournament.currency):
            raise UserError(
                _("The currency is a three-letter code such as EUR, USD or CAD."),
                field="currency",
            )
        for name in FEE_FIELDS:
            label = Tournament._meta.get_field(name).verbose_name
            value = _decimal(getattr(tournament, name), label=label)
            if value is None and name != "lost_game_fee_high":
                value = Decimal("0")
            if value is not None and value < 0:
                raise UserError(
                    _("%(label)s cannot be negative.") % {"label": str(label).capitalize()},
                    field=name,
                )
            setattr(tournament, name, value)
        start = tournament.lost_game_fee_from
        if start is not None:
            if isinstance(start, bool) or not isinstance(start, int) or start < 2:
                raise UserError(
                    _("The higher lost-game fee starts at the 2nd lost game or later."),
                    field="lost_game_fee_from",
                )
            if tournament.lost_game_fee_high is None:
                raise UserError(
                    _("Enter the higher fee that applies from lost game no. %(n)s on.")
                    % {"n": start},
                    field="lost_game_fee_high",
                )
        elif tournament.lost_game_fee_high is not None:
            raise UserError(
                _("Enter from which lost game of a series the higher fee applies."),
                field="lost_game_fee_from",
            )
        _validated(tournament)
        tournament.save(update_fields=list(MONEY_SETTINGS))
    return tournament


def prize_plan_replace(*, tournament: Tournament, prizes: Sequence[Mapping]) -> list[Prize]:
    """Replace the prize plan with `prizes` (all or nothing).

    Each mapping has `scope` (overall, series, category), `series_number` (series only),
    `category` (category only), `rank`, and either `amount` or `share` (% of the pot); an
    optional `line` is the line number the director's text gave it, for the messages.
    Ranks are unique per ranking and the shares add up to at most 100 %.
    """
    built: list[tuple[int, Prize]] = []
    seen: dict[tuple, int] = {}
    shares = Decimal("0")
    for index, data in enumerate(prizes, start=1):
        line = data.get("line", index)

        def fail(message, line=line):
            raise UserError(_("Line %(line)s: %(error)s") % {"line": line, "error": message})

        scope = data.get("scope")
        series_number = data.get("series_number") or 0
        category = data.get("category") or ""
        rank = data.get("rank")
        if scope not in Prize.Scope.values:
            fail(_("choose the overall standings, a series or a category."))
        if scope == Prize.Scope.SERIES:
            if isinstance(series_number, bool) or not isinstance(series_number, int):
                fail(_("the series is a number."))
            if series_number < 1:
                fail(_("name the series (1, 2, …)."))
            if category:
                fail(_("a series prize has no category."))
        elif scope == Prize.Scope.CATEGORY:
            if category not in Category.values or not category:
                choices = ", ".join(str(label) for value, label in Category.choices if value)
                fail(_("choose a category: %(choices)s.") % {"choices": choices})
            if series_number:
                fail(_("a category prize is for the whole tournament, not one series."))
        elif series_number or category:
            fail(_("an overall prize has neither a series nor a category."))
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            fail(_("the rank is a whole number from 1 up."))
        amount = _decimal(data.get("amount"), label=_("amount"))
        share = _decimal(data.get("share"), label=_("share"))
        if amount is None and share is None:
            fail(_("give a fixed amount or a share of the pot."))
        if amount is not None and share is not None:
            fail(_("give a fixed amount or a share of the pot, not both."))
        if amount is not None and amount <= 0:
            fail(_("the amount must be above zero."))
        if share is not None:
            if not 0 < share <= 100:
                fail(_("a share is more than 0 % and at most 100 % of the pot."))
            shares += share
        key = (scope, series_number, category, rank)
        if key in seen:
            fail(
                _("%(ranking)s, rank %(rank)s is already on line %(other)s.")
                % {
                    "ranking": selectors.ranking_label(scope, series_number, category),
                    "rank": rank,
                    "other": seen[key],
                }
            )
        seen[key] = line
        built.append(
            (
                line,
                Prize(
                    tournament=tournament,
                    scope=scope,
                    series_number=series_number,
                    category=category,
                    rank=rank,
                    amount=amount,
                    share=share,
                ),
            )
        )
    if shares > 100:
        raise UserError(
            _("The shares add up to %(total)s %% of the pot, more than 100 %%.")
            % {"total": f"{shares.normalize():f}"}
        )
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        Prize.objects.filter(tournament=tournament).delete()
        for line, prize in built:
            try:
                _validated(prize)
            except UserError as error:
                raise UserError(
                    _("Line %(line)s: %(error)s") % {"line": line, "error": error}
                ) from None
        return Prize.objects.bulk_create([prize for _line, prize in built])


def payment_record(
    *,
    registration: Registration,
    kind: str,
    amount: Decimal | int | str,
    note: str = "",
    user: AbstractBaseUser | None = None,
) -> Payment:
    """Record money paid in (fees) or out (a prize, a refund); `amount` is positive."""
    if kind not in Payment.Kind.values:
        raise UserError(_("Unknown kind of payment."), field="kind")
    value = _decimal(amount, label=_("amount"))
    if value is None or value <= 0:
        raise UserError(
            _("Enter an amount above zero (to undo a payment, delete it)."), field="amount"
        )
    with transaction.atomic():
        payment = Payment(
            registration=registration,
            kind=kind,
            amount=value if kind == Payment.Kind.FEES else -value,
            note=" ".join(note.split()),
            user=_user(user),
        )
        _validated(payment)
        payment.save()
    return payment


def payment_settle(
    *, registration: Registration, user: AbstractBaseUser | None = None
) -> list[Payment]:
    """Bring a player's balance to zero: take the open fees (or refund an overpayment) and
    hand out the prizes not yet paid; returns the payments recorded."""
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update()
            .select_related("tournament")
            .get(pk=registration.pk)
        )
        row = selectors.tournament_money(registration.tournament).row_of(registration.pk)
        payments = []
        if row.fees_open > 0:
            payments.append((Payment.Kind.FEES, row.fees_open, _("settled")))
        elif row.fees_open < 0:
            payments.append((Payment.Kind.REFUND, -row.fees_open, _("settled")))
        if row.prizes_open > 0:
            payments.append((Payment.Kind.PRIZE, row.prizes_open, _prize_note(row.prizes)))
        if not payments:
            raise UserError(
                _("%(name)s owes nothing and is owed nothing.") % {"name": row.player_name}
            )
        return [
            payment_record(
                registration=registration, kind=kind, amount=amount, note=note, user=user
            )
            for kind, amount, note in payments
        ]


def _prize_note(prizes) -> str:
    """The prizes' titles as a payment note, cut after a whole title to fit its 120 chars."""
    limit = Payment._meta.get_field("note").max_length
    note = ", ".join(p.title for p in prizes)
    if len(note) <= limit:
        return note
    cut = note[: limit - 1]
    return (cut.rsplit(", ", 1)[0] if ", " in cut else cut) + "…"


def payment_delete(*, payment: Payment):
    with transaction.atomic():
        payment.delete()
