"""The secretaries' and directors' pages of the registry: the dashboard, a club's players,
seasons, tournaments (settings, publishing, finishing, the draw by lot) and registrations
(by hand, quick add, a player list imported with a preview).

Every state change is a POST that calls one service and redirects (STYLE habit 9).
"""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.generic import FormView, TemplateView, View

from tournaments import permissions
from tournaments.collation import alphabetical
from tournaments.draw.forms import DrawForm
from tournaments.draw.selectors import draw_preview
from tournaments.errors import UserError
from tournaments.formats import bdi, isolated
from tournaments.log.services import Replay, check_once, once_key
from tournaments.mixins import ClubMixin, ManageMixin, TournamentMixin
from tournaments.models import Club, League, Player, Registration, Tournament
from tournaments.registry import player_import
from tournaments.registry.clubs import club_settings_update
from tournaments.registry.forms import (
    ClubSettingsForm,
    PlayerForm,
    PlayerListUploadForm,
    QuickAddPlayerForm,
    RegistrationAddForm,
    SeasonForm,
    TournamentForm,
)
from tournaments.registry.selectors import club_members, import_decisions, registered_already
from tournaments.registry.services import (
    LOT_MAX,
    lot_group_of,
    lots_wanted,
    player_create,
    player_quick_add,
    player_update,
    players_import,
    registration_add,
    registration_remove,
    registration_set_lots,
    registration_withdraw,
    season_create,
    tournament_create,
    tournament_delete,
    tournament_finish,
    tournament_reopen,
    tournament_update,
)
from tournaments.shared_views import confirmation_page, confirmed, positive_int, show_error
from tournaments.standings.selectors import tied_groups, tournament_standings


class DashboardView(LoginRequiredMixin, TemplateView):
    template_name = "tournaments/manage/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        clubs = permissions.managed_clubs(self.request.user).annotate(
            player_count=Count("players", distinct=True)
        )
        context["clubs"] = clubs
        user = self.request.user
        # A venue's secretary keeps its tables: the dashboard leads there.
        context["venues"] = permissions.venues_kept(user)
        context["directed_leagues"] = (
            League.objects.all() if user.is_superuser else League.objects.filter(directors=user)
        )
        # A league's match day belongs to its directors, not to the club that hosts it.
        directed = (
            Q(season__league__isnull=False)
            if user.is_superuser
            else Q(season__league__directors=user)
        )
        context["tournaments"] = (
            Tournament.objects.filter(Q(club__in=clubs, season__league__isnull=True) | directed)
            .distinct()
            .select_related("club")
            .annotate(players=Count("registrations", distinct=True))
            .order_by("-date", "-pk")
        )
        return context


class ClubPlayersView(ClubMixin, FormView):
    template_name = "tournaments/manage/club_players.html"
    form_class = PlayerForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["members"] = club_members(self.club)
        return context

    def form_valid(self, form):
        try:
            player = player_create(
                club=self.club,
                user=self.request.user,
                key=once_key(self.request.POST.get("once")),
                **form.cleaned_data,
            )
        except Replay as replay:
            messages.info(self.request, str(replay))
            return redirect("manage:club_players", club=self.club.pk)
        except UserError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error))
            return self.form_invalid(form)
        messages.success(self.request, _("%(name)s was added.") % {"name": player.name})
        return redirect("manage:club_players", club=self.club.pk)


class PlayerEditView(ClubMixin, FormView):
    template_name = "tournaments/manage/player_edit.html"
    form_class = PlayerForm

    @cached_property
    def player(self) -> Player:
        player = get_object_or_404(Player, pk=self.kwargs["pk"], club=self.club)
        if not permissions.can_edit_player(self.request.user, player):  # the one rule
            raise PermissionDenied
        return player

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = self.player
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["player"] = self.player
        return context

    def form_valid(self, form):
        try:
            player_update(
                player=Player.objects.get(pk=self.player.pk),
                user=self.request.user,
                **form.cleaned_data,
            )
        except UserError as error:
            form.add_error(None, str(error))
            return self.form_invalid(form)
        messages.success(self.request, _("Saved."))
        return redirect("manage:club_players", club=self.club.pk)


