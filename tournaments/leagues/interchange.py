"""The season document `skat-season/1`: a season with its owner, teams and rosters, and
its match days, each holding its tournament as a `skat-tournament/1` document with its
archive (`tournaments.interchange`) and the venues that played it.

Export writes what identifies a season anywhere (names and the addresses' slugs, not
database ids or user accounts); import is all-or-nothing: the document is checked first,
every match day goes through the tournament import (`interchange.writer.import_source`),
and any problem is raised as one `SeasonDocumentError` with located messages
("match_days[2].venues[0]: ...") while nothing is written. Export → import → export gives
the same bytes (`season_text`).

`import_season_file` reads a file as the tournament import does (`interchange.stream`):
an outline of the whole season without its games, then one stream of the match days'
tables, checked and written a chunk at a time, so memory does not grow with the document.
The match days share one `interchange.rows.GameRows` (a game the season repeats is valued
and spelt for COPY once, as long as the days' scoring settings agree), and their venues
and confirmations are written together by `leagues.services.match_days_restore` (a few
queries for the season, not a dozen per venue and day).

Choices:
- the season's slug and each match day's (its archive's) are kept: one the site already
  has is refused, never renamed (the public and API addresses are the season's); a league
  is the site's of the document's slug (refused if it has another name), else of its name;
  a document without slugs gets new ones;
- players, on rosters and in the match days, are found as `registry.matching` says (by
  name among the team's club's members, so a roster names the players of the club's match
  days; a name two members share is refused), else created with the roster entry's
  `category` (optional);
- a league found by name is reused and gets the document's member clubs added; clubs are
  found by name or created;
- venue secretaries and league directors are user accounts of an installation: not in
  the document; the league director of the installation confirms nothing on import, the
  document's `confirmed` match days are confirmed as they were;
- a `closed` season is closed again on import, its final tables archived afresh from the
  same games (so they are the same figures).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from skatclub.runtime import collector_for_import
from tournaments.errors import UserError
from tournaments.interchange import InterchangeError, export_document, stream
from tournaments.interchange.common import MAX_MESSAGES, SMALLINT_MAX, _shown
from tournaments.interchange.rows import GameRows
from tournaments.interchange.writer import import_source
from tournaments.leagues.services import (
    MatchDayError,
    MatchDayPlayed,
    TeamError,
    VenuePlayed,
    league_create,
    league_season_create,
    match_days_restore,
    rosters_restore,
    season_close,
    season_update,
    teams_restore,
)
from tournaments.models import (
    Category,
    Club,
    League,
    MatchDayConfirmation,
    Player,
    Season,
    Table,
    has_control_characters,
)
from tournaments.registry.matching import (
    PlayerTally,
    Wanted,
    person_key,
    player_label,
    players_matching,
)
from tournaments.registry.services import (
    club_create,
    players_create,
    season_create,
)

FORMAT = "skat-season/1"
SLUG_MAX = 80  # Season.slug, League.slug
SETTINGS = ("teams_best_n", "team_size", "substitutes", "min_series", "best_series")


class SeasonDocumentError(Exception):
    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = messages


def export_season(season: Season) -> dict:
    """The whole season as a `skat-season/1` document."""
    if season.league_id is not None:
        owner = {
            "league": {
                "name": season.league.name,
                "slug": season.league.slug,
                "clubs": sorted(season.league.clubs.values_list("name", flat=True)),
            }
        }
    else:
        owner = {"club": season.club.name}
    teams = []
    for team in season.teams.select_related("club").order_by("name"):
        roster = team.roster.select_related("player").order_by(
            "substitute", "player__name", "player__pk"
        )
        teams.append(
            {
                "name": team.name,
                "club": team.club.name,
                "roster": [
                    {
                        "name": entry.player.name,
                        "substitute": entry.substitute,
                        # optional: a player who plays no match day has no archive to keep it
                        **({"category": entry.player.category} if entry.player.category else {}),
                    }
                    for entry in roster
                ],
            }
        )
    match_days = []
    for day in season.tournaments.select_related("club").order_by("date", "pk"):
        venues = []
        for venue in day.venues.order_by("pk"):
            tables = (
                Table.objects.filter(venue=venue)
                .order_by("series__number", "number")
                .values_list("series__number", "number")
            )
            by_series: dict[int, list[int]] = {}
            for series, number in tables:
                by_series.setdefault(series, []).append(number)
            venues.append(
                {
                    "name": venue.name,
                    "teams": sorted(venue.teams.values_list("name", flat=True)),
                    "tables": [
                        {"series": series, "tables": numbers}
                        for series, numbers in sorted(by_series.items())
                    ],
                }
            )
        match_days.append(
            {
                "host": day.club.name,
                "published": day.published,
                "confirmed": MatchDayConfirmation.objects.filter(tournament=day).exists(),
                "venues": venues,
                # The whole match day with its archive (money, payments, draw seeds, action
                # log, players' categories, its slug): what `export_tournament` writes.
                "tournament": export_document(day),
            }
        )
    return {
        "format": FORMAT,
        "season": {
            "name": season.name,
            "slug": season.slug,
            **owner,
            "settings": {name: getattr(season, name) for name in SETTINGS},
            "closed": season.is_closed,
        },
        "teams": teams,
        "match_days": match_days,
    }


def season_text(season: Season) -> str:
    """The document as the command writes it: the bytes a round trip keeps."""
    return json.dumps(export_season(season), ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------


# Each setting's whole numbers (a null leaves it empty where the season allows that).
SETTING_RANGES = {
    "teams_best_n": (0, SMALLINT_MAX, True),
    "team_size": (1, SMALLINT_MAX, False),
    "substitutes": (0, SMALLINT_MAX, False),
    "min_series": (0, SMALLINT_MAX, False),
    "best_series": (1, SMALLINT_MAX, True),
}


class _Shape:
    """The season document's shape, one method per part, collecting located messages
    ("match_days[2].venues[0]: name must be a string"); the services check the rest
    while writing. A value of the wrong kind is reported where it is, never used."""

    def __init__(self):
        self.problems: list[str] = []

    def error(self, place: str, message: str):
        self.problems.append(f"{place}: {message}")

    def field(self, mapping, key, kind, place, *, required=True) -> bool:
        """Whether `mapping[key]` is a `kind` (absent is fine unless `required`)."""
        if key not in mapping and not required:
            return False
        value = mapping.get(key)
        ok = type(value) is bool if kind is bool else isinstance(value, kind)
        if not ok:
            what = {str: _("a string"), list: _("a list"), dict: _("a JSON object")}.get(
                kind, _("true or false")
            )
            self.error(place, _("%(key)s must be %(what)s") % {"key": key, "what": what})
        return ok

    def name(self, mapping, key, place) -> bool:
        """A name: a string without control characters (PostgreSQL refuses a NUL even in a
        query); its length the services check where they write it."""
        if not self.field(mapping, key, str, place):
            return False
        if has_control_characters(mapping[key]):
            self.error(place, _("%(key)s contains a control character") % {"key": key})
            return False
        return True

    def slug(self, mapping, place):
        """An optional slug (`slug`): the address the season or league keeps on import."""
        if "slug" not in mapping:
            return
        value = mapping["slug"]
        try:
            if not isinstance(value, str) or len(value) > SLUG_MAX:
                raise ValidationError("")
            validate_slug(value)
        except ValidationError:
            self.error(
                place,
                _("slug must be a short name of letters, digits, - and _ (at most %(n)s)")
                % {"n": SLUG_MAX},
            )

    def category(self, mapping, place):
        """An optional player's category (`Category`; absent: none)."""
        if "category" in mapping and mapping["category"] not in Category.values:
            self.error(
                place,
                _("%(field)s must be one of %(choices)s, not %(given)s")
                % {
                    "field": "category",
                    "choices": ", ".join(Category.values),
                    "given": _shown(mapping["category"]),
                },
            )

    def object(self, value, place) -> bool:
        if not isinstance(value, dict):
            self.error(place, _("must be a JSON object"))
            return False
        return True

    def number(self, value, place, what, *, low=1, high=SMALLINT_MAX) -> bool:
        if type(value) is not int or not low <= value <= high:
            self.error(
                place,
                _("%(what)s must be a whole number from %(low)s to %(high)s")
                % {"what": what, "low": low, "high": high},
            )
            return False
        return True

    # -- the parts ----------------------------------------------------------------

    def season(self, season):
        if not self.object(season, "season"):
            return
        self.name(season, "name", "season")
        self.slug(season, "season")
        if "league" in season:
            league = season["league"]
            if self.object(league, "season.league"):
                self.name(league, "name", "season.league")
                self.slug(league, "season.league")
                if self.field(league, "clubs", list, "season.league"):
                    for i, club in enumerate(league["clubs"]):
                        self.name({"club": club}, "club", f"season.league.clubs[{i}]")
        elif not isinstance(season.get("club"), str):
            self.error("season", _("name its league or its club."))
        else:
            self.name(season, "club", "season")
        if self.field(season, "settings", dict, "season"):
            self.settings(season["settings"])
        self.field(season, "closed", bool, "season", required=False)

    def settings(self, settings):
        place = "season.settings"
        for key in settings:
            if key not in SETTING_RANGES:
                self.error(place, _("unknown setting %(key)s") % {"key": _shown(key)})
        for key, (low, high, nullable) in SETTING_RANGES.items():
            if key in settings and not (nullable and settings[key] is None):
                self.number(settings[key], place, key, low=low, high=high)

    def teams(self, teams) -> set[str]:
        """The teams' names (for the venues)."""
        names = set()
        for i, team in enumerate(teams):
            place = f"teams[{i}]"
            if not self.object(team, place):
                continue
            if self.name(team, "name", place):
                names.add(team["name"])
            self.name(team, "club", place)
            if self.field(team, "roster", list, place):
                for j, entry in enumerate(team["roster"]):
                    entry_place = f"{place}.roster[{j}]"
                    if self.object(entry, entry_place):
                        self.name(entry, "name", entry_place)
                        self.field(entry, "substitute", bool, entry_place, required=False)
                        self.category(entry, entry_place)
        return names

    def match_day(self, day, place, team_names: set[str]):
        if not self.object(day, place):
            return
        self.name(day, "host", place)
        self.field(day, "tournament", dict, place)
        self.field(day, "published", bool, place, required=False)
        self.field(day, "confirmed", bool, place, required=False)
        if not self.field(day, "venues", list, place):
            return
        for j, venue in enumerate(day["venues"]):
            vplace = f"{place}.venues[{j}]"
            if not self.object(venue, vplace):
                continue
            self.name(venue, "name", vplace)
            if self.field(venue, "teams", list, vplace):
                for name in venue["teams"]:
                    if not isinstance(name, str) or name not in team_names:
                        self.error(
                            vplace,
                            _("no team named %(team)s in the document.")
                            % {"team": _shown(name).strip("'")},
                        )
            if self.field(venue, "tables", list, vplace):
                for k, group in enumerate(venue["tables"]):
                    gplace = f"{vplace}.tables[{k}]"
                    if not self.object(group, gplace):
                        continue
                    self.number(group.get("series"), gplace, "series")
                    if self.field(group, "tables", list, gplace):
                        for number in group["tables"]:
                            self.number(number, gplace, "a table number")


