"""Pages of leagues and seasons.

Public: a season's tables (team table, match days, player table; phone-friendly) and a
match day's table across its venues. Secretaries and directors: the leagues overview, a
season's desk (settings, teams, match days, venues, confirming, closing), a team's roster,
a venue's tables. Each write is allowed exactly to whom it belongs (`permissions`): the
league's directors run the season and its match days, a club's secretaries their own
teams, a venue's secretary the venue's sheets.
"""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournaments import permissions
from tournaments.draw.selectors import series_tables
from tournaments.errors import UserError
from tournaments.leagues import forms
from tournaments.leagues.selectors import (
    TEAM_ORDER,
    match_day_table,
)
from tournaments.leagues.services import (
    match_day_confirm,
    match_day_create,
    match_day_substitute,
    roster_add,
    roster_remove,
    season_close,
    season_update,
    team_create,
    venue_create,
)
from tournaments.leagues.tables import SeasonPlayerTable, SeasonTeamTable
from tournaments.mixins import ManageMixin, TournamentMixin, VenueMixin
from tournaments.models import Club, League, RosterEntry, Season, Team
from tournaments.shared_views import (
    AsksFirstMixin,
    SeasonMixin,
    SeasonTablesMixin,
    confirmation_page,
    show_error,
)


def _member_clubs(season: Season):
    if season.league_id is not None:
        return season.league.clubs.all()
    return Club.objects.filter(pk=season.club_id)


# --------------------------------------------------------------------------------------
# Public pages
# --------------------------------------------------------------------------------------


class SeasonTablesView(SeasonTablesMixin, TemplateView):
    """ETag, 304 and the shared cache for anonymous visitors, from the same state as the
    season's page (`season_state`)."""

    template_name = "tournaments/leagues/season.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tables, category = self.tables_asked()
        counted = tables.counted_days
        team_table = SeasonTeamTable(tables.teams, match_days=counted, prefix="t-")
        player_table = SeasonPlayerTable(
            tables.players,
            match_days=counted,
            prefix="p-",
            initials=permissions.names_by_initials(self.season.club),
        )
        RequestConfig(self.request, paginate=False).configure(team_table)
        RequestConfig(self.request, paginate=False).configure(player_table)
        context.update(
            tables=tables,
            team_table=team_table,
            player_table=player_table,
            team_order=TEAM_ORDER,
            category=category,
        )
        return context


class MatchDayView(TournamentMixin, TemplateView):
    template_name = "tournaments/leagues/match_day.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.tournament.season_id is None:
            raise Http404
        context["day"] = match_day_table(self.tournament)
        return context


# --------------------------------------------------------------------------------------
# Directors' and secretaries' pages
# --------------------------------------------------------------------------------------


class LeaguesView(LoginRequiredMixin, TemplateView):
    """The seasons a user runs or has teams in, and the venues they keep."""

    template_name = "tournaments/leagues/manage_leagues.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        leagues = (
            League.objects.all() if user.is_superuser else League.objects.filter(directors=user)
        )
        clubs = permissions.managed_clubs(user)
        seasons = (
            Season.objects.filter(
                Q(league__in=leagues) | Q(league__clubs__in=clubs) | Q(club__in=clubs)
            )
            .select_related("league", "club")
            .distinct()
        )
        context.update(
            leagues=leagues,
            seasons=seasons,
            venues=permissions.venues_kept(user),
        )
        return context


