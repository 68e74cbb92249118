"""Import, second half: the checked tables written as they come, in chunks, in one
transaction; then the archive's parts (`interchange.archive`, `archive_write` below).

`import_source` drives the checker (`reader`) over a document; the writer is its sink.
Nothing touches the database until the first chunk of games has been checked (a small
document is checked whole first). Each chunk of tables is written with its seats, their
totals (`sheets.totals.seat_figures`), its games (`rows.games_insert`) and penalties,
and then let go, so an import holds no more than a chunk of games. Once the checker has
a message nothing more is written, the checks go on, and the transaction is rolled back:
all or nothing, with every message.

What the writes need of the archive before it is checked against the tables (the slug,
the club, the series' draw and each table's state) comes from a preview: the archive
checked against every table the document names, with room for any number of games. Where
the real check finds nothing wrong, the preview holds the same values (it is the same
check against more and larger tables); where it does, the import is rolled back anyway.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from contextlib import ExitStack

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.interchange.archive import (
    ArchivePlan,
    archive_check,
    director_actions_write,
    restore_times,
)
from tournaments.interchange.common import GAME_BATCH, SMALLINT_MAX, InterchangeError, _is_int
from tournaments.interchange.reader import _Checker, _SeriesPlan, _TablePlan
from tournaments.interchange.rows import GameRows, games_insert, seats_insert
from tournaments.models import (
    Club,
    Game,
    GameChange,
    Payment,
    Penalty,
    PenaltyChange,
    Player,
    Prize,
    Registration,
    Season,
    Series,
    SheetCopy,
    Table,
    Tournament,
)
from tournaments.ratings.services import date_key, ratings_replay
from tournaments.registry.matching import PlayerTally, Wanted, player_label, players_matching
from tournaments.registry.services import (
    club_create,
    memberships_join,
    players_create,
    registrations_restore,
    season_create,
    tournament_create,
    tournament_purge,
)
from tournaments.sheets.totals import seat_figures
from tournaments.sheets.writing import tables_rewritten

# Games checked before a chunk of tables is written (and then let go).
CHUNK_GAMES = 20_000
# Values per `IN (...)` list (SQLite allows 999 parameters in older versions).
IN_BATCH = 900


def _insert(model, objects: list):
    """Insert and set the primary keys (bulk where the database returns them)."""
    if not objects:
        return
    if connection.features.can_return_rows_from_bulk_insert:
        model.objects.bulk_create(objects, batch_size=GAME_BATCH)
    else:  # pragma: no cover - every supported database returns the keys
        for obj in objects:
            obj.save(force_insert=True)


def _batches(items: list, size: int = IN_BATCH):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _outline_tables(entries) -> dict[tuple[int, int], tuple[int, int]]:
    """Every (series, table) number the document names, with room for any game or penalty:
    what the archive preview is checked against."""
    tables = {}
    for series in entries if isinstance(entries, list) else []:
        if not isinstance(series, Mapping) or not _is_int(series.get("number")):
            continue
        for table in series.get("tables") if isinstance(series.get("tables"), list) else []:
            if isinstance(table, Mapping) and _is_int(table.get("number")):
                tables[(series["number"], table["number"])] = (SMALLINT_MAX, 1 << 62)
    return tables


class _Writer:
    """The checker's sink: writes checked tables in chunks inside one transaction."""

    def __init__(
        self,
        *,
        replace: bool,
        stack: ExitStack,
        season: Season | None = None,
        published: bool | None = None,
        tally: PlayerTally | None = None,
    ):
        self.tally = tally if tally is not None else PlayerTally()
        self.replace = replace
        self.in_season = season  # a season document's match day: its season, and
        self.published = published  # whether it is shown, say so instead of an archive
        self.stack = stack
        self.replaced_on = None  # the date of the tournament an import replaces
        self.c: _Checker | None = None
        self.clubs: dict[str, Club] = {}
        self.preview: ArchivePlan | None = None
        self.owner: Club | str | None = None
        self.refused = False  # the preview already shows the document cannot be imported
        self.begun = False
        self.stopped = False  # nothing more is written
        self.failure: list[str] | None = None  # a write the site refused
        self.pending: list[tuple[_SeriesPlan, _TablePlan]] = []
        self.pending_games = 0
        self.tournament: Tournament | None = None
        self.players: dict[str, Player] = {}

    # -- before the series ------------------------------------------------------------

    def prepare(self, ids: set[str]):
        """The archive preview and the club, once the head is checked."""
        doc = self.c.doc
        if "archive" in doc:
            scratch = _Checker(None, None)
            scratch.players = self.c.players  # the archive's players are checked with them
            self.preview = archive_check(
                scratch,
                doc["archive"],
                player_ids=ids,
                tables=_outline_tables(doc.get("series")),
            )
            self.refused = bool(scratch.messages or scratch.more)
        self.owner, message = self.c.owner_of(self.preview)
        self.refused |= message is not None

    def begin(self):
        """Open the transaction and write the tournament, its players and registrations."""
        self.begun = True
        if self.refused or self.c.messages:
            self.stopped = True
            return
        # A season's match day is written in the season's transaction, which the season
        # import rolls back whole on any error: no savepoint of its own (two queries a day).
        self.stack.enter_context(transaction.atomic(savepoint=self.in_season is None))
        slug = self.slug()
        existing = Tournament.objects.select_for_update().filter(slug=slug).first()
        if existing is not None and self.in_season is not None:
            # A season document's match day keeps its slug (its addresses); there is no
            # replacing within a season import.
            self.refuse(
                _("the site already has a tournament '%(slug)s': nothing was imported")
                % {"slug": slug}
            )
            return
        if existing is not None and not self.replace:
            self.refuse(
                _(
                    "tournament '%(slug)s' already exists: nothing was imported "
                    "(replace it with --replace)"
                )
                % {"slug": slug}
            )
            return
        if existing is not None:
            self.replaced_on = existing.date
            tournament_purge(tournament=existing)
        try:
            # A savepoint: an import of the same document at the same time (on PostgreSQL
            # the lock above finds no row to lock) writes this slug, or the archived
            # season's, first; that is a refusal, not a crash.
            with transaction.atomic():
                self.tournament = self.tournament_write(slug)
        except UserError as error:  # a service refused what the checks let through
            self.refuse(str(error))
            return
        except IntegrityError:
            self.refuse(
                _(
                    "tournament '%(slug)s' was written by another import at the same time: "
                    "nothing was imported"
                )
                % {"slug": slug}
            )
            return
        client_ids = [
            client_id
            for series in (self.preview.series.values() if self.preview else [])
            for table in series.tables.values()
            for client_id in table.client_ids.values()
        ]
        for batch in _batches(client_ids):
            if Game.objects.filter(client_id__in=batch).exists():
                self.refuse(_("archive: the site already holds games of these phone rows"))
                return

    def refuse(self, message: str):
        self.failure = [message]
        self.stopped = True

    def club(self, name: str) -> Club:
        if name not in self.clubs:
            club = Club.objects.filter(name=name).first()
            self.clubs[name] = club or club_create(name=name)
        return self.clubs[name]

    def players_write(self) -> dict[str, Player]:
        """Who the document's players are (`registry.matching`: the archive's federation
        number, else the name among the club's members), the others created; a player
        found who does not play for the document's club yet joins it. Several candidates
        for one player, or one player for two, refuse the document."""
        entries = self.c.players
        archived = self.preview.players if self.preview else {}
        extras = {entry.id: archived.get(entry.id, {}) for entry in entries}
        wanted = [
            Wanted(
                name=entry.name,
                club=self.club(entry.club) if entry.club else None,
                federation_number=extras[entry.id].get("federation_number") or "",
            )
            for entry in entries
        ]
        matches = players_matching(wanted)
        problems = []
        for entry, match in zip(entries, matches, strict=True):
            if match.ambiguous:
                problems.append(
                    _(
                        "players: '%(id)s' (%(name)s) could be any of %(players)s; give its "
                        "federation number in the archive: nothing was imported"
                    )
                    % {
                        "id": entry.id,
                        "name": entry.name,
                        "players": "; ".join(player_label(p) for p in match.candidates),
                    }
                )
            elif match.same_as is not None:
                problems.append(
                    _(
                        "players: '%(id)s' and '%(other)s' are both %(player)s: nothing was "
                        "imported"
                    )
                    % {
                        "id": entries[match.same_as].id,
                        "other": entry.id,
                        "player": player_label(match.player),
                    }
                )
            elif match.name_differs:
                self.tally.warnings.append(
                    _(
                        "players: '%(id)s' (%(name)s) has federation number %(number)s, which "
                        "is %(player)s on the site: linked, not renamed"
                    )
                    % {
                        "id": entry.id,
                        "name": entry.name,
                        "number": extras[entry.id].get("federation_number"),
                        "player": player_label(match.player),
                    }
                )
        if problems:
            raise InterchangeError(problems)
        by_id, new = {}, []
        for entry, want, match in zip(entries, wanted, matches, strict=True):
            if match.player is not None:
                by_id[entry.id] = match.player
                continue
            fields = {"name": entry.name, "club": want.club, "team": entry.team}
            new.append((entry.id, {**fields, **extras[entry.id]}))
        memberships_join(
            [(m.player, w.club) for w, m in zip(wanted, matches, strict=True) if m.joins]
        )
        try:
            created = players_create([fields for _id, fields in new])
        except UserError as error:  # a federation number another player of the club has
            raise UserError(
                _("%(place)s: %(message)s") % {"place": _("players"), "message": error}
            ) from None
        for (player_id, _fields), player in zip(new, created, strict=True):
            by_id[player_id] = player
        self.tally.add(matches, created)
        return by_id

    def slug(self) -> str:
        """The archived slug, else the one `tournament_create` would give a new tournament."""
        archive, settings = self.preview, self.c.tournament
        if archive is not None and archive.slug:
            return archive.slug
        return slugify(f"{settings.name} {settings.date:%Y-%m-%d}")[:74].strip("-") or "t"

    def tournament_write(self, slug: str) -> Tournament:
        settings, archive = self.c.tournament, self.preview
        owner = self.owner if isinstance(self.owner, Club) else self.club(self.owner)
        self.players = self.players_write()
        extra = {"published": True}  # imported results are finished work: show them
        season = None
        if archive is not None:
            extra = {
                key: value
                for key, value in archive.tournament.items()
                if key in ("published", "double_entry", "team_best_n")
            }
            if self.in_season is None:  # (a match day's season is the document's)
                season = self.season(archive.season, owner)
        if self.in_season is not None:
            season = self.in_season
        if self.published is not None:
            extra["published"] = self.published
        tournament = tournament_create(
            club=owner,
            name=settings.name,
            date=settings.date,
            season=season,
            slug=slug,
            rules=settings.rules,
            list_scoring=settings.list_scoring,
            bonus_won=settings.bonus_won,
            bonus_lost=settings.bonus_lost,
            bonus_others_3=settings.bonus_others_3,
            bonus_others_4=settings.bonus_others_4,
            games_per_series_3=settings.games_per_series_3,
            games_per_series_4=settings.games_per_series_4,
            games_per_series_5=settings.games_per_series_5,
            five_tables=settings.five_tables,  # so far: a table of five seen later sets it
            ramsch_rule=settings.ramsch_rule,
            ramsch_tie_both_win=settings.ramsch_tie_both_win,
            kontra_allowed=settings.kontra_allowed,
            checked=True,  # by the reader (`_Checker.check_tournament`); the slug in `begin`
            **extra,
        )
        if archive is None or archive.registrations is None:
            registered = [self.players[p.id] for p in self.c.players]
        else:
            registered = [self.players[pid] for pid, _lot in archive.registrations]
        registrations_restore(tournament=tournament, players=registered)
        return tournament

    def season(self, data: dict | None, owner: Club) -> Season | None:
        """The archived league season: the site's of that slug, else a new one of `owner`."""
        if data is None:
            return None
        season = Season.objects.filter(slug=data["slug"]).first()
        return season or season_create(
            club=owner, name=data["name"], teams_best_n=data["teams_best_n"], slug=data["slug"]
        )

    # -- the series -------------------------------------------------------------------

    def take(self, series_plan: _SeriesPlan, table_plan: _TablePlan | None):
        """A checked table (None: the series is complete)."""
        if table_plan is None or self.stopped or self.c.messages:
            return
        self.pending.append((series_plan, table_plan))
        self.pending_games += len(table_plan.games)
        if self.pending_games >= CHUNK_GAMES:
            self.flush()

    def kept(self, series: int, table: int | None = None):
        """The archive preview's state of a series (or one of its tables), or None."""
        kept = self.preview.series.get(series) if self.preview else None
        if kept is None or table is None:
            return kept
        return kept.tables.get(table)

    def series_write(self):
        """Insert the series met so far that are not written yet (document order)."""
        new = []
        for plan in self.c.series:
            series = plan.series
            if series.pk is None:
                series.tournament = self.tournament
                kept = self.kept(series.number)
                for name, value in kept.values.items() if kept else ():
                    setattr(series, name, value)
                new.append(series)
        _insert(Series, new)

    def flush(self):
        """Write the pending tables: tables, seats with their totals, games, penalties."""
        if not self.begun:
            self.begin()
        pending, self.pending, self.pending_games = self.pending, [], 0
        if self.stopped or self.c.messages:
            self.stopped = True
            return
        self.series_write()
        tournament = self.tournament
        tables, seats, games, penalties, charged = [], [], [], [], []
        for series_plan, plan in pending:
            table = plan.table
            table.series = series_plan.series
            table.closed = len(plan.games) == tournament.games_per_series(table.size)
            state = self.kept(series_plan.series.number, table.number)
            rows = plan.games
            if state is not None:
                table.closed, table.paper_totals = state.closed, state.paper_totals
                if state.provisional:
                    rows = [
                        row._replace(provisional=True) if number in state.provisional else row
                        for number, row in enumerate(rows, start=1)
                    ]
            tables.append(table)
            totals = seat_figures(size=table.size, games=rows, penalties=plan.penalties)
            seats.append((table, series_plan.series.pk, plan.player_ids, totals))
            client_ids = state.client_ids if state is not None else {}
            games.append((table, rows, client_ids))
            penalties.extend(plan.penalties)
            charged.extend(plan.instances.values())
        _insert(Table, tables)
        players = self.players
        seats_insert(
            [
                (table.pk, series_id, number, players[pid].pk, table.size) + totals[number]
                for table, series_id, player_ids, totals in seats
                for number, pid in enumerate(player_ids, start=1)
            ]
        )
        games_insert(
            tournament.pk,
            [(table.pk, rows, client_ids) for table, rows, client_ids in games],
            spelt=self.c.rows.spelt,
        )
        self.games_found(charged)
        _insert(Penalty, penalties)

    def games_found(self, games: list[Game]):
        games_found(games)

    # -- after the series -------------------------------------------------------------

    def finish(self) -> Tournament:
        """Write what is pending, the statuses and the archive's parts; or raise."""
        checker = self.c
        # Every table is checked: the series' statuses are final. Those not written yet
        # are inserted with them (a document of one chunk: every series), the others
        # updated.
        written = [plan.series for plan in checker.series if plan.series.pk is not None]
        for plan in checker.series:
            series = plan.series
            kept = self.kept(series.number)
            series.started = plan.games > 0
            closed = plan.closed == plan.tables
            series.status = Series.Status.CLOSED if closed else Series.Status.OPEN
            for name, value in kept.values.items() if kept else ():
                setattr(series, name, value)
        self.flush()
        if self.failure:
            raise InterchangeError(self.failure)
        self.series_write()
        tournament = self.tournament
        archive = checker.archive
        if written:
            Series.objects.bulk_update(written, ["started", "status"])
        if checker.tournament.five_tables and not tournament.five_tables:
            tournament.five_tables = True  # a table of five after the first chunk
            tournament.save(update_fields=["five_tables"])
        if archive is not None and "status" in archive.tournament:
            tournament.status = archive.tournament["status"]
        elif checker.series and all(
            p.series.status == Series.Status.CLOSED for p in checker.series
        ):
            tournament.status = Tournament.Status.FINISHED
        elif any(plan.games for plan in checker.series):
            tournament.status = Tournament.Status.RUNNING
        else:
            tournament.status = Tournament.Status.PLANNED
        tournament.save(update_fields=["status"])
        copied = []
        if archive is not None:
            copied = archive_write(
                archive, tournament=tournament, players=self.players, tables=checker.tables
            )
        # The seats' stored totals (read by the standings) were written with the seats from
        # the rows; a table with a second copy has disputed rows, which count nowhere
        # until settled: those seats again, from the games and the copies.
        tables_rewritten(tournament_id=tournament.pk, table_ids=copied)
        # The closed tables are results in the ratings' order (an old tournament lands
        # among later ones): replay from its date, or the replaced one's if earlier.
        ratings_replay(since=date_key(min(tournament.date, self.replaced_on or tournament.date)))
        return tournament