class ClubSettingsView(ClubMixin, FormView):
    """The club's own settings (its secretaries): how its public standings show players
    not listed publicly."""

    template_name = "tournaments/manage/form_page.html"
    form_class = ClubSettingsForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = Club.objects.get(pk=self.club.pk)
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The name isolated: plain in the <title>, a <bdi> in the heading.
        text = _("Settings of %(name)s")
        context["title"] = text % {"name": isolated(self.club.name)}
        context["heading"] = mark_safe(escape(text) % {"name": bdi(self.club.name)})
        return context

    def form_valid(self, form):
        club_settings_update(
            club=self.club,
            initials_in_standings=form.cleaned_data["initials_in_standings"],
            user=self.request.user,
        )
        messages.success(self.request, _("Saved."))
        return redirect("manage:club_players", club=self.club.pk)


class SeasonCreateView(ClubMixin, FormView):
    template_name = "tournaments/manage/form_page.html"
    form_class = SeasonForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["title"] = _("New league season")
        return context

    def form_valid(self, form):
        try:
            season_create(
                club=self.club,
                user=self.request.user,
                key=once_key(self.request.POST.get("once")),
                **form.cleaned_data,
            )
        except Replay as replay:
            messages.info(self.request, str(replay))
            return redirect("manage:dashboard")
        except UserError as error:
            form.add_error(None, str(error))
            return self.form_invalid(form)
        messages.success(self.request, _("The season was created."))
        return redirect("manage:dashboard")


class TournamentCreateView(ClubMixin, FormView):
    template_name = "tournaments/manage/form_page.html"
    form_class = TournamentForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["club"] = self.club
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["title"] = _("New tournament")
        return context

    def form_valid(self, form):
        data = dict(form.cleaned_data)
        try:
            tournament = tournament_create(
                club=self.club,
                name=data.pop("name"),
                date=data.pop("date"),
                season=data.pop("season"),
                user=self.request.user,
                key=once_key(self.request.POST.get("once")),
                **data,
            )
        except Replay as replay:
            messages.info(self.request, str(replay))
            return redirect("manage:dashboard")
        except UserError as error:
            form.add_error(None, str(error))
            return self.form_invalid(form)
        messages.success(self.request, _("The tournament was created. Register the players."))
        return redirect("manage:tournament", tournament=tournament.slug)


class TournamentSettingsView(TournamentMixin, ManageMixin, FormView):
    template_name = "tournaments/manage/form_page.html"
    form_class = TournamentForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["club"] = self.tournament.club
        kwargs["instance"] = Tournament.objects.get(pk=self.tournament.pk)
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The name isolated: plain in the <title>, a <bdi> in the heading.
        text = _("Settings of %(name)s")
        context["title"] = text % {"name": isolated(self.tournament.name)}
        context["heading"] = mark_safe(escape(text) % {"name": bdi(self.tournament.name)})
        return context

    def form_valid(self, form):
        try:
            tournament_update(
                tournament=self.tournament, user=self.request.user, **form.cleaned_data
            )
        except UserError as error:
            form.add_error(None, str(error))
            return self.form_invalid(form)
        messages.success(self.request, _("Saved. Scores follow the new settings."))
        return redirect("manage:tournament", tournament=self.tournament.slug)


def _table_split(sizes: list[int]) -> str:
    """ "2 tables of 4 and 1 table of 3", each count with its own plural (tables of five:
    North American rules, §3.6)."""
    five, four, three = sizes.count(5), sizes.count(4), sizes.count(3)
    parts = [
        ngettext("%(n)s table of 5", "%(n)s tables of 5", five) % {"n": five} if five else "",
        ngettext("%(n)s table of 4", "%(n)s tables of 4", four) % {"n": four} if four else "",
        ngettext("%(n)s table of 3", "%(n)s tables of 3", three) % {"n": three} if three else "",
    ]
    parts = [part for part in parts if part]
    if len(parts) >= 2:
        return _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}
    return parts[0] if parts else ""


