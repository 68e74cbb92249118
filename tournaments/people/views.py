"""The secretaries' pages of one person across clubs: adding a player of another club as a
member and ending that membership, the club's likely duplicates, the merge of two records
(a preview of everything that moves, then the merge) and undoing a merge.

Every page is a club's (`ClubMixin`: its secretaries); a merge and its undo also need the
right to edit the records (`permissions.can_merge_players`, `can_edit_player`), else 403.
Every state change is a POST that calls one service and redirects (STYLE habit 9).
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments import permissions
from tournaments.errors import UserError
from tournaments.formats import isolated
from tournaments.log.services import Replay, once_key
from tournaments.mixins import ClubMixin
from tournaments.models import Membership, Player, PlayerMerge
from tournaments.people.forms import MemberAddForm, MemberSearchForm
from tournaments.people.selectors import duplicates, merge_preview, player_search, undo_blockers
from tournaments.people.services import (
    membership_add,
    membership_end,
    player_merge,
    player_merge_undo,
)
from tournaments.shared_views import AsksFirstMixin, confirmation_page


def _players_url(club) -> str:
    return reverse("manage:club_players", kwargs={"club": club.pk})


class MemberAddView(ClubMixin, TemplateView):
    """Find a player of another club (name or federation number) and add them as a member."""

    template_name = "tournaments/people/member_add.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = MemberSearchForm(self.request.GET or None)
        query = form.cleaned_data["q"] if form.is_valid() else ""
        context["form"] = form
        context["query"] = query
        context["found"] = player_search(self.club, query) if query else []
        return context

    def post(self, request, *args, **kwargs):
        form = MemberAddForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose a player to add."))
            return redirect("manage:member_add", club=self.club.pk)
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        try:
            membership_add(
                club=self.club,
                player=player,
                user=request.user,
                key=once_key(request.POST.get("once")),
            )
        except Replay as replay:
            messages.info(request, str(replay))
        except UserError as error:
            messages.error(request, str(error))
            return redirect("manage:member_add", club=self.club.pk)
        else:
            messages.success(
                request,
                _("%(name)s is a member of %(club)s now.")
                % {"name": isolated(player.name), "club": isolated(self.club.name)},
            )
        return redirect("manage:club_players", club=self.club.pk)


class ClubWriteView(ClubMixin, View):
    """A club's write behind a confirmation page (`AsksFirstMixin` before it): the
    confirmed POST reaches `write`."""

    def post(self, request, *args, **kwargs):
        return self.write(request)

    def write(self, request):
        raise NotImplementedError


class MembershipEndView(AsksFirstMixin, ClubWriteView):
    """End a member's membership of this club (not their home club's)."""

    @cached_property
    def membership(self) -> Membership:
        return get_object_or_404(
            Membership.objects.select_related("player__club"),
            pk=self.kwargs["pk"],
            club=self.club,
        )

    def ask(self, request):
        return confirmation_page(
            request,
            title=_("End membership"),
            question=_("End %(name)s's membership of %(club)s? Their results stay as they are.")
            % {"name": isolated(self.membership.player.name), "club": isolated(self.club.name)},
            button=_("End membership"),
            cancel_url=_players_url(self.club),
        )

    def write(self, request):
        try:
            membership_end(
                membership=self.membership,
                user=request.user,
                key=once_key(request.POST.get("once")),
            )
        except Replay as replay:
            messages.info(request, str(replay))
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(name)s is no longer a member of %(club)s.")
                % {
                    "name": isolated(self.membership.player.name),
                    "club": isolated(self.club.name),
                },
            )
        return redirect("manage:club_players", club=self.club.pk)


class DuplicatesView(ClubMixin, TemplateView):
    """The club's likely duplicates, each with the merges the user may make, and the
    club's merges that can be undone."""

    template_name = "tournaments/people/duplicates.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["pairs"] = [
            (pair, permissions.can_merge_players(user, pair.first, pair.second))
            for pair in duplicates(self.club)
        ]
        context["merges"] = (
            PlayerMerge.objects.filter(club=self.club, undone_at__isnull=True)
            .select_related("kept")
            .order_by("-at", "-pk")[:20]
        )
        return context


class MergeView(ClubMixin, TemplateView):
    """Merge two records (keep A, absorb B): GET the preview, POST the merge."""

    template_name = "tournaments/people/merge.html"

    @cached_property
    def players(self) -> tuple[Player, Player]:
        kept = get_object_or_404(Player.objects.select_related("club"), pk=self.kwargs["kept"])
        absorbed = get_object_or_404(
            Player.objects.select_related("club", "user"), pk=self.kwargs["absorbed"]
        )
        if not permissions.can_merge_players(self.request.user, kept, absorbed):
            raise PermissionDenied
        return kept, absorbed

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["preview"] = merge_preview(*self.players)
        return context

    def post(self, request, *args, **kwargs):
        kept, absorbed = self.players
        try:
            merge = player_merge(
                kept=kept,
                absorbed=absorbed,
                user=request.user,
                club=self.club,
                key=once_key(request.POST.get("once")),
            )
        except Replay as replay:
            messages.info(request, str(replay))
            return redirect("manage:duplicates", club=self.club.pk)
        except UserError as error:
            messages.error(request, str(error))
            return self.get(request, *args, **kwargs)
        messages.success(
            request,
            _("%(absorbed)s was merged into %(kept)s.")
            % {"absorbed": isolated(merge.absorbed_name), "kept": isolated(kept.name)},
        )
        return redirect("manage:duplicates", club=self.club.pk)


class MergeUndoView(AsksFirstMixin, ClubWriteView):
    """Undo a merge of this club's: asks first, refused once something new was entered."""

    @cached_property
    def merge(self) -> PlayerMerge:
        merge = get_object_or_404(
            PlayerMerge.objects.select_related("kept__club"), pk=self.kwargs["pk"], club=self.club
        )
        if not permissions.can_edit_player(self.request.user, merge.kept):
            raise PermissionDenied
        return merge

    def ask(self, request):
        blockers = undo_blockers(self.merge)
        if blockers:
            for blocker in blockers:
                messages.error(request, blocker)
            return redirect("manage:duplicates", club=self.club.pk)
        return confirmation_page(
            request,
            title=_("Undo merge"),
            question=_(
                "Undo the merge of %(absorbed)s into %(kept)s? %(absorbed)s is a player of "
                "their own again, with everything that moved."
            )
            % {
                "absorbed": isolated(self.merge.absorbed_name),
                "kept": isolated(self.merge.kept.name),
            },
            button=_("Undo merge"),
            cancel_url=reverse("manage:duplicates", kwargs={"club": self.club.pk}),
        )

    def write(self, request):
        try:
            restored = player_merge_undo(
                merge=self.merge,
                user=request.user,
                club=self.club,
                key=once_key(request.POST.get("once")),
            )
        except Replay as replay:
            messages.info(request, str(replay))
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("%(name)s is back.") % {"name": isolated(restored.name)})
        return redirect("manage:duplicates", club=self.club.pk)