def import_source(
    doc,
    *,
    club=None,
    replace: bool = False,
    tables_of=iter,
    finished=None,
    season: Season | None = None,
    published: bool | None = None,
    rows: GameRows | None = None,
    tally: PlayerTally | None = None,
) -> Tournament:
    """Check and write a document whose series' tables `tables_of` gives in full (see
    `check_series`; `finished()` is called after the last); InterchangeError with every
    message, and nothing written, if wrong. `season` and `published` (a season document's
    match day, `leagues.interchange`) are the new tournament's, over the archive's; `rows`
    the valued games the season's match days share (`rows.GameRows`); `tally` counts the
    players matched and created (`registry.matching.PlayerTally`)."""
    with ExitStack() as stack:
        writer = _Writer(
            replace=replace, stack=stack, season=season, published=published, tally=tally
        )
        checker = writer.c = _Checker(doc, club, sink=writer.take, rows=rows)
        try:
            ids = checker.check_head()
            writer.prepare(ids)
            checker.check_series(checker.series_entries(), ids, tables_of)
            if finished is not None:
                finished()
            checker.check_tail(ids)
            return writer.finish()
        except UserError as error:  # a service refused what the checks let through
            raise InterchangeError([str(error)]) from None


def import_document(
    doc,
    *,
    club: Club | str | None = None,
    replace: bool = False,
    tally: PlayerTally | None = None,
) -> Tournament:
    """Create a tournament from a document, or raise InterchangeError and write nothing.

    `club` runs the tournament: a Club, or a club name (created if missing); by default the
    archived club, else the most frequent club of the document's players. A tournament of
    the same slug (archived, else from name and date) is refused unless `replace`, which
    deletes it and imports the document in one transaction. Players are matched as
    `registry.matching` says; `tally` counts them.
    """
    return import_source(doc, club=club, replace=replace, tally=tally)


