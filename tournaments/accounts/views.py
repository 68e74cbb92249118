"""The people pages: the site administrator's (clubs, leagues, people, log), a club's
people for its secretaries, a league's page for its directors (venue secretaries, a new
season), the one-time link pages (invitation, new password) and the sign-in page.

Who may do what is checked again by the services (`tournaments.accounts.services`); a view
answers 403 early for a page that is not the user's.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from tournaments import permissions
from tournaments.accounts import forms, selectors, services
from tournaments.accounts.models import Invitation, Role
from tournaments.collation import alphabetical, name_of, username_of
from tournaments.errors import UserError
from tournaments.log.services import Replay, once_key
from tournaments.models import Club, League, Venue

# The session key of a link just made, shown once on the link page.
LINK_KEY = "accounts_link"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _show_link(request, *, link: str, title: str, mailed: bool, back: str):
    request.session[LINK_KEY] = {"link": link, "title": title, "mailed": mailed, "back": back}
    return redirect("manage:account_link")


class SiteMixin(LoginRequiredMixin):
    """The site administrator's pages (a superuser); others 403."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not permissions.can_run_site(request.user):
            raise PermissionDenied(_("Only the site administrator."))
        return super().dispatch(request, *args, **kwargs)


class CreatePageMixin:
    """A list with a form that creates one more: POST, the service, a message, back."""

    form_class = None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("form", self.form_class())
        return context

    def post(self, request, *args, **kwargs):
        form = self.form_class(request.POST)
        if form.is_valid():
            try:
                message = self.create(form.cleaned_data, key=once_key(request.POST.get("once")))
            except Replay as replay:
                messages.info(request, str(replay))
                return redirect(request.path)
            except UserError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, message)
                return redirect(request.path)
        return self.render_to_response(self.get_context_data(form=form), status=400)


class SiteClubsView(SiteMixin, CreatePageMixin, TemplateView):
    template_name = "tournaments/accounts/site_clubs.html"
    form_class = forms.ClubForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["clubs"] = alphabetical(Club.objects.prefetch_related("secretaries"), key=name_of)
        return context

    def create(self, data, *, key):
        club = services.club_create(user=self.request.user, key=key, **data)
        return _("The club %(name)s was created.") % {"name": club.name}


class SiteLeaguesView(SiteMixin, CreatePageMixin, TemplateView):
    template_name = "tournaments/accounts/site_leagues.html"
    form_class = forms.LeagueForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["leagues"] = alphabetical(
            League.objects.prefetch_related("clubs", "directors"), key=name_of
        )
        return context

    def create(self, data, *, key):
        league = services.league_add(
            user=self.request.user, name=data["name"], clubs=list(data["clubs"]), key=key
        )
        return _("The league %(name)s was created.") % {"name": league.name}


class SitePeopleView(SiteMixin, TemplateView):
    template_name = "tournaments/accounts/site_people.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            people=selectors.people(),
            invitations=selectors.pending_invitations(),
            clubs=alphabetical(Club.objects.all(), key=name_of),
            leagues=alphabetical(League.objects.all(), key=name_of),
        )
        return context


class SiteLogView(SiteMixin, TemplateView):
    template_name = "tournaments/accounts/site_log.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["lines"] = selectors.people_log()[:500]
        return context


class ClubPeopleView(LoginRequiredMixin, TemplateView):
    """A club's secretaries, its pending invitations and people log (its secretaries)."""

    template_name = "tournaments/accounts/club_people.html"

    @cached_property
    def club(self) -> Club:
        return get_object_or_404(Club, pk=self.kwargs["club"])

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not permissions.can_manage_club(request.user, self.club):
            raise PermissionDenied(_("Only the club's secretaries."))
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            club=self.club,
            secretaries=alphabetical(self.club.secretaries.all(), key=username_of),
            invitations=selectors.pending_invitations(club=self.club),
            lines=selectors.people_log(club=self.club)[:200],
        )
        return context


class LeaguePeopleView(LoginRequiredMixin, TemplateView):
    """A league's page for its directors: its seasons (a new one), its directors, the
    venues of its match days with their secretaries, pending invitations, people log."""

    template_name = "tournaments/accounts/league_people.html"

    @cached_property
    def league(self) -> League:
        return get_object_or_404(League, pk=self.kwargs["league"])

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not permissions.can_direct_league(request.user, self.league):
            raise PermissionDenied(_("Only the league's directors."))
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        venues = selectors.league_venues(self.league)
        context.update(
            league=self.league,
            seasons=self.league.seasons.order_by("-pk"),
            season_form=kwargs.get("season_form") or forms.LeagueSeasonForm(),
            directors=alphabetical(self.league.directors.all(), key=username_of),
            venues=venues,
            invitations=selectors.pending_invitations(league=self.league, venues=venues),
            lines=selectors.people_log(league=self.league)[:200],
            can_run_site=permissions.can_run_site(self.request.user),
        )
        return context

    def post(self, request, *args, **kwargs):
        """A new season of the league."""
        form = forms.LeagueSeasonForm(request.POST)
        if form.is_valid():
            try:
                season = services.league_season_add(
                    user=request.user,
                    league=self.league,
                    name=form.cleaned_data["name"],
                    key=once_key(request.POST.get("once")),
                )
            except Replay as replay:
                messages.info(request, str(replay))
                return redirect(request.path)
            except UserError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The season was created."))
                return redirect("manage:league_season", season=season.slug)
        return self.render_to_response(self.get_context_data(season_form=form), status=400)