class TournamentManageView(TournamentMixin, ManageMixin, TemplateView):
    """The director's desk: registrations, series, draws, publishing."""

    template_name = "tournaments/manage/tournament.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        registrations = alphabetical(
            self.tournament.registrations.select_related("player__club"),
            key=lambda r: r.player.name,
        )
        series = self.tournament.series.annotate(
            table_count=Count("tables", distinct=True)
        ).order_by("number")
        quick_form = QuickAddPlayerForm()
        if self.request.GET.get("focus") == "quick-add":
            # Back from a quick add: the cursor waits in Name for the next player.
            quick_form.fields["name"].widget.attrs["autofocus"] = True
        # The preview counts the players the draw seats (withdrawn players are not drawn).
        preview = draw_preview(self.tournament)
        context.update(
            ties=tied_groups(tournament_standings(self.tournament)),
            registrations=registrations,
            series_list=series,
            add_form=RegistrationAddForm(tournament=self.tournament),
            quick_form=quick_form,
            # The next draw keeps apart whom the last one did.
            draw_form=DrawForm(
                initial={"keep_apart": last.keep_apart}
                if (last := self.tournament.series.order_by("-number").first())
                else None
            ),
            split=_table_split(preview.sizes) if preview.sizes else None,
            drawn_count=preview.players,
            next_series_number=(self.tournament.series.aggregate(n=Max("number"))["n"] or 0) + 1,
        )
        return context


class TournamentActionView(TournamentMixin, ManageMixin, View):
    """Publish, unpublish, finish or reopen a tournament. Finishing and reopening ask once
    (a confirmation page) and are logged."""

    QUESTIONS = {
        "finish": (
            gettext_lazy("Finish the tournament"),
            gettext_lazy(
                "Finish the tournament? Its results become final: the settings and the draw "
                "are locked until it is reopened."
            ),
            gettext_lazy("Finish the tournament"),
        ),
        "reopen": (
            gettext_lazy("Reopen the tournament"),
            gettext_lazy(
                "Reopen the finished tournament? Settings and draws can change again; it is "
                "logged."
            ),
            gettext_lazy("Reopen the tournament"),
        ),
    }

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        reason = request.POST.get("reason", "")
        if action in self.QUESTIONS and not request.POST.get("confirmed"):
            title, question, button = self.QUESTIONS[action]
            return render(
                request,
                "tournaments/manage/confirm_action.html",
                {
                    "tournament": self.tournament,
                    "can_manage": True,
                    "title": title,
                    "question": question,
                    "button": button,
                    "action_url": reverse(
                        "manage:tournament_action", kwargs={"tournament": self.tournament.slug}
                    ),
                    "hidden": [("action", action), ("confirmed", "1")],
                    "ask_reason": action == "reopen",
                },
            )
        try:
            if action in ("publish", "unpublish"):
                tournament_update(
                    tournament=self.tournament, published=action == "publish", user=request.user
                )
            elif action == "finish":
                tournament_finish(tournament=self.tournament, user=request.user, reason=reason)
                messages.success(
                    request,
                    _("The tournament is finished; its results are final."),
                )
            elif action == "reopen":
                tournament_reopen(tournament=self.tournament, user=request.user, reason=reason)
                messages.success(request, _("The tournament is open again."))
            else:
                raise UserError(_("Unknown action."))
        except UserError as error:
            show_error(request, error, self.tournament)
        return redirect("manage:tournament", tournament=self.tournament.slug)


class TournamentDeleteView(TournamentMixin, ManageMixin, View):
    """Delete a draft tournament, after a confirmation page."""

    def get(self, request, *args, **kwargs):
        return render(
            request,
            "tournaments/manage/confirm_action.html",
            {
                "tournament": self.tournament,
                "can_manage": True,
                "title": _("Delete the draft"),
                "question": _(
                    "Delete the tournament “%(name)s” with its registrations? This cannot be "
                    "undone."
                )
                % {"name": self.tournament.name},
                "button": _("Delete the tournament"),
                "button_class": "danger",
                "action_url": request.path,
                "hidden": [("confirmed", "1")],
            },
        )

    def post(self, request, *args, **kwargs):
        if not request.POST.get("confirmed"):
            return self.get(request, *args, **kwargs)
        try:
            tournament_delete(tournament=self.tournament, user=request.user)
        except UserError as error:
            messages.error(request, str(error))
            return redirect("manage:tournament", tournament=self.tournament.slug)
        messages.success(request, _("The tournament was deleted."))
        return redirect("manage:dashboard")


