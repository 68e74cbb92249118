"""A player's career: every tournament, series and season they played, their average per
series scaled to 48 games, their form over time, and head to head with another player.

Built on the standings' and leagues' reads, never beside them: the series and the games
declared by type are `standings.selectors.player_statistics`; a tournament's place is
ranked by `standings.selectors.rank_standings` over the rows `tournament_standings` would
build (the registrations and each player's sums, read for all of the player's finished
tournaments at once: `leagues.sql.registrations`, `standings.sql.totals_sql`); a season's place,
team and points are its player table's row (`leagues.selectors.season_tables`).

Terms:
- *scaled to 48 games* (`scaled_48`): a series' list points as if it had 48 games, list
  points × 48 / games of the series (the games played at the player's table). A series of
  36 games at a 3-table with 900 points counts 900 × 48 / 36 = 1,200; one of 48 games at
  a 4-table counts as it is; a sheet closed short after 24 games counts twice its points.
  The *average* is the mean of the scaled series with games (`scaled_average`): each
  series counts once, by the year of its tournament's date and overall;
- *form*: the scaled series in date order with their moving average over the last
  `FORM_WINDOW` series;
- *place at the table*: 1 + the players at the same table with more list points (equal
  points share the place); *ranked above* another player at a table: more list points
  there, equal points a tie, counted apart (`head_to_head`);
- a tournament's *place* is given once it is finished (the final standings); a running
  one's changes with every other table and is shown on its own page.

Only what `viewer` may see (`permissions.visible_tournaments`: the public the published
tournaments). A fixed number of queries, whatever the number of tournaments (one more set
per season the player played in). Nothing here writes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.db.models import Q

from tournaments import permissions
from tournaments.leagues.selectors import season_tables
from tournaments.leagues.sql import registrations
from tournaments.models import Player, Registration, Season, Seat, Tournament
from tournaments.ratings.method import place_at_table
from tournaments.standings.selectors import (
    PlayerSeriesLine,
    PlayerStatistics,
    player_statistics,
    rank_standings,
    registered_rows,
    unregistered_rows,
)
from tournaments.standings.sql import fetch, totals_sql

SCALE_GAMES = 48
# The form's moving average: the last 10 series (some three evenings).
FORM_WINDOW = 10
# The table mates listed, most frequent first.
MATES_SHOWN = 10


def scaled_48(list_points: int, games: int) -> float | None:
    """A series' list points scaled to 48 games (see the module's terms); None without a
    game."""
    if not games:
        return None
    return round(list_points * SCALE_GAMES / games, 1)


def scaled_average(series: list[CareerSeries]) -> float | None:
    """The mean of the series' scaled points (those with games); None without one."""
    values = [s.scaled for s in series if s.scaled is not None]
    return round(sum(values) / len(values), 1) if values else None


@dataclass
class CareerSeries:
    """One series of the player: their seat's result, their place at the table of how
    many, and the list points scaled to 48 games."""

    tournament: Tournament
    line: object  # sheets.selectors.SeatLine
    place: int | None  # at the table; None before its first game
    at_table: int  # players at the table
    scaled: float | None


@dataclass
class CareerTournament:
    tournament: Tournament
    series: list[CareerSeries]
    list_points: int
    place: int | None  # of the final standings; None while not finished
    players: int | None  # in the final standings

    @property
    def finished(self) -> bool:
        """Whether the tournament is finished: it has a final place for the player (who
        is in its standings, registered or seated), filled in by `career_places`."""
        return self.tournament.status == Tournament.Status.FINISHED


@dataclass
class CareerSeason:
    """The player's row in a season's player table (`season_tables`)."""

    season: Season
    team: str
    rank: int | None  # None: not ranked (fewer series than the minimum, or none counted)
    players: int  # ranked players of the table
    list_points: int | None
    series: str  # "14", or "10/14" where the best 10 count


@dataclass
class YearAverage:
    year: int
    series: int
    average: float | None