def _check(doc) -> list[str]:
    """The document's shape (`_Shape`); the services check the rest while writing."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return [_("This is no %(format)s document.") % {"format": FORMAT}]
    shape = _Shape()
    if shape.field(doc, "season", dict, "document"):
        shape.season(doc["season"])
    team_names = set()
    if shape.field(doc, "teams", list, "document"):
        team_names = shape.teams(doc["teams"])
    if shape.field(doc, "match_days", list, "document"):
        for i, day in enumerate(doc["match_days"]):
            shape.match_day(day, f"match_days[{i}]", team_names)
    return shape.problems[:MAX_MESSAGES]


def _free_season_slug(slug: str | None) -> str | None:
    """The document's season slug, refused when the site has a season of that slug: its
    public and API addresses are the season's, a second one cannot have them too."""
    if slug is not None and Season.objects.filter(slug=slug).exists():
        raise UserError(
            _("the site already has a season '%(slug)s': nothing was imported") % {"slug": slug}
        )
    return slug


def _league(meta: dict) -> League | None:
    """The site's league of the document: the one of its slug (refused when that league has
    another name), else the one of its name (that league's slug stays), else None."""
    slug = meta.get("slug")
    league = None if slug is None else League.objects.filter(slug=slug).first()
    if league is not None and league.name != meta["name"]:
        raise UserError(
            _("the site's league '%(slug)s' is %(name)s, not %(document)s: nothing was imported")
            % {"slug": slug, "name": _shown(league.name), "document": _shown(meta["name"])}
        )
    return league or League.objects.filter(name=meta["name"]).first()


