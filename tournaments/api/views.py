"""The API's endpoints: each resolves what the viewer may see, reads it through a selector
and lays it out in the shape of `schemas` (django-ninja validates it and describes it in
the OpenAPI document). `standings_json_view` is the plain Django view of
`/t/<slug>/standings.json`: the rows `manage.py standings SLUG --format json` prints."""

from __future__ import annotations

import re

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe
from ninja import Path, Query, Router
from ninja.decorators import decorate_view
from ninja.pagination import LimitOffsetPagination, paginate
from pydantic import Field

from tournaments import permissions
from tournaments.api import schemas
from tournaments.caching.answers import conditional
from tournaments.caching.standings import (
    rows_json,
    series_standings_of,
    standings_json_text,
    standings_of,
)
from tournaments.caching.states import (
    BIGINT,
    career_state,
    head_to_head_state,
    season_state,
    tournament_state_of,
    tournaments_state,
    visible_tournaments,
)
from tournaments.careers.selectors import FORM_WINDOW, head_to_head, player_career, player_shown
from tournaments.formats import public_name, public_player_name
from tournaments.games import SHEET_FIELDS
from tournaments.leagues.selectors import season_tables
from tournaments.models import Category, Game, Player, Season, Series, Table, Tournament
from tournaments.sheets.selectors import games_since, table_sheet
from tournaments.standings.selectors import (
    json_text,
    standing_json,
    team_standings,
)

router = Router()
# Games per answer of the live feed: a scoreboard's poll brings a few; a first sync of a
# whole evening comes in a few answers.
FEED_LIMIT = 1000
FEED_MAX_LIMIT = 5000
COMPUTED_FIELDS = ("value", "score", "is_won", "is_lost", "overbid", "list_declarer")
COMPUTED_FIELDS += ("list_others", "provisional", "version")
# A slug as the site's addresses take it (Django's `slug` path converter): anything else
# names nothing (404), and never reaches the database (PostgreSQL refuses a NUL in text).
SLUG = re.compile(r"[-a-zA-Z0-9_]+")
# The largest number a stored integer may be (a bigint): a larger offset, version or key
# is a clear 422, not a database error.
LARGEST = BIGINT[1]
# A series' and a table's number (a small integer; 0 is none).
SMALLINT = 32767


class Paginated(LimitOffsetPagination):
    """django-ninja's limit and offset, with an offset a database can take (else 422)."""

    class Input(LimitOffsetPagination.Input):
        offset: int = Field(0, ge=0, le=LARGEST)


def answers(ok, *, found: bool = True) -> dict:
    """The statuses an operation answers, for the OpenAPI document: its answer; 304 to a
    conditional GET of an unchanged version; 422 for a parameter out of its range or
    type; 404 (`found`) for an address naming nothing the viewer may see."""
    statuses = {200: ok, 304: None, 422: schemas.ValidationErrorOut}
    if found:
        statuses[404] = schemas.NotFoundOut
    return statuses


def _storable(text: str) -> bool:
    """Whether a stored text could equal `text`: none holds a NUL (PostgreSQL refuses one
    in a query, so a filter by it must not reach the database; it matches nothing)."""
    return "\x00" not in text


# --------------------------------------------------------------------------------------
# What the viewer may see, and its state for the ETag
# --------------------------------------------------------------------------------------


def _slug(slug: str) -> str:
    if not SLUG.fullmatch(slug):
        raise Http404
    return slug


