"""The archive: the optional `archive` object of a `skat-tournament/1` document.

The contract (interchange.md) carries the settings, the players, the seats, the games and
the penalties. The archive adds, under one key that readers of the contract ignore, what a
club needs to keep a tournament whole: the money, the history of corrections, the
provisional and double-entry state, the draw and the director's action log. Every field
is written on export (`archive_export`); on import the whole object is optional, and
without it the contract's choices apply (`interchange` docstring). Here: the fields, the
archive checked into a plan (`archive_check`) and the times and actions put back. The
README documents the fields next to the tournament document.

Terms: an *amount* is a decimal string ("5.00"); a *time* is ISO 8601 in UTC; *by* is a
username (on import: that user when the site has one, else nobody); a game change is
*current* when it belongs to the game now at its number (a deleted game's history is not).

Private table links (entry tokens) are not archived: they are keys, and a restored
tournament issues new ones.
"""

from __future__ import annotations

import datetime
import functools
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import connection
from django.utils.translation import gettext as _

from tournaments.interchange.common import _is_int, _shown
from tournaments.models import (
    ActionLog,
    Category,
    GameChange,
    Payment,
    PenaltyChange,
    Prize,
    Series,
    Tournament,
)
from tournaments.money.services import lost_game_tier_problem

ARCHIVE_FIELDS = ("tournament", "players", "registrations", "money", "series", "director_actions")
TOURNAMENT_FIELDS = (
    "slug",
    "club",
    "season",
    "status",
    "published",
    "double_entry",
    "team_best_n",
)
SEASON_FIELDS = ("slug", "name", "teams_best_n")
PLAYER_FIELDS = ("id", "category", "federation_number", "listed")
REGISTRATION_FIELDS = ("player", "lot")
FEE_FIELDS = ("entry_fee", "table_fee", "lost_game_fee", "lost_game_fee_high")
MONEY_FIELDS = (
    "currency",
    *FEE_FIELDS,
    "lost_game_fee_from",
    "prizes_split_ties",
    "prizes",
    "payments",
)
PRIZE_FIELDS = ("scope", "series", "category", "rank", "amount", "share")
PAYMENT_FIELDS = ("player", "kind", "amount", "note", "at", "by")
SERIES_FIELDS = ("number", "draw_seed", "draw_method", "keep_apart", "status", "started", "tables")
TABLE_FIELDS = (
    "number",
    "closed",
    "paper_totals",
    "provisional",
    "client_ids",
    "second_copy",
    "game_changes",
    "penalty_changes",
)
SECOND_COPY_FIELDS = ("number", "client_id", "data")
GAME_CHANGE_FIELDS = ("game", "action", "current", "at", "by", "diff", "reason")
PENALTY_CHANGE_FIELDS = (
    "action",
    "penalty",
    "seat",
    "points",
    "penalty_reason",
    "at",
    "by",
    "reason",
)
DIRECTOR_ACTION_FIELDS = ("kind", "at", "by", "by_name", "series", "table", "details", "reason")
BIGINT = 1 << 63


# --------------------------------------------------------------------------------------
# Director actions: the action log of the tournament (`tournaments.log`), one entry per
# line in time order (then id). The series and table are plain numbers, as the log keeps
# them (a redraw or a removed series leaves lines naming tables that no longer exist), so
# they are checked as numbers, not against the document's tables. The once `key` is not
# archived: it answers a form sent twice within moments, a restore replaces the tournament
# anyway, and keys are unique on the site, so a restored copy next to its original would
# collide (like the entry tokens, keys are not archived).
# --------------------------------------------------------------------------------------


def restore_times(model, objects: list, name: str, times: list):
    """`auto_now_add` stamps an insert with the present: put the archived times back (one
    UPDATE statement executed for all rows; `bulk_update` builds a CASE of every row)."""
    field = model._meta.get_field(name)
    quote = connection.ops.quote_name
    params = [
        (field.get_db_prep_save(moment, connection), obj.pk)
        for obj, moment in zip(objects, times, strict=True)
    ]
    for obj, moment in zip(objects, times, strict=True):
        setattr(obj, name, moment)
    if params:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {quote(model._meta.db_table)} SET {quote(field.column)} = %s "
                f"WHERE {quote(model._meta.pk.column)} = %s",
                params,
            )


