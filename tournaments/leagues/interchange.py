"""The season document `skat-season/1`: a season with its owner, teams and rosters, and
its match days, each holding its tournament as a `skat-tournament/1` document
(`tournaments.interchange`) with the venues that played it.

Export writes what identifies a season anywhere (names, not database ids, slugs or user
accounts); import is all-or-nothing: the document is checked first, every match day goes
through the tournament import (`interchange.writer.import_source`), and any problem is
raised as one `SeasonDocumentError` with located messages ("match_days[2].venues[0]: ...")
while nothing is written. Export → import → export gives the same bytes (`season_text`).

`import_season_file` reads a file as the tournament import does (`interchange.stream`):
an outline of the whole season without its games, then one stream of the match days'
tables, checked and written a chunk at a time, so memory does not grow with the document.
The match days share one `interchange.rows.GameRows` (a game the season repeats is valued
and spelt for COPY once, as long as the days' scoring settings agree), and their venues
and confirmations are written together by `leagues.services.match_days_restore` (a few
queries for the season, not a dozen per venue and day).

Choices:
- players on rosters are found by name within the team's club (the first by id), else
  created; tournament players as `import_document` finds them;
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

from django.db import transaction
from django.utils.translation import gettext as _

from skatclub.runtime import collector_for_import
from tournaments.errors import UserError
from tournaments.interchange import InterchangeError, export_document, stream
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
    Club,
    League,
    MatchDayConfirmation,
    Player,
    Season,
    Table,
)
from tournaments.registry.services import (
    club_create,
    players_create,
    season_create,
)

FORMAT = "skat-season/1"
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
                    {"name": entry.player.name, "substitute": entry.substitute} for entry in roster
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
                # The contract's form: the season document itself says what the tournament
                # archive would (its season, host, publication).
                "tournament": export_document(day, archive=False),
            }
        )
    return {
        "format": FORMAT,
        "season": {
            "name": season.name,
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


def _check(doc) -> list[str]:
    """The document's shape; the services check the rest while writing."""
    problems = []

    def need(mapping, key, kind, place):
        if not isinstance(mapping, dict) or not isinstance(mapping.get(key), kind):
            problems.append(
                _("%(place)s: %(key)s is missing or not a %(kind)s.")
                % {"place": place, "key": key, "kind": getattr(kind, "__name__", "value")}
            )
            return False
        return True

    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return [_("This is no %(format)s document.") % {"format": FORMAT}]
    if need(doc, "season", dict, "season"):
        season = doc["season"]
        need(season, "name", str, "season")
        need(season, "settings", dict, "season")
        if isinstance(season.get("league"), dict):
            need(season["league"], "name", str, "season.league")
            need(season["league"], "clubs", list, "season.league")
        elif not isinstance(season.get("club"), str):
            problems.append(_("season: name its league or its club."))
    if need(doc, "teams", list, "document"):
        for i, team in enumerate(doc["teams"]):
            place = f"teams[{i}]"
            named = need(team, "name", str, place) & need(team, "club", str, place)
            if named and need(team, "roster", list, place):
                for j, entry in enumerate(team["roster"]):
                    need(entry, "name", str, f"{place}.roster[{j}]")
    team_names = {t.get("name") for t in doc.get("teams") or [] if isinstance(t, dict)}
    if need(doc, "match_days", list, "document"):
        for i, day in enumerate(doc["match_days"]):
            place = f"match_days[{i}]"
            need(day, "host", str, place)
            need(day, "tournament", dict, place)
            if need(day, "venues", list, place):
                for j, venue in enumerate(day["venues"]):
                    vplace = f"{place}.venues[{j}]"
                    need(venue, "name", str, vplace)
                    if need(venue, "teams", list, vplace):
                        for name in venue["teams"]:
                            if name not in team_names:
                                problems.append(
                                    _("%(place)s: no team named %(team)s in the document.")
                                    % {"place": vplace, "team": name}
                                )
                    need(venue, "tables", list, vplace)
    return problems


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