def _tournament(request, slug: str) -> Tournament:
    """The tournament of the address; a draft only for its club's secretaries (else 404)."""
    _slug(slug)
    tournament = get_object_or_404(Tournament.objects.select_related("club", "season"), slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404
    return tournament


def _tournament_state(request, slug=None, *, tournament=None, **kwargs):
    # `slug` in the API's addresses, `tournament` in the site's (`paths.T`).
    return tournament_state_of(request.user, _slug(slug or tournament))


def _viewer(request) -> int:
    return request.user.pk if request.user.is_authenticated else 0


def _list_state(request, **kwargs):
    tournaments = visible_tournaments(request.user).only("pk", "version", "published", "changed")
    return tournaments_state(tournaments, _viewer(request))


def _season_state(request, slug, **kwargs):
    return season_state(_slug(slug))


def _player_state(request, player_id, **kwargs):
    # The address's text, before django-ninja checks it (a view that answers 422).
    # ASCII digits only: str.isdigit() is true of "²", which int() refuses.
    text = str(player_id)
    return career_state(int(text)) if text.isascii() and text.isdigit() else None


# --------------------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------------------


def _tournament_out(tournament: Tournament) -> dict:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date,
        "club": tournament.club.name,
        "season": tournament.season.slug if tournament.season else None,
        "rules": tournament.rules,
        "list_scoring": tournament.list_scoring,
        "status": tournament.status,
        "published": tournament.published,
        "version": tournament.version,
        "url": tournament.get_absolute_url(),
    }


def _standing_out_by_initials(row) -> dict:
    """`_standing_out` where players not listed publicly show by initials."""
    return _standing_out(row, initials=True)


def _standing_layout(tournament):
    """The API's layout of a standings row in `tournament` (`permissions.names_by_initials`):
    a function of its own per choice, since `rows_json` keeps each row's text per layout."""
    if permissions.tournament_names_by_initials(tournament):
        return _standing_out_by_initials
    return _standing_out


def _game_out(game: Game) -> dict:
    fields = ("number", *SHEET_FIELDS, *COMPUTED_FIELDS)
    return {name: getattr(game, name) for name in fields}


def _standing_out(row, *, initials: bool = False) -> dict:
    # The fields standings.json has too come from its layout (`standing_json`): a player
    # without a team or club is null in both, and the player's public name the same.
    common = standing_json(row, initials=initials)
    return {
        "rank": row.rank,
        "player_id": row.player_id,
        "player": common["player"],
        "club": common["club"],
        "team": common["team"],
        "category": row.category,
        "list_points": row.list_points,
        "game_points": row.game_points,
        "won": row.won,
        "lost": row.lost,
        "others_lost": row.others_lost,
        "provisional": row.provisional,
        "series": [
            {
                "number": result.number,
                "table": result.table,
                "list_points": result.list_points,
                "game_points": result.game_points,
                "won": result.won,
                "lost": result.lost,
                "others_lost": result.others_lost,
                # Why the sheet was closed short (the pages mark the row); null if it was not.
                "closed_short": result.closed_short or None,
            }
            for _n, result in sorted(row.series.items())
        ],
    }


def _rendered(text: str) -> HttpResponse:
    """JSON text as django-ninja answers it (`ninja.renderers.JSONRenderer`: json.dumps as
    it is, ASCII only), for a layout that a test holds to its operation's schema, so that
    the rows need not be validated again on every version."""
    return HttpResponse(text, content_type="application/json; charset=utf-8")


class LaidOut:
    """A queryset laid out row by row only for the page asked for: the paginator counts it
    in the database and slices it there."""

    def __init__(self, queryset, layout):
        self.queryset, self.layout = queryset, layout

    def __len__(self):
        return self.queryset.count()

    def __getitem__(self, index: slice):
        return [self.layout(row) for row in self.queryset[index]]


def _category(category: str | None) -> str | None:
    if category and category not in Category.values:
        raise Http404
    return category or None


def _series(tournament: Tournament, number: int) -> Series:
    return get_object_or_404(Series, tournament=tournament, number=number)


# --------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------


@router.get(
    "/tournaments",
    response=answers(list[schemas.TournamentOut], found=False),
    tags=["tournaments"],
)
@paginate(Paginated)
@decorate_view(conditional(_list_state))
def tournament_list(request, season: str | None = None, club: str | None = None):
    """Published tournaments (and the drafts you may see when signed in: your club's, your
    league's match days, your venue's), newest first."""
    tournaments = visible_tournaments(request.user).select_related("club", "season")
    if (season and not _storable(season)) or (club and not _storable(club)):
        tournaments = tournaments.none()
    if season:
        tournaments = tournaments.filter(season__slug=season)
    if club:
        tournaments = tournaments.filter(club__name=club)
    return LaidOut(tournaments.order_by("-date", "-id"), _tournament_out)


