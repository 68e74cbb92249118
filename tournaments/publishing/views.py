"""Publishing's manage pages: a club's keys (its secretaries), a match day's venue keys
(the league's directors), and handing a copy kept at a hall over (its director).

A new key is shown on the page that answers its creation, once: the site keeps only its
hash (`publishing.services.key_create`)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import UserError
from tournaments.log.services import Replay, once_key
from tournaments.mixins import ClubMixin, ManageMixin, TournamentMixin
from tournaments.models import PublishingKey, PublishingState
from tournaments.publishing.services import key_create, key_revoke, publishing_hand_over
from tournaments.shared_views import AsksFirstMixin, confirmation_page


def _keys_page(request, *, title, keys, venues=None, club=None, tournament=None, shown=None):
    return render(
        request,
        "publishing/keys.html",
        {
            "title": title,
            "keys": keys,
            "venues": venues,
            "club": club,
            "tournament": tournament,
            "shown": shown,
            "endpoint": request.build_absolute_uri(reverse("publish")),
        },
    )


class ClubKeysView(ClubMixin, View):
    """A club's publishing keys: list, create (shown once), revoke."""

    def page(self, request, shown=None):
        return _keys_page(
            request,
            title=_("Publishing keys"),
            keys=PublishingKey.objects.filter(club=self.club).select_related(
                "created_by", "revoked_by"
            ),
            club=self.club,
            shown=shown,
        )

    def get(self, request, *args, **kwargs):
        return self.page(request)

    def post(self, request, *args, **kwargs):
        try:
            _row, raw = key_create(
                name=request.POST.get("name", ""),
                club=self.club,
                user=request.user,
                once=once_key(request.POST.get("once")),
            )
        except Replay:
            return redirect("manage:publishing_keys", club=self.club.pk)
        except UserError as error:
            messages.error(request, str(error))
            return redirect("manage:publishing_keys", club=self.club.pk)
        return self.page(request, shown=raw)


class MatchDayKeysView(TournamentMixin, ManageMixin, View):
    """A league match day's venue keys: one per venue (only its tables' sheets)."""

    def page(self, request, shown=None):
        if not self.tournament.venues.exists():
            raise Http404
        return _keys_page(
            request,
            title=_("Publishing keys of the venues"),
            keys=PublishingKey.objects.filter(venue__tournament=self.tournament).select_related(
                "venue", "created_by", "revoked_by"
            ),
            venues=self.tournament.venues.all(),
            tournament=self.tournament,
            shown=shown,
        )

    def get(self, request, *args, **kwargs):
        return self.page(request)

    def post(self, request, *args, **kwargs):
        venue = get_object_or_404(self.tournament.venues, pk=request.POST.get("venue") or 0)
        try:
            _row, raw = key_create(
                name=request.POST.get("name", "") or venue.name,
                venue=venue,
                user=request.user,
                once=once_key(request.POST.get("once")),
            )
        except Replay:
            return redirect("manage:publishing_venue_keys", tournament=self.tournament.slug)
        except UserError as error:
            messages.error(request, str(error))
            return redirect("manage:publishing_venue_keys", tournament=self.tournament.slug)
        return self.page(request, shown=raw)


class KeyRevokeView(View):
    """Revoke a key (POST): the club's secretaries, or the league's directors."""

    def post(self, request, *args, **kwargs):
        from tournaments import permissions

        key = get_object_or_404(
            PublishingKey.objects.select_related("club", "venue__tournament"), pk=kwargs["key"]
        )
        if key.club_id is not None:
            allowed = permissions.can_manage_club(request.user, key.club)
            back = reverse("manage:publishing_keys", kwargs={"club": key.club_id})
        else:
            allowed = permissions.can_manage_tournament(request.user, key.venue.tournament)
            back = reverse(
                "manage:publishing_venue_keys", kwargs={"tournament": key.venue.tournament.slug}
            )
        if not allowed:
            raise PermissionDenied
        key_revoke(key=key, user=request.user)
        messages.success(request, _("The key is revoked: it publishes no more."))
        return redirect(back)


class HandOverView(AsksFirstMixin, TournamentMixin, ManageMixin, View):
    """Take over a tournament kept at a hall: publishing stops, it is written here again."""

    def state(self) -> PublishingState:
        return get_object_or_404(PublishingState, tournament=self.tournament)

    def ask(self, request):
        state = self.state()
        return confirmation_page(
            request,
            title=_("Take the tournament over from the hall"),
            question=_(
                "Take the tournament over from the hall (%(hall)s)? The hall's batches are "
                "refused from now on, and its results are entered here again. This is logged."
            )
            % {"hall": state.hall_name},
            button=_("Take it over"),
            cancel_url=reverse("manage:tournament", kwargs={"tournament": self.tournament.slug}),
            tournament=self.tournament,
        )

    def post(self, request, *args, **kwargs):
        try:
            publishing_hand_over(
                state=self.state(), user=request.user, once=once_key(request.POST.get("once"))
            )
            messages.success(request, _("The tournament is taken over: publishing has stopped."))
        except Replay:
            pass
        return redirect("manage:tournament", tournament=self.tournament.slug)