@dataclass
class FormPoint:
    tournament: Tournament
    series_number: int
    scaled: float
    moving: float  # the mean of the last FORM_WINDOW scaled series, this one included


@dataclass
class TableMate:
    player_id: int
    name: str
    tables: int  # tables with a game shared with the player


@dataclass
class Career:
    player: Player
    clubs: list[str]  # the home club first, then the others A–Z
    stats: PlayerStatistics
    tournaments: list[CareerTournament]  # newest first
    series: list[CareerSeries]  # date order
    seasons: list[CareerSeason]
    years: list[YearAverage]  # newest first
    average: float | None  # over every series with games
    form: list[FormPoint]
    mates: list[TableMate]


def _viewer(viewer):
    return viewer if viewer is not None and viewer.is_authenticated else None


def player_shown(viewer, player: Player) -> bool:
    """Whether `viewer` may learn of `player` (the head-to-head pages and answers, as the
    player's page): someone in a tournament the viewer may see, or of a club the viewer
    manages; never one not listed publicly to those who do not manage them."""
    if not permissions.can_see_player_page(viewer, player):
        return False
    seen = permissions.visible_tournaments(
        viewer,
        Tournament.objects.filter(
            Q(pk__in=Seat.objects.filter(player=player).values("series__tournament_id"))
            | Q(pk__in=Registration.objects.filter(player=player).values("tournament_id"))
        ),
    ).exists()
    return seen or permissions.can_manage_club(viewer, player.club)


def player_clubs(player: Player) -> list[str]:
    """The player's clubs: the home club first, then the other clubs they play for."""
    others = sorted(
        name
        for club_id, name in player.clubs.values_list("pk", "name")
        if club_id != player.club_id
    )
    return ([player.club.name] if player.club else []) + others


def _table_seats(
    player: Player, history: list[PlayerSeriesLine]
) -> dict[int, list[tuple[int, int, int]]]:
    """Table id → (player id, list points, games) of every seat at the player's tables in
    `history`: one query (the names of the few table mates shown are read apart). The
    tables are asked by a subquery on the player's seats, not as a list of 1,500 ids
    (which psycopg binds one by one), and those of `history` kept."""
    tables = {h.line.table_id for h in history}
    seats: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    rows = (
        Seat.objects.filter(table_id__in=Seat.objects.filter(player=player).values("table_id"))
        # Unordered: the seats' default order joins their tables, series and tournaments
        # to sort 6,000 rows that are grouped by table here anyway.
        .order_by()
        .values_list("table_id", "player_id", "list_points", "games_played")
    )
    for table_id, player_id, points, games in rows:
        if table_id in tables:
            seats[table_id].append((player_id, points, games))
    return seats


def final_places(tournaments: list[Tournament]) -> dict[int, dict[int, tuple[int, int]]]:
    """Tournament id → player id → (place, players) in the final standings of each
    finished tournament of `tournaments`: the rows `tournament_standings` builds (every
    registered player, and those seated after withdrawing), ranked by the same function,
    read for all the tournaments at once (two queries, three with players seated but no
    longer registered)."""
    ids = [t.pk for t in tournaments if t.status == Tournament.Status.FINISHED]
    if not ids:
        return {}
    registered: dict[int, list[tuple]] = defaultdict(list)
    for day_id, *registration in registrations(ids):
        registered[day_id].append(registration)
    rows = {day_id: registered_rows(registered[day_id]) for day_id in ids}
    totals = fetch(totals_sql(len(ids)), ids)
    missing = {total[1] for total in totals if total[1] not in rows[total[0]]}
    unregistered = unregistered_rows(Player.objects.filter(pk__in=missing)) if missing else {}
    for day_id, player_id, list_points, won, lost in totals:
        row = rows[day_id].get(player_id)
        if row is None:  # a fresh row per tournament: the sums are set on it
            row = rows[day_id][player_id] = replace(unregistered[player_id])
        row.list_points, row.won, row.lost = list_points, won, lost
    places = {}
    for day_id, day_rows in rows.items():
        ranked = rank_standings(day_rows.values())
        places[day_id] = {row.player_id: (row.rank, len(ranked)) for row in ranked}
    return places