class LotsView(TournamentMixin, ManageMixin, View):
    """Record the order a draw by lot gave among tied players (rules §2)."""

    def post(self, request, *args, **kwargs):
        lots = {}
        back = redirect("manage:tournament", tournament=self.tournament.slug)
        anyone = _("Enter the drawn order in whole numbers (1, 2, …) for every tied player.")
        for key, value in request.POST.items():
            if not key.startswith("lot_"):
                continue
            try:
                player_id = int(key[4:])
            except ValueError:
                messages.error(request, anyone)
                return back
            try:
                lots[player_id] = int(value)
                if not 1 <= lots[player_id] <= LOT_MAX:
                    raise ValueError(value)
            except ValueError:
                # Empty is refused too: a tie is resolved only by a lot for every player.
                group = lot_group_of(self.tournament, player_id)
                messages.error(request, lots_wanted(group) if group else anyone)
                return back
        if not lots:
            messages.error(request, anyone)
            return back
        try:
            registration_set_lots(tournament=self.tournament, lots=lots, user=request.user)
        except UserError as error:
            messages.error(request, str(error))
            return back
        messages.success(request, _("The draw by lot is recorded."))
        return redirect("manage:tournament", tournament=self.tournament.slug)


class RegistrationAddView(TournamentMixin, ManageMixin, View):
    def post(self, request, *args, **kwargs):
        form = RegistrationAddForm(request.POST, tournament=self.tournament)
        if form.is_valid():
            try:
                added = registration_add(
                    tournament=self.tournament,
                    players=form.cleaned_data["players"],
                    user=request.user,
                    key=once_key(request.POST.get("once")),
                )
            except Replay as replay:
                messages.info(request, str(replay))
            except UserError as error:
                messages.error(request, str(error))
            else:
                messages.success(request, _("%(n)s players registered.") % {"n": added})
        else:
            messages.error(request, _("Choose at least one player of the club."))
        return redirect("manage:tournament", tournament=self.tournament.slug)


class RegistrationQuickAddView(TournamentMixin, ManageMixin, View):
    """Add a new player to the club and register them in one step."""

    def post(self, request, *args, **kwargs):
        form = QuickAddPlayerForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Enter the new player's name."))
        else:
            try:
                player = player_quick_add(
                    tournament=self.tournament,
                    user=request.user,
                    key=once_key(request.POST.get("once")),
                    **form.cleaned_data,
                )
                messages.success(request, _("%(name)s registered.") % {"name": player.name})
            except Replay as replay:
                messages.info(request, str(replay))
            except UserError as error:
                messages.error(request, str(error))
        url = reverse("manage:tournament", kwargs={"tournament": self.tournament.slug})
        return redirect(url + "?focus=quick-add")


class RegistrationRemoveView(TournamentMixin, ManageMixin, View):
    """Remove a registration, after a confirmation page (its draw by lot and its place in
    the log's player list go with it)."""

    def registration(self) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player"),
            pk=self.kwargs["pk"],
            tournament=self.tournament,
        )

    def get(self, request, *args, **kwargs):
        return self.ask(request, self.registration())

    def ask(self, request, registration):
        return confirmation_page(
            request,
            title=_("Remove the registration"),
            question=_(
                "Remove %(name)s from “%(tournament)s”? The registration is deleted; to "
                "enter the player again, register them anew. A player who leaves during "
                "the evening is withdrawn instead (results kept)."
            )
            % {"name": registration.player.name, "tournament": self.tournament.name},
            button=_("Remove the registration"),
            tournament=self.tournament,
            cancel_url=reverse("manage:tournament", kwargs={"tournament": self.tournament.slug}),
        )

    def post(self, request, *args, **kwargs):
        registration = self.registration()
        if not confirmed(request):
            return self.ask(request, registration)
        try:
            registration_remove(registration=registration, user=request.user)
            messages.success(request, _("Registration removed."))
        except UserError as error:
            messages.error(request, str(error))
        return redirect("manage:tournament", tournament=self.tournament.slug)


