"""Writing a checked `skat-tournament/1` document, and reading large files in pieces.

`Writer` writes what `interchange`'s checker planned, in one transaction: the players, the
tournament, then each series in bulk with its seats' totals (`series_write`), the version.
`read_header` reads a document's top level but leaves its `series` array in the file
(`STREAMED` in its place), so that `interchange.import_file` can read the series one at a
time (ijson) and the writer checks and writes each before the next is read: memory holds
one series, whatever the size of the file.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import ijson
from django.db import connection, transaction

from tournaments.models import Club, Game, Penalty, Player, Seat, Series, Table, Tournament
from tournaments.registry.services import (
    club_create,
    player_create,
    registration_add,
    tournament_create,
)
from tournaments.sheets.totals import totals_of_rows
from tournaments.versions import version_bump

GAME_BATCH = 2000
# The top-level `series` array, left in the file for the second reading.
STREAMED = object()


class InterchangeError(Exception):
    """A document that cannot be imported; `messages` name each problem and its place."""

    def __init__(self, messages):
        self.messages = [str(message) for message in messages]
        super().__init__("\n".join(self.messages))

    def __str__(self):
        return "\n".join(self.messages)


class Writer:
    def __init__(self, checker):
        self.plan = checker
        self.clubs: dict[str, Club] = {}

    def club(self, name: str) -> Club:
        if name not in self.clubs:
            club = Club.objects.filter(name=name).first()
            self.clubs[name] = club or club_create(name=name)
        return self.clubs[name]

    def players(self) -> dict[str, Player]:
        """Reuse existing players by name and club (the k-th of equals the k-th by pk)."""
        names = {p.name for p in self.plan.players}
        existing: dict[tuple[str, str | None], list[Player]] = defaultdict(list)
        for player in Player.objects.filter(name__in=names).select_related("club").order_by("pk"):
            existing[(player.name, player.club.name if player.club else None)].append(player)
        by_id = {}
        for entry in self.plan.players:
            reusable = existing[(entry.name, entry.club)]
            if reusable:
                by_id[entry.id] = reusable.pop(0)
            else:
                by_id[entry.id] = player_create(
                    name=entry.name,
                    club=self.club(entry.club) if entry.club else None,
                    team=entry.team,
                )
        return by_id

    def write(self, entries: Iterable | None = None) -> Tournament:
        """Write the checked document in one transaction.

        `entries`: the document's series, read one at a time (`import_file`): each is
        checked, written in bulk and dropped before the next is read, so memory holds one
        series, whatever the size of the file. Without it, the series the checker planned.
        A problem anywhere raises InterchangeError and nothing stays written.
        """
        plan = self.plan
        with transaction.atomic():
            tournament = None if plan.messages else self._write_tournament()
            state = {"games": False, "series": 0, "closed": 0}
            if entries is None:
                for series_plan in plan.series:
                    series_write(tournament, series_plan, self.by_id, state)
            else:
                for index, data in enumerate(entries):
                    series_plan = plan.check_one_series(index, data)
                    plan.series.clear()
                    if series_plan is not None and not plan.messages:
                        series_write(tournament, series_plan, self.by_id, state)
                if plan.messages:
                    raise InterchangeError(plan.all_messages())
            if state["series"] and state["closed"] == state["series"]:
                tournament.status = Tournament.Status.FINISHED
            elif state["games"]:
                tournament.status = Tournament.Status.RUNNING
            else:
                tournament.status = Tournament.Status.PLANNED
            tournament.save(update_fields=["status"])
            version_bump(tournament_id=tournament.pk)
        return tournament

    def _write_tournament(self) -> Tournament:
        """The owner, the players, the tournament and its registrations."""
        plan = self.plan
        settings = plan.tournament
        owner = plan.owner if isinstance(plan.owner, Club) else self.club(plan.owner)
        players = self.players()
        self.by_id = players
        tournament = tournament_create(
            club=owner,
            name=settings.name,
            date=settings.date,
            rules=settings.rules,
            list_scoring=settings.list_scoring,
            bonus_won=settings.bonus_won,
            bonus_lost=settings.bonus_lost,
            bonus_others_3=settings.bonus_others_3,
            bonus_others_4=settings.bonus_others_4,
            games_per_series_3=settings.games_per_series_3,
            games_per_series_4=settings.games_per_series_4,
            kontra_allowed=settings.kontra_allowed,
            # Imported results are finished work from elsewhere: show them.
            published=True,
        )
        registration_add(tournament=tournament, players=[players[p.id] for p in plan.players])
        return tournament


def insert(model, objects: list):
    """Insert and set the primary keys (bulk where the database returns them)."""
    if not objects:
        return
    if connection.features.can_return_rows_from_bulk_insert:
        model.objects.bulk_create(objects, batch_size=GAME_BATCH)
    else:  # pragma: no cover - every supported database returns the keys
        for obj in objects:
            obj.save(force_insert=True)


def series_write(tournament: Tournament, series_plan, players: dict[str, Player], state: dict):
    """One series' rows in bulk: its tables, seats, games and penalties."""
    tables, seats, games, penalties = [], [], [], []
    series = series_plan.series
    series.tournament = tournament
    for table_plan in series_plan.tables:
        table = table_plan.table
        table.closed = len(table_plan.games) == tournament.games_per_series(table.size)
        tables.append(table)
        for game in table_plan.games:
            game.tournament = tournament
        games.extend(table_plan.games)
        penalties.extend(table_plan.penalties)
        # The seats' totals from the games in hand: computed once, written with the seats.
        totals = totals_of_rows(
            size=table.size, games=table_plan.games, penalties=table_plan.penalties
        )
        seats.extend(
            Seat(
                table=table,
                table_size=table.size,
                series=series,
                number=number,
                player=players[pid],
                **totals[number],
            )
            for number, pid in enumerate(table_plan.player_ids, start=1)
        )
    series.started = any(t.games for t in series_plan.tables)
    closed = all(t.table.closed for t in series_plan.tables)
    series.status = Series.Status.CLOSED if closed else Series.Status.OPEN
    insert(Series, [series])
    insert(Table, tables)
    Seat.objects.bulk_create(seats, batch_size=GAME_BATCH)
    Game.objects.bulk_create(games, batch_size=GAME_BATCH)
    Penalty.objects.bulk_create(penalties, batch_size=GAME_BATCH)
    state["games"] = state["games"] or bool(games)
    state["series"] += 1
    state["closed"] += closed


class NotAnObject(ValueError):
    """The file holds JSON, but not an object at the top."""


def read_header(path) -> dict:
    """The document's top level with the series array skipped (`STREAMED` in its place)."""
    with open(path, "rb") as file:
        events = ijson.parse(file, use_float=True)
        _prefix, event, _value = next(events)
        if event != "start_map":
            raise NotAnObject(path)
        doc: dict = {}
        key = None
        builder = None
        depth = 0
        for _prefix, event, value in events:
            if depth == 0:
                if event == "map_key":
                    key = value
                elif event == "end_map":
                    break
                elif event in ("start_map", "start_array"):
                    depth = 1
                    if key == "series" and event == "start_array":
                        doc[key] = STREAMED
                    else:
                        builder = ijson.ObjectBuilder()
                        builder.event(event, value)
                else:
                    doc[key] = value
                continue
            if event in ("start_map", "start_array"):
                depth += 1
            elif event in ("end_map", "end_array"):
                depth -= 1
            if builder is not None:
                builder.event(event, value)
                if depth == 0:
                    doc[key] = builder.value
                    builder = None
        return doc
