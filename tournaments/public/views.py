"""Public pages: everything published can be read by anyone; nothing here writes."""

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import patch_cache_control
from django.utils.formats import date_format
from django.views.generic import DetailView, TemplateView, View
from django_tables2 import RequestConfig

from tournaments import permissions
from tournaments.accounts.selectors import site_is_new
from tournaments.caching.answers import TournamentPageMixin, VersionedPageMixin
from tournaments.caching.standings import (
    progress_of,
    series_cards_of,
    series_standings_of,
    standings_of,
)
from tournaments.caching.states import (
    State,
    career_state,
    head_to_head_state,
    rating_list_state,
)
from tournaments.careers.selectors import (
    FORM_WINDOW,
    career_places,
    head_to_head,
    player_career,
    player_shown,
)
from tournaments.collation import alphabetical, name_of
from tournaments.formats import format_rating, public_name
from tournaments.leagues.tables import SeasonPlayerTable, SeasonTeamTable
from tournaments.mixins import SeriesMixin, TableMixin, TournamentMixin
from tournaments.models import Category, Club, League, Player, Season, Seat, Series, Tournament
from tournaments.public import charts
from tournaments.public.tables import (
    RatingTable,
    StandingsTable,
    TeamStandingsTable,
)
from tournaments.ratings.method import SHOWN_FROM, START, shown
from tournaments.ratings.selectors import rating_history, rating_list, rating_of
from tournaments.shared_views import SeasonTablesMixin, category_of
from tournaments.sheets.selectors import latest_games, table_sheet
from tournaments.standings.selectors import (
    CLOSED_SHORT_MARK,
    closed_short_notes,
    team_standings,
)

STANDINGS_PER_PAGE = 100
CAREER_PER_PAGE = 50
# One date format per language, on every page and PDF: 21.11.2026, 11/21/2026.
SHORT = "SHORT_DATE_FORMAT"


class HomeView(TemplateView):
    template_name = "tournaments/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        tournaments = (
            permissions.visible_tournaments(user)
            .select_related("club", "season")
            .annotate(players=Count("registrations", distinct=True))
            .order_by("-date", "-pk")
        )
        # A new site (no account yet) says how to make the first one; then never again.
        context["site_is_new"] = not tournaments and site_is_new()
        context["running"] = [t for t in tournaments if t.status == Tournament.Status.RUNNING]
        context["tournaments"] = [t for t in tournaments if t.status != Tournament.Status.RUNNING][
            :50
        ]
        # A season is listed where its page opens (`visible_seasons`), with its owner, a
        # club or a league.
        context["seasons"] = (
            permissions.visible_seasons(user).select_related("club", "league").order_by("-pk")[:20]
        )
        return context