# --------------------------------------------------------------------------------------
# The archive's parts (`interchange.archive`)
# --------------------------------------------------------------------------------------


def archive_write(archive: ArchivePlan, *, tournament: Tournament, players, tables) -> list[int]:
    """After the sheets: lots, money, history and second copies of the archive; `tables`
    lists the (series, table) numbers in document order. Returns the tables with a second
    copy."""
    users = dict(
        get_user_model()
        .objects.filter(username__in=archive.usernames())
        .values_list("username", "pk")
    )
    registrations = {r.player_id: r for r in Registration.objects.filter(tournament=tournament)}
    lots = []
    for player_id, lot in archive.registrations or []:
        registration = registrations[players[player_id].pk]
        registration.lot = lot
        lots.append((lot, registration.pk))
    if lots:
        with connection.cursor() as cursor:  # one statement for all (not a CASE of each)
            cursor.executemany(
                "UPDATE {} SET {} = %s WHERE {} = %s".format(
                    *map(connection.ops.quote_name, (Registration._meta.db_table, "lot", "id"))
                ),
                lots,
            )

    if archive.money:
        for name, value in archive.money.items():
            setattr(tournament, name, value)
        tournament.full_clean(exclude=["slug", "club", "season"])
        tournament.save(update_fields=list(archive.money))
    for prize in archive.prizes:
        prize.tournament = tournament
        prize.full_clean(exclude=["tournament"])
    _insert(Prize, archive.prizes)
    payments, times = [], []
    for player_id, payment, by in archive.payments:
        registration = registrations.get(players[player_id].pk)
        if registration is None:
            raise InterchangeError(
                [_("a payment names player '%(id)s', who is not registered") % {"id": player_id}]
            )
        payment.registration, payment.user_id = registration, users.get(by)
        payments.append(payment)
        times.append(payment.at)
    _insert(Payment, payments)
    restore_times(Payment, payments, "at", times)

    # The tables in document order, and the games and penalties the history names.
    pks = {
        (series, number): pk
        for series, number, pk in Table.objects.filter(series__tournament=tournament).values_list(
            "series__number", "number", "pk"
        )
    }
    states = []
    for series, number in tables:
        kept = archive.series.get(series)
        state = kept.tables.get(number) if kept else None
        if state is not None:
            states.append((pks[(series, number)], state))
    copied = tables_history_write(states, users)
    director_actions_write(archive, tournament, users)
    return copied


