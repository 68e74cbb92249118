"""The hall's publishing page: where the tournament is published, how far each copy has
come, the form for a public site and its key, and Start / Stop (`hall.services`)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.errors import UserError
from tournaments.hall.forms import PublicationForm
from tournaments.hall.selectors import publications_of
from tournaments.hall.services import (
    publication_set,
    publishing_start,
    publishing_stop,
)
from tournaments.log.services import Replay, once_key
from tournaments.mixins import ManageMixin, TournamentMixin
from tournaments.models import Publication


class PublishingView(TournamentMixin, ManageMixin, TemplateView):
    template_name = "tournaments/hall/publishing.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("form", PublicationForm())
        context["publications"] = publications_of(self.tournament)
        return context

    def post(self, request, *args, **kwargs):
        once = once_key(request.POST.get("once"))
        action = request.POST.get("action")
        try:
            if action in ("start", "stop"):
                publication = get_object_or_404(
                    Publication, tournament=self.tournament, pk=request.POST.get("pk") or 0
                )
                if action == "start":
                    publishing_start(publication=publication, user=request.user, once=once)
                    messages.success(request, _("Publishing started."))
                else:
                    publishing_stop(publication=publication, user=request.user, once=once)
                    messages.success(request, _("Publishing stopped."))
            else:
                form = PublicationForm(request.POST)
                if not form.is_valid():
                    return self.render_to_response(self.get_context_data(form=form))
                publication = publication_set(
                    tournament=self.tournament,
                    url=form.cleaned_data["url"],
                    key=form.cleaned_data["key"],
                    venue=form.cleaned_data["venue"],
                    user=request.user,
                    once=once,
                )
                publishing_start(publication=publication, user=request.user)
                messages.success(request, _("Publishing started."))
        except Replay as replay:
            messages.info(request, str(replay))
        except UserError as error:
            if action in ("start", "stop"):
                messages.error(request, str(error))
            else:
                form.add_error(error.field if error.field in form.fields else None, str(error))
                return self.render_to_response(self.get_context_data(form=form))
        return redirect("manage:hall_publishing", tournament=self.tournament.slug)
