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

The seats must be those the site holds (a sheets batch never moves a player: that is a
change of layout, which comes as a whole document): otherwise `SheetsMismatch`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from tournaments.interchange.archive import TABLE_FIELDS as ARCHIVE_TABLE_FIELDS
from tournaments.interchange.archive import SeriesArchive, _ArchiveChecker
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
        states.append((table, checked[-1], series.tables.get(table.number)))
    if checker.messages:
        raise InterchangeError(checker.all_messages())
    return _sheets_write(tournament, states, checker)


def _sheets_write(tournament: Tournament, states: list, checker: _Checker) -> int:
    with sheet_write(states[0][0]) as write:
        locked = [write.join(table) for table, _plan, _state in states]
        table_ids = [table.pk for table in locked]
        for model in (GameChange, PenaltyChange, SheetCopy, Penalty):
            model.objects.filter(table_id__in=table_ids).delete()
        Game.objects.filter(table_id__in=table_ids).delete()
        games, penalties, charged, history = [], [], [], []
        for table, (_old, plan, state) in zip(locked, states, strict=True):
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
            games.append((table.pk, rows, state.client_ids if state is not None else {}))
            penalties.extend(plan.penalties)
            charged.extend(plan.instances.values())
        Table.objects.bulk_update(locked, ["closed", "paper_totals"])
        games_insert(tournament.pk, games, spelt=checker.rows.spelt)
        games_found(charged)
        _insert(Penalty, penalties)
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