@router.get(
    "/tournaments/{slug}", response=answers(schemas.TournamentDetailOut), tags=["tournaments"]
)
@decorate_view(conditional(_tournament_state))
def tournament_detail(request, slug: str):
    tournament = _tournament(request, slug)
    series = tournament.series.annotate(table_count=Count("tables")).order_by("number")
    bonuses = ("bonus_won", "bonus_lost", "bonus_others_3", "bonus_others_4")
    ramsch = tournament.ramsch
    return {
        **_tournament_out(tournament),
        **{
            name: getattr(tournament, name) if tournament.uses_list_points else None
            for name in bonuses
        },
        "games_per_series_3": tournament.games_per_series_3,
        "games_per_series_4": tournament.games_per_series_4,
        "five_tables": tournament.five_tables,
        "games_per_series_5": tournament.games_per_series_5 if tournament.five_tables else None,
        "ramsch": ramsch,
        # Gewinner-Ramsch always shares a tie; the NA rules with the tournament's option
        # (`scoring.ramsch_tie_check`).
        "ramsch_tie_both_win": (ramsch == "gewinner" or tournament.ramsch_tie_both_win)
        if ramsch
        else None,
        **{name: getattr(tournament, name) for name in ("kontra_allowed", "double_entry")},
        "team_best_n": tournament.team_best_n,
        "series": [
            {
                "number": s.number,
                "status": s.status,
                "draw_method": s.draw_method,
                "tables": s.table_count,
            }
            for s in series
        ],
    }


@router.get(
    "/tournaments/{slug}/standings",
    response=answers(list[schemas.StandingOut]),
    tags=["standings"],
)
@decorate_view(conditional(_tournament_state))
def tournament_standings_view(request, slug: str, category: str | None = None):
    """The tournament's standings (rules §2 tie-break order); `category` filters them."""
    tournament = _tournament(request, slug)
    rows = standings_of(tournament, category=_category(category))
    # Laid out as StandingOut dumps them (a test holds `_standing_out` to the schema), and
    # rendered without validating 2,000 rows again: 103 ms of a version's first answer.
    return _rendered(rows_json(rows, _standing_layout(tournament), ensure_ascii=True))


@router.get(
    "/tournaments/{slug}/teams", response=answers(list[schemas.TeamOut]), tags=["standings"]
)
@decorate_view(conditional(_tournament_state))
def team_standings_view(request, slug: str):
    tournament = _tournament(request, slug)
    initials = permissions.tournament_names_by_initials(tournament)
    return [
        {
            **{
                name: getattr(team, name)
                for name in ("rank", "team", "counted", "list_points", "game_points", "won")
            },
            "lost": team.lost,
            "members": [
                {
                    "player_id": m.player_id,
                    "player": public_name(
                        m.player_name, listed=m.player_listed, initials=initials
                    ),
                    "list_points": m.list_points,
                }
                for m in team.members
            ],
        }
        for team in team_standings(tournament, standings=standings_of(tournament))
    ]


@router.get("/tournaments/{slug}/games", response=answers(schemas.LiveFeedOut), tags=["live"])
@decorate_view(conditional(_tournament_state))
def live_feed(
    request,
    slug: str,
    since: int = Query(0, ge=0, le=LARGEST),
    limit: int = Query(FEED_LIMIT, ge=1, le=FEED_MAX_LIMIT),
):
    """The games entered or changed after version `since`, and every sheet's length.

    A scoreboard polls with the `version` of its last answer (at once while `more` is
    true); a row may come twice, never be missed. A sheet shorter than the rows you hold
    lost its last games (deleted)."""
    tournament = _tournament(request, slug)
    feed = games_since(tournament, version=since, limit=limit)
    return {
        "tournament": tournament.slug,
        "since": since,
        "version": feed.version,
        "more": feed.more,
        "games": [
            {
                **_game_out(game),
                "series": game.table.series.number,
                "table": game.table.number,
                "disputed": game.pk in feed.disputed,
            }
            for game in feed.games
        ],
        "sheets": [
            {"series": series, "table": table, "games": games}
            for series, table, games in feed.sheets
        ],
    }