class RegistrationWithdrawView(TournamentMixin, ManageMixin, View):
    """A player who leaves: not drawn again, results kept (`undo`: back in the draw)."""

    def post(self, request, *args, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("player"),
            pk=kwargs["pk"],
            tournament=self.tournament,
        )
        undo = bool(request.POST.get("undo"))
        try:
            registration_withdraw(
                registration=registration,
                user=request.user,
                reason=request.POST.get("reason", ""),
                undo=undo,
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            text = (
                _("%(name)s is back in the draw.")
                if undo
                else _("%(name)s is withdrawn: not drawn again, results kept.")
            )
            messages.success(request, text % {"name": registration.player.name})
        return redirect("manage:tournament", tournament=self.tournament.slug)


class RegistrationImportView(TournamentMixin, ManageMixin, TemplateView):
    """Upload a list → preview with the bad rows → confirm → register (one transaction)."""

    template_name = "tournaments/manage/registration_import.html"

    @property
    def session_key(self):
        return f"player-import-{self.tournament.pk}"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("form", PlayerListUploadForm())
        return context

    def post(self, request, *args, **kwargs):
        if "confirm" in request.POST:
            return self.confirm(request)
        form = PlayerListUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        upload = form.cleaned_data["file"]
        try:
            report = player_import.read_player_list(
                upload.name,
                upload.read(),
                home_club=self.tournament.club.name,
                known_clubs=Club.objects.values_list("name", flat=True),
            )
        except player_import.ImportFileError as error:
            form.add_error("file", str(error))
            return self.render_to_response(self.get_context_data(form=form))
        decided = import_decisions(
            tournament=self.tournament,
            rows=[row.as_dict() for row in report.rows],
            user=request.user,
        )
        # A row the import would refuse is shown with the file's other bad rows, by line.
        report.errors = sorted(report.errors + [(d.line, d.refused) for d in decided if d.refused])
        decisions = {d.line: d for d in decided if not d.refused}
        report.rows = [row for row in report.rows if row.line in decisions]
        for row in report.rows:
            row.new_club = decisions[row.line].new_club
        # The confirmation applies what this preview shows, or nothing (`players_import`).
        request.session[self.session_key] = {
            "rows": [row.as_dict() for row in report.rows],
            "previewed": [decisions[row.line].outcome() for row in report.rows],
        }
        registered = registered_already(self.tournament, decisions.values())
        return self.render_to_response(
            self.get_context_data(
                form=form,
                report=report,
                entries=[(row, decisions[row.line]) for row in report.rows],
                registered_lines=registered,
                new_count=len(report.rows) - len(registered),
            )
        )

    def confirm(self, request):
        """Register the previewed list; the same confirmation sent twice counts once."""
        key = once_key(request.POST.get("once"))
        preview = request.session.pop(self.session_key, None)
        rows = preview.get("rows") if isinstance(preview, dict) else None
        try:
            if not rows:
                check_once(key)  # a confirmation sent again: the first one registered them
                messages.error(request, _("The preview has expired; upload the list again."))
                return redirect("manage:registration_import", tournament=self.tournament.slug)
            result = players_import(
                tournament=self.tournament,
                rows=rows,
                user=request.user,
                key=key,
                previewed=preview["previewed"],
                choices={
                    row["line"]: chosen
                    for row in rows
                    if (chosen := positive_int(request.POST.get(f"choose-{row['line']}")))
                },
            )
        except Replay:
            messages.info(
                request,
                _("This list was registered already: it was confirmed twice and counts once."),
            )
            return redirect("manage:tournament", tournament=self.tournament.slug)
        except UserError as error:
            messages.error(request, str(error))
            return redirect("manage:registration_import", tournament=self.tournament.slug)
        messages.success(
            request,
            _("%(new)s new players, %(known)s known; %(reg)s registered.")
            % {"new": result.created, "known": result.reused, "reg": result.registered},
        )
        return redirect("manage:tournament", tournament=self.tournament.slug)
