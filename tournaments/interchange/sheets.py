"""Score sheets replaced from documents' table objects: a publishing hall's sheets batch
(`publishing.interchange`).

A *sheet* here is one table's object exactly as a `skat-tournament/1` document holds it in
`series[].tables[]` (number, seats, games, penalties), together with that table's entry of
the document's `archive` (closed, paper totals, provisional games, phone ids, second copy,
history). It is checked by the import's own checks (`reader._Checker.check_tables`, and
`archive`'s table check), against the tournament as the site holds it, and written the
way the import writes a table (`rows.games_insert`, the penalties with their games,
`writer.tables_history_write`), inside one sheet write (`sheets.writing.sheet_write`):
the tables locked, the seats' totals refreshed, the version bumped with these sheets.

A sheet may leave out parts of its table's archive entry (a hall sends the state the pages
show: closed, paper totals, provisional games): the history, second copy and phones' ids
the site holds for that table then stay (`_History`), linked to the new rows.

The seats must be those the site holds (a sheets batch never moves a player: that is a
change of layout, which comes as a whole document): otherwise `SheetsMismatch`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from tournaments.interchange.archive import TABLE_FIELDS as ARCHIVE_TABLE_FIELDS
from tournaments.interchange.archive import SeriesArchive, _ArchiveChecker, director_actions_write
from tournaments.interchange.common import SMALLINT_MAX, InterchangeError, _is_int
from tournaments.interchange.common import TABLE_FIELDS as CONTRACT_TABLE_FIELDS
from tournaments.interchange.export import _players_of
from tournaments.interchange.reader import _Checker, _SeriesPlan
from tournaments.interchange.rows import games_insert
from tournaments.interchange.writer import _insert, games_found, tables_history_write
from tournaments.models import (
    Game,
    GameChange,
    Penalty,
    PenaltyChange,
    Seat,
    SheetCopy,
    Table,
    Tournament,
)
from tournaments.sheets.writing import sheet_write

ENTRY_FIELDS = ("series", "table", "sheet")
SHEET_FIELDS = tuple(dict.fromkeys(CONTRACT_TABLE_FIELDS + ARCHIVE_TABLE_FIELDS))


class SheetsMismatch(Exception):
    """A sheet names a table the site does not hold, or other seats: the layouts differ."""


def sheet_tables(tournament: Tournament, entries) -> list[Table]:
    """The tables the entries name (`SheetsMismatch` if the site has no such table;
    `InterchangeError` if an entry is not one)."""
    if not isinstance(entries, list):
        raise InterchangeError([_("sheets must be a list")])
    tables = {}
    for table in Table.objects.filter(series__tournament=tournament).select_related("series"):
        table.series.tournament = tournament  # the rules the games are valued under
        tables[(table.series.number, table.number)] = table
    found, messages = [], []
    for index, entry in enumerate(entries):
        place = _("sheets[%(index)s]") % {"index": index}
        if not isinstance(entry, Mapping) or set(entry) != set(ENTRY_FIELDS):
            messages.append(
                _("%(place)s: must be an object of series, table and sheet") % {"place": place}
            )
            continue
        series, number = entry["series"], entry["table"]
        if not all(_is_int(v) and 1 <= v <= SMALLINT_MAX for v in (series, number)):
            messages.append(_("%(place)s: series and table must be numbers") % {"place": place})
            continue
        if (series, number) not in tables:
            raise SheetsMismatch(f"no table {number} in series {series}")
        if tables[(series, number)] in found:
            messages.append(_("%(place)s: the table is given twice") % {"place": place})
            continue
        found.append(tables[(series, number)])
    if messages:
        raise InterchangeError(messages)
    return found


def sheets_replace(tournament: Tournament, entries: list) -> int:
    """Replace the named tables' games, penalties, state and history with the sheets'; in
    one sheet write (call it inside the caller's transaction). Returns the new tournament
    version. Raises InterchangeError (the import's located messages) or SheetsMismatch, and
    writes nothing then."""
    tables = sheet_tables(tournament, entries)
    if not tables:
        return tournament.version
    ids = {player.pk: f"p{i}" for i, player in enumerate(_players_of(tournament), start=1)}
    seats = defaultdict(list)
    for table_id, _number, player_id in (
        Seat.objects.filter(table__in=tables)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "player_id")
    ):
        seats[table_id].append(ids[player_id])

    checker = _Checker(None, None)
    checker.tournament = tournament
    archived = _ArchiveChecker(checker, set(ids.values()))
    checked = []

    def take(series_plan, table_plan):
        if table_plan is not None:
            checked.append(table_plan)

    checker.sink = take
    states = []
    for index, (table, entry) in enumerate(zip(tables, entries, strict=True)):
        place = _("sheets[%(index)s]") % {"index": index}
        sheet = entry["sheet"]
        if not isinstance(sheet, Mapping):
            checker.error(place, _("sheet must be a JSON object"))
            continue
        checker.unknown_fields(place, sheet, SHEET_FIELDS)
        if sheet.get("number") != table.number:
            checker.error(place, _("the sheet's number is not its table's"))
            continue
        if sheet.get("seats") != seats[table.pk]:
            raise SheetsMismatch(f"other seats at table {table.number}")
        before = len(checked)
        checker.check_tables(
            place,
            _SeriesPlan(series=table.series),
            [{k: v for k, v in sheet.items() if k in CONTRACT_TABLE_FIELDS}],
            set(ids.values()),
        )
        if len(checked) == before:
            continue
        series = SeriesArchive(values={})
        archive_part = {k: v for k, v in sheet.items() if k in ARCHIVE_TABLE_FIELDS}
        if set(archive_part) - {"number"}:
            archived.table(table.series.number, index, archive_part, checker.tables, series)
        given = set(archive_part) - {"number"}
        states.append((table, checked[-1], series.tables.get(table.number), given))
    if checker.messages:
        raise InterchangeError(checker.all_messages())
    return _sheets_write(tournament, states, checker)


def _sheets_write(tournament: Tournament, states: list, checker: _Checker) -> int:
    with sheet_write(states[0][0]) as write:
        locked = [write.join(table) for table, *_rest in states]
        table_ids = [table.pk for table in locked]
        kept = _History(locked, [given for *_rest, given in states])
        games, penalties, charged, history = [], [], [], []
        for table, (_old, plan, state, _given) in zip(locked, states, strict=True):
            plan.table.pk, plan.table.series = table.pk, table.series
            rows = plan.games
            table.closed = len(rows) == tournament.games_per_series(table.size)
            table.paper_totals = {}
            if state is not None:
                table.closed, table.paper_totals = state.closed, state.paper_totals
                rows = [
                    row._replace(provisional=number in state.provisional)
                    for number, row in enumerate(rows, start=1)
                ]
                history.append((table.pk, state))
            client_ids = kept.client_ids(table.pk, len(rows))
            if client_ids is None:
                client_ids = state.client_ids if state is not None else {}
            games.append((table.pk, rows, client_ids))
            penalties.extend(plan.penalties)
            charged.extend(plan.instances.values())
        Table.objects.bulk_update(locked, ["closed", "paper_totals"])
        games_insert(tournament.pk, games, spelt=checker.rows.spelt)
        games_found(charged)
        _insert(Penalty, penalties)
        kept.relink()
        users = dict(
            get_user_model()
            .objects.filter(
                username__in={
                    by
                    for _pk, state in history
                    for *_rest, by in (*state.game_changes, *state.penalty_changes)
                    if by
                }
            )
            .values_list("username", "pk")
        )
        tables_history_write(history, users)
        write.relayout()  # a sheet may be closed short or reopened: standings afresh
        write.stamp(*Game.objects.filter(table_id__in=table_ids).only("pk"))
    return write.version


class _History:
    """A sheet that leaves out a part of its table's archive entry (the phones' ids, the
    second copy, the games' or the penalties' history) leaves that part as the site holds
    it: the history is linked again to the new rows of the same game number (penalty index)
    and the phones' ids given to them. The parts given are replaced. The old games and
    penalties are deleted here."""

    def __init__(self, tables: list[Table], given: list[set]):
        ids = [table.pk for table in tables]

        def keeping(part):
            return [
                table.pk for table, parts in zip(tables, given, strict=True) if part not in parts
            ]

        self.games = list(
            GameChange.objects.filter(
                table_id__in=keeping("game_changes"), game__isnull=False
            ).values_list("pk", "table_id", "game__number")
        )
        order = defaultdict(list)
        for table_id, pk in (
            Penalty.objects.filter(table_id__in=keeping("penalty_changes"))
            .order_by("table_id", "id")
            .values_list("table_id", "pk")
        ):
            order[table_id].append(pk)
        self.penalties = [
            (pk, table_id, order[table_id].index(penalty_id))
            for pk, table_id, penalty_id in PenaltyChange.objects.filter(
                table_id__in=list(order), penalty__isnull=False
            ).values_list("pk", "table_id", "penalty_id")
        ]
        self.phones = defaultdict(dict)
        for table_id, number, client_id in Game.objects.filter(
            table_id__in=keeping("client_ids"), client_id__isnull=False
        ).values_list("table_id", "number", "client_id"):
            self.phones[table_id][number] = client_id
        self.phone_tables = set(keeping("client_ids"))
        for model, part in (
            (GameChange, "game_changes"),
            (PenaltyChange, "penalty_changes"),
            (SheetCopy, "second_copy"),
        ):
            model.objects.filter(table_id__in=ids).exclude(table_id__in=keeping(part)).delete()
        Penalty.objects.filter(table_id__in=ids).delete()
        Game.objects.filter(table_id__in=ids).delete()

    def client_ids(self, table_id: int, games: int) -> dict | None:
        """The phones' ids kept for the table's new rows, or None (the sheet gives them)."""
        if table_id not in self.phone_tables:
            return None
        return {n: cid for n, cid in self.phones[table_id].items() if n <= games}

    def relink(self):
        """The kept history pointed at the new games and penalties (None where gone)."""
        tables = {table_id for _pk, table_id, _n in self.games}
        games = {
            (table_id, number): pk
            for table_id, number, pk in Game.objects.filter(table_id__in=tables).values_list(
                "table_id", "number", "pk"
            )
        }
        GameChange.objects.bulk_update(
            [
                GameChange(pk=pk, game_id=games.get((table_id, number)))
                for pk, table_id, number in self.games
            ],
            ["game"],
        )
        order = defaultdict(list)
        for table_id, pk in (
            Penalty.objects.filter(table_id__in={t for _pk, t, _i in self.penalties})
            .order_by("table_id", "id")
            .values_list("table_id", "pk")
        ):
            order[table_id].append(pk)
        PenaltyChange.objects.bulk_update(
            [
                PenaltyChange(
                    pk=pk,
                    penalty_id=order[table_id][index] if index < len(order[table_id]) else None,
                )
                for pk, table_id, index in self.penalties
            ],
            ["penalty"],
        )


def director_actions_replace(tournament: Tournament, entries) -> None:
    """Replace the tournament's director actions with the given archive entries (a
    publishing hall's `director_actions`): checked as the import checks them, written as it
    writes them, with their times. Given twice, the same lines stay (nothing is added).
    Raises InterchangeError and writes nothing then. Call inside the caller's transaction.
    """
    if not isinstance(entries, list):
        raise InterchangeError([_("director_actions must be a list")])
    checker = _Checker(None, None)
    checker.tournament = tournament
    archived = _ArchiveChecker(checker, set())
    archived.plan.director_actions = []
    for index, entry in enumerate(entries):
        archived.director_action(index, entry)
    if checker.messages:
        raise InterchangeError(checker.all_messages())
    users = dict(
        get_user_model()
        .objects.filter(username__in=archived.plan.usernames())
        .values_list("username", "pk")
    )
    director_actions_write(archived.plan, tournament, users)


def started_replace(tournament: Tournament, state) -> None:
    """Set the tournament's status and which series started as a publishing hall's
    `started` gives them (`{"status": ..., "series": [numbers]}`): a game entered starts
    its series and the tournament without a change of layout, so the sheets carry it.
    Raises InterchangeError and writes nothing then."""
    if (
        not isinstance(state, Mapping)
        or set(state) != {"status", "series"}
        or state["status"] not in Tournament.Status.values
        or not isinstance(state["series"], list)
        or not all(_is_int(n) and 1 <= n <= SMALLINT_MAX for n in state["series"])
    ):
        raise InterchangeError(
            [_("started must be an object of the tournament's status and series numbers")]
        )
    Tournament.objects.filter(pk=tournament.pk).update(status=state["status"])
    tournament.status = state["status"]
    series = tournament.series.all()
    series.filter(number__in=state["series"], started=False).update(started=True)
    series.exclude(number__in=state["series"]).filter(started=True).update(started=False)