# --------------------------------------------------------------------------------------
# Series and sheets
# --------------------------------------------------------------------------------------


@router.get(
    "/tournaments/{slug}/series/{number}", response=answers(schemas.SeriesOut), tags=["series"]
)
@decorate_view(conditional(_tournament_state))
def series_detail(request, slug: str, number: int = Path(..., ge=0, le=SMALLINT)):
    tournament = _tournament(request, slug)
    series = _series(tournament, number)
    initials = permissions.tournament_names_by_initials(tournament)
    tables = series.tables.annotate(game_count=Count("games")).prefetch_related("seats__player")
    return {
        "number": series.number,
        "status": series.status,
        "draw_method": series.draw_method,
        "draw_seed": series.draw_seed,
        "tables": [
            {
                "number": table.number,
                "size": table.size,
                "closed": table.closed,
                "games": table.game_count,
                "seats": [
                    {
                        "seat": s.number,
                        "player_id": s.player_id,
                        "player": public_player_name(s.player, initials=initials),
                    }
                    for s in sorted(table.seats.all(), key=lambda s: s.number)
                ],
            }
            for table in tables
        ],
    }


@router.get(
    "/tournaments/{slug}/series/{number}/standings",
    response=answers(list[schemas.StandingOut]),
    tags=["standings"],
)
@decorate_view(conditional(_tournament_state))
def series_standings_view(
    request, slug: str, number: int = Path(..., ge=0, le=SMALLINT), category: str | None = None
):
    tournament = _tournament(request, slug)
    series = _series(tournament, number)
    rows = series_standings_of(tournament, series.number, category=_category(category))
    layout = _standing_layout(tournament)
    return [layout(row) for row in rows]


@router.get(
    "/tournaments/{slug}/series/{number}/tables/{table}",
    response=answers(schemas.SheetOut),
    tags=["series"],
)
@decorate_view(conditional(_tournament_state))
def table_detail(
    request,
    slug: str,
    number: int = Path(..., ge=0, le=SMALLINT),
    table: int = Path(..., ge=0, le=SMALLINT),
):
    """A table's sheet: each game with its computed values, the running totals per seat,
    and the Seeger-Fabian summary block."""
    tournament = _tournament(request, slug)
    series = _series(tournament, number)
    found = get_object_or_404(Table, series=series, number=table)
    series.tournament = tournament
    found.series = series
    sheet = table_sheet(found, blank_rows=False)
    initials = permissions.tournament_names_by_initials(tournament)
    return {
        "series": series.number,
        "table": found.number,
        "size": found.size,
        "closed": found.closed,
        "length": sheet.length,
        "list_scoring": sheet.list_scoring,
        "provisional": sheet.provisional,
        "seats": [
            {
                "seat": s.number,
                "player_id": s.player_id,
                "player": public_player_name(s.player, initials=initials),
            }
            for s in sheet.seats
        ],
        "rows": [
            {
                "number": row.number,
                "dealer": row.dealer,
                "game": _game_out(row.game) if row.game else None,
                "running": row.running,
                "disputed": row.disputed,
            }
            for row in sheet.rows
        ],
        "summary": [
            {
                **vars(line),
                "player_name": public_name(
                    line.player_name, listed=line.player_listed, initials=initials
                ),
            }
            for line in sheet.summary
        ],
    }


# --------------------------------------------------------------------------------------
# Seasons and players
# --------------------------------------------------------------------------------------


def _season_out(season: Season) -> dict:
    return {
        "slug": season.slug,
        "name": season.name,
        # A league's season belongs to the league (`Season.owner`), a club's to the club.
        "club": str(season.owner),
        "teams_best_n": season.teams_best_n,
        "url": season.get_absolute_url(),
    }


def _visible_season(request, season: Season) -> bool:
    return permissions.can_view_season(request.user, season)


