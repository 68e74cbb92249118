"""Writes of leagues and seasons: leagues, league seasons and their settings, teams and
rosters, match days with their venues, confirming a match day, closing a season.

Terms (`tournaments.leagues.models`). The federation's limits that are checked here: a
player is on one roster per season (the database keeps that too) and plays for a team of
their own club; a roster holds at most `Season.team_size` regulars and
`Season.substitutes` substitutes; a team plays at one venue of a match day. A closed
season is read-only: every write here refuses it with a message and changes nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.entry.selectors import check_all_confirmed
from tournaments.errors import UserError, validated
from tournaments.leagues.selectors import season_tables, tables_json
from tournaments.lifecycle import check_not_finished
from tournaments.log.services import Kind, action_record
from tournaments.models import (
    Club,
    League,
    MatchDayConfirmation,
    Player,
    Registration,
    RosterEntry,
    Season,
    Table,
    Team,
    Tournament,
    Venue,
)
from tournaments.registry.services import registration_add, tournament_create, unique_slug

SEASON_SETTINGS = ("teams_best_n", "team_size", "substitutes", "min_series", "best_series")
# Tables per `pk IN (...)` of `venue_restore` (SQLite allows 999 parameters in older versions).
VENUE_BATCH = 900


def _open_season(season: Season) -> Season:
    """The season locked for the write, or a UserError when it is closed."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.is_closed:
        raise UserError(
            _(
                "The season %(season)s is closed: its results are archived and can no "
                "longer be changed."
            )
            % {"season": season.name}
        )
    return season


def league_create(
    *,
    name: str,
    slug: str | None = None,
    directors: Iterable = (),
    clubs: Iterable[Club] = (),
) -> League:
    with transaction.atomic():
        league = validated(League(name=name.strip(), slug=slug or unique_slug(League, name)))
        league.save()
        league.directors.set(list(directors))
        league.clubs.set(list(clubs))
    return league


def league_season_create(
    *, league: League, name: str, slug: str | None = None, **settings
) -> Season:
    """A season of the league; settings: `SEASON_SETTINGS`."""
    unknown = set(settings) - set(SEASON_SETTINGS)
    if unknown:
        raise TypeError(f"league_season_create got unknown settings {unknown}")
    with transaction.atomic():
        season = Season(
            league=league, name=name.strip(), slug=slug or unique_slug(Season, name), **settings
        )
        validated(season)
        season.save()
    return season


def season_update(*, season: Season, **settings) -> Season:
    """Change a season's settings (`SEASON_SETTINGS`) while it is open."""
    unknown = set(settings) - set(SEASON_SETTINGS)
    if unknown:
        raise TypeError(f"season_update got unknown settings {unknown}")
    with transaction.atomic():
        season = _open_season(season)
        for field, value in settings.items():
            setattr(season, field, value)
        validated(season)
        season.save(update_fields=list(settings))
    return season


class TeamError(UserError):
    """The UserError of one team of `teams_restore` or `rosters_restore`: `index` is its
    place in the list given."""

    def __init__(self, error: UserError, *, index: int):
        super().__init__(error.message, code=error.code, field=error.field)
        self.index = index


def team_create(*, season: Season, club: Club, name: str) -> Team:
    """A club's team in a season: a league season's member clubs, or the season's club."""
    return teams_restore(season=season, teams=[(club, name)])[0]


def teams_restore(*, season: Season, teams: Sequence[tuple[Club, str]]) -> list[Team]:
    """Teams (club and name each) of a season, checked in order as `team_create` checks
    one, with a few queries for all (a season document's teams)."""
    with transaction.atomic():
        season = _open_season(season)
        members = None
        if season.league_id is not None:
            members = set(season.league.clubs.values_list("pk", flat=True))
        names = set(Team.objects.filter(season=season).values_list("name", flat=True))
        new = []
        for index, (club, name) in enumerate(teams):
            try:
                new.append(_team_checked(season, members, names, club, name))
            except UserError as error:
                raise TeamError(error, index=index) from None
        return Team.objects.bulk_create(new)