def _seasons(player: Player, tournaments: list[Tournament], viewer) -> list[CareerSeason]:
    seasons = {t.season_id for t in tournaments if t.season_id is not None}
    found = []
    for season in Season.objects.filter(pk__in=seasons).select_related("club", "league"):
        tables = season_tables(season, viewer=viewer)
        row = next((r for r in tables.players if r.player_id == player.pk), None)
        if row is None and tables.archived:
            # A closed season's archive keeps the names of its players, with their club.
            clubs = set(player_clubs(player))
            row = next(
                (r for r in tables.players if r.name == player.name and r.club in clubs), None
            )
        if row is None:
            continue
        found.append(
            CareerSeason(
                season=season,
                team=row.team,
                rank=row.rank,
                players=sum(1 for r in tables.players if r.rank is not None),
                list_points=row.list_points,
                series=row.series,
            )
        )
    found.sort(key=lambda s: (s.season.pk,), reverse=True)
    return found


def _form(series: list[CareerSeries]) -> list[FormPoint]:
    points, window = [], []
    for s in series:
        if s.scaled is None:
            continue
        window = [*window[-(FORM_WINDOW - 1) :], s.scaled]
        points.append(
            FormPoint(
                tournament=s.tournament,
                series_number=s.line.series_number,
                scaled=s.scaled,
                moving=round(sum(window) / len(window), 1),
            )
        )
    return points


def player_career(player: Player, *, viewer=None, places: bool = True) -> Career:
    """The player's career as `viewer` may see it (the public, None: published
    tournaments). `places` False: the tournaments' final places are left for
    `career_places` to fill in for those shown (a page of 50 of 500 tournaments: ranking
    the standings of all of them was the largest part of the page's time)."""
    viewer = _viewer(viewer)
    stats = player_statistics(player, viewer=viewer)
    seats = _table_seats(player, stats.history)
    series = []
    for h in stats.history:
        at_table = seats.get(h.line.table_id, [])
        place = None
        if h.line.games:
            place = place_at_table(h.line.list_points, [s[1] for s in at_table])
        series.append(
            CareerSeries(
                tournament=h.tournament,
                line=h.line,
                place=place,
                at_table=len(at_table),
                scaled=scaled_48(h.line.list_points, h.line.games),
            )
        )
    by_tournament: dict[int, list[CareerSeries]] = defaultdict(list)
    for s in series:
        by_tournament[s.tournament.pk].append(s)
    # Every visible tournament of the player, one they are registered in but never seated too.
    tournaments = list(stats.seen.values())
    career_tournaments = []
    for t in sorted(tournaments, key=lambda t: (t.date, t.pk), reverse=True):
        own = by_tournament.get(t.pk, [])
        career_tournaments.append(
            CareerTournament(
                tournament=t,
                series=own,
                list_points=sum(s.line.list_points for s in own),
                place=None,
                players=None,
            )
        )
    if places:
        career_places(player, career_tournaments)
    by_year: dict[int, list[CareerSeries]] = defaultdict(list)
    for s in series:
        if s.scaled is not None:
            by_year[s.tournament.date.year].append(s)
    years = [
        YearAverage(year, len(by_year[year]), scaled_average(by_year[year]))
        for year in sorted(by_year, reverse=True)
    ]
    return Career(
        player=player,
        clubs=player_clubs(player),
        stats=stats,
        tournaments=career_tournaments,
        series=series,
        seasons=_seasons(player, tournaments, viewer),
        years=years,
        average=scaled_average(series),
        form=_form(series),
        mates=_mates(player, series, seats),
    )