def _visible_seasons(request):
    return permissions.visible_seasons(request.user).order_by("-id")


def _season_list_state(request, **kwargs):
    seasons = list(_visible_seasons(request).values_list("pk", "name", "slug", "teams_best_n"))
    return tournaments_state([], seasons, _viewer(request))


@router.get("/seasons", response=answers(list[schemas.SeasonOut], found=False), tags=["seasons"])
@paginate(Paginated)
@decorate_view(conditional(_season_list_state))
def season_list(request):
    """Seasons with a published match day (and those you may see when signed in)."""
    return LaidOut(_visible_seasons(request).select_related("club"), _season_out)


@router.get("/seasons/{slug}", response=answers(schemas.SeasonDetailOut), tags=["seasons"])
@decorate_view(conditional(_season_state))
def season_detail(request, slug: str, category: str | None = None):
    """A season's player and team tables over its visible match days (rules §4), as the
    season's pages show them (`leagues.selectors.season_tables`): in a league season only
    confirmed match days count; the best `best_series` series of a player count, and a
    player with fewer than `min_series` series has no rank (null)."""
    season = get_object_or_404(Season.objects.select_related("club"), slug=_slug(slug))
    if not _visible_season(request, season):
        raise Http404
    viewer = request.user if request.user.is_authenticated else None
    tables = season_tables(season, category=_category(category), viewer=viewer)
    initials = permissions.names_by_initials(season.club)
    return {
        **_season_out(season),
        "match_days": [
            {"tournament": day.slug, "name": day.name, "date": day.date}
            for day in tables.match_days
        ],
        "players": [
            {
                "rank": row.rank,
                "player_id": row.player_id,
                "player": public_name(row.name, listed=row.listed, initials=initials),
                "club": json_text(row.club),
                "team": json_text(row.team),
                "category": row.category,
                "list_points": row.list_points,
                "won": row.won,
                "lost": row.lost,
                "series_played": row.series_played,
                "series_counted": row.series_counted,
                "match_days": row.days,
            }
            for row in tables.players
        ],
        "teams": [
            {
                "rank": row.rank,
                "team": row.team,
                "club": row.club,
                "match_points_won": float(row.match_points_won),
                "match_points_lost": float(row.match_points_lost),
                "list_points": row.list_points,
                "match_days": [
                    {
                        "tournament": slug,
                        "rank": day.rank,
                        "list_points": day.list_points,
                        "match_points_won": float(day.match_points_won),
                        "match_points_lost": float(day.match_points_lost),
                    }
                    for slug, day in row.days.items()
                ],
            }
            for row in tables.teams
        ],
    }


