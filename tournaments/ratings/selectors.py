"""Reading ratings: the rating lists (site, club, league; by category) and a player's
rating history. Every page, the API and the `ratings` command read these; the numbers
shown come from `method.shown` alone."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Player, Rating, RatingChange, Seat, Table
from tournaments.ratings.method import SHOWN_FROM, shown


@dataclass(slots=True)
class RatingRow:
    rank: int
    player: Player
    rating: int
    uncertainty: int
    series: int


@dataclass(slots=True)
class RatingPoint:
    """A player's rating after one closed table."""

    played_on: object  # datetime.date
    table: Table
    place: int
    rating: int
    uncertainty: int


def rating_list(*, club=None, league=None, category: str = "") -> list[RatingRow]:
    """The players with a shown rating (`SHOWN_FROM` series or more), best first; equal
    shown ratings share a rank. `club`: its members; `league`: the players seated at its
    match days; `category`: one category (`Category`)."""
    ratings = Rating.objects.filter(series__gte=SHOWN_FROM).select_related("player__club")
    if club is not None:
        ratings = ratings.filter(player__memberships__club=club)
    if league is not None:
        ratings = ratings.filter(
            player__in=Seat.objects.filter(series__tournament__season__league=league).values(
                "player_id"
            )
        )
    if category:
        ratings = ratings.filter(player__category=category)
    rows = []
    for rating in ratings.order_by("-mu", "player__name", "player_id"):
        points, uncertainty = shown(rating.mu, rating.sigma)
        rank = len(rows) + 1
        if rows and rows[-1].rating == points:
            rank = rows[-1].rank
        rows.append(RatingRow(rank, rating.player, points, uncertainty, rating.series))
    return rows


def rating_of(player: Player) -> RatingRow | None:
    """The player's shown rating, or None before `SHOWN_FROM` rated series (no rank: the
    lists give that)."""
    rating = Rating.objects.filter(player=player, series__gte=SHOWN_FROM).first()
    if rating is None:
        return None
    points, uncertainty = shown(rating.mu, rating.sigma)
    return RatingRow(0, player, points, uncertainty, rating.series)


def rating_history(player: Player) -> list[RatingPoint]:
    """The player's rating after each rated table, in the results' date order."""
    changes = (
        RatingChange.objects.filter(player=player)
        .select_related("table__series__tournament")
        .order_by("order")
    )
    points = []
    for change in changes:
        rating, uncertainty = shown(change.mu, change.sigma)
        points.append(
            RatingPoint(change.played_on, change.table, change.place, rating, uncertainty)
        )
    return points