def _target(kind: str, pk: int):
    model = {"club": Club, "league": League, "venue": Venue}[kind]
    return get_object_or_404(model, pk=pk)


ROLE_OF = {
    "club": Role.CLUB_SECRETARY,
    "league": Role.LEAGUE_DIRECTOR,
    "venue": Role.VENUE_SECRETARY,
}


def _back(request, target) -> str:
    if isinstance(target, Club):
        return reverse("manage:club_people", kwargs={"club": target.pk})
    if isinstance(target, Venue):
        league = target.tournament.season.league if target.tournament.season_id else None
        if league is not None and permissions.can_direct_league(request.user, league):
            return reverse("manage:league_people", kwargs={"league": league.pk})
    if isinstance(target, League) and permissions.can_direct_league(request.user, target):
        return reverse("manage:league_people", kwargs={"league": target.pk})
    return reverse("manage:site_people")


class InviteView(LoginRequiredMixin, View):
    """GET: the form (an e-mail address, optional); POST: a new invitation, its link shown
    once. `kind` (club, league, venue) names the role."""

    kind = ""
    template_name = "tournaments/manage/form_page.html"

    @cached_property
    def target(self):
        return _target(self.kind, self.kwargs["pk"])

    @property
    def role(self) -> str:
        return ROLE_OF[self.kind]

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not services.may_give(request.user, role=self.role, target=self.target):
            raise PermissionDenied(_("You may not give this role."))
        return super().dispatch(request, *args, **kwargs)

    def title(self) -> str:
        return _("Invite a %(role)s of %(target)s") % {
            "role": Role(self.role).label,
            "target": self.target,
        }

    def get(self, request, *args, **kwargs):
        return self._page(forms.InviteForm())

    def _page(self, form, status=200):
        return render(
            self.request,
            self.template_name,
            {"form": form, "title": self.title()},
            status=status,
        )

    def post(self, request, *args, **kwargs):
        form = forms.InviteForm(request.POST)
        back = _back(request, self.target)
        if not form.is_valid():
            return self._page(form, status=400)
        try:
            invitation, token = services.invitation_create(
                user=request.user,
                role=self.role,
                target=self.target,
                email=form.cleaned_data["email"],
                key=once_key(request.POST.get("once")),
            )
        except Replay:
            messages.info(
                request,
                _(
                    "This invitation was already created (the form was sent twice). If you "
                    "did not copy its link, withdraw it and invite again."
                ),
            )
            return redirect(back)
        except UserError as error:
            form.add_error(None, str(error))
            return self._page(form, status=400)
        link = request.build_absolute_uri(reverse("invitation", kwargs={"token": token}))
        mailed = services.link_mail(
            email=invitation.email,
            subject=_("Your invitation to the Skat club site"),
            link=link,
            text=_("You are invited as %(role)s of %(target)s. Open this link before %(date)s:")
            % {
                "role": invitation.get_role_display(),
                "target": invitation.target,
                "date": invitation.expires_at.date().isoformat(),
            },
        )
        messages.success(request, _("The invitation was created."))
        return _show_link(request, link=link, title=self.title(), mailed=mailed, back=back)


class LinkView(LoginRequiredMixin, TemplateView):
    """The link just made, shown once to copy: reloading the page no longer shows it."""

    template_name = "tournaments/accounts/link.html"

    def get(self, request, *args, **kwargs):
        shown = request.session.pop(LINK_KEY, None)
        if shown is None:
            messages.info(request, _("The link was shown once; make a new one if you need it."))
            return redirect("manage:dashboard")
        return self.render_to_response(self.get_context_data(**shown))


class WithdrawView(LoginRequiredMixin, View):
    def post(self, request, *args, **kwargs):
        invitation = get_object_or_404(Invitation, pk=kwargs["pk"])
        try:
            services.invitation_withdraw(user=request.user, invitation=invitation)
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The invitation was withdrawn: its link no longer works."))
        return redirect(_back(request, invitation.target))