def games_found(games: list[Game]):
    """Give the unsaved games penalties name their inserted rows' keys."""
    wanted = {(game.table.pk, game.number): game for game in games}
    for batch in _batches(sorted({table_id for table_id, _n in wanted})):
        for table_id, number, pk in Game.objects.filter(table_id__in=batch).values_list(
            "table_id", "number", "pk"
        ):
            game = wanted.get((table_id, number))
            if game is not None:
                game.pk = pk


def tables_history_write(states: list, users: dict) -> list[int]:
    """The archived state of written tables, given as (table id, `TableArchive`): their
    games' and penalties' history and second copies (the games and penalties are written
    already). Returns the tables with a second copy. The import and a publishing hall's
    sheets (`interchange.sheets`) write a table's history through this one function."""
    games, penalties = _keys_of(
        [pk for pk, state in states if any(current for _c, current, _b in state.game_changes)],
        [pk for pk, state in states if state.penalty_changes],
    )
    game_changes, penalty_changes, copies = [], [], []
    for table_id, state in states:
        for change, current, by in state.game_changes:
            change.table_id, change.user_id = table_id, users.get(by)
            change.game_id = games.get((table_id, change.game_number)) if current else None
            game_changes.append(change)
        for change, index, by in state.penalty_changes:
            change.table_id, change.user_id = table_id, users.get(by)
            change.penalty_id = None if index is None else penalties[table_id][index]
            penalty_changes.append(change)
        if state.second_copy is not None:
            copies.append(SheetCopy(table_id=table_id, rows=state.second_copy))
    for model, changes in ((GameChange, game_changes), (PenaltyChange, penalty_changes)):
        times = [change.at for change in changes]
        _insert(model, changes)
        restore_times(model, changes, "at", times)
    SheetCopy.objects.bulk_create(copies)
    return [copy.table_id for copy in copies]


def _keys_of(game_tables: list[int], penalty_tables: list[int]):
    """{(table id, game number): game id} of the first tables, and {table id: [penalty ids
    in id order]} of the second (a penalty change names its penalty by that index)."""
    games = {}
    for batch in _batches(game_tables):
        for table_id, number, pk in Game.objects.filter(table_id__in=batch).values_list(
            "table_id", "number", "pk"
        ):
            games[(table_id, number)] = pk
    penalties = defaultdict(list)
    for batch in _batches(penalty_tables):
        for table_id, pk in (
            Penalty.objects.filter(table_id__in=batch)
            .order_by("table_id", "id")
            .values_list("table_id", "pk")
        ):
            penalties[table_id].append(pk)
    return games, penalties