def import_season_file(path: str) -> Season:
    """Import the season document in file `path` ("-": standard input) as a stream. Raises
    what `stream.import_file` raises for a file that holds no document, and
    SeasonDocumentError for a document that cannot be imported (nothing written)."""
    with collector_for_import(), stream.opened(path) as file:
        outline = stream.outline(file, _SEASON_PATH_KEYS)
        if outline is None or not _streamable(outline):
            document = stream.read_whole(file)
            if not isinstance(document, dict):
                raise stream.NotAnObject
            return import_season(document)
        if not isinstance(outline, dict):
            raise stream.NotAnObject
        feed = stream.TableFeed(stream.tables(file, _TABLES))
        season = import_season(outline, feed=feed)
        feed.end()
        return season


def _match_day_import(
    day: dict, season: Season, feed: stream.TableFeed | None, rows: GameRows, host: Club
):
    """The match day's tournament, created in the season (not moved there afterwards);
    `rows`: the games valued so far, which the season's match days share."""
    options = {
        "club": host,
        "season": season,
        "published": bool(day.get("published", True)),
        "rows": rows,
    }
    if feed is None:
        return import_source(day["tournament"], **options)
    feed.start(day["tournament"])
    return import_source(
        day["tournament"], tables_of=feed.tables_of, finished=feed.finished, **options
    )


def _rosters(entries: list[dict], clubs: list[Club]) -> list[list[tuple[Player, bool]]]:
    """The teams' rosters' players: each club's first player of each name (by id), else a
    new one; a name refused raises TeamError with its team's index."""
    names = {member["name"] for entry in entries for member in entry["roster"]}
    found: dict[tuple[int, str], Player] = {}
    for player in Player.objects.filter(
        name__in=names, club__in={club.pk for club in clubs}
    ).order_by("-pk"):
        found[player.club_id, player.name] = player  # the first by id is written last
    rosters = []
    for index, (entry, club) in enumerate(zip(entries, clubs, strict=True)):
        new = list(
            dict.fromkeys(
                member["name"]
                for member in entry["roster"]
                if (club.pk, member["name"]) not in found
            )
        )
        try:
            created = players_create([{"name": name, "club": club} for name in new])
        except UserError as error:
            raise TeamError(error, index=index) from None
        for name, player in zip(new, created, strict=True):
            found[club.pk, name] = player
        rosters.append(
            [
                (found[club.pk, member["name"]], bool(member.get("substitute")))
                for member in entry["roster"]
            ]
        )
    return rosters


def import_season(doc, *, feed: stream.TableFeed | None = None) -> Season:
    """Create a season from a `skat-season/1` document, or raise SeasonDocumentError and
    write nothing. With `feed` the document is an outline (`import_season_file`) whose
    match days' tables `feed` gives."""
    problems = _check(doc)
    if problems:
        raise SeasonDocumentError(problems)
    place = "season"
    try:
        with transaction.atomic():
            meta = doc["season"]
            found: dict[str, Club] = {}  # clubs by name (a league's teams name its clubs)
            settings = {k: meta["settings"].get(k) for k in SETTINGS if k in meta["settings"]}
            if "league" in meta:
                clubs = [_club(name, found) for name in meta["league"]["clubs"]]
                league = League.objects.filter(name=meta["league"]["name"]).first()
                if league is None:
                    league = league_create(name=meta["league"]["name"], clubs=clubs)
                else:
                    league.clubs.add(*clubs)
                season = league_season_create(league=league, name=meta["name"])
            else:
                season = season_create(club=_club(meta["club"], found), name=meta["name"])
            if settings:
                season = season_update(season=season, **settings)
            days, rows = [], GameRows()
            for i, day in enumerate(doc["match_days"]):
                place = f"match_days[{i}]"
                days.append(_match_day_import(day, season, feed, rows, _club(day["host"], found)))
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
                    rosters=list(zip(made, _rosters(doc["teams"], clubs), strict=True)),
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
    return Season.objects.get(pk=season.pk)