def _team_checked(season: Season, members: set | None, names: set, club: Club, name: str):
    """A new team, checked (`members`: the league's clubs; `names`: the season's teams)."""
    if members is not None:
        if club.pk not in members:
            raise UserError(
                _("%(club)s is not a member club of %(league)s.")
                % {"club": club.name, "league": season.league.name}
            )
    elif club.pk != season.club_id:
        raise UserError(_("Only %(club)s's teams play in this season.") % {"club": season.club})
    name = name.strip()
    if name in names:
        raise UserError(
            _("A team named %(name)s already plays in this season.") % {"name": name},
            field="name",
        )
    names.add(name)
    # The season and the club are the caller's, the name's uniqueness is checked above:
    # the model's field checks, without a query each.
    return validated(
        Team(season=season, club=club, name=name), exclude=("season", "club"), constraints=False
    )


def roster_add(*, team: Team, player: Player, substitute: bool = False) -> RosterEntry:
    """Put a player on a team's roster for its season (one team per season, own club)."""
    return roster_restore(team=team, members=[(player, substitute)])[0]


def roster_restore(*, team: Team, members: Sequence[tuple[Player, bool]]) -> list[RosterEntry]:
    """Put players (each with whether a substitute) on a team's roster, checked in order as
    `roster_add` checks one."""
    return rosters_restore(season=team.season, rosters=[(team, members)])


def rosters_restore(
    *, season: Season, rosters: Sequence[tuple[Team, Sequence[tuple[Player, bool]]]]
) -> list[RosterEntry]:
    """The rosters of teams of one season (each team with its players, each with whether a
    substitute), checked in order as `roster_add` checks one, with a few queries for all
    (a season document's rosters)."""
    with transaction.atomic():
        season = _open_season(season)
        others = dict(
            RosterEntry.objects.filter(
                season=season,
                player__in=[player.pk for _team, members in rosters for player, _sub in members],
            ).values_list("player_id", "team__name")
        )
        on_roster = {(team.pk, sub): 0 for team, _members in rosters for sub in (False, True)}
        for team_id, substitute, count in (
            RosterEntry.objects.filter(team__in=[team.pk for team, _members in rosters])
            .values_list("team_id", "substitute")
            .annotate(n=Count("pk"))
            .order_by()
        ):
            on_roster[team_id, substitute] = count
        entries = []
        for index, (team, members) in enumerate(rosters):
            if team.season_id != season.pk:
                raise ValueError(f"team {team.pk} plays in another season")
            try:
                entries += _roster_checked(season, team, members, others, on_roster)
            except UserError as error:
                raise TeamError(error, index=index) from None
        return RosterEntry.objects.bulk_create(entries)


def _roster_checked(season, team, members, others: dict, on_roster: dict) -> list[RosterEntry]:
    """A team's new roster entries, checked (`others`: the season's players on a roster,
    by id, with their team's name; `on_roster`: regulars and substitutes by team)."""
    entries = []
    for player, substitute in members:
        if player.club_id != team.club_id:
            raise UserError(
                _("%(player)s is not a member of %(club)s, the club of %(team)s.")
                % {"player": player.name, "club": team.club.name, "team": team.name}
            )
        if player.pk in others:
            raise UserError(
                _(
                    "%(player)s is already on the roster of %(team)s this season: a "
                    "player plays for one team per season."
                )
                % {"player": player.name, "team": others[player.pk]}
            )
        limit = season.substitutes if substitute else season.team_size
        if on_roster[team.pk, substitute] >= limit:
            message = (
                _("%(team)s already has %(count)s substitutes, the season's limit.")
                if substitute
                else _("%(team)s already has %(count)s regular players, the season's limit.")
            )
            raise UserError(message % {"team": team.name, "count": limit})
        on_roster[team.pk, substitute] += 1
        others[player.pk] = team.name
        entries.append(RosterEntry(team=team, season=season, player=player, substitute=substitute))
    return entries


def roster_remove(*, entry: RosterEntry) -> None:
    """Take a player off a roster, unless they have played for the team in the season."""
    with transaction.atomic():
        _open_season(entry.team.season)
        if Table.objects.filter(
            series__tournament__season_id=entry.season_id, seats__player_id=entry.player_id
        ).exists():
            raise UserError(
                _("%(player)s has played for %(team)s this season and stays on its roster.")
                % {"player": entry.player.name, "team": entry.team.name}
            )
        entry.delete()