def director_actions_write(plan: ArchivePlan, tournament: Tournament, users) -> None:
    """Write the director's actions of the archive with their archived times.

    The archived log replaces the lines the import itself wrote (registrations added).
    """
    if plan.director_actions is None:
        return
    ActionLog.objects.filter(tournament=tournament).delete()
    actions = []
    for action, by in plan.director_actions:
        action.tournament, action.club_id = tournament, tournament.club_id
        action.user_id = users.get(by)
        actions.append(action)
    times = [action.at for action in actions]
    ActionLog.objects.bulk_create(actions, batch_size=1000)
    # `at` is auto_now_add: put the archived times back (as the history's times).
    restore_times(ActionLog, actions, "at", times)


# --------------------------------------------------------------------------------------
# Import: the archive checked into a plan
# --------------------------------------------------------------------------------------


@functools.cache
def _values(choices) -> tuple[str, ...]:
    """A choices class's values (`values` builds a new list at every call; an archive asks
    once per entry)."""
    return tuple(choices.values)


@dataclass
class TableArchive:
    closed: bool = False
    paper_totals: dict = field(default_factory=dict)
    provisional: set[int] = field(default_factory=set)
    client_ids: dict[int, uuid.UUID] = field(default_factory=dict)
    second_copy: list | None = None
    # (unsaved change, its game is the current one); (unsaved change, penalty index).
    game_changes: list[tuple[GameChange, bool, str | None]] = field(default_factory=list)
    penalty_changes: list[tuple[PenaltyChange, int | None, str | None]] = field(
        default_factory=list
    )


@dataclass
class SeriesArchive:
    values: dict  # draw_seed, draw_method, keep_apart, status, started
    tables: dict[int, TableArchive] = field(default_factory=dict)


@dataclass
class ArchivePlan:
    slug: str | None = None
    club: str | None = None
    season: dict | None = None
    tournament: dict = field(default_factory=dict)  # status, published, double_entry, ...
    players: dict[str, dict] = field(default_factory=dict)
    registrations: list[tuple[str, int | None]] | None = None
    money: dict = field(default_factory=dict)
    prizes: list[Prize] = field(default_factory=list)
    payments: list[tuple[str, Payment, str | None]] = field(default_factory=list)
    series: dict[int, SeriesArchive] = field(default_factory=dict)
    # None: the archive has no log (the import's own lines stay).
    director_actions: list[tuple[ActionLog, str | None]] | None = None

    def usernames(self) -> set[str]:
        names = {by for _p, _payment, by in self.payments}
        names.update(by for _action, by in self.director_actions or [])
        for series in self.series.values():
            for table in series.tables.values():
                names.update(by for *_rest, by in table.game_changes)
                names.update(by for *_rest, by in table.penalty_changes)
        names.discard(None)
        return names


def _holds_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, Mapping):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds_nul(item) for item in value)
    return False