class RevokeView(LoginRequiredMixin, View):
    """A person no longer has the role (`kind`: club, league, venue) on the target."""

    kind = ""

    def post(self, request, *args, **kwargs):
        target = _target(self.kind, kwargs["pk"])
        person = get_object_or_404(get_user_model(), pk=kwargs["user"])
        try:
            services.role_revoke(
                user=request.user, person=person, role=ROLE_OF[self.kind], target=target
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(person)s is no longer %(role)s of %(target)s.")
                % {
                    "person": person.get_username(),
                    "role": Role(ROLE_OF[self.kind]).label,
                    "target": target,
                },
            )
        return redirect(_back(request, target))


class PasswordLinkView(LoginRequiredMixin, View):
    """A one-time link to set a new password for a person who forgot theirs."""

    def post(self, request, *args, **kwargs):
        person = get_object_or_404(get_user_model(), pk=kwargs["user"])
        uid, token = services.password_link_issue(user=request.user, person=person)
        link = request.build_absolute_uri(
            reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
        )
        mailed = services.link_mail(
            email=person.email,
            subject=_("A new password for the Skat club site"),
            link=link,
            text=_("Open this link to choose a new password for %(name)s:")
            % {"name": person.get_username()},
        )
        back = request.POST.get("back") or ""
        if not back.startswith("/") or back.startswith("//"):
            back = reverse("manage:dashboard")
        return _show_link(
            request,
            link=link,
            title=_("A new password for %(name)s") % {"name": person.get_username()},
            mailed=mailed,
            back=back,
        )


# --------------------------------------------------------------------------------------
# Public pages: the invitation's link, the password links, the sign-in page
# --------------------------------------------------------------------------------------


class InvitationView(View):
    """The invitation's link: a new account (user name and password) or, signed in, the
    role onto one's own account. A used, withdrawn, expired or unknown link is refused with
    its reason (410) and changes nothing."""

    template_name = "tournaments/accounts/invitation.html"

    def _page(self, *, invitation=None, form=None, error=None, status=200):
        return render(
            self.request,
            self.template_name,
            {"invitation": invitation, "form": form, "error": error},
            status=status,
        )

    def get(self, request, token):
        try:
            invitation = services.invitation_of(token)
        except UserError as error:
            return self._page(error=str(error), status=410 if error.code != "unknown" else 404)
        return self._page(invitation=invitation, form=forms.AcceptForm())

    def post(self, request, token):
        signed_in = request.user.is_authenticated
        form = None if signed_in else forms.AcceptForm(request.POST)
        if form is not None and not form.is_valid():
            return self._retry(token, form)
        try:
            person = services.invitation_accept(
                token=token,
                user=request.user if signed_in else None,
                username="" if signed_in else form.cleaned_data["username"],
                password="" if signed_in else form.cleaned_data["password"],
            )
        except UserError as error:
            if (
                error.code == "used"
                and signed_in
                and Invitation.objects.filter(
                    token_hash=services.token_hash(token), accepted_by=request.user
                ).exists()
            ):
                # The same form sent twice: the first copy did it.
                messages.info(request, _("You have already accepted this invitation."))
                return redirect("manage:dashboard")
            if error.field and form is not None:
                form.add_error(error.field if error.field in form.fields else None, str(error))
                return self._retry(token, form)
            return self._page(error=str(error), status=410 if error.code != "unknown" else 404)
        if not signed_in:
            login(request, person, backend=MODEL_BACKEND)
        messages.success(
            request, _("Welcome, %(name)s: the role is yours.") % {"name": person.get_username()}
        )
        return redirect("manage:dashboard")

    def _retry(self, token, form):
        try:
            invitation = services.invitation_of(token)
        except UserError as error:
            return self._page(error=str(error), status=410 if error.code != "unknown" else 404)
        return self._page(invitation=invitation, form=form, status=400)


class PasswordSetView(auth_views.PasswordResetConfirmView):
    """Django's own page for a password link; the new password is logged (not its text)."""

    template_name = "tournaments/accounts/password_set.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        services.password_set_record(person=form.user)
        return response


class PasswordSetDoneView(auth_views.PasswordResetCompleteView):
    template_name = "tournaments/accounts/password_set_done.html"


class EmailRequiredMixin:
    """Django's "forgot password" e-mail flow exists only with an e-mail server."""

    def dispatch(self, request, *args, **kwargs):
        if not settings.EMAIL_ENABLED:
            raise Http404
        return super().dispatch(request, *args, **kwargs)


class ForgotView(EmailRequiredMixin, auth_views.PasswordResetView):
    template_name = "tournaments/accounts/forgot.html"
    success_url = reverse_lazy("password_reset_done")


class ForgotSentView(EmailRequiredMixin, auth_views.PasswordResetDoneView):
    template_name = "tournaments/accounts/forgot_sent.html"


class SiteLoginView(auth_views.LoginView):
    """Sign in; on a site without any account yet, how to make the first one; with an
    e-mail server, the "forgot password" link."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["site_is_new"] = selectors.site_is_new()
        context["email_enabled"] = settings.EMAIL_ENABLED
        return context