def match_day_create(
    *,
    season: Season,
    name: str,
    date: datetime.date,
    club: Club | None = None,
    slug: str | None = None,
    **settings,
) -> Tournament:
    """A match day of the season: a tournament of the season run by its league (or club).

    `club` hosts it (a member club of a league season; the season's club otherwise); the
    venues and their teams come with `venue_create`.
    """
    with transaction.atomic():
        season = _open_season(season)
        if season.league_id is not None:
            if club is None:
                club = season.league.clubs.order_by("name").first()
            if club is None or not season.league.clubs.filter(pk=club.pk).exists():
                raise UserError(_("A member club of the league hosts the match day."))
        else:
            club = season.club
        return tournament_create(
            club=club, season=season, name=name, date=date, slug=slug, **settings
        )


def venue_create(
    *,
    tournament: Tournament,
    name: str,
    teams: Sequence[Team],
    secretary: AbstractBaseUser | None = None,
) -> Venue:
    """A place of a match day where `teams` play; registers their regular players."""
    with transaction.atomic():
        if tournament.season_id is None:
            raise UserError(_("Only a match day of a season has venues."))
        season = _open_season(tournament.season)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.series.exists():
            raise UserError(_("The match day is drawn: its venues can no longer change."))
        name = name.strip()
        if Venue.objects.filter(tournament=tournament, name=name).exists():
            raise UserError(
                _("The match day already has a venue named %(name)s.") % {"name": name}
            )
        for team in teams:
            if team.season_id != season.pk:
                raise UserError(
                    _("%(team)s does not play in %(season)s.")
                    % {"team": team.name, "season": season.name}
                )
            elsewhere = Venue.objects.filter(tournament=tournament, teams=team).first()
            if elsewhere is not None:
                raise UserError(
                    _("%(team)s already plays at %(venue)s on this match day.")
                    % {"team": team.name, "venue": elsewhere.name}
                )
        venue = validated(Venue(tournament=tournament, name=name, secretary=secretary))
        venue.save()
        venue.teams.set(teams)
        regulars = Player.objects.filter(
            roster_entries__team__in=teams, roster_entries__substitute=False
        ).order_by("name", "pk")
        registration_add(tournament=tournament, players=list(regulars))
    return venue


def venue_restore(
    *,
    tournament: Tournament,
    name: str,
    teams: Sequence[Team],
    tables: Sequence[tuple[int, int]],
    secretary: AbstractBaseUser | None = None,
) -> Venue:
    """A venue of a match day already played elsewhere (a season document): its teams and
    the tables (series, table number) it played; nobody is registered or drawn."""
    with transaction.atomic():
        season = _open_season(tournament.season)
        _teams_of_season(teams, season)
        venue = validated(Venue(tournament=tournament, name=name.strip(), secretary=secretary))
        venue.save()
        venue.teams.set(teams)
        # One read of the match day's tables and one UPDATE per batch of them (a season
        # document names thousands), not one UPDATE per table.
        free = {
            (series, number): pk
            for pk, series, number in Table.objects.filter(
                series__tournament=tournament, venue=None
            ).values_list("pk", "series__number", "number")
        }
        pks = []
        for series, number in tables:
            pk = free.pop((series, number), None)
            if pk is None:
                raise _no_free_table(series, number)
            pks.append(pk)
        for start in range(0, len(pks), VENUE_BATCH):
            Table.objects.filter(pk__in=pks[start : start + VENUE_BATCH]).update(venue=venue)
    return venue


def _teams_of_season(teams: Iterable[Team], season: Season):
    for team in teams:
        if team.season_id != season.pk:
            raise UserError(
                _("%(team)s does not play in %(season)s.")
                % {"team": team.name, "season": season.name}
            )


def _no_free_table(series: int, number: int) -> UserError:
    return UserError(
        _("Series %(series)s has no table %(table)s without a venue.")
        % {"series": series, "table": number}
    )


def _still_open(tables: Iterable[tuple[int, int, str | None]]) -> UserError:
    """A match day's sheets that are not closed: (series, table, venue name) in order."""
    return UserError(
        _("Every sheet must be closed first; still open: %(tables)s.")
        % {
            "tables": ", ".join(
                _("series %(series)s table %(table)s") % {"series": s, "table": t}
                + (f" ({venue})" if venue else "")
                for s, t, venue in tables
            )
        }
    )


