"""Reads for the draw: who the next draw seats and at how many tables, who has met whom,
what a drawn series could not keep apart, and a series' tables with their players as the
desks show them.

drawn players
    The registrations the next draw seats: every registration of the tournament but the
    withdrawn ones (a player who left is not drawn again; their results stay).
    `drawn_registrations` is the one place that decides it, for the draw and for the
    desk's preview of its tables alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from tournaments.draw import engine
from tournaments.models import Registration, Seat, Series, Table, Tournament, Venue
from tournaments.standings.selectors import roster_teams


def drawn_registrations(tournament: Tournament) -> list[Registration]:
    """The registrations the next draw seats (see "drawn players" above), with their
    players and clubs."""
    return list(
        Registration.objects.filter(tournament=tournament, withdrawn=False).select_related(
            "player__club"
        )
    )


@dataclass(frozen=True)
class DrawPreview:
    """What the next draw will seat: `players` drawn players at tables of `sizes` (None
    when they cannot be split: rules §4)."""

    players: int
    sizes: list[int] | None


def draw_preview(tournament: Tournament) -> DrawPreview:
    """The tables the next draw makes, counted from the same players the draw seats; a
    match day at venues splits each venue's players at that venue's tables, as the draw
    does."""
    registrations = drawn_registrations(tournament)
    venues = list(tournament.venues.order_by("pk").values_list("pk", flat=True))
    if not venues:
        groups = [len(registrations)]
    else:
        teams = season_teams(tournament)
        at_venue = dict.fromkeys(venues, 0)
        for registration in registrations:
            venue_id = teams.get(registration.player_id, ("", None))[1]
            if venue_id is None:
                # The draw refuses a player of no venue and says who; no split to show.
                return DrawPreview(players=len(registrations), sizes=None)
            at_venue[venue_id] += 1
        groups = [count for count in at_venue.values() if count]
    try:
        sizes = [
            size
            for count in groups or [0]
            for size in engine.table_sizes(count, fives=tournament.five_tables)
        ]
    except engine.DrawError:
        sizes = None
    return DrawPreview(players=len(registrations), sizes=sizes)


def season_teams(tournament: Tournament) -> dict[int, tuple[str, int | None]]:
    """Player → (team name, venue id) from the rosters of the tournament's season: in a
    season a player's team is the roster's, not the text on the player; the venue is the
    one of this match day the team plays at (None without venues)."""
    if tournament.season_id is None:
        return {}
    venue_of = dict(
        Venue.teams.through.objects.filter(venue__tournament=tournament).values_list(
            "team_id", "venue_id"
        )
    )
    return {
        player_id: (team.name, venue_of.get(team.team_id))
        for player_id, team in roster_teams(tournament.season_id).items()
    }


def previous_opponents(
    tournament: Tournament, *, before: int | None = None
) -> set[frozenset[int]]:
    """Pairs of players who have met at a table; only series numbered below `before` if set."""
    seats = Seat.objects.filter(series__tournament=tournament)
    if before is not None:
        seats = seats.filter(series__number__lt=before)
    by_table: dict[int, list[int]] = {}
    for table_id, player_id in seats.values_list("table_id", "player_id").order_by():
        by_table.setdefault(table_id, []).append(player_id)
    return set(engine.pairs_at_tables(by_table.values()))


def draw_conflicts(series: Series) -> list[tuple[str, str, str]]:
    """The pairs of a drawn series that share a table though the draw should have kept them
    apart, as (name, name, reason): same team or club (by the series' `keep_apart`), or
    met in an earlier series ("repeat"). Shown to the director as a warning."""
    tables: dict[int, list] = {}
    for seat in (
        Seat.objects.filter(series=series)
        .select_related("player")
        .order_by("table__number", "number")
    ):
        tables.setdefault(seat.table_id, []).append(seat.player)
    players = [player for seated in tables.values() for player in seated]
    teams = season_teams(series.tournament)
    entrants = [
        engine.Entrant(
            id=p.pk, team=teams[p.pk][0] if p.pk in teams else p.team, club=str(p.club_id or "")
        )
        for p in players
    ]
    names = {p.pk: p.name for p in players}
    found = engine.conflicts(
        [[p.pk for p in seated] for seated in tables.values()],
        entrants,
        # Pairs who met in an earlier series; this series' own pairs are what is checked.
        previous_opponents(series.tournament, before=series.number),
        series.keep_apart,
    )
    return [(names[a], names[b], reason) for a, b, reason in found]


def series_tables(series: Series, *, venue: Venue | None = None) -> list[Table]:
    """The tables of a series in their order, with their seats' players and the number of
    games `played` of its `length` (the tournament's series length for the table's size):
    all of them (the series desk), or one venue's (the venue's page)."""
    tables = series.tables.all()
    if venue is not None:
        tables = tables.filter(venue=venue)
    tables = list(
        tables.prefetch_related("seats__player").annotate(played=Count("games")).order_by("number")
    )
    for table in tables:
        table.length = series.tournament.games_per_series(table.size)
    return tables
