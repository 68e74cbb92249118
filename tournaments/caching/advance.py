"""Standings of a newer version from those of an older one, sharing what did not change.

After a write to score sheets alone (`versions.version_bump` with `sheets`), the standings
of the tournament's new version are those kept for an older version (`selectors.
ComputedStandings`) with the seats of the tables written since read again: the players at
those tables get new rows, every other row is shared (a row whose rank moved is a copy),
and with the rows whatever is kept with them (`tables.QuickBodyMixin.keep_rows`: their
HTML). The series standings taken from them share their rows the same way
(`standings.selectors.series_standings_from`). `caching.standings` keeps the versions;
nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from tournaments.models import Seat, Tournament
from tournaments.standings.selectors import (
    ComputedStandings,
    SeriesProgress,
    SeriesResult,
    StandingRow,
    shared_ranks,
)
from tournaments.standings.sql import STANDING_SEAT_FIELDS


def standings_advance(
    tournament: Tournament, computed: ComputedStandings, *, category: str | None = None
) -> ComputedStandings | None:
    """The standings of the tournament's version from those of an older version, when
    every write between them changed score sheets alone (`versions.version_bump` with
    `sheets`; the caller checks the tournament's `layout`): one query for the seats of the
    tables written since (`Table.sheet_version`), whose stored totals replace those the
    older standings had; the players' rows are added up again and ranked.

    Rows that did not change are shared with the older standings (a row whose rank moved
    is a copy). None when a seat read was not there before (a write that should have
    drawn a new layout): compute the standings afresh.
    """
    seats = Seat.objects.filter(
        series_id__in=computed.series_numbers,
        # The tables' series too: their index (series, sheet_version) finds them.
        table__series_id__in=computed.series_numbers,
        table__sheet_version__gt=computed.version,
    ).order_by()
    if category:
        seats = seats.filter(player__category=category)
    lines = seats.values_list(*STANDING_SEAT_FIELDS)
    known = computed.seats
    changed: dict[int, list[tuple]] = defaultdict(list)
    written = {}
    for line in lines:
        seat = (line[0], line[1])
        before = known.get(seat)
        if before is None or before[2] != line[2]:
            return None
        if before != line:
            changed[line[0]].append((before, line))
            written[seat] = line
    version = tournament.version
    if not changed:
        return _advanced(computed, computed.rows, version, known)
    fresh = {
        row.player_id: _row_changed(row, changed[row.player_id], computed)
        for row in computed.rows
        if row.player_id in changed
    }
    if len(fresh) != len(changed):  # a player without a row: not a sheet's change
        return None
    ordered = sorted(
        (fresh.get(row.player_id, row) for row in computed.rows), key=StandingRow.sort_key
    )
    ranked = shared_ranks(ordered, StandingRow.rank_key, own={id(row) for row in fresh.values()})
    return _advanced(computed, ranked, version, {**known, **written})


def _advanced(computed: ComputedStandings, rows: list, version: int, known: dict):
    """The newer version: the same series and tables (the layout did not change)."""
    return ComputedStandings(
        rows,
        version,
        computed.series_numbers,
        known=known,
        tables=computed.tables,
        open_series=computed.open_series,
    )


def _row_changed(
    row: StandingRow, changes: list[tuple[tuple, tuple]], computed: ComputedStandings
) -> StandingRow:
    """A copy of a player's row with the stored totals of some of their seats replaced."""
    # replace(), not copy(): what is kept with the older row (its HTML) stays with it.
    new = replace(row, series=dict(row.series), provisional_series=set(row.provisional_series))
    for before, line in changes:
        (_p, series_id, _t, list_points, game_points, won, lost, others_lost, games, prov) = line
        number = computed.series_numbers[series_id]
        new.list_points += list_points - before[3]
        new.game_points += game_points - before[4]
        new.won += won - before[5]
        new.lost += lost - before[6]
        new.others_lost += others_lost - before[7]
        new.games += games - before[8]
        new.provisional_series.discard(number)
        if prov:
            new.provisional_series.add(number)
        old = row.series[number]
        new.series[number] = SeriesResult(
            number,
            list_points,
            game_points,
            won,
            lost,
            others_lost,
            old.table,
            games,
            old.closed_short,  # closing short draws a new layout: never advanced across
        )
    new.provisional = bool(new.provisional_series)
    return new


def standings_progress(computed: ComputedStandings, tournament: Tournament) -> list:
    """`series_progress` from the standings of the same version (no query): the tables of
    the series in play with the most games any of their seats has played. Only for
    standings of every player (no category) of every series, whose seats are all there."""
    open_series = computed.open_series
    played: dict[int, int] = {}
    for line in computed.lines_now():
        if line[1] in open_series and line[8] > played.get(line[2], 0):
            played[line[2]] = line[8]
    numbers = computed.series_numbers
    by_series: dict[int, SeriesProgress] = {}
    for table_id, (series_id, _number, size, _short) in computed.tables.items():
        if series_id in open_series:
            number = numbers[series_id]
            entry = by_series.setdefault(number, SeriesProgress(number=number, played=0, length=0))
            entry.played += played.get(table_id, 0)
            entry.length += tournament.games_per_series(size)
    return [by_series[number] for number in sorted(by_series)]
