"""The director's pages of the draw: draw the next series, see a drawn series with what
the draw could not keep apart, draw it again, swap seats, close, reopen or remove it.

Every state change is a POST that calls one service and redirects (STYLE habit 9).
"""

from django.contrib import messages
from django.db.models import Count
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments.draw.forms import DrawForm, RedrawForm, SeatSwapForm
from tournaments.draw.selectors import draw_conflicts
from tournaments.draw.services import (
    seat_swap,
    series_close,
    series_delete,
    series_draw,
    series_redraw,
    series_reopen,
)
from tournaments.entry.services import provisional_confirm_all
from tournaments.errors import UserError
from tournaments.log.services import Replay, once_key
from tournaments.mixins import ManageMixin, SeriesMixin, TournamentMixin
from tournaments.models import Seat
from tournaments.shared_views import show_error


class SeriesDrawView(TournamentMixin, ManageMixin, View):
    def post(self, request, *args, **kwargs):
        form = DrawForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Check the draw settings: %(e)s") % {"e": form.errors})
            return redirect("manage:tournament", tournament=self.tournament.slug)
        try:
            series = series_draw(
                tournament=self.tournament,
                method=form.cleaned_data["method"],
                seed=form.cleaned_data["seed"],
                keep_apart=form.cleaned_data["keep_apart"],
                user=request.user,
                number=form.cleaned_data["number"],
                key=once_key(request.POST.get("once")),
            )
        except Replay as replay:
            messages.info(request, str(replay))
            return redirect("manage:tournament", tournament=self.tournament.slug)
        except UserError as error:
            messages.error(request, str(error))
            return redirect("manage:tournament", tournament=self.tournament.slug)
        messages.success(
            request,
            _("Series %(n)s drawn (seed %(seed)s).")
            % {"n": series.number, "seed": series.draw_seed},
        )
        return redirect("manage:series", tournament=self.tournament.slug, series=series.number)


class SeriesManageView(SeriesMixin, ManageMixin, TemplateView):
    template_name = "tournaments/manage/series.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tables = list(
            self.series.tables.prefetch_related("seats__player").annotate(played=Count("games"))
        )
        for table in tables:
            table.length = self.tournament.games_per_series(table.size)
        context["tables"] = tables
        context["draw_form"] = RedrawForm(initial={"keep_apart": self.series.keep_apart})
        context["conflicts"] = draw_conflicts(self.series)
        return context


class SeriesActionView(SeriesMixin, ManageMixin, View):
    """Redraw, close, reopen or remove a series; swap two seats."""

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        target = reverse(
            "manage:series",
            kwargs={"tournament": self.tournament.slug, "series": self.series.number},
        )
        try:
            if action == "redraw":
                form = RedrawForm(request.POST)
                if not form.is_valid():
                    raise UserError(
                        _("Check the draw settings: %(e)s")
                        % {"e": " ".join(e for errors in form.errors.values() for e in errors)}
                    )
                series_redraw(
                    series=self.series,
                    seed=form.cleaned_data["seed"],
                    keep_apart=form.cleaned_data["keep_apart"],
                    user=request.user,
                )
                messages.success(request, _("The series was drawn again."))
            elif action == "swap":
                chosen = request.POST.getlist("seat")
                form = SeatSwapForm(dict(zip(("seat_a", "seat_b"), chosen, strict=False)))
                if len(chosen) != 2 or not form.is_valid():
                    raise UserError(_("Choose exactly two seats to swap."))
                seats = list(
                    Seat.objects.filter(
                        series=self.series,
                        pk__in=[form.cleaned_data["seat_a"], form.cleaned_data["seat_b"]],
                    )
                )
                if len(seats) != 2:
                    raise UserError(_("Choose exactly two seats to swap."))
                a, b = seats
                seat_swap(seat_a=a, seat_b=b, user=request.user)
                messages.success(request, _("Seats swapped."))
            elif action == "close":
                series_close(series=self.series, user=request.user)
                messages.success(request, _("The series is closed."))
            elif action == "confirm_all":
                count = provisional_confirm_all(
                    tournament=self.tournament, series=self.series, user=request.user
                )
                messages.success(request, _("%(n)s provisional games confirmed.") % {"n": count})
            elif action == "reopen":
                series_reopen(
                    series=self.series, user=request.user, reason=request.POST.get("reason", "")
                )
                messages.success(request, _("The series is open again."))
            elif action == "delete":
                series_delete(series=self.series, user=request.user)
                messages.success(request, _("The series was removed."))
                return redirect("manage:tournament", tournament=self.tournament.slug)
            else:
                raise UserError(_("Unknown action."))
        except UserError as error:
            show_error(request, error, self.tournament)
        return redirect(target)
