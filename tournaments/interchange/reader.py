"""Import, first half: a document checked, located messages collected (nothing is written
here).

`_Checker` reads a document in the order `import_source` drives it: the head (format,
tournament, players: `check_head`), then the series one table at a time
(`check_series`), each finished table handed to a `sink` (the writer) and then dropped, so
that no more than a chunk of games is held at once; then the archive and the club that runs
the tournament (`check_tail`). Every game goes through `games.game_build` (against
in-memory tables), each distinct game once (`rows.GameRows`); the archive's optional
fields are read by `interchange.archive`.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.interchange import table_rules
from tournaments.interchange.archive import ArchivePlan, archive_check
from tournaments.interchange.common import (
    BONUS_FIELDS,
    DATE_PATTERN,
    FORMAT,
    MAX_MESSAGES,
    NAME_MAX,
    PLAYER_FIELDS,
    RAMSCH_ENTRY_FIELDS,
    SERIES_FIELDS,
    SMALLINT_MAX,
    TABLE_FIELDS,
    TOP_FIELDS,
    TOURNAMENT_FIELDS,
    TOURNAMENT_NAME_MAX,
    InterchangeError,
    _is_int,
    _normal_name,
    _shown,
)
from tournaments.interchange.rows import GameRow, GameRows, game_of
from tournaments.models import (
    Club,
    Game,
    GameType,
    Penalty,
    Player,
    RuleSet,
    Series,
    Table,
    Tournament,
    has_control_characters,
)


@dataclass
class _PlayerPlan:
    id: str
    name: str
    club: str | None
    team: str
    instance: Player | None = None


@dataclass
class _TablePlan:
    table: Table
    player_ids: list[str]
    games: list[GameRow] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)
    # Games as unsaved instances, made when a penalty names one (`game`).
    instances: dict[int, Game] = field(default_factory=dict)

    def game(self, number: int) -> Game:
        """Sheet row `number` (1-based) as an unsaved Game, the same instance each time."""
        if number not in self.instances:
            self.instances[number] = game_of(
                self.games[number - 1], table=self.table, number=number
            )
        return self.instances[number]


@dataclass
class _SeriesPlan:
    series: Series
    tables: int = 0  # checked tables (of a size the rules allow)
    closed: int = 0  # of those, full sheets
    games: int = 0


class _Checker:
    """Reads a document into a plan, collecting located messages instead of stopping."""

    def __init__(
        self,
        doc,
        club: Club | str | None,
        sink: Callable | None = None,
        rows: GameRows | None = None,
    ):
        """`doc`: the document's top-level object (its series are given to `check_series`);
        `sink(series_plan, table_plan)` takes each checked table; `rows`: the valued games
        to share with other documents (a season's match days), else the document's own."""
        self.doc = doc
        self.club_argument = club
        self.sink = sink
        self.messages: list[str] = []
        self.more = 0
        self.tournament = Tournament()
        self.players: list[_PlayerPlan] = []
        self.series: list[_SeriesPlan] = []
        # (series, table) numbers -> (games, penalties) of each checked table.
        self.tables: dict[tuple[int, int], tuple[int, int]] = {}
        self.rows = GameRows() if rows is None else rows
        self.owner: Club | str | None = None
        self.archive: ArchivePlan | None = None

    # -- messages ------------------------------------------------------------------

    def error(self, place: str, message: str):
        if len(self.messages) >= MAX_MESSAGES:
            self.more += 1
            return
        self.messages.append(
            _("%(place)s: %(message)s") % {"place": place, "message": message}
            if place
            else message
        )

    def all_messages(self) -> list[str]:
        if not self.more:
            return self.messages
        return [
            *self.messages,
            _("… and %(count)s more problems.") % {"count": self.more},
        ]

    def unknown_fields(self, place: str, obj: Mapping, allowed):
        unknown = sorted(_field_name(key) for key in obj if key not in allowed)
        if unknown:
            self.error(place, _("unknown field(s) %(fields)s") % {"fields": ", ".join(unknown)})

    def text(
        self, place, obj, name, *, required, max_length, nullable=False, strip=True
    ) -> str | None:
        """A string field (stripped, as the services store names); None when absent or wrong."""
        value = obj.get(name)
        if value is None:
            if required:
                self.error(place, _("%(field)s is required") % {"field": name})
            return None
        if not isinstance(value, str):
            wording = _("a string or null") if nullable else _("a string")
            self.error(place, _("%(field)s must be %(what)s") % {"field": name, "what": wording})
            return None
        if has_control_characters(value):
            self.error(place, _("%(field)s contains a control character") % {"field": name})
            return None
        if strip:
            value = value.strip()
        if not value.strip() and required:
            self.error(place, _("%(field)s is required") % {"field": name})
            return None
        if len(value) > max_length:
            self.error(
                place,
                _("%(field)s is longer than %(max)s characters")
                % {"field": name, "max": max_length},
            )
            return None
        return value

    def boolean(self, place, obj, name, default: bool) -> bool:
        value = obj.get(name, default)
        if type(value) is not bool:
            self.error(place, _("%(field)s must be true or false") % {"field": name})
            return default
        return value

    def integer(self, place, obj, name, *, low, high, default=None) -> int | None:
        if name not in obj and default is not None:
            return default
        value = obj.get(name)
        if value is None:
            self.error(place, _("%(field)s is required") % {"field": name})
            return None
        if not _is_int(value) or not low <= value <= high:
            self.error(
                place,
                _("%(field)s must be a whole number from %(low)s to %(high)s")
                % {"field": name, "low": low, "high": high},
            )
            return None
        return value

    def list_of(self, place, obj, name, *, required=True) -> list:
        value = obj.get(name)
        if value is None and not required:
            return []
        if not isinstance(value, list):
            self.error(place, _("%(field)s must be a list") % {"field": name})
            return []
        return value

    # -- the document ---------------------------------------------------------------

    def check_head(self) -> set[str]:
        """Format, fields, tournament and players; returns the player ids. A document that
        is not one of ours (not an object, another format) raises at once."""
        doc = self.doc
        if not isinstance(doc, Mapping):
            raise InterchangeError([_("the document must be a JSON object")])
        if doc.get("format") != FORMAT:
            raise InterchangeError(
                [
                    _("format must be '%(format)s', not %(given)s")
                    % {"format": FORMAT, "given": _shown(doc.get("format"))}
                ]
            )
        self.unknown_fields(_("document"), doc, TOP_FIELDS)
        self.check_tournament(doc.get("tournament"))
        return self.check_players(self.list_of(_("document"), doc, "players"))

    def series_entries(self) -> list:
        return self.list_of(_("document"), self.doc, "series", required=False)

    def check_tail(self, ids: set[str]):
        """The archive and the club; raises InterchangeError with every message."""
        if "archive" in self.doc:
            self.archive = archive_check(
                self, self.doc["archive"], player_ids=ids, tables=self.tables
            )
        self.check_owner()
        if self.messages:
            raise InterchangeError(self.all_messages())

    def check_tournament(self, data):
        place = _("tournament")
        t = self.tournament
        if not isinstance(data, Mapping):
            self.error(place, _("must be a JSON object"))
            data = {}
        self.unknown_fields(place, data, TOURNAMENT_FIELDS)
        t.name = self.text(place, data, "name", required=True, max_length=TOURNAMENT_NAME_MAX)
        date = data.get("date")
        try:
            if not (isinstance(date, str) and DATE_PATTERN.fullmatch(date)):
                raise ValueError
            t.date = datetime.date.fromisoformat(date)
        except ValueError:
            self.error(place, _("date must be a date written YYYY-MM-DD"))
        rules = data.get("rules")
        if rules in RuleSet.values:
            t.rules = rules
        else:
            self.error(
                place,
                _("rules must be 'ispa' or 'na', not %(given)s") % {"given": _shown(rules)},
            )
        t.list_scoring = self.boolean(place, data, "list_scoring", True)
        t.kontra_allowed = self.boolean(place, data, "kontra", False)
        if t.kontra_allowed and t.rules == RuleSet.NA:
            self.error(place, _("kontra is an ISPA house rule (rules §1.7), not for na"))
            t.kontra_allowed = False

        bonus = data.get("bonus", {})
        if not isinstance(bonus, Mapping):
            self.error(place, _("bonus must be a JSON object"))
            bonus = {}
        bonus_place = _("tournament, bonus")
        self.unknown_fields(bonus_place, bonus, BONUS_FIELDS)
        for name in BONUS_FIELDS:
            attribute = f"bonus_{name}"
            default = Tournament._meta.get_field(attribute).default
            value = self.integer(
                bonus_place, bonus, name, low=0, high=SMALLINT_MAX, default=default
            )
            setattr(t, attribute, default if value is None else value)

        lengths = data.get("games_per_series", {})
        if not isinstance(lengths, Mapping):
            self.error(place, _("games_per_series must be a JSON object"))
            lengths = {}
        lengths_place = _("tournament, games_per_series")
        self.unknown_fields(lengths_place, lengths, ("3", "4", "5"))
        table_rules.check_rules(self, place, data, lengths)
        for size in ("3", "4", "5"):
            attribute = f"games_per_series_{size}"
            default = Tournament._meta.get_field(attribute).default
            value = self.integer(
                lengths_place, lengths, size, low=1, high=SMALLINT_MAX, default=default
            )
            setattr(t, attribute, default if value is None else value)

    def check_players(self, entries: list) -> set[str]:
        ids: dict[str, int] = {}
        for index, data in enumerate(entries):
            place = _("players[%(index)s]") % {"index": index}
            if not isinstance(data, Mapping):
                self.error(place, _("must be a JSON object"))
                continue
            self.unknown_fields(place, data, PLAYER_FIELDS)
            player_id = data.get("id")
            if not isinstance(player_id, str) or not player_id:
                self.error(place, _("id is required and must be a string"))
                player_id = None
            elif player_id in ids:
                self.error(
                    place,
                    _("id '%(id)s' is already used by players[%(other)s]")
                    % {"id": player_id, "other": ids[player_id]},
                )
                player_id = None
            else:
                ids[player_id] = index
            name = self.text(place, data, "name", required=True, max_length=NAME_MAX)
            club = self.text(
                place, data, "club", required=False, max_length=NAME_MAX, nullable=True
            )
            team = self.text(
                place, data, "team", required=False, max_length=NAME_MAX, nullable=True
            )
            if player_id and name:
                self.players.append(
                    _PlayerPlan(
                        id=player_id, name=_normal_name(name), club=club or None, team=team or ""
                    )
                )
        return set(ids)

    def check_owner(self):
        """The club that runs the tournament: as given, as archived, or the players' most
        frequent."""
        self.owner, message = self.owner_of(self.archive)
        if message:
            self.error("", message)

    def owner_of(self, archive: ArchivePlan | None) -> tuple[Club | str | None, str | None]:
        """(the club that runs the tournament, or a message why there is none)."""
        given = self.club_argument
        if isinstance(given, Club):
            return given, None
        if isinstance(given, str):
            name = given.strip()
            if not name or len(name) > NAME_MAX:
                return name, _("the club name must have 1 to %(max)s characters") % {
                    "max": NAME_MAX
                }
            return name, None
        if archive is not None and archive.club:
            return archive.club, None
        counts = Counter(p.club for p in self.players if p.club)
        if counts:
            # most_common keeps first appearance among equals: deterministic.
            return counts.most_common(1)[0][0], None
        return None, _("name the club that runs the tournament with --club")

    def check_series(self, entries: list, player_ids: set[str], tables_of=iter):
        """Every series; `tables_of(tables)` gives a series' tables in full (a stream may
        hand over outlines without their games and read the tables again)."""
        numbers: set[int] = set()
        for index, data in enumerate(entries):
            place = _("series[%(index)s]") % {"index": index}
            if not isinstance(data, Mapping):
                self.error(place, _("must be a JSON object"))
                continue
            number = self.integer(place, data, "number", low=1, high=SMALLINT_MAX)
            if number is not None:
                place = _("series %(number)s") % {"number": number}
                if number in numbers:
                    self.error(place, _("the series number is used twice"))
                numbers.add(number)
            self.unknown_fields(place, data, SERIES_FIELDS)
            tables = self.list_of(place, data, "tables")
            if isinstance(data.get("tables"), list) and not tables:
                self.error(place, _("a series needs at least one table"))
            plan = _SeriesPlan(
                series=Series(
                    tournament=self.tournament,
                    number=number or 0,
                    draw_seed=0,
                    draw_method=Series.DrawMethod.RANDOM,
                )
            )
            self.series.append(plan)
            self.check_tables(place, plan, tables_of(tables), player_ids)
            if self.sink is not None:
                self.sink(plan, None)  # the series is complete

    def check_tables(self, series_place: str, plan: _SeriesPlan, entries: Iterable, player_ids):
        numbers: set[int] = set()
        seated: set[str] = set()
        twice: list[str] = []
        for index, data in enumerate(entries):
            place = _("%(series)s, tables[%(index)s]") % {"series": series_place, "index": index}
            if not isinstance(data, Mapping):
                self.error(place, _("must be a JSON object"))
                continue
            number = self.integer(place, data, "number", low=1, high=SMALLINT_MAX)
            if number is not None:
                place = _("%(series)s, table %(number)s") % {
                    "series": series_place,
                    "number": number,
                }
                if number in numbers:
                    self.error(place, _("the table number is used twice"))
                numbers.add(number)
            self.unknown_fields(place, data, TABLE_FIELDS)

            seats = self.list_of(place, data, "seats")
            size = len(seats)
            sizes = table_rules.table_sizes(self.tournament.rules)
            if isinstance(data.get("seats"), list) and size not in sizes:
                self.error(
                    place,
                    _("a table has %(sizes)s seats, not %(count)s")
                    % {"sizes": _(" or ").join(map(str, sizes)), "count": size},
                )
            self.tournament.five_tables |= size == 5 and size in sizes
            for seat, player_id in enumerate(seats, start=1):
                if not isinstance(player_id, str) or player_id not in player_ids:
                    self.error(
                        place,
                        _("seat %(seat)s names unknown player %(id)s")
                        % {"seat": seat, "id": _shown(player_id)},
                    )
                elif player_id in seated:
                    if player_id not in twice:
                        twice.append(player_id)
                else:
                    seated.add(player_id)

            games = self.list_of(place, data, "games", required=False)
            penalties = self.list_of(place, data, "penalties", required=False)
            if size not in sizes:
                continue  # without a table size the games cannot be scored
            table = Table(series=plan.series, number=number or 0, size=size)
            table_plan = _TablePlan(table=table, player_ids=list(seats))
            limit = self.tournament.games_per_series(size)
            if len(games) > limit:
                self.error(
                    place,
                    _("%(count)s games, but a table of %(size)s plays at most %(limit)s")
                    % {"count": len(games), "size": size, "limit": limit},
                )
            self.check_games(place, table_plan, games)
            self.check_penalties(place, table_plan, penalties)
            self.table_done(plan, table_plan)
        for player_id in twice:
            self.error(
                series_place,
                _("player '%(id)s' is seated twice") % {"id": player_id},
            )

    def table_done(self, plan: _SeriesPlan, table_plan: _TablePlan):
        table = table_plan.table
        games = len(table_plan.games)
        self.tables[(plan.series.number, table.number)] = (games, len(table_plan.penalties))
        plan.tables += 1
        plan.games += games
        plan.closed += games == self.tournament.games_per_series(table.size)
        if self.sink is not None:
            self.sink(plan, table_plan)

    def check_games(self, table_place: str, plan: _TablePlan, entries: list):
        table = plan.table
        build = self.rows.build
        append = plan.games.append
        for number, data in enumerate(entries, start=1):
            try:
                append(build(table=table, number=number, data=_sheet_mapping(data)))
            except UserError as error:
                self.error(
                    _("%(table)s, game %(number)s") % {"table": table_place, "number": number},
                    str(error),
                )

    def check_penalties(self, table_place: str, plan: _TablePlan, entries: list):
        table_rules.check_penalties(self, table_place, plan, entries)


def _field_name(key) -> str:
    """A field name as a message names it: control characters (a line break) escaped, so
    that every message stays one line."""
    key = str(key)
    if not key.strip():
        return f"'{key}'"
    return ascii(key)[1:-1] if has_control_characters(key) else key


def _sheet_mapping(data) -> dict:
    """A document game as a `games` game mapping (an NA ramsch names its seat in `ramsch`)."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise UserError(_("a game must be a JSON object"))
    # services treat "" as a form's empty input; in a document it is a wrong value.
    if "" in data.values():
        empty = sorted(_field_name(key) for key, value in data.items() if value == "")
        raise UserError(_("%(fields)s must not be an empty string") % {"fields": ", ".join(empty)})
    if data.get("game") != GameType.RAMSCH:
        # The document's own object (read for this table and not kept): no copy.
        return data if type(data) is dict else dict(data)
    if "declarer" in data:
        raise UserError(_("a ramsch names its seat in ramsch, not in declarer"))
    entries = data.get("ramsch")
    if not (
        isinstance(entries, list)
        and len(entries) in (1, 2)
        and all(
            isinstance(entry, Mapping) and set(entry) == set(RAMSCH_ENTRY_FIELDS)
            for entry in entries
        )
        and all(isinstance(entry["result"], str) for entry in entries)
        and len({entry["result"] for entry in entries}) == 1
    ):
        raise UserError(
            _(
                'ramsch must be a list of one {"seat": n, "result": "..."} for the scored '
                "seat (two with the same result for a tie)"
            )
        )
    mapping = {key: value for key, value in data.items() if key != "ramsch"}
    mapping["declarer"] = entries[0]["seat"]
    mapping["ramsch"] = entries[0]["result"]
    if len(entries) == 2:
        mapping["ramsch_tie"] = entries[1]["seat"]
    return mapping