class SeasonManageMixin(SeasonMixin, LoginRequiredMixin):
    """The season's desk: its directors (a club season: the club's secretaries) and the
    secretaries of its member clubs read it; each form checks its own write."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not (self.can_manage or self.own_clubs.exists()):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    @cached_property
    def own_clubs(self):
        """The member clubs whose teams the user manages."""
        return _member_clubs(self.season).filter(
            pk__in=permissions.managed_clubs(self.request.user)
        )


class SeasonManageView(SeasonManageMixin, TemplateView):
    template_name = "tournaments/leagues/manage_season.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        season = self.season
        days = []
        for day in season.tournaments.order_by("date", "pk"):
            days.append(
                (
                    day,
                    day.venues.prefetch_related("teams").select_related("secretary"),
                    forms.VenueForm(season=season, prefix=f"v{day.pk}"),
                )
            )
        context.update(
            settings_form=forms.SeasonSettingsForm(instance=season),
            team_form=forms.TeamForm(clubs=self.own_clubs),
            match_day_form=forms.MatchDayForm(season=season),
            teams=season.teams.select_related("club").prefetch_related("roster__player"),
            own_club_ids=set(self.own_clubs.values_list("pk", flat=True)),
            days=days,
        )
        return context


class SeasonWriteView(SeasonManageMixin, View):
    """A POST on the season desk: the form's write, its message, back to the desk."""

    directors_only = True

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and self.directors_only and not self.can_manage:
            raise PermissionDenied(_("Only the league's directors run the season."))
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        try:
            message = self.write(request)
        except UserError as error:
            messages.error(request, str(error))
        else:
            if message:
                messages.success(request, message)
        return redirect("manage:league_season", season=self.season.slug)

    def write(self, request) -> str:
        raise NotImplementedError


def _form_error(form) -> UserError:
    return UserError(" ".join(str(e) for errors in form.errors.values() for e in errors))


class SeasonSettingsView(SeasonWriteView):
    def write(self, request):
        form = forms.SeasonSettingsForm(
            request.POST, instance=Season.objects.get(pk=self.season.pk)
        )
        if not form.is_valid():
            raise _form_error(form)
        data = {f: form.cleaned_data[f] for f in form.Meta.fields}
        season_update(season=self.season, **data)
        return _("Saved.")


class SeasonCloseView(AsksFirstMixin, SeasonWriteView):
    """Close the season, after a confirmation page (it cannot be undone)."""

    def ask(self, request):
        return confirmation_page(
            request,
            title=_("Close the season"),
            question=_(
                "Close the season “%(season)s”? Its final tables are archived and nothing "
                "of the season can be changed afterwards. This cannot be undone."
            )
            % {"season": self.season.name},
            button=_("Close the season"),
            cancel_url=reverse("manage:league_season", kwargs={"season": self.season.slug}),
        )

    def write(self, request):
        season_close(season=self.season, user=request.user)
        return _("The season is closed; its final tables are archived.")


class MatchDayCreateView(SeasonWriteView):
    def write(self, request):
        form = forms.MatchDayForm(request.POST, season=self.season)
        if not form.is_valid():
            raise _form_error(form)
        day = match_day_create(season=self.season, **form.cleaned_data)
        return _("%(day)s was created.") % {"day": day.name}


class TeamCreateView(SeasonWriteView):
    directors_only = False

    def write(self, request):
        form = forms.TeamForm(request.POST, clubs=self.own_clubs)
        if not form.is_valid():
            # A club the user does not manage is no choice of the form: say so plainly.
            if "club" in form.errors:
                raise PermissionDenied(_("You manage the teams of your own club only."))
            raise _form_error(form)
        team = team_create(season=self.season, **form.cleaned_data)
        return _("%(team)s was created.") % {"team": team.name}


class MatchDayWriteMixin(TournamentMixin, ManageMixin):
    """A write on a match day (its directors): back to its season's desk."""

    def post(self, request, *args, **kwargs):
        try:
            message = self.write(request)
        except UserError as error:
            show_error(request, error, self.tournament)
        else:
            messages.success(request, message)
        return redirect("manage:league_season", season=self.tournament.season.slug)

    def dispatch(self, request, *args, **kwargs):
        if self.tournament.season_id is None:
            raise Http404
        return super().dispatch(request, *args, **kwargs)


