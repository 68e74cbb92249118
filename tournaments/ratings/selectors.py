"""Reading ratings: the rating lists (site, club, league; by category) and a player's
rating history. Every page, the API and the `ratings` command read these; the numbers
shown come from `method.shown` alone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.collation import alpha_key
from tournaments.formats import public_player_name
from tournaments.models import Player, Rating, RatingChange, Seat, Table
from tournaments.permissions import RATINGS, names_by_initials
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
    # The shown rating's step at this table (after minus before).
    change: int = 0


def listed_ratings(*, club=None, league=None, category: str = ""):
    """The ratings a list shows (`SHOWN_FROM` series or more), best first, with their
    players and home clubs: `rating_list`'s rows and, read as values, the rating lists'
    state (`caching.states.rating_list_state`). `club`: its members; `league`: the players
    seated at its match days; `category`: one category (`Category`)."""
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
    return ratings.order_by("-mu", "player__name", "player_id")


def rating_list(*, club=None, league=None, category: str = "") -> list[RatingRow]:
    """The players with a shown rating (`SHOWN_FROM` series or more), best first; equal
    shown ratings share a rank. `club`: its members; `league`: the players seated at its
    match days; `category`: one category (`Category`)."""
    rows = []
    for rating in listed_ratings(club=club, league=league, category=category):
        points, uncertainty = shown(rating.mu, rating.sigma)
        rank = len(rows) + 1
        if rows and rows[-1].rating == points:
            rank = rows[-1].rank
        rows.append(RatingRow(rank, rating.player, points, uncertainty, rating.series))
    return rows


def listed_name(player: Player) -> str:
    """The name a public rating list (page and API) shows for a player: a player not
    listed publicly by initials, always in a rating list (`formats.public_player_name`,
    `permissions.names_by_initials` of `RATINGS`)."""
    return public_player_name(player, initials=names_by_initials(None, output=RATINGS))


def rating_order(player_ids: Iterable[int]) -> list[int]:
    """The players seeded by rating, for a draw: those with a shown rating best first (as
    the lists order them), then the unrated (fewer than `SHOWN_FROM` series) by name
    (A–Z, `collation`)."""
    ids = set(player_ids)
    rated = list(
        Rating.objects.filter(player_id__in=ids, series__gte=SHOWN_FROM)
        .order_by("-mu", "player__name", "player_id")
        .values_list("player_id", flat=True)
    )
    rest = Player.objects.filter(pk__in=ids - set(rated)).values_list("pk", "name")
    unrated = sorted(rest, key=lambda row: (alpha_key(row[1]), row[0]))
    return rated + [pk for pk, _name in unrated]


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
        before, _uncertainty = shown(change.mu_before, change.sigma_before)
        points.append(
            RatingPoint(
                change.played_on,
                change.table,
                change.place,
                rating,
                uncertainty,
                rating - before,
            )
        )
    return points