def _club(name: str, found: dict[str, Club]) -> Club:
    """The club of that name (the first), else a new one; `found` keeps the import's."""
    if name not in found:
        found[name] = Club.objects.filter(name=name).first() or club_create(name=name)
    return found[name]


# The keys on the way from the season document to a table, each once per object.
_SEASON_PATH_KEYS = stream.TOURNAMENT_PATH_KEYS | {"match_days", "tournament"}
_TABLES = "match_days.item.tournament.series.item.tables.item"


def _streamable(outline) -> bool:
    """Whether every `games` list the outline let go lay in a match day's table (else the
    document is read whole)."""
    if not isinstance(outline, Mapping):
        return True
    days = outline.get("match_days")
    if any(stream.holds_dropped(v) for k, v in outline.items() if k != "match_days"):
        return False
    for day in days if isinstance(days, list) else [days]:
        if not isinstance(day, Mapping):
            if stream.holds_dropped(day):
                return False
            continue
        if any(stream.holds_dropped(v) for k, v in day.items() if k != "tournament"):
            return False
        tournament = day.get("tournament")
        if not isinstance(tournament, Mapping):
            if stream.holds_dropped(tournament):
                return False
            continue
        if any(stream.holds_dropped(v) for k, v in tournament.items() if k != "series"):
            return False
    return True


