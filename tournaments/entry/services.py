"""Writes of entry at the tables on the players' phones: links, provisional games, the
second copy under double entry, confirming and settling.

Each table of a drawn series gets a private *link*: a random token in its address
(`Table.entry_token`; with double entry a second one, `entry_token_2`, for the second
list keeper). Whoever holds a link keys that table's games on a phone, with no account.
Games keyed through the first link are *provisional* until the sheet is confirmed
(`sheet_confirm`): by the director, or through the second link once both copies agree.
The second keeper's rows go into the table's `SheetCopy`; a row that differs from the
game of the same number is *disputed* and counts nowhere until the director chooses a
version (`sheet_settle`; see `entry.selectors.sheet_copies_compare`). Every row a phone
sends carries the phone's own `client_id`: a row sent again after a network drop is
answered with the row already stored, never entered twice. Every write to a sheet here
goes through the one writing step (`sheets.writing.sheet_write`), as the desk's do; the
row-number check is the desk's (`sheets.services.check_row_number`).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.entry.selectors import CopyRow, sheet_copies_compare, unconfirmed_tables
from tournaments.errors import UserError
from tournaments.games import SHEET_FIELDS, game_build, game_mapping_of
from tournaments.lifecycle import check_not_finished
from tournaments.log.services import Kind, action_record
from tournaments.models import Game, GameChange, Series, SheetCopy, Table, Tournament
from tournaments.permissions import acting_user
from tournaments.phrases import phrase, phrases_of
from tournaments.sheets.services import (
    check_row_number,
    check_series_open,
    game_correct,
    game_snapshot,
    jsonable,
    mark_started,
)
from tournaments.sheets.writing import SheetWrite, locked_table, sheet_write

FIRST_KEEPER, SECOND_KEEPER = 1, 2


def keeper_name(table: Table, keeper: int) -> str:
    """Who keyed a row through a link, as the history shows it (no account behind it)."""
    return phrase("keeper", keeper=keeper, table=table.number)


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
        table = locked_table(table)
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
        table = locked_table(table)
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
    """Phones enter rows only while the tournament runs, the series is in play and the
    sheet open."""
    check_not_finished(table.series.tournament_id, table_id=table.pk)
    if table.series.status == Series.Status.CLOSED:
        raise UserError(_("This series is closed: its sheets take no more games."), code="closed")
    if table.closed:
        raise UserError(_("This sheet is closed: it takes no more games."), code="closed")


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
    with sheet_write(table) as write:
        table = write.table
        existing = Game.objects.filter(client_id=client_id, table=table).first()
        if existing is not None:
            _check_resend(
                table, number=existing.number, stored=_created_mapping(existing), data=data
            )
            write.unchanged()
            return existing, False
        if _client_id_elsewhere(client_id, table=table, copy=False):
            raise _conflict()
        _check_not_deleted(table, client_id)
        _check_entry_open(table)
        expected = (table.games.aggregate(n=Max("number"))["n"] or 0) + 1
        check_row_number(
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
            write.unchanged()
            return existing, False
        write.stamp(game)
        GameChange.objects.create(
            table=table,
            game=game,
            game_number=game.number,
            action=GameChange.Action.CREATED,
            user=None,
            by_name=keeper_name(table, FIRST_KEEPER),
            # The phone's id stays in the history: a late resend of a deleted row is known.
            diff=jsonable({**game_snapshot(game), "client_id": str(client_id)}),
            reason=phrase("table_link"),
            phrases=phrases_of(
                by_name=keeper_name(table, FIRST_KEEPER), reason=phrase("table_link")
            ),
        )
        mark_started(table.series)
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
    with sheet_write(table) as write:
        table = write.table
        copy, _created = SheetCopy.objects.get_or_create(table=table)
        for row in copy.rows:
            if row.get("client_id") == str(client_id):
                stored = row.get("sent", row["data"])
                _check_resend(table, number=row["number"], stored=stored, data=data)
                write.unchanged()
                return row, False
        if _client_id_elsewhere(client_id, table=table, copy=True):
            raise _conflict()
        _check_not_deleted(table, client_id)
        if not table.series.tournament.double_entry:
            raise UserError(_("This tournament has no double entry."), code="closed")
        _check_entry_open(table)
        expected = len(copy.rows) + 1
        check_row_number(
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
        # The second copy decides which rows are disputed, and those count nowhere: the
        # writing step refreshes the seats' totals for it too.
        copy.save(update_fields=["rows", "updated"])
        GameChange.objects.create(
            table=table,
            game=None,
            game_number=expected,
            action=GameChange.Action.CREATED,
            user=None,
            by_name=keeper_name(table, SECOND_KEEPER),
            diff=jsonable({**game_snapshot(game), "client_id": str(client_id)}),
            reason=phrase("table_link_second"),
            phrases=phrases_of(
                by_name=keeper_name(table, SECOND_KEEPER), reason=phrase("table_link_second")
            ),
        )
        mark_started(table.series)
    return row, True


def row_undo_at_table(*, table: Table, client_id, second_copy: bool = False) -> int:
    """Take back the last row a phone entered, while it is still provisional; returns its
    game number.

    Only the phone that sent the row knows its `client_id`, so a keeper takes back their
    own row only, and only the sheet's (or the second copy's) last one: a row with rows
    after it, or one the director has confirmed, is corrected by the director instead. The
    row goes into the history as deleted, with the phone's id (a late resend of it is not
    entered again).
    """
    client_id = _as_client_id(client_id)
    with sheet_write(table) as write:
        table = write.table
        _check_entry_open(table)
        not_last = UserError(
            _("Only the last game entered from this phone can be taken back."), code="not_last"
        )
        if second_copy:
            copy = SheetCopy.objects.filter(table=table).first()
            rows = copy.rows if copy is not None else []
            if not rows or rows[-1].get("client_id") != str(client_id):
                raise not_last
            number, snapshot = rows[-1]["number"], rows[-1]["data"]
            game = table.games.filter(number=number).first()
        else:
            game = table.games.order_by("-number").first()
            if game is None or game.client_id != client_id:
                raise not_last
            number, snapshot = game.number, game_snapshot(game)
        if game is not None and not game.provisional:
            raise UserError(
                _("Game %(n)s is confirmed already: ask the director to correct it.")
                % {"n": number},
                code="confirmed",
            )
        taken_back = phrase("taken_back_second" if second_copy else "taken_back")
        GameChange.objects.create(
            table=table,
            game=None,
            game_number=number,
            action=GameChange.Action.DELETED,
            user=None,
            diff=jsonable({**snapshot, "client_id": str(client_id)}),
            reason=taken_back,
            phrases=phrases_of(reason=taken_back),
        )
        if second_copy:
            copy.rows = rows[:-1]
            copy.save(update_fields=["rows", "updated"])
        else:
            game.delete()
    return number


def sheet_confirm(*, table: Table, user=None, second_keeper: bool = False) -> int:
    """Confirm a sheet: its provisional games become final. Returns how many were confirmed.

    With double entry both copies must agree on every row first (`sheet_settle`); then the
    director or the second list keeper (`second_keeper`, through their link) may confirm.
    """
    with sheet_write(table) as write:
        table = write.table
        check_series_open(table)
        double = table.series.tournament.double_entry
        if second_keeper and not double:
            raise UserError(_("This tournament has no double entry."))
        games = list(table.games.filter(provisional=True).order_by("number"))
        if not games:
            write.unchanged()
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
        write.stamp(*games)
        reason = phrase("sheet_confirmed_second" if second_keeper else "sheet_confirmed")
        by_name = keeper_name(table, SECOND_KEEPER) if second_keeper else ""
        GameChange.objects.bulk_create(
            GameChange(
                table=table,
                game=game,
                game_number=game.number,
                action=GameChange.Action.CORRECTED,
                user=acting_user(user),
                by_name=by_name,
                diff={"provisional": [True, False]},
                reason=reason,
                phrases=phrases_of(by_name=by_name, reason=reason),
            )
            for game in games
        )
        action_record(
            tournament=table.series.tournament,
            kind=Kind.GAMES_CONFIRMED,
            user=user,
            by_name=by_name,
            table=table,
            details={"games": [g.number for g in games]},
            reason=reason,
        )
    return len(games)


def provisional_confirm_all(*, tournament: Tournament, series: Series | None = None, user=None):
    """Confirm every provisional game of a series (of the whole tournament when None) at
    once; a sheet whose two copies differ must be settled first. Returns how many."""
    with transaction.atomic():
        tables = Table.objects.filter(series__tournament=tournament)
        if series is not None:
            tables = tables.filter(series=series)
        found = unconfirmed_tables(tables)
        disputed = [u for u in found if u.disputed]
        if disputed:
            raise UserError(
                _(
                    "The two copies differ at %(where)s: choose a version of each differing "
                    "game first."
                )
                % {
                    "where": ", ".join(
                        _("series %(s)s table %(t)s") % {"s": u.series_number, "t": u.table_number}
                        for u in disputed
                    )
                },
                code="copies_differ",
            )
        count = 0
        for item in found:
            count += sheet_confirm(table=Table(pk=item.table_id), user=user)
    return count


def sheet_settle(*, table: Table, choose: str, number: int | None = None, user=None) -> list[int]:
    """Choose the first or the second copy's version of a row (of every unsettled row when
    `number` is None) under double entry; both copies then agree. Returns the rows settled.

    "second" replaces the game with the second copy's row (a correction in its history) or
    enters it when the first copy lacks it; "first" overwrites the second copy's row with
    the game (the second copy's old row goes into the history) or removes a row the first
    copy lacks. The games stay provisional until the sheet is confirmed.
    """
    if choose not in ("first", "second"):
        raise ValueError(f"choose must be 'first' or 'second', not {choose!r}")
    with sheet_write(table) as write:
        table = write.table
        check_series_open(table)
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
                _settle_second(write, row, user)
            else:
                _settle_first(table, row, copy_rows, user)
        copy.rows = [copy_rows[n] for n in sorted(copy_rows)]
        copy.save(update_fields=["rows", "updated"])
        action_record(
            tournament=table.series.tournament,
            kind=Kind.SETTLED,
            user=user,
            table=table,
            details={"games": sorted(row.number for row in rows), "choose": choose},
        )
    return sorted(row.number for row in rows)


def _settle_second(write: SheetWrite, row: CopyRow, user):
    """The second copy's version of a row, in the settlement's writing step (`write`): a
    correction of the game (`game_correct` joins the step), or the game entered."""
    table = write.table
    reason = phrase("settled_second")
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
        check_row_number(
            number=row.number,
            expected=expected,
            limit=table.series.tournament.games_per_series(table.size),
            size=table.size,
        )
    _check_entry_open(table)
    game = game_build(table=table, number=row.number, data=row.second)
    game.provisional = True
    game.save()
    write.stamp(game)
    GameChange.objects.create(
        table=table,
        game=game,
        game_number=game.number,
        action=GameChange.Action.CREATED,
        user=acting_user(user),
        diff=jsonable(game_snapshot(game)),
        reason=reason,
        phrases=phrases_of(reason=reason),
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
            user=acting_user(user),
            diff=jsonable(removed["data"]),
            reason=phrase("settled_first_removed"),
            phrases=phrases_of(reason=phrase("settled_first_removed")),
        )
        return
    if row.second is None and row.number != last + 1:
        raise UserError(
            _("Fill in the second copy's game %(n)s first: rows go in order.") % {"n": last + 1}
        )
    old = (row.second_game and game_snapshot(row.second_game)) or {}
    new = game_snapshot(row.first_game)
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
        user=acting_user(user),
        diff=jsonable({k: [old.get(k), new[k]] for k in new if old.get(k) != new[k]}),
        reason=phrase("settled_first_replaced"),
        phrases=phrases_of(reason=phrase("settled_first_replaced")),
    )