@router.get("/players/{player_id}", response=answers(schemas.PlayerOut), tags=["players"])
@decorate_view(conditional(_player_state))
def player_detail(request, player_id: int = Path(..., ge=0, le=LARGEST)):
    """A player's career from visible tournaments, as the player's page shows it
    (`careers.selectors.player_career`): the series history, declared games by type, every
    tournament with its final place, the seasons, the average per series scaled to 48
    games (list points × 48 / games of the series) overall and by year, the form and the
    most frequent table mates."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    # Nobody learns of a player not listed publicly (`can_see_player_page`, as the page).
    if not permissions.can_see_player_page(request.user, player):
        raise Http404
    career = player_career(player, viewer=request.user)
    stats = career.stats
    # Nobody learns of a player who only appears in tournaments they may not see.
    if not stats.tournaments and not permissions.can_manage_club(request.user, player.club):
        raise Http404
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name if player.club else None,
        "team": json_text(player.team),
        "category": player.category,
        "url": player.get_absolute_url(),
        **{
            name: getattr(stats, name)
            for name in (
                "tournaments",
                "series_played",
                "games_played",
                "games_declared",
                "won",
                "lost",
                "list_points",
                "average_list_points",
            )
        },
        "history": [
            {
                "tournament": s.tournament.slug,
                "date": s.tournament.date,
                "series": s.line.series_number,
                "table": s.line.table_number,
                "seat": s.line.seat,
                "games": s.line.games,
                "list_points": s.line.list_points,
                "game_points": s.line.game_points,
                "won": s.line.won,
                "lost": s.line.lost,
                "place_at_table": s.place,
                "players_at_table": s.at_table,
                "scaled_48": s.scaled,
            }
            for s in career.series
        ],
        "by_type": [
            {"game": game, "declared": declared, "won": won, "lost": lost}
            for game, _label, declared, won, lost in stats.by_type
        ],
        "clubs": career.clubs,
        "average_48": career.average,
        "tournament_results": [
            {
                "tournament": t.tournament.slug,
                "name": t.tournament.name,
                "date": t.tournament.date,
                "club": t.tournament.club.name if t.tournament.club else None,
                "place": t.place,
                "players": t.players,
                "series": len(t.series),
                "list_points": t.list_points,
            }
            for t in career.tournaments
        ],
        "seasons": [
            {
                "season": s.season.slug,
                "name": s.season.name,
                "team": json_text(s.team),
                "rank": s.rank,
                "players": s.players,
                "list_points": s.list_points,
                "series": s.series,
            }
            for s in career.seasons
        ],
        "years": [
            {"year": y.year, "series": y.series, "average_48": y.average} for y in career.years
        ],
        "form_window": FORM_WINDOW,
        "form": [
            {
                "tournament": f.tournament.slug,
                "date": f.tournament.date,
                "series": f.series_number,
                "scaled_48": f.scaled,
                "moving_average": f.moving,
            }
            for f in career.form
        ],
        "table_mates": [
            {"player_id": m.player_id, "name": m.name, "tables": m.tables} for m in career.mates
        ],
    }


def _head_to_head_state(request, player_id, other_id, **kwargs):
    texts = (str(player_id), str(other_id))
    if not all(text.isascii() and text.isdigit() for text in texts):
        return None
    first, second = (int(text) for text in texts)
    if first == second or not all(BIGINT[0] <= n <= BIGINT[1] for n in (first, second)):
        return None
    return head_to_head_state(first, second)


@router.get(
    "/players/{player_id}/vs/{other_id}",
    response=answers(schemas.HeadToHeadOut),
    tags=["players"],
)
@decorate_view(conditional(_head_to_head_state))
def head_to_head_detail(
    request,
    player_id: int = Path(..., ge=0, le=LARGEST),
    other_id: int = Path(..., ge=0, le=LARGEST),
):
    """Two players at the same tables (with a game) of visible tournaments, as the
    head-to-head page shows them: how often, how often the first had more list points
    there (above), equal (tied) or fewer (below), and each of those tables."""
    if player_id == other_id:
        raise Http404
    players = {
        p.pk: p for p in Player.objects.select_related("club").filter(pk__in=[player_id, other_id])
    }
    if len(players) != 2 or not all(player_shown(request.user, p) for p in players.values()):
        raise Http404
    h2h = head_to_head(players[player_id], players[other_id], viewer=request.user)
    return {
        "player_id": player_id,
        "player": h2h.player.name,
        "other_id": other_id,
        "other": h2h.other.name,
        "together": h2h.together,
        "above": h2h.above,
        "tied": h2h.tied,
        "below": h2h.below,
        "meetings": [
            {
                "tournament": m.tournament.slug,
                "date": m.tournament.date,
                "series": m.series_number,
                "table": m.table_number,
                "list_points": m.points,
                "other_list_points": m.other_points,
                "outcome": m.outcome,
            }
            for m in h2h.meetings
        ],
    }


# --------------------------------------------------------------------------------------
# /t/<slug>/standings.json
# --------------------------------------------------------------------------------------


@require_safe
@conditional(_tournament_state)
def standings_json_view(request, tournament: str):
    """Exactly the rows of `manage.py standings SLUG --format json` (the same function)."""
    found = _tournament(request, tournament)
    text = standings_json_text(
        standings_of(found), initials=permissions.tournament_names_by_initials(found)
    )
    return HttpResponse(text, content_type="application/json")