def import_season_file(path: str, *, tally: PlayerTally | None = None) -> Season:
    """Import the season document in file `path` ("-": standard input) as a stream. Raises
    what `stream.import_file` raises for a file that holds no document, and
    SeasonDocumentError for a document that cannot be imported (nothing written)."""
    with collector_for_import(), stream.opened(path) as file:
        outline = stream.outline(file, _SEASON_PATH_KEYS)
        if outline is None or not _streamable(outline):
            document = stream.read_whole(file)
            if not isinstance(document, dict):
                raise stream.NotAnObject
            return import_season(document, tally=tally)
        if not isinstance(outline, dict):
            raise stream.NotAnObject
        feed = stream.TableFeed(stream.tables(file, _TABLES))
        season = import_season(outline, feed=feed, tally=tally)
        feed.end()
        return season


def _match_day_import(
    day: dict,
    season: Season,
    feed: stream.TableFeed | None,
    rows: GameRows,
    host: Club,
    tally: PlayerTally,
):
    """The match day's tournament, created in the season (not moved there afterwards);
    `rows`: the games valued so far, which the season's match days share."""
    options = {
        "club": host,
        "season": season,
        "published": bool(day.get("published", True)),
        "rows": rows,
        "tally": tally,
    }
    if feed is None:
        return import_source(day["tournament"], **options)
    feed.start(day["tournament"])
    return import_source(
        day["tournament"], tables_of=feed.tables_of, finished=feed.finished, **options
    )


def _rosters(
    entries: list[dict], clubs: list[Club], tally: PlayerTally
) -> list[list[tuple[Player, bool]]]:
    """The teams' rosters' players as `registry.matching` finds them in the team's club
    (the match days' players among them), else new ones; a name that could be several
    players, or refused, raises TeamError with its team's index."""
    keys: dict[tuple[int, str], int] = {}  # (club, name as compared): index in `wanted`
    wanted, teams, categories = [], [], []
    for index, (entry, club) in enumerate(zip(entries, clubs, strict=True)):
        for member in entry["roster"]:
            if keys.setdefault((club.pk, person_key(member["name"])), len(wanted)) == len(wanted):
                wanted.append(Wanted(name=member["name"], club=club))
                teams.append(index)
                categories.append(member.get("category", ""))
    matches = players_matching(wanted)
    for want, team, match in zip(wanted, teams, matches, strict=True):
        if match.ambiguous:
            players = "; ".join(player_label(p) for p in match.candidates)
            raise TeamError(
                UserError(
                    _("%(name)s could be any of %(players)s: nothing was imported")
                    % {"name": want.name, "players": players}
                ),
                index=team,
            )
    new = [i for i, match in enumerate(matches) if match.player is None]
    try:
        created = players_create(
            [
                {"name": wanted[i].name, "club": wanted[i].club, "category": categories[i]}
                for i in new
            ]
        )
    except UserError as error:
        raise TeamError(error, index=teams[new[0]]) from None
    found = [match.player for match in matches]
    for i, player in zip(new, created, strict=True):
        found[i] = player
    tally.add(matches, created)
    return [
        [
            (found[keys[club.pk, person_key(member["name"])]], bool(member.get("substitute")))
            for member in entry["roster"]
        ]
        for entry, club in zip(entries, clubs, strict=True)
    ]