class _ArchiveChecker:
    """Reads the archive into an `ArchivePlan`, with the document checker's messages."""

    def __init__(self, checker, player_ids: set[str]):
        self.c = checker
        self.player_ids = player_ids
        self.plan = ArchivePlan()
        self.client_ids: set[uuid.UUID] = set()

    def obj(self, place, value, fields) -> Mapping:
        if not isinstance(value, Mapping):
            self.c.error(place, _("must be a JSON object"))
            return {}
        self.c.unknown_fields(place, value, fields)
        return value

    def choice(self, place, data, name, choices, default):
        value = data.get(name, default)
        if value not in choices:
            self.c.error(
                place,
                _("%(field)s must be one of %(choices)s, not %(given)s")
                % {"field": name, "choices": ", ".join(choices), "given": _shown(value)},
            )
            return default
        return value

    def storable(self, place, name, value) -> bool:
        """Whether a value kept as JSON holds no NUL character (PostgreSQL's jsonb refuses
        one in any string or key)."""
        if _holds_nul(value):
            self.c.error(place, _("%(field)s contains a NUL character") % {"field": name})
            return False
        return True

    def optional_int(self, place, data, name, *, low, high):
        if data.get(name) is None:
            return None
        return self.c.integer(place, data, name, low=low, high=high)

    def amount(self, place, data, name, *, nullable=False, digits=10):
        value = data.get(name)
        if value is None and nullable:
            return None
        try:
            if not isinstance(value, str):
                raise InvalidOperation
            amount = Decimal(value)
            if not amount.is_finite() or amount.as_tuple().exponent != -2:
                raise InvalidOperation
            if abs(amount) >= Decimal(10) ** (digits - 2):
                raise InvalidOperation
        except InvalidOperation:
            self.c.error(place, _('%(field)s must be an amount such as "5.00"') % {"field": name})
            return None
        return amount

    def time(self, place, data, name) -> datetime.datetime | None:
        value = data.get(name)
        try:
            moment = datetime.datetime.fromisoformat(value)
            if moment.tzinfo is None:
                raise ValueError
        except (TypeError, ValueError):
            self.c.error(
                place, _("%(field)s must be a time in ISO 8601 with its offset") % {"field": name}
            )
            return None
        return moment

    def by(self, place, data) -> str | None:
        return self.c.text(place, data, "by", required=False, max_length=150, nullable=True)

    def player(self, place, data, name="player") -> str | None:
        value = data.get(name)
        # A list or object is no player id (and cannot be looked up in a set).
        if not isinstance(value, str) or value not in self.player_ids:
            self.c.error(
                place,
                _("%(field)s names unknown player %(id)s")
                % {
                    "field": name,
                    "id": _shown(value),
                },
            )
            return None
        return value

    # -- the parts -----------------------------------------------------------------

    def check(self, data, tables: dict[tuple[int, int], int]):
        """`tables` maps (series, table) numbers of the document to (games, penalties)."""
        data = self.obj(_("archive"), data, ARCHIVE_FIELDS)
        if "tournament" in data:
            self.tournament(data["tournament"])
        if "players" in data:
            self.players(self.c.list_of(_("archive"), data, "players"))
        if "registrations" in data:
            self.registrations(self.c.list_of(_("archive"), data, "registrations"))
        if "money" in data:
            self.money(data["money"])
        series = self.c.list_of(_("archive"), data, "series", required=False)
        for index, entry in enumerate(series):
            self.series(index, entry, tables)
        if "director_actions" in data:
            self.plan.director_actions = []
            actions = self.c.list_of(_("archive"), data, "director_actions")
            for index, entry in enumerate(actions):
                self.director_action(index, entry)
        return self.plan

    def tournament(self, data):
        place = _("archive, tournament")
        data = self.obj(place, data, TOURNAMENT_FIELDS)
        plan = self.plan
        slug = self.c.text(place, data, "slug", required=False, max_length=80)
        if slug is not None:
            try:
                validate_slug(slug)
            except ValidationError:
                self.c.error(place, _("slug may hold only letters, digits, - and _"))
        plan.slug = slug or None
        plan.club = self.c.text(place, data, "club", required=False, max_length=120) or None
        if data.get("season") is not None:
            season_place = _("archive, tournament, season")
            season = self.obj(season_place, data["season"], SEASON_FIELDS)
            plan.season = {
                "slug": self.c.text(season_place, season, "slug", required=True, max_length=80),
                "name": self.c.text(season_place, season, "name", required=True, max_length=120),
                "teams_best_n": self.optional_int(
                    season_place, season, "teams_best_n", low=0, high=32767
                ),
            }
        plan.tournament = {
            "status": self.choice(
                place, data, "status", _values(Tournament.Status), Tournament.Status.PLANNED
            ),
            "published": self.c.boolean(place, data, "published", True),
            "double_entry": self.c.boolean(place, data, "double_entry", False),
            "team_best_n": self.optional_int(place, data, "team_best_n", low=0, high=32767),
        }

    def players(self, entries):
        clubs = {player.id: player.club for player in self.c.players}
        numbered: dict[tuple[str | None, str], int] = {}  # (club, number) -> index
        for index, data in enumerate(entries):
            place = _("archive, players[%(index)s]") % {"index": index}
            data = self.obj(place, data, PLAYER_FIELDS)
            player_id = self.player(place, data, "id")
            category = self.choice(place, data, "category", _values(Category), "")
            number = self.c.text(place, data, "federation_number", required=False, max_length=40)
            # `registry.services.players_create` keeps a federation number once per club.
            key = (clubs.get(player_id), number)
            if number and key[0] is not None and key in numbered:
                self.c.error(
                    place,
                    _("federation number %(number)s is given to archive, players[%(other)s] too")
                    % {"number": _shown(number), "other": numbered[key]},
                )
            elif number:
                numbered[key] = index
            # Given only for a player not listed publicly (`Player.listed`).
            listed = self.c.boolean(place, data, "listed", True)
            if player_id:
                self.plan.players[player_id] = {
                    "category": category,
                    "federation_number": number or "",
                    "listed": listed,
                }

    def registrations(self, entries):
        self.plan.registrations = []
        seen = set()
        for index, data in enumerate(entries):
            place = _("archive, registrations[%(index)s]") % {"index": index}
            data = self.obj(place, data, REGISTRATION_FIELDS)
            player_id = self.player(place, data)
            lot = self.optional_int(place, data, "lot", low=0, high=32767)
            if player_id in seen:
                self.c.error(place, _("the player is registered twice"))
            elif player_id:
                seen.add(player_id)
                self.plan.registrations.append((player_id, lot))

    def money(self, data):
        place = _("archive, money")
        data = self.obj(place, data, MONEY_FIELDS)
        currency = self.c.text(place, data, "currency", required=False, max_length=3)
        money = {"currency": currency or "EUR"}
        for name in FEE_FIELDS:
            nullable = name == "lost_game_fee_high"
            if name in data:
                money[name] = self.amount(place, data, name, nullable=nullable, digits=8)
        money["lost_game_fee_from"] = self.optional_int(
            place, data, "lost_game_fee_from", low=0, high=32767
        )
        # The money form's rule: a higher fee needs the lost game it starts from, and back.
        problem = lost_game_tier_problem(
            start=money["lost_game_fee_from"], high=money.get("lost_game_fee_high")
        )
        if problem is not None:
            self.c.error(place, str(problem))
        if "prizes_split_ties" in data:  # (an older archive without it: the site's default)
            money["prizes_split_ties"] = self.c.boolean(place, data, "prizes_split_ties", False)
        self.plan.money = money
        ranks: dict[tuple, int] = {}
        for index, entry in enumerate(self.c.list_of(place, data, "prizes", required=False)):
            prize_place = _("archive, money, prizes[%(index)s]") % {"index": index}
            entry = self.obj(prize_place, entry, PRIZE_FIELDS)
            prize = Prize(
                scope=self.choice(prize_place, entry, "scope", _values(Prize.Scope), "overall"),
                series_number=self.c.integer(prize_place, entry, "series", low=0, high=32767),
                category=self.choice(prize_place, entry, "category", _values(Category), ""),
                rank=self.c.integer(prize_place, entry, "rank", low=1, high=32767),
                amount=self.amount(prize_place, entry, "amount", nullable=True),
                share=self.amount(prize_place, entry, "share", nullable=True, digits=5),
            )
            if (prize.amount is None) == (prize.share is None):
                self.c.error(prize_place, _("a prize has either an amount or a share"))
            # One prize per scope, series, category and rank (`Prize` constraint).
            key = (prize.scope, prize.series_number, prize.category, prize.rank)
            if key in ranks:
                self.c.error(
                    prize_place,
                    _("the same prize as prizes[%(other)s]") % {"other": ranks[key]},
                )
            ranks.setdefault(key, index)
            self.plan.prizes.append(prize)
        # A payment is a registration's (the archive's registrations are read before).
        registered = (
            self.player_ids
            if self.plan.registrations is None
            else {player_id for player_id, _lot in self.plan.registrations}
        )
        for index, entry in enumerate(self.c.list_of(place, data, "payments", required=False)):
            pay_place = _("archive, money, payments[%(index)s]") % {"index": index}
            entry = self.obj(pay_place, entry, PAYMENT_FIELDS)
            player_id = self.player(pay_place, entry)
            payment = Payment(
                kind=self.choice(pay_place, entry, "kind", _values(Payment.Kind), "fees"),
                amount=self.amount(pay_place, entry, "amount"),
                note=self.c.text(
                    pay_place, entry, "note", required=False, max_length=120, strip=False
                )
                or "",
                at=self.time(pay_place, entry, "at"),
            )
            if payment.amount == 0:
                self.c.error(pay_place, _("a payment is not zero"))
            if player_id and player_id not in registered:
                self.c.error(
                    pay_place,
                    _("player '%(id)s' is not registered") % {"id": player_id},
                )
                player_id = None
            if player_id:
                self.plan.payments.append((player_id, payment, self.by(pay_place, entry)))

    def series(self, index, data, tables):
        place = _("archive, series[%(index)s]") % {"index": index}
        data = self.obj(place, data, SERIES_FIELDS)
        number = self.c.integer(place, data, "number", low=1, high=32767)
        if number is None:
            return
        if not any(key[0] == number for key in tables):
            self.c.error(place, _("the document has no series %(n)s") % {"n": number})
            return
        seed = data.get("draw_seed", 0)
        if not _is_int(seed) or not -BIGINT <= seed < BIGINT:
            self.c.error(place, _("draw_seed must be a whole number"))
            seed = 0
        archive = self.plan.series[number] = SeriesArchive(
            values={
                "draw_seed": seed,
                "draw_method": self.choice(
                    place, data, "draw_method", _values(Series.DrawMethod), "random"
                ),
                "keep_apart": self.choice(
                    place, data, "keep_apart", _values(Series.KeepApart), "team"
                ),
                "status": self.choice(place, data, "status", _values(Series.Status), "open"),
                "started": self.c.boolean(place, data, "started", False),
            }
        )
        for table_index, entry in enumerate(self.c.list_of(place, data, "tables", required=False)):
            self.table(number, table_index, entry, tables, archive)

    def table(self, series, index, data, tables, archive: SeriesArchive):
        place = _("archive, series %(series)s, tables[%(index)s]") % {
            "series": series,
            "index": index,
        }
        data = self.obj(place, data, TABLE_FIELDS)
        number = self.c.integer(place, data, "number", low=1, high=32767)
        if number is None:
            return
        if (series, number) not in tables:
            self.c.error(place, _("the document has no such table"))
            return
        games, penalties = tables[(series, number)]
        plan = archive.tables[number] = TableArchive(
            closed=self.c.boolean(place, data, "closed", False)
        )
        totals = data.get("paper_totals", {})
        if not isinstance(totals, Mapping) or not all(
            _is_int(v) or v is None for v in totals.values()
        ):
            self.c.error(place, _("paper_totals must map seats to whole numbers"))
        elif self.storable(place, "paper_totals", totals):
            plan.paper_totals = dict(totals)
        for game in self.c.list_of(place, data, "provisional", required=False):
            if not _is_int(game) or not 1 <= game <= games:
                self.c.error(
                    place,
                    _("provisional names no game of the sheet: %(game)s") % {"game": _shown(game)},
                )
            else:
                plan.provisional.add(game)
        client_ids = data.get("client_ids", {})
        if not isinstance(client_ids, Mapping):
            client_ids = {"": None}
        for key, value in client_ids.items():
            try:
                game = int(key)
                if not 1 <= game <= games:
                    raise ValueError
                plan.client_ids[game] = uuid.UUID(value)
            except (TypeError, ValueError, AttributeError):
                self.c.error(place, _("client_ids maps game numbers to UUIDs"))
                continue
            # A phone row is one game of the site (`Game.client_id` is unique).
            if plan.client_ids[game] in self.client_ids:
                self.c.error(
                    place,
                    _("client_ids: %(id)s is given to another game too") % {"id": value},
                )
            self.client_ids.add(plan.client_ids[game])
        plan.second_copy = self.second_copy(place, data.get("second_copy"))
        for change_index, entry in enumerate(
            self.c.list_of(place, data, "game_changes", required=False)
        ):
            self.game_change(f"{place}, game_changes[{change_index}]", entry, plan)
        for change_index, entry in enumerate(
            self.c.list_of(place, data, "penalty_changes", required=False)
        ):
            self.penalty_change(
                f"{place}, penalty_changes[{change_index}]", entry, plan, penalties
            )

    def second_copy(self, place, rows) -> list | None:
        """The second keeper's rows as `entry.services.sheet_copy_record` stores them:
        numbered 1, 2, ... in order, each with its phone's UUID and its game as an object
        (the game itself is judged when shown, as the phone's was when entered)."""
        if rows is None:
            return None
        if not isinstance(rows, list):
            self.c.error(place, _("second_copy must be a list of rows or null"))
            return None
        for index, row in enumerate(rows):
            row_place = f"{place}, second_copy[{index}]"
            if not isinstance(row, Mapping):
                self.c.error(row_place, _("must be a JSON object"))
                continue
            self.c.unknown_fields(row_place, row, SECOND_COPY_FIELDS)
            if row.get("number") != index + 1 or not _is_int(row.get("number")):
                self.c.error(
                    row_place,
                    _("number must be %(number)s (rows in order)") % {"number": index + 1},
                )
            try:
                uuid.UUID(row.get("client_id"))
            except (TypeError, ValueError, AttributeError):
                self.c.error(row_place, _("client_id must be a UUID"))
            if not isinstance(row.get("data"), Mapping):
                self.c.error(row_place, _("data must be a JSON object"))
            self.storable(row_place, "data", row.get("data"))
        return rows

    def game_change(self, place, data, plan: TableArchive):
        data = self.obj(place, data, GAME_CHANGE_FIELDS)
        diff = data.get("diff", {})
        if not isinstance(diff, Mapping):
            self.c.error(place, _("diff must be a JSON object"))
        self.storable(place, "diff", diff)
        change = GameChange(
            game_number=self.c.integer(place, data, "game", low=1, high=32767),
            action=self.choice(place, data, "action", _values(GameChange.Action), "created"),
            at=self.time(place, data, "at"),
            diff=diff,
            reason=self.c.text(place, data, "reason", required=False, max_length=200, strip=False)
            or "",
        )
        current = self.c.boolean(place, data, "current", False)
        plan.game_changes.append((change, current, self.by(place, data)))

    def penalty_change(self, place, data, plan: TableArchive, penalties: int):
        data = self.obj(place, data, PENALTY_CHANGE_FIELDS)
        index = data.get("penalty")
        if index is not None and not (_is_int(index) and 0 <= index < penalties):
            self.c.error(place, _("penalty must be the index of a penalty of the table or null"))
            index = None
        change = PenaltyChange(
            action=self.choice(place, data, "action", _values(PenaltyChange.Action), "created"),
            seat=self.c.integer(place, data, "seat", low=1, high=4),
            points=self.c.integer(place, data, "points", low=-1000, high=1000),
            penalty_reason=self.c.text(
                place, data, "penalty_reason", required=False, max_length=120, strip=False
            )
            or "",
            at=self.time(place, data, "at"),
            reason=self.c.text(place, data, "reason", required=False, max_length=200, strip=False)
            or "",
        )
        plan.penalty_changes.append((change, index, self.by(place, data)))

    def director_action(self, index, data):
        place = _("archive, director_actions[%(index)s]") % {"index": index}
        data = self.obj(place, data, DIRECTOR_ACTION_FIELDS)
        details = data.get("details", {})
        if not isinstance(details, Mapping):
            self.c.error(place, _("details must be a JSON object"))
            details = {}
        self.storable(place, "details", details)
        series = self.optional_int(place, data, "series", low=1, high=32767)
        table = self.optional_int(place, data, "table", low=1, high=32767)
        if data.get("table") is not None and data.get("series") is None:
            self.c.error(place, _("a table is named with its series"))
        action = ActionLog(
            kind=self.choice(place, data, "kind", _values(ActionLog.Kind), None),
            at=self.time(place, data, "at"),
            by_name=self.c.text(
                place, data, "by_name", required=False, max_length=150, strip=False
            )
            or "",
            series_number=series,
            table_number=table,
            details=dict(details),
            reason=self.c.text(place, data, "reason", required=False, max_length=200, strip=False)
            or "",
        )
        self.plan.director_actions.append((action, self.by(place, data)))


def archive_check(checker, data, *, player_ids: set[str], tables) -> ArchivePlan:
    """The archive of a document as a plan; problems go to `checker`'s messages."""
    return _ArchiveChecker(checker, player_ids).check(data, tables)