@dataclass(frozen=True)
class VenuePlayed:
    """A venue of a match day played elsewhere: its name, its teams and the tables (series,
    table number) it played."""

    name: str
    teams: Sequence[Team]
    tables: Sequence[tuple[int, int]]


@dataclass(frozen=True)
class MatchDayPlayed:
    """A match day played elsewhere, its tournament imported: its venues, and whether the
    league director had confirmed it."""

    tournament: Tournament
    venues: Sequence[VenuePlayed]
    confirmed: bool


class MatchDayError(UserError):
    """The UserError of one match day of `match_days_restore`: `day` is its index and
    `venue` that of its venue (None: its confirmation)."""

    def __init__(self, error: UserError, *, day: int, venue: int | None):
        super().__init__(error.message, code=error.code, field=error.field)
        self.day, self.venue = day, venue


def match_days_restore(*, season: Season, days: Sequence[MatchDayPlayed]) -> list[Venue]:
    """The venues and confirmations of a season's match days played elsewhere (a season
    document): what `venue_restore` for each venue and `match_day_confirm` for each
    confirmed day would write, checked as they check, in that order (a day's venues, then
    its confirmation, day by day), raising the first problem as a MatchDayError; with a
    few queries for the whole season instead of a dozen per venue and day."""
    with transaction.atomic():
        season = _open_season(season)
        ids = [day.tournament.pk for day in days]
        list(Tournament.objects.select_for_update().filter(pk__in=ids).values_list("pk"))
        confirmed = set(
            MatchDayConfirmation.objects.filter(tournament__in=ids).values_list(
                "tournament_id", flat=True
            )
        )
        taken = set(Venue.objects.filter(tournament__in=ids).values_list("tournament_id", "name"))
        # Each match day's tables: (series, number) -> [pk, closed, its venue's name].
        sheets: dict[int, dict[tuple[int, int], list]] = {pk: {} for pk in ids}
        rows = Table.objects.filter(series__tournament__in=ids).values_list(
            "pk", "series__tournament_id", "series__number", "number", "closed", "venue__name"
        )
        for pk, tournament_id, series, number, closed, venue in rows:
            sheets[tournament_id][(series, number)] = [pk, closed, venue]
        venues, teams, tables, confirmations = [], [], [], []
        for i, day in enumerate(days):
            tournament, day_sheets = day.tournament, sheets[day.tournament.pk]
            for j, played in enumerate(day.venues):
                try:
                    _teams_of_season(played.teams, season)
                    # The tournament is the caller's saved row; the name once per match
                    # day is checked here for all (the database's constraint agrees).
                    venue = validated(
                        Venue(tournament=tournament, name=played.name.strip()),
                        exclude=["tournament"],
                        constraints=False,
                    )
                    if (tournament.pk, venue.name) in taken:
                        error = venue.unique_error_message(Venue, ("tournament", "name"))
                        raise UserError(" ".join(error.messages))
                    taken.add((tournament.pk, venue.name))
                    pks = []
                    for series, number in played.tables:
                        sheet = day_sheets.get((series, number))
                        if sheet is None or sheet[2] is not None:
                            raise _no_free_table(series, number)
                        sheet[2] = venue.name
                        pks.append(sheet[0])
                except UserError as error:
                    raise MatchDayError(error, day=i, venue=j) from None
                venues.append(venue)
                teams.append(dict.fromkeys(team.pk for team in played.teams))
                tables.append(pks)
            if day.confirmed:
                try:
                    if tournament.season_id is None:
                        raise UserError(_("Only a match day of a season is confirmed."))
                    if tournament.pk in confirmed:
                        raise UserError(_("The match day is already confirmed."))
                    if not day_sheets:
                        raise UserError(_("The match day has not been played yet."))
                    still_open = sorted(
                        (series, number, venue)
                        for (series, number), (_pk, closed, venue) in day_sheets.items()
                        if not closed
                    )
                    if still_open:
                        raise _still_open(still_open)
                except UserError as error:
                    raise MatchDayError(error, day=i, venue=None) from None
                confirmed.add(tournament.pk)
                confirmations.append(MatchDayConfirmation(tournament=tournament))
        Venue.objects.bulk_create(venues)
        through = Venue.teams.through
        through.objects.bulk_create(
            [
                through(venue_id=venue.pk, team_id=team_id)
                for venue, team_ids in zip(venues, teams, strict=True)
                for team_id in team_ids
            ]
        )
        for venue, pks in zip(venues, tables, strict=True):
            for start in range(0, len(pks), VENUE_BATCH):
                Table.objects.filter(pk__in=pks[start : start + VENUE_BATCH]).update(venue=venue)
        MatchDayConfirmation.objects.bulk_create(confirmations)
        Tournament.objects.filter(pk__in=[c.tournament_id for c in confirmations]).update(
            status=Tournament.Status.FINISHED
        )
    return venues


