"""The API's rating lists (the site's, a club's, a league's; by category) and a player's
rating with its history: the figures of the rating pages, from the same selectors
(`ratings.selectors`), answered from the same states (`caching.states`)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Path, Router
from ninja.decorators import decorate_view
from ninja.pagination import paginate

from tournaments import permissions
from tournaments.api import schemas
from tournaments.api.views import LARGEST, SLUG, Paginated, answers
from tournaments.caching.answers import conditional
from tournaments.caching.states import player_state, rating_list_state
from tournaments.models import Category, Club, League, Player
from tournaments.ratings.method import SHOWN_FROM
from tournaments.ratings.selectors import listed_name, rating_history, rating_list, rating_of

router = Router(tags=["ratings"])


def _category(category: str | None) -> str:
    if category and category not in Category.values:
        raise Http404
    return category or ""


def _digits(text) -> int | None:
    # The address's text, before django-ninja checks it (a view that answers 422).
    text = str(text)
    return int(text) if text.isascii() and text.isdigit() and int(text) <= LARGEST else None


def _club(club_id) -> Club | None:
    number = _digits(club_id)
    return Club.objects.filter(pk=number).first() if number is not None else None


def _league(slug: str) -> League | None:
    return League.objects.filter(slug=slug).first() if SLUG.fullmatch(slug) else None


def _list_state(request, club_id=None, league=None, **kwargs):
    """The list's state; None (the view answers 404 or 422) for a scope naming nothing or
    a category that is none."""
    category = request.GET.get("category") or ""
    if category and category not in Category.values:
        return None
    scope = {}
    if club_id is not None:
        scope["club"] = _club(club_id)
    if league is not None:
        scope["league"] = _league(league)
    if any(value is None for value in scope.values()):
        return None
    return rating_list_state(**scope, category=category)


def _row_out(row) -> dict:
    player = row.player
    return {
        "rank": row.rank,
        "player_id": player.pk,
        "player": listed_name(player),
        "club": player.club.name if player.club else None,
        "category": player.category,
        "rating": row.rating,
        "uncertainty": row.uncertainty,
        "series": row.series,
        # A player not listed publicly has no public page.
        "url": player.get_absolute_url() if permissions.player_linked(player.listed) else None,
    }


def _rows(category: str | None, **scope) -> list[dict]:
    return [_row_out(row) for row in rating_list(**scope, category=_category(category))]


@router.get("/ratings", response=answers(list[schemas.RatingRowOut]))
@paginate(Paginated)
@decorate_view(conditional(_list_state))
def ratings_site(request, category: str | None = None):
    """The site's rating list, best first: every player with `SHOWN_FROM` (10) rated series
    or more; `category` one of the categories (ladies, youth, seniors; another is 404) or
    all."""
    return _rows(category)


@router.get("/clubs/{club_id}/ratings", response=answers(list[schemas.RatingRowOut]))
@paginate(Paginated)
@decorate_view(conditional(_list_state))
def ratings_club(request, club_id: int = Path(..., ge=0, le=LARGEST), category: str | None = None):
    """A club's rating list: its members (of any home club)."""
    return _rows(category, club=get_object_or_404(Club, pk=club_id))


@router.get("/leagues/{league}/ratings", response=answers(list[schemas.RatingRowOut]))
@paginate(Paginated)
@decorate_view(conditional(_list_state))
def ratings_league(request, league: str, category: str | None = None):
    """A league's rating list: the players seated at its match days."""
    found = _league(league)
    if found is None:
        raise Http404
    return _rows(category, league=found)


def _player_state(request, player_id, **kwargs):
    number = _digits(player_id)
    return player_state(number) if number is not None else None


@router.get("/players/{player_id}/rating", response=answers(schemas.PlayerRatingOut))
@decorate_view(conditional(_player_state))
def player_rating(request, player_id: int = Path(..., ge=0, le=LARGEST)):
    """A player's rating (null before `shown_from` rated series) and its history, one step
    per closed table in the results' order."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    # A player not listed publicly: no public career (`can_see_player_page`, as the page).
    if not permissions.can_see_player_page(request.user, player):
        raise Http404
    visible = set(
        permissions.visible_tournaments(request.user)
        .filter(series__seats__player=player)
        .values_list("pk", flat=True)
    )
    # Nobody learns of a player who only appears in tournaments they may not see.
    if not visible and not permissions.can_manage_club(request.user, player.club):
        raise Http404
    rating = rating_of(player)
    history = rating_history(player)
    steps = []
    for point in history:
        series = point.table.series
        seen = series.tournament_id in visible
        steps.append(
            {
                "date": point.played_on,
                "tournament": series.tournament.slug if seen else None,
                "series": series.number if seen else None,
                "table": point.table.number if seen else None,
                "place": point.place,
                "rating": point.rating,
                "uncertainty": point.uncertainty,
                "change": point.change,
            }
        )
    return {
        "player_id": player.pk,
        "player": listed_name(player),
        "rating": rating.rating if rating else None,
        "uncertainty": rating.uncertainty if rating else None,
        "series": len(history),
        "shown_from": SHOWN_FROM,
        "history": steps,
    }
