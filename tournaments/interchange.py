"""The tournament interchange format `skat-tournament/1` (`../shared/rules/interchange.md`).

One JSON document holds a whole tournament: its settings, its players and every table sheet
of every series with every game. This module reads and writes such documents and gives the
machine-readable standings of the same contract.

Terms:
- a *document* is the decoded JSON object; player *ids* ("p1", "p2", ...) are local to it;
- a *place* names where a message applies: "players[3]", "series 2, table 3, game 17";
- a *plan* is a checked document held in memory (unsaved model instances), ready to write.

Import is all-or-nothing. `import_document` checks the whole document first, every game
through `games.game_build` (the one bridge to the rules engine, against in-memory tables),
collects every problem as a located message and raises `InterchangeError`; only a clean
document is written, inside one transaction. Export numbers the players in name order, so
export → import → export gives the same document.

Choices the contract leaves open:
- `penalties` is written only for a table that has some (it is optional on import too);
- an imported tournament is published: its results are finished work from elsewhere;
- a document player is an existing player of the same name and club (the k-th of several
  equal entries is the k-th such player by pk, else a new one); an existing player's team
  is left as it is;
- the club that runs the tournament is the one named on import, else the most frequent
  club of the document's players (the first listed among equals);
- statuses follow the sheets: a complete sheet is closed, a series of closed sheets is
  closed, the tournament is finished when every series is closed, running when it has
  games, else planned. Imported series have draw seed 0 and no game history.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import ijson
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.games import game_build, game_mapping_of
from tournaments.interchange_stream import STREAMED, InterchangeError, Writer, read_header
from tournaments.models import (
    PENALTY_LIMIT,
    Club,
    Game,
    GameType,
    Penalty,
    Player,
    Registration,
    RuleSet,
    Seat,
    Series,
    Table,
    Tournament,
    has_control_characters,
)
from tournaments.standings.selectors import tournament_standings

FORMAT = "skat-tournament/1"
# A document with a systematic mistake would otherwise report it for every game.
MAX_MESSAGES = 200
GAME_BATCH = 2000
SMALLINT_MAX = 32767  # PositiveSmallIntegerField: settings, series/table/game numbers.
NAME_MAX = 120  # Player.name, Player.team, Club.name, Penalty.reason
TOURNAMENT_NAME_MAX = 160

TOP_FIELDS = ("format", "tournament", "players", "series")
TOURNAMENT_FIELDS = (
    "name",
    "date",
    "rules",
    "list_scoring",
    "bonus",
    "games_per_series",
    "kontra",
)
BONUS_FIELDS = ("won", "lost", "others_3", "others_4")
PLAYER_FIELDS = ("id", "name", "club", "team")
SERIES_FIELDS = ("number", "tables")
TABLE_FIELDS = ("number", "seats", "games", "penalties")
PENALTY_FIELDS = ("seat", "points", "reason")
RAMSCH_ENTRY_FIELDS = ("seat", "result")
DATE_PATTERN = re.compile(r"\d{4}-\d{2}-\d{2}")


# --------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------


def _players_of(tournament: Tournament) -> list[Player]:
    """Registered players and seated players no longer registered, by name then pk."""
    ids = set(
        Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    ids.update(
        Seat.objects.filter(series__tournament=tournament).values_list("player_id", flat=True)
    )
    players = Player.objects.filter(pk__in=ids).select_related("club")
    return sorted(players, key=lambda p: (p.name, p.pk))


def _export_game(game: Game) -> dict:
    data = game_mapping_of(game)
    if game.game != GameType.RAMSCH:
        return data
    # The row stores the scored seat as `declarer`; the document names it in `ramsch`.
    seat = data.pop("declarer")
    result = data.pop("ramsch")
    data["ramsch"] = [{"seat": seat, "result": result}]
    return data


def export_document(tournament: Tournament) -> dict:
    """The whole tournament as a `skat-tournament/1` document (key order of the contract)."""
    players = _players_of(tournament)
    ids = {player.pk: f"p{i}" for i, player in enumerate(players, start=1)}

    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_id, number, player_id in Seat.objects.filter(
        series__tournament=tournament
    ).values_list("table_id", "number", "player_id"):
        seats[table_id].append((number, player_id))

    games: dict[int, list[dict]] = defaultdict(list)
    for game in (
        Game.objects.filter(table__series__tournament=tournament)
        .order_by("table_id", "number")
        .iterator(chunk_size=GAME_BATCH)
    ):
        games[game.table_id].append(_export_game(game))

    penalties: dict[int, list[dict]] = defaultdict(list)
    for penalty in Penalty.objects.filter(table__series__tournament=tournament).order_by(
        "table_id", "id"
    ):
        penalties[penalty.table_id].append(
            {"seat": penalty.seat, "points": penalty.points, "reason": penalty.reason}
        )

    tables: dict[int, list[dict]] = defaultdict(list)
    for table in Table.objects.filter(series__tournament=tournament).order_by("number"):
        entry = {
            "number": table.number,
            "seats": [ids[player_id] for _number, player_id in sorted(seats[table.pk])],
            "games": games[table.pk],
        }
        # `penalties` is optional in the contract: written only when there are some.
        if penalties[table.pk]:
            entry["penalties"] = penalties[table.pk]
        tables[table.series_id].append(entry)

    return {
        "format": FORMAT,
        "tournament": {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "rules": tournament.rules,
            "list_scoring": tournament.list_scoring,
            "bonus": {
                "won": tournament.bonus_won,
                "lost": tournament.bonus_lost,
                "others_3": tournament.bonus_others_3,
                "others_4": tournament.bonus_others_4,
            },
            "games_per_series": {
                "3": tournament.games_per_series_3,
                "4": tournament.games_per_series_4,
            },
            "kontra": tournament.kontra_allowed,
        },
        "players": [
            {
                "id": ids[player.pk],
                "name": player.name,
                "club": player.club.name if player.club else None,
                "team": player.team or None,
            }
            for player in players
        ],
        "series": [
            {"number": series.number, "tables": tables[series.pk]}
            for series in tournament.series.order_by("number")
        ],
    }


# --------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------


def standings_json(tournament: Tournament) -> list[dict]:
    """The standings as interchange.md "Standings JSON" has them, in rank order."""
    return [
        {
            "rank": row.rank,
            "player": row.player_name,
            "club": row.club or None,
            "team": row.team or None,
            "list_points": row.list_points,
            "game_points": row.game_points,
            "won": row.won,
            "lost": row.lost,
            "others_lost": row.others_lost,
            "series": [
                {
                    "number": result.number,
                    "list_points": result.list_points,
                    "game_points": result.game_points,
                    "won": result.won,
                    "lost": result.lost,
                }
                for result in sorted(row.series.values(), key=lambda r: r.number)
            ],
        }
        for row in tournament_standings(tournament)
    ]


# --------------------------------------------------------------------------------------
# Import: check the whole document into a plan, then write the plan
# --------------------------------------------------------------------------------------


def _is_int(value) -> bool:
    return type(value) is int  # a JSON true is a bool, and bool is an int subclass


def _normal_name(name: str) -> str:
    """As `registry.services.player_create` stores a name."""
    return " ".join(name.split())


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
    games: list[Game] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)


@dataclass
class _SeriesPlan:
    series: Series
    tables: list[_TablePlan] = field(default_factory=list)


class _Checker:
    """Reads a document into a plan, collecting located messages instead of stopping."""

    def __init__(self, doc, club: Club | str | None):
        self.doc = doc
        self.club_argument = club
        self.messages: list[str] = []
        self.more = 0
        self.tournament = Tournament()
        self.players: list[_PlayerPlan] = []
        self.player_ids: set[str] = set()
        self.series: list[_SeriesPlan] = []
        self.series_numbers: set[int] = set()
        # Engine results by game mapping and table size: a document repeats the same
        # games thousands of times, and each is valued once (`games.game_build`).
        self.evaluated: dict = {}
        self.owner: Club | str | None = None

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
        unknown = sorted(str(key) for key in obj if key not in allowed)
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

    def check(self):
        self.check_format()
        self.check_header()
        self.check_series(self.list_of(_("document"), self.doc, "series", required=False))
        if self.messages:
            raise InterchangeError(self.all_messages())

    def check_format(self):
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

    def check_header(self):
        """Everything but the series: the format, the tournament, the players, the owner."""
        doc = self.doc
        self.unknown_fields(_("document"), doc, TOP_FIELDS)
        self.check_tournament(doc.get("tournament"))
        self.player_ids = self.check_players(self.list_of(_("document"), doc, "players"))
        self.check_owner()

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
        self.unknown_fields(lengths_place, lengths, ("3", "4"))
        for size in ("3", "4"):
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
        """The club that runs the tournament: as given, or the players' most frequent."""
        given = self.club_argument
        if isinstance(given, Club):
            self.owner = given
            return
        if isinstance(given, str):
            name = given.strip()
            if not name or len(name) > NAME_MAX:
                self.error(
                    "",
                    _("the club name must have 1 to %(max)s characters") % {"max": NAME_MAX},
                )
            self.owner = name
            return
        counts = Counter(p.club for p in self.players if p.club)
        if counts:
            # most_common keeps first appearance among equals: deterministic.
            self.owner = counts.most_common(1)[0][0]
        else:
            self.error("", _("name the club that runs the tournament with --club"))

    def check_series(self, entries):
        for index, data in enumerate(entries):
            self.check_one_series(index, data)

    def check_one_series(self, index: int, data) -> _SeriesPlan | None:
        """Check `series[index]` and add its plan (None: not a JSON object)."""
        numbers = self.series_numbers
        player_ids = self.player_ids
        place = _("series[%(index)s]") % {"index": index}
        if not isinstance(data, Mapping):
            self.error(place, _("must be a JSON object"))
            return None
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
        self.check_tables(place, plan, tables, player_ids)
        return plan

    def check_tables(self, series_place: str, plan: _SeriesPlan, entries: list, player_ids):
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
            if isinstance(data.get("seats"), list) and size not in (3, 4):
                self.error(
                    place,
                    _("a table has 3 or 4 seats, not %(count)s") % {"count": size},
                )
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
            if size not in (3, 4):
                continue  # without a table size the games cannot be scored
            table = Table(series=plan.series, number=number or 0, size=size)
            table_plan = _TablePlan(table=table, player_ids=list(seats))
            plan.tables.append(table_plan)
            limit = self.tournament.games_per_series(size)
            if len(games) > limit:
                self.error(
                    place,
                    _("%(count)s games, but a table of %(size)s plays at most %(limit)s")
                    % {"count": len(games), "size": size, "limit": limit},
                )
            self.check_games(place, table_plan, games)
            self.check_penalties(place, table_plan, penalties)
        for player_id in twice:
            self.error(
                series_place,
                _("player '%(id)s' is seated twice") % {"id": player_id},
            )

    def check_games(self, table_place: str, plan: _TablePlan, entries: list):
        table = plan.table
        for number, data in enumerate(entries, start=1):
            try:
                mapping = _sheet_mapping(data)
                plan.games.append(
                    game_build(table=table, number=number, data=mapping, memo=self.evaluated)
                )
            except UserError as error:
                self.error(
                    _("%(table)s, game %(number)s") % {"table": table_place, "number": number},
                    str(error),
                )

    def check_penalties(self, table_place: str, plan: _TablePlan, entries: list):
        size = plan.table.size
        for index, data in enumerate(entries):
            place = _("%(table)s, penalties[%(index)s]") % {"table": table_place, "index": index}
            if not isinstance(data, Mapping):
                self.error(place, _("must be a JSON object"))
                continue
            self.unknown_fields(place, data, PENALTY_FIELDS)
            seat = self.integer(place, data, "seat", low=1, high=size)
            points = data.get("points")
            if not _is_int(points) or points == 0 or abs(points) > PENALTY_LIMIT:
                self.error(
                    place,
                    _("points must be a whole number from %(low)s to %(high)s other than 0")
                    % {"low": -PENALTY_LIMIT, "high": PENALTY_LIMIT},
                )
                points = None
            reason = self.text(
                place, data, "reason", required=False, max_length=NAME_MAX, strip=False
            )
            if seat is not None and points is not None:
                plan.penalties.append(
                    Penalty(
                        table=plan.table,
                        table_size=size,
                        seat=seat,
                        points=points,
                        reason=reason or "",
                    )
                )