def match_day_substitute(*, tournament: Tournament, out: Player, replacement: Player) -> None:
    """A substitute plays for a regular of the same team on a match day not yet drawn."""
    with transaction.atomic():
        _open_season(tournament.season)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_not_finished(tournament.pk)
        if tournament.series.exists():
            raise UserError(_("The match day is drawn: players can no longer be exchanged."))
        entries = {
            e.player_id: e
            for e in RosterEntry.objects.filter(
                season_id=tournament.season_id, player__in=[out, replacement]
            )
        }
        if out.pk not in entries or replacement.pk not in entries:
            raise UserError(_("Both players must be on a roster of this season."))
        if entries[out.pk].team_id != entries[replacement.pk].team_id:
            raise UserError(_("A substitute plays only for their own team."))
        removed, _count = Registration.objects.filter(tournament=tournament, player=out).delete()
        if not removed:
            raise UserError(
                _("%(player)s is not registered for this match day.") % {"player": out.name}
            )
        registration_add(tournament=tournament, players=[replacement])


def match_day_confirm(*, tournament: Tournament, user: AbstractBaseUser | None = None):
    """The league director confirms a played match day: its table is no longer provisional."""
    with transaction.atomic():
        if tournament.season_id is None:
            raise UserError(_("Only a match day of a season is confirmed."))
        _open_season(tournament.season)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if MatchDayConfirmation.objects.filter(tournament=tournament).exists():
            raise UserError(_("The match day is already confirmed."))
        tables = Table.objects.filter(series__tournament=tournament)
        if not tables.exists():
            raise UserError(_("The match day has not been played yet."))
        still_open = list(
            tables.filter(closed=False)
            .order_by("series__number", "number")
            .values_list("series__number", "number", "venue__name")
        )
        if still_open:
            raise _still_open(still_open)
        # As finishing a tournament: a closed sheet may still hold a phone's games.
        check_all_confirmed(tables)
        MatchDayConfirmation.objects.create(tournament=tournament, by=user)
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        # Finishing by confirmation, logged as `tournament_finish` logs it.
        action_record(
            tournament=tournament,
            kind=Kind.FINISHED,
            league=tournament.season.league,
            user=user,
            details={"confirmed": True},
        )


def season_close(*, season: Season, user: AbstractBaseUser | None = None) -> Season:
    """Close a season: every match day played and (in a league) confirmed; the final tables
    are archived with it and it is read-only from then on."""
    with transaction.atomic():
        season = _open_season(season)
        days = list(season.tournaments.order_by("date", "pk"))
        if not days:
            raise UserError(_("The season has no match days yet."))
        unfinished = [
            day.name
            for day in days
            if Table.objects.filter(series__tournament=day, closed=False).exists()
            or not Table.objects.filter(series__tournament=day).exists()
        ]
        if unfinished:
            raise UserError(
                _("Every match day must be played and its sheets closed first: %(days)s.")
                % {"days": ", ".join(unfinished)}
            )
        if season.league_id is not None:
            unconfirmed = [
                day.name
                for day in days
                if not MatchDayConfirmation.objects.filter(tournament=day).exists()
            ]
            if unconfirmed:
                raise UserError(
                    _("The league director must confirm every match day first: %(days)s.")
                    % {"days": ", ".join(unconfirmed)}
                )
        season.archive = tables_json(season_tables(season, live=True))
        season.status = Season.Status.CLOSED
        season.closed_at = timezone.now()
        season.save(update_fields=["archive", "status", "closed_at"])
    return season