def career_places(player: Player, tournaments: Iterable[CareerTournament]) -> None:
    """Fill in the player's final place (and of how many) in each of `tournaments` that
    is finished (`final_places`; the others keep None)."""
    tournaments = list(tournaments)
    places = final_places([t.tournament for t in tournaments])
    for t in tournaments:
        t.place, t.players = places.get(t.tournament.pk, {}).get(player.pk, (None, None))


def _mates(player: Player, series: list[CareerSeries], seats) -> list[TableMate]:
    """The players the player met most often at a table with games (visible ones, listed
    publicly)."""
    count: Counter[int] = Counter()
    for s in series:
        if not s.line.games:
            continue
        for player_id, _points, _games in seats.get(s.line.table_id, []):
            if player_id != player.pk:
                count[player_id] += 1
    if not count:
        return []
    # The names of those who may be shown: as often as the last one shown, or more.
    least = sorted(count.values(), reverse=True)[:MATES_SHOWN][-1]
    names = dict(
        # Not one not listed publicly: a table mate's name links to head to head.
        Player.objects.filter(
            pk__in=[pk for pk, n in count.items() if n >= least], listed=True
        ).values_list("pk", "name")
    )
    ranked = sorted(
        ((pk, n) for pk, n in count.items() if pk in names),
        key=lambda item: (-item[1], names[item[0]].casefold()),
    )
    return [TableMate(pk, names[pk], n) for pk, n in ranked[:MATES_SHOWN]]


@dataclass
class Meeting:
    """A table the two players shared, with their list points there."""

    tournament: Tournament
    series_number: int
    table_number: int
    points: int
    other_points: int

    @property
    def outcome(self) -> str:
        """ "above", "tied" or "below": the player against the other at this table."""
        if self.points > self.other_points:
            return "above"
        return "tied" if self.points == self.other_points else "below"


@dataclass
class HeadToHead:
    player: Player
    other: Player
    meetings: list[Meeting] = field(default_factory=list)  # newest first

    @property
    def together(self) -> int:
        return len(self.meetings)

    def _count(self, outcome: str) -> int:
        return sum(1 for m in self.meetings if m.outcome == outcome)

    @property
    def above(self) -> int:
        return self._count("above")

    @property
    def tied(self) -> int:
        return self._count("tied")

    @property
    def below(self) -> int:
        return self._count("below")


def head_to_head(player: Player, other: Player, *, viewer=None) -> HeadToHead:
    """The tables with a game where `player` and `other` sat together, in the tournaments
    `viewer` may see, and who of them had more list points at each (two queries)."""
    viewer = _viewer(viewer)
    shared = Seat.objects.filter(player=other).values("table_id")
    fields = (
        "table_id",
        "player_id",
        "list_points",
        "games_played",
        "series__number",
        "table__number",
        "series__tournament_id",
    )
    rows = Seat.objects.filter(
        player__in=[player.pk, other.pk],
        table_id__in=Seat.objects.filter(player=player, table_id__in=shared).values("table_id"),
    ).values_list(*fields)
    by_table: dict[int, dict] = defaultdict(dict)
    for table_id, player_id, points, games, series_number, table_number, t_id in rows:
        by_table[table_id][player_id] = (points, games, series_number, table_number, t_id)
    tournament_ids = {seats[player.pk][4] for seats in by_table.values() if player.pk in seats}
    visible = {
        t.pk: t
        for t in permissions.visible_tournaments(
            viewer, Tournament.objects.filter(pk__in=tournament_ids)
        ).select_related("club")
    }
    meetings = []
    for seats in by_table.values():
        own, theirs = seats.get(player.pk), seats.get(other.pk)
        if own is None or theirs is None or own[4] not in visible or not own[1]:
            continue
        meetings.append(Meeting(visible[own[4]], own[2], own[3], own[0], theirs[0]))
    meetings.sort(
        key=lambda m: (m.tournament.date, m.tournament.pk, m.series_number), reverse=True
    )
    return HeadToHead(player=player, other=other, meetings=meetings)