def _shown(value) -> str:
    """A value from the document as a message quotes it."""
    if isinstance(value, str):
        return f"'{value}'"
    return _("nothing") if value is None else repr(value)


def _sheet_mapping(data) -> dict:
    """A document game as a `games` game mapping (an NA ramsch names its seat in `ramsch`)."""
    if not isinstance(data, Mapping):
        raise UserError(_("a game must be a JSON object"))
    # services treat "" as a form's empty input; in a document it is a wrong value.
    empty = sorted(str(key) for key, value in data.items() if value == "")
    if empty:
        raise UserError(_("%(fields)s must not be an empty string") % {"fields": ", ".join(empty)})
    if data.get("game") != GameType.RAMSCH:
        return dict(data)
    if "declarer" in data:
        raise UserError(_("a ramsch names its seat in ramsch, not in declarer"))
    entries = data.get("ramsch")
    if not (
        isinstance(entries, list)
        and len(entries) == 1
        and isinstance(entries[0], Mapping)
        and set(entries[0]) == set(RAMSCH_ENTRY_FIELDS)
    ):
        raise UserError(
            _('ramsch must be a list of one {"seat": n, "result": "..."} for the scored seat')
        )
    mapping = {key: value for key, value in data.items() if key != "ramsch"}
    mapping["declarer"] = entries[0]["seat"]
    mapping["ramsch"] = entries[0]["result"]
    return mapping