class TournamentDetailView(TournamentPageMixin, TournamentMixin, TemplateView):
    template_name = "tournaments/tournament_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        category = category_of(self.request)
        series = self.series_list
        standings = standings_of(self.tournament, category=category or None)
        progress = progress_of(self.tournament)
        has_teams = any(row.team for row in standings)
        table = StandingsTable(
            standings,
            series_numbers=[s.number for s in series],
            list_scoring=self.tournament.uses_list_points,
            # Without teams the column would be empty on every row.
            exclude=() if has_teams else ("team",),
            in_play=bool(progress),
            initials=permissions.tournament_names_by_initials(self.tournament),
        )
        # Large open tournaments: 100 rows a page keeps the page quick on a phone.
        RequestConfig(self.request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
        context.update(
            series_list=series,
            progress=progress,
            table=table,
            category=category,
            categories=[c for c in Category.choices if c[0]],
            has_teams=has_teams,
        )
        return context


class SeriesDetailView(TournamentPageMixin, SeriesMixin, TemplateView):
    template_name = "tournaments/series_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        category = category_of(self.request)
        # Taken from the tournament's standings of this version (computed once for its
        # pages), not read again: the same rows as `series_standings`.
        standings = series_standings_of(
            self.tournament, self.series.number, category=category or None
        )
        in_play = self.series.status == Series.Status.OPEN
        table = StandingsTable(
            standings,
            list_scoring=self.tournament.uses_list_points,
            in_play=in_play,
            initials=permissions.tournament_names_by_initials(self.tournament),
        )
        RequestConfig(self.request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
        cards = series_cards_of(self.tournament, self.series)
        progress = [p for p in progress_of(self.tournament) if p.number == self.series.number]
        context.update(
            table=table,
            progress=progress,
            table_cards=cards,
            category=category,
            categories=[c for c in Category.choices if c[0]],
        )
        return context


class TableDetailView(TournamentPageMixin, TableMixin, TemplateView):
    """The score sheet of one table, as read by players and the public."""

    template_name = "tournaments/table_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["sheet"] = table_sheet(self.table, blank_rows=False)
        context["initials"] = permissions.tournament_names_by_initials(self.tournament)
        return context


class TeamStandingsView(TournamentPageMixin, TournamentMixin, TemplateView):
    template_name = "tournaments/team_standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["series_list"] = self.series_list  # the tabs' and the standings' series
        table = TeamStandingsTable(
            team_standings(self.tournament, standings=standings_of(self.tournament)),
            initials=permissions.tournament_names_by_initials(self.tournament),
        )
        RequestConfig(self.request, paginate=False).configure(table)
        context["table"] = table
        return context


class PlayerDetailView(VersionedPageMixin, DetailView):
    """A player's career (`careers.selectors.player_career`): tournaments, series,
    seasons, the average scaled to 48 games, the form, the table mates."""

    model = Player
    template_name = "tournaments/player_detail.html"
    context_object_name = "player"

    def page_state(self) -> State:
        return career_state(self.kwargs["pk"])

    def get_queryset(self):
        return Player.objects.select_related("club")

    def get_object(self, queryset=None):
        player = super().get_object(queryset)
        # A player not listed publicly has no public page (those who manage them see it).
        if not permissions.can_see_player_page(self.request.user, player):
            raise Http404
        # The final places of the page's tournaments only (`get_context_data`).
        self.career = player_career(player, viewer=self.request.user, places=False)
        self.stats = self.career.stats
        # Nobody learns of a player who only appears in tournaments they may not see.
        if not self.stats.tournaments and not permissions.can_manage_club(
            self.request.user, player.club
        ):
            raise Http404
        return player

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        career = self.career
        # A long career's lists a page at a time (500 tournaments, 1,500 series): the
        # figures above them are over all of them.
        query = self.request.GET
        tournaments = Paginator(career.tournaments, CAREER_PER_PAGE).get_page(
            query.get("tournaments")
        )
        series = Paginator(career.series[::-1], CAREER_PER_PAGE).get_page(query.get("series"))
        career_places(career.player, tournaments.object_list)
        context.update(
            career=career,
            stats=career.stats,
            tournaments_page=tournaments,
            series_page=series,
            finals=any(t.finished for t in career.tournaments),
            chart=charts.form_chart(career.form),
            form_window=FORM_WINDOW,
            form_shown=charts.FORM_SHOWN,
        )
        context.update(rating_context(self.object))
        return context


def shown_player(request, pk) -> Player:
    """The player of the address if the viewer may learn of them (`player_shown`), else
    404."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    if not player_shown(request.user, player):
        raise Http404
    return player


class HeadToHeadView(VersionedPageMixin, TemplateView):
    """Two players at the same tables (`careers.selectors.head_to_head`): how often, who
    had more list points, and each of those tables."""

    template_name = "tournaments/head_to_head.html"

    def page_state(self) -> State:
        if self.kwargs["pk"] == self.kwargs["other"]:
            raise Http404
        return head_to_head_state(self.kwargs["pk"], self.kwargs["other"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        player = shown_player(self.request, self.kwargs["pk"])
        other = shown_player(self.request, self.kwargs["other"])
        context["h2h"] = head_to_head(player, other, viewer=self.request.user)
        return context


class PlayerSearchView(TemplateView):
    """Find another player by name, for head to head with the player of the address:
    players listed publicly and seated in a tournament the viewer may see."""

    template_name = "tournaments/player_search.html"
    limit = 20

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        player = shown_player(self.request, self.kwargs["pk"])
        query = self.request.GET.get("q", "").strip()[:120]
        found = []
        if query and "\x00" not in query:
            visible = permissions.visible_tournaments(self.request.user).values("pk")
            found = list(
                Player.objects.filter(
                    name__icontains=query,
                    listed=True,
                    pk__in=Seat.objects.filter(series__tournament__in=visible).values("player_id"),
                )
                .exclude(pk=player.pk)
                .select_related("club")
                .order_by("name", "pk")[: self.limit]
            )
        context.update(player=player, query=query, found=found)
        return context


# The rating changes the player page lists (the chart shows them all).
RATING_CHANGES_SHOWN = 5


def rating_context(player: Player) -> dict:
    """The player page's rating block (`_rating_history.html`): the shown rating or how
    many series are rated so far, the chart of the history and its latest changes."""
    history = rating_history(player)
    rating = rating_of(player)
    return {
        "rating": rating,
        "rating_shown": format_rating(rating.rating, rating.uncertainty) if rating else "",
        "rating_series": len(history),
        "rating_shown_from": SHOWN_FROM,
        "rating_chart": charts.rating_chart(
            [(date_format(p.played_on, SHORT), p.rating, p.uncertainty) for p in history]
        ),
        "rating_changes": history[::-1][:RATING_CHANGES_SHOWN],
    }


class SeasonDetailView(SeasonTablesMixin, TemplateView):
    """A club's season: its team and player tables (those of the league's tables page,
    sortable here) and each played day's teams."""

    template_name = "tournaments/season_detail.html"

    def get(self, request, *args, **kwargs):
        # A league's season has its own tables page (rosters, venues, confirmed days).
        if Season.objects.filter(slug=kwargs["season"], league__isnull=False).exists():
            return redirect("league_season", season=kwargs["season"])
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tables, category = self.tables_asked()
        # A club's own season: its teams' club column left out.
        players_table = SeasonPlayerTable(
            tables.players,
            match_days=tables.counted_days,
            prefix="p-",
            orderable=True,
            initials=permissions.names_by_initials(self.season.club),
        )
        teams_table = SeasonTeamTable(tables.teams, prefix="t-", orderable=True, exclude=["club"])
        RequestConfig(self.request, paginate=False).configure(players_table)
        RequestConfig(self.request, paginate=False).configure(teams_table)
        context.update(
            match_days=tables.match_days,
            played_days=tables.day_tables,
            players_table=players_table,
            teams_table=teams_table,
            category=category,
        )
        return context


class ProjectorView(TournamentPageMixin, TournamentMixin, TemplateView):
    """The hall's projector: big standings and the latest games.

    A hall of 120 players does not fit on one screen: the standings are shown `rows` at a
    time (URL parameter, default 30) and the page turns to the next one every
    `refresh_seconds`, so the screen cycles through all of them; a single page stays and
    reloads only when the tournament's version changes (static/js/live.js polls it). Without
    `rows` (or with `fit=1`) static/js/projector.js measures the screen and asks again with
    as many rows as fit it, so that every rank is shown in turn at 1920 × 1080 as at
    1280 × 720.
    """

    template_name = "tournaments/projector.html"
    refresh_seconds = 20
    rows_default = 30
    rows_limits = (5, 200)

    def _int_param(self, name: str, default: int) -> int:
        try:
            return int(self.request.GET.get(name, default))
        except ValueError:
            return default

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        low, high = self.rows_limits
        rows = min(max(self._int_param("rows", self.rows_default), low), high)
        standings = standings_of(self.tournament)
        paginator = Paginator(standings, rows)
        number = self._int_param("page", 1)
        page = paginator.page(number if 1 <= number <= paginator.num_pages else 1)
        following = page.next_page_number() if page.has_next() else 1
        fit = self.request.GET.get("fit") == "1" or "rows" not in self.request.GET
        initials = permissions.tournament_names_by_initials(self.tournament)
        latest = latest_games(self.tournament, limit=8)
        for game in latest:
            game.declarer_public_name = public_name(
                game.declarer_name, listed=game.declarer_listed, initials=initials
            )
        query = {"page": following, "rows": rows, **({"fit": 1} if fit else {})}
        context.update(
            standings=page.object_list,
            page=page,
            rows=rows,
            fit=fit,
            first_index=page.start_index() - 1 if standings else 0,
            standings_url=self.request.build_absolute_uri(self.tournament.get_absolute_url()),
            next_url="?" + urlencode(query),
            has_provisional=any(row.provisional for row in page.object_list),
            closed_short_notes=closed_short_notes(page.object_list),
            closed_short_mark=CLOSED_SHORT_MARK,
            latest=latest,
            initials=initials,
            refresh_seconds=self.refresh_seconds,
        )
        return context


class TournamentVersionView(TournamentMixin, View):
    """The tournament's version, for pages that reload only when something changed."""

    def get(self, request, *args, **kwargs):
        response = JsonResponse({"version": self.tournament.version})
        patch_cache_control(response, no_cache=True, no_store=True)
        return response


class RatingListView(VersionedPageMixin, TemplateView):
    """A rating list: the site's (no scope), a club's members' (`club`) or a league's
    players' (`league`), of one category or all (`?category=`), 100 rows a page. Answered
    from its state (`rating_list_state`: the listed ratings and names themselves), so a
    rating written anywhere is served at once."""

    template_name = "tournaments/ratings.html"

    def scope(self) -> dict:
        """The list's club or league from the address (404 for none such), once."""
        if not hasattr(self, "_scope"):
            scope = {}
            if "club" in self.kwargs:
                scope["club"] = get_object_or_404(Club, pk=self.kwargs["club"])
            if "league" in self.kwargs:
                scope["league"] = get_object_or_404(League, slug=self.kwargs["league"])
            self._scope = scope
        return self._scope

    def page_state(self) -> State:
        return rating_list_state(**self.scope(), category=category_of(self.request))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        category = category_of(self.request)
        scope = self.scope()
        table = RatingTable(rating_list(**scope, category=category))
        RequestConfig(self.request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
        context.update(
            table=table,
            club=scope.get("club"),
            league=scope.get("league"),
            category=category,
            categories=[c for c in Category.choices if c[0]],
            shown_from=SHOWN_FROM,
            # The leagues' lists, from the site's (a club's: from its players' rows).
            leagues=alphabetical(League.objects.all(), name_of) if not scope else (),
        )
        return context


class RatingMethodView(TemplateView):
    """How the ratings are computed, in plain words (no figures read: a fixed page)."""

    template_name = "tournaments/rating_method.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["shown_from"] = SHOWN_FROM
        context["start"] = format_rating(*shown(START.mu, START.sigma))
        return context