def import_season(
    doc, *, feed: stream.TableFeed | None = None, tally: PlayerTally | None = None
) -> Season:
    """Create a season from a `skat-season/1` document, or raise SeasonDocumentError and
    write nothing. With `feed` the document is an outline (`import_season_file`) whose
    match days' tables `feed` gives; `tally` counts the players matched and created."""
    tally = tally if tally is not None else PlayerTally()
    problems = _check(doc)
    if problems:
        raise SeasonDocumentError(problems)
    place = "season"
    try:
        with transaction.atomic():
            meta = doc["season"]
            found: dict[str, Club] = {}  # clubs by name (a league's teams name its clubs)
            settings = {k: meta["settings"].get(k) for k in SETTINGS if k in meta["settings"]}
            slug = _free_season_slug(meta.get("slug"))
            if "league" in meta:
                clubs = [_club(name, found) for name in meta["league"]["clubs"]]
                place = "season.league"
                league = _league(meta["league"])
                if league is None:
                    league = league_create(
                        name=meta["league"]["name"], slug=meta["league"].get("slug"), clubs=clubs
                    )
                else:
                    league.clubs.add(*clubs)
                place = "season"
                season = league_season_create(league=league, name=meta["name"], slug=slug)
            else:
                season = season_create(
                    club=_club(meta["club"], found), name=meta["name"], slug=slug
                )
            if settings:
                season = season_update(season=season, **settings)
            days, rows = [], GameRows()
            for i, day in enumerate(doc["match_days"]):
                place = f"match_days[{i}]"
                host = _club(day["host"], found)
                days.append(_match_day_import(day, season, feed, rows, host, tally))
            clubs = []
            for i, entry in enumerate(doc["teams"]):
                place = f"teams[{i}]"
                clubs.append(_club(entry["club"], found))
            place = "teams"
            try:
                made = teams_restore(
                    season=season,
                    teams=[
                        (club, entry["name"])
                        for entry, club in zip(doc["teams"], clubs, strict=True)
                    ],
                )
                rosters_restore(
                    season=season,
                    rosters=list(zip(made, _rosters(doc["teams"], clubs, tally), strict=True)),
                )
            except TeamError as error:
                place = f"teams[{error.index}]"
                raise
            teams = {entry["name"]: team for entry, team in zip(doc["teams"], made, strict=True)}
            played = []
            for i, (day, tournament) in enumerate(zip(doc["match_days"], days, strict=True)):
                venues = []
                for j, venue in enumerate(day["venues"]):
                    place = f"match_days[{i}].venues[{j}]"
                    venues.append(
                        VenuePlayed(
                            name=venue["name"],
                            teams=[teams[name] for name in venue["teams"]],
                            tables=[
                                (group["series"], number)
                                for group in venue["tables"]
                                for number in group["tables"]
                            ],
                        )
                    )
                played.append(MatchDayPlayed(tournament, venues, bool(day.get("confirmed"))))
            place = "season"
            try:
                match_days_restore(season=season, days=played)
            except MatchDayError as error:
                place = f"match_days[{error.day}]"
                if error.venue is not None:
                    place += f".venues[{error.venue}]"
                raise
            if meta.get("closed"):
                season = season_close(season=season)
    except InterchangeError as error:
        raise SeasonDocumentError([f"{place}: {m}" for m in error.messages]) from None
    except UserError as error:
        raise SeasonDocumentError([f"{place}: {error}"]) from None
    except IntegrityError:
        # Another import of the same document at the same time wrote a league, season or
        # match day of the same slug first (all of this one is rolled back).
        raise SeasonDocumentError(
            [
                _("%(place)s: written by another import at the same time: nothing was imported")
                % {"place": place}
            ]
        ) from None
    return Season.objects.get(pk=season.pk)