def import_document(doc, *, club: Club | str | None = None) -> Tournament:
    """Create a tournament from a document, or raise InterchangeError and write nothing.

    `club` runs the tournament: a Club, or a club name (created if missing); by default the
    most frequent club of the document's players.
    """
    checker = _Checker(doc, club)
    checker.check()
    return _write(checker, None)


def import_file(path, *, club: Club | str | None = None) -> Tournament:
    """`import_document` for a file read as a stream (`interchange_stream`), a series at a
    time: once to check all of it (nothing written, no database access), once to write
    it. A file that is not JSON raises ijson.JSONError."""
    doc = read_header(path)

    def checked(entries=None) -> _Checker:
        checker = _Checker(doc, club)
        checker.check_format()
        checker.check_header()
        if entries is not None:
            for index, data in enumerate(entries):
                checker.check_one_series(index, data)
                checker.series.clear()  # checked: kept no longer than the series
        if checker.messages:
            raise InterchangeError(checker.all_messages())
        return checker

    if doc.get("series") is not STREAMED:
        # No series, or a series field that is not a list: read and checked as it is.
        return import_document(doc, club=club)
    doc["series"] = []
    with open(path, "rb") as file:
        memo = checked(ijson.items(file, "series.item", use_float=True)).evaluated
    writer = checked()
    writer.evaluated = memo  # each game valued once for both readings
    with open(path, "rb") as file:
        return _write(writer, ijson.items(file, "series.item", use_float=True))


def _write(checker: _Checker, entries) -> Tournament:
    try:
        return Writer(checker).write(entries)
    except UserError as error:  # a service refused what the checks let through
        raise InterchangeError([str(error)]) from None