class VenueCreateView(MatchDayWriteMixin, View):
    def write(self, request):
        form = forms.VenueForm(
            request.POST, season=self.tournament.season, prefix=f"v{self.tournament.pk}"
        )
        if not form.is_valid():
            raise _form_error(form)
        venue = venue_create(tournament=self.tournament, **form.cleaned_data)
        return _("The venue %(venue)s was added.") % {"venue": venue.name}


class MatchDayConfirmView(AsksFirstMixin, MatchDayWriteMixin, View):
    """Confirm a match day, after a confirmation page: its table then counts for the
    season and its results are final."""

    def ask(self, request):
        return confirmation_page(
            request,
            title=_("Confirm the match day"),
            question=_(
                "Confirm “%(day)s”? Its table counts for the season and its results become "
                "final: games, draws and settings are locked."
            )
            % {"day": self.tournament.name},
            button=_("Confirm the match day"),
            button_class="primary",
            tournament=self.tournament,
            cancel_url=reverse(
                "manage:league_season", kwargs={"season": self.tournament.season.slug}
            ),
        )

    def write(self, request):
        match_day_confirm(tournament=self.tournament, user=request.user)
        return _("%(day)s is confirmed: its table counts for the season.") % {
            "day": self.tournament.name
        }


class VenueView(TournamentMixin, VenueMixin, TemplateView):
    """A venue's own tables, series by series: the players seated there, each table's
    score sheet, phone links with their QR codes and sheet PDF (the series desk's table
    cards, `tournaments/manage/_table_card.html`), and no other venue's."""

    template_name = "tournaments/leagues/manage_venue.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        venue = self.venue
        context.update(
            venue=venue,
            teams=venue.teams.all(),
            rounds=[(series, series_tables(series, venue=venue)) for series in self.series_list],
        )
        return context


class TeamView(LoginRequiredMixin, TemplateView):
    """A team's roster: its club's secretaries add and remove players."""

    template_name = "tournaments/leagues/manage_team.html"

    @cached_property
    def team(self) -> Team:
        return get_object_or_404(
            Team.objects.select_related("club", "season__league"), pk=self.kwargs["team"]
        )

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not permissions.can_manage_team(request.user, self.team):
            raise PermissionDenied(_("Only the secretaries of the team's club manage its roster."))
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            team=self.team,
            season=self.team.season,
            roster=self.team.roster.select_related("player"),
            form=kwargs.get("form") or forms.RosterForm(team=self.team),
            substitute_form=forms.SubstituteForm(team=self.team),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = forms.RosterForm(request.POST, team=self.team)
        if form.is_valid():
            try:
                roster_add(team=self.team, **form.cleaned_data)
            except UserError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Saved."))
                return redirect("manage:team", team=self.team.pk)
        return self.render_to_response(self.get_context_data(form=form), status=400)


class RosterRemoveView(TeamView):
    def get(self, request, *args, **kwargs):
        return redirect("manage:team", team=self.team.pk)

    def post(self, request, *args, **kwargs):
        entry = get_object_or_404(RosterEntry, team=self.team, pk=kwargs["pk"])
        try:
            roster_remove(entry=entry)
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Removed."))
        return redirect("manage:team", team=self.team.pk)


class SubstituteView(TeamView):
    """A substitute of the team plays instead of a regular on a match day not yet drawn."""

    def get(self, request, *args, **kwargs):
        return redirect("manage:team", team=self.team.pk)

    def post(self, request, *args, **kwargs):
        form = forms.SubstituteForm(request.POST, team=self.team)
        try:
            if not form.is_valid():
                raise _form_error(form)
            match_day_substitute(
                tournament=form.cleaned_data["match_day"],
                out=form.cleaned_data["out"],
                replacement=form.cleaned_data["replacement"],
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(in)s plays for %(out)s on %(day)s.")
                % {
                    "in": form.cleaned_data["replacement"].name,
                    "out": form.cleaned_data["out"].name,
                    "day": form.cleaned_data["match_day"].name,
                },
            )
        return redirect("manage:team", team=self.team.pk)
